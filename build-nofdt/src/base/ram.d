build-nofdt/src/base/ram.o: src/base/ram.c src/base/ram.h \
 src/base/device.h include/dmamap/dma-map-ops.h \
 include/dmamap/dma-mapping.h include/dmamap/types.h \
 include/dmamap/dma-direction.h include/dmamap/page.h \
 include/dmamap/scatterlist.h include/dmamap/platform.h \
 include/dmamap/model.h include/dmamap/trace.h include/dmamap/debug.h \
 src/base/../lib/shard.h src/base/../lib/fault.h src/base/../lib/log.h
src/base/ram.h:
src/base/device.h:
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
src/base/../lib/shard.h:
src/base/../lib/fault.h:
src/base/../lib/log.h:
