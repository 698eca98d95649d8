build-nofdt/tools/demo.o: tools/demo.c include/dmamap/sim.h \
 include/dmamap/platform.h include/dmamap/dma-mapping.h \
 include/dmamap/types.h include/dmamap/dma-direction.h \
 include/dmamap/page.h include/dmamap/scatterlist.h \
 tools/../drivers/gallery.h include/dmamap/debug.h \
 tools/../drivers/exercise.h tools/../drivers/blk_drv.h \
 include/dmamap/dmapool.h include/dmamap/interrupt.h include/dmamap/io.h \
 include/dmamap/hw/blk.h tools/../drivers/memcpy_dma.h \
 include/dmamap/hw/memcpy-engine.h tools/../drivers/nic_drv.h \
 include/dmamap/hw/nic.h tools/cli.h include/dmamap/dmamap.h \
 include/dmamap/dma-map-ops.h include/dmamap/model.h \
 include/dmamap/swiotlb.h include/dmamap/dmabounce.h \
 include/dmamap/iommu.h include/dmamap/of.h
include/dmamap/sim.h:
include/dmamap/platform.h:
include/dmamap/dma-mapping.h:
include/dmamap/types.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
tools/../drivers/gallery.h:
include/dmamap/debug.h:
tools/../drivers/exercise.h:
tools/../drivers/blk_drv.h:
include/dmamap/dmapool.h:
include/dmamap/interrupt.h:
include/dmamap/io.h:
include/dmamap/hw/blk.h:
tools/../drivers/memcpy_dma.h:
include/dmamap/hw/memcpy-engine.h:
tools/../drivers/nic_drv.h:
include/dmamap/hw/nic.h:
tools/cli.h:
include/dmamap/dmamap.h:
include/dmamap/dma-map-ops.h:
include/dmamap/model.h:
include/dmamap/swiotlb.h:
include/dmamap/dmabounce.h:
include/dmamap/iommu.h:
include/dmamap/of.h:
