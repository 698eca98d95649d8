build-nofdt/src/hw/iopt.o: src/hw/iopt.c src/hw/../lib/lib.h \
 include/dmamap/types.h include/dmamap/page.h src/hw/../lib/spinlock.h \
 src/hw/iopt.h include/dmamap/iommu.h include/dmamap/platform.h \
 include/dmamap/dma-mapping.h include/dmamap/dma-direction.h \
 include/dmamap/scatterlist.h src/hw/../base/device.h \
 include/dmamap/dma-map-ops.h include/dmamap/model.h \
 include/dmamap/trace.h include/dmamap/debug.h \
 src/hw/../base/../lib/shard.h src/hw/../base/../lib/fault.h \
 src/hw/../base/../lib/log.h
src/hw/../lib/lib.h:
include/dmamap/types.h:
include/dmamap/page.h:
src/hw/../lib/spinlock.h:
src/hw/iopt.h:
include/dmamap/iommu.h:
include/dmamap/platform.h:
include/dmamap/dma-mapping.h:
include/dmamap/dma-direction.h:
include/dmamap/scatterlist.h:
src/hw/../base/device.h:
include/dmamap/dma-map-ops.h:
include/dmamap/model.h:
include/dmamap/trace.h:
include/dmamap/debug.h:
src/hw/../base/../lib/shard.h:
src/hw/../base/../lib/fault.h:
src/hw/../base/../lib/log.h:
