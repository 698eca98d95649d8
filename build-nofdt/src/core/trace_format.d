build-nofdt/src/core/trace_format.o: src/core/trace_format.c \
 include/dmamap/dma-mapping.h include/dmamap/types.h \
 include/dmamap/dma-direction.h include/dmamap/page.h \
 include/dmamap/scatterlist.h src/core/../base/trace.h \
 src/core/../base/../lib/lib.h src/core/../base/device.h \
 include/dmamap/dma-map-ops.h include/dmamap/platform.h \
 include/dmamap/model.h include/dmamap/trace.h include/dmamap/debug.h \
 src/core/../base/../lib/shard.h src/core/../base/../lib/fault.h \
 src/core/../base/../lib/log.h
include/dmamap/dma-mapping.h:
include/dmamap/types.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
src/core/../base/trace.h:
src/core/../base/../lib/lib.h:
src/core/../base/device.h:
include/dmamap/dma-map-ops.h:
include/dmamap/platform.h:
include/dmamap/model.h:
include/dmamap/trace.h:
include/dmamap/debug.h:
src/core/../base/../lib/shard.h:
src/core/../base/../lib/fault.h:
src/core/../base/../lib/log.h:
