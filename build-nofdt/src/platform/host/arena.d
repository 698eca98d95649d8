build-nofdt/src/platform/host/arena.o: src/platform/host/arena.c \
 src/platform/host/host.h src/platform/host/../../base/device.h \
 include/dmamap/dma-map-ops.h include/dmamap/dma-mapping.h \
 include/dmamap/types.h include/dmamap/dma-direction.h \
 include/dmamap/page.h include/dmamap/scatterlist.h \
 include/dmamap/platform.h include/dmamap/model.h include/dmamap/trace.h \
 include/dmamap/debug.h src/platform/host/../../base/../lib/shard.h \
 src/platform/host/../../base/../lib/fault.h \
 src/platform/host/../../base/../lib/log.h
src/platform/host/host.h:
src/platform/host/../../base/device.h:
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
src/platform/host/../../base/../lib/shard.h:
src/platform/host/../../base/../lib/fault.h:
src/platform/host/../../base/../lib/log.h:
