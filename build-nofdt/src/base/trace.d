build-nofdt/src/base/trace.o: src/base/trace.c src/base/observer.h \
 src/base/../lib/lib.h include/dmamap/types.h include/dmamap/page.h \
 src/base/device.h include/dmamap/dma-map-ops.h \
 include/dmamap/dma-mapping.h include/dmamap/dma-direction.h \
 include/dmamap/scatterlist.h include/dmamap/platform.h \
 include/dmamap/model.h include/dmamap/trace.h include/dmamap/debug.h \
 src/base/../lib/shard.h src/base/../lib/fault.h src/base/../lib/log.h \
 src/base/trace.h
src/base/observer.h:
src/base/../lib/lib.h:
include/dmamap/types.h:
include/dmamap/page.h:
src/base/device.h:
include/dmamap/dma-map-ops.h:
include/dmamap/dma-mapping.h:
include/dmamap/dma-direction.h:
include/dmamap/scatterlist.h:
include/dmamap/platform.h:
include/dmamap/model.h:
include/dmamap/trace.h:
include/dmamap/debug.h:
src/base/../lib/shard.h:
src/base/../lib/fault.h:
src/base/../lib/log.h:
src/base/trace.h:
