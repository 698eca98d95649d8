build-nofdt/tests/devices/test_devices_io.o: \
 tests/devices/test_devices_io.c include/dmamap/io.h \
 include/dmamap/types.h include/dmamap/hw/memcpy-engine.h \
 tests/devices/../helpers.h include/dmamap/dmamap.h \
 include/dmamap/dma-mapping.h include/dmamap/dma-direction.h \
 include/dmamap/page.h include/dmamap/scatterlist.h \
 include/dmamap/dma-map-ops.h include/dmamap/platform.h \
 include/dmamap/sim.h include/dmamap/debug.h include/dmamap/model.h \
 include/dmamap/swiotlb.h include/dmamap/dmabounce.h \
 include/dmamap/iommu.h include/dmamap/of.h include/dmamap/dmapool.h \
 tests/devices/../tap.h
include/dmamap/io.h:
include/dmamap/types.h:
include/dmamap/hw/memcpy-engine.h:
tests/devices/../helpers.h:
include/dmamap/dmamap.h:
include/dmamap/dma-mapping.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
include/dmamap/dma-map-ops.h:
include/dmamap/platform.h:
include/dmamap/sim.h:
include/dmamap/debug.h:
include/dmamap/model.h:
include/dmamap/swiotlb.h:
include/dmamap/dmabounce.h:
include/dmamap/iommu.h:
include/dmamap/of.h:
include/dmamap/dmapool.h:
tests/devices/../tap.h:
