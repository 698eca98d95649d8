build-nofdt/tests/devices/test_devices_nic.o: \
 tests/devices/test_devices_nic.c include/dmamap/sim.h \
 include/dmamap/platform.h include/dmamap/dma-mapping.h \
 include/dmamap/types.h include/dmamap/dma-direction.h \
 include/dmamap/page.h include/dmamap/scatterlist.h \
 tests/devices/../../drivers/nic_drv.h include/dmamap/interrupt.h \
 include/dmamap/io.h include/dmamap/hw/nic.h tests/devices/../helpers.h \
 include/dmamap/dmamap.h include/dmamap/dma-map-ops.h \
 include/dmamap/debug.h include/dmamap/model.h include/dmamap/swiotlb.h \
 include/dmamap/dmabounce.h include/dmamap/iommu.h include/dmamap/of.h \
 include/dmamap/dmapool.h tests/devices/../tap.h
include/dmamap/sim.h:
include/dmamap/platform.h:
include/dmamap/dma-mapping.h:
include/dmamap/types.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
tests/devices/../../drivers/nic_drv.h:
include/dmamap/interrupt.h:
include/dmamap/io.h:
include/dmamap/hw/nic.h:
tests/devices/../helpers.h:
include/dmamap/dmamap.h:
include/dmamap/dma-map-ops.h:
include/dmamap/debug.h:
include/dmamap/model.h:
include/dmamap/swiotlb.h:
include/dmamap/dmabounce.h:
include/dmamap/iommu.h:
include/dmamap/of.h:
include/dmamap/dmapool.h:
tests/devices/../tap.h:
