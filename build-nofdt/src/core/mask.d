build-nofdt/src/core/mask.o: src/core/mask.c src/core/../base/report.h \
 src/core/../base/device.h include/dmamap/dma-map-ops.h \
 include/dmamap/dma-mapping.h include/dmamap/types.h \
 include/dmamap/dma-direction.h include/dmamap/page.h \
 include/dmamap/scatterlist.h include/dmamap/platform.h \
 include/dmamap/model.h include/dmamap/trace.h include/dmamap/debug.h \
 src/core/../base/../lib/shard.h src/core/../base/../lib/fault.h \
 src/core/../base/../lib/log.h src/core/../ops/direct.h \
 src/core/../ops/../lib/lib.h src/core/../ops/../base/device.h
src/core/../base/report.h:
src/core/../base/device.h:
include/dmamap/dma-map-ops.h:
include/dmamap/dma-mapping.h:
include/dmamap/types.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
include/dmamap/platform.h:
include/dmamap/model.h:
include/dmamap/trace.h:
include/dmamap/debug.h:
src/core/../base/../lib/shard.h:
src/core/../base/../lib/fault.h:
src/core/../base/../lib/log.h:
src/core/../ops/direct.h:
src/core/../ops/../lib/lib.h:
src/core/../ops/../base/device.h:
