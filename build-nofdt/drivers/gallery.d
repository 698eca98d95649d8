build-nofdt/drivers/gallery.o: drivers/gallery.c include/dmamap/sim.h \
 include/dmamap/platform.h include/dmamap/dma-mapping.h \
 include/dmamap/types.h include/dmamap/dma-direction.h \
 include/dmamap/page.h include/dmamap/scatterlist.h \
 include/dmamap/swiotlb.h drivers/gallery.h include/dmamap/debug.h \
 drivers/exercise.h drivers/blk_drv.h include/dmamap/dmapool.h \
 include/dmamap/interrupt.h include/dmamap/io.h include/dmamap/hw/blk.h \
 drivers/memcpy_dma.h include/dmamap/hw/memcpy-engine.h drivers/nic_drv.h \
 include/dmamap/hw/nic.h
include/dmamap/sim.h:
include/dmamap/platform.h:
include/dmamap/dma-mapping.h:
include/dmamap/types.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
include/dmamap/swiotlb.h:
drivers/gallery.h:
include/dmamap/debug.h:
drivers/exercise.h:
drivers/blk_drv.h:
include/dmamap/dmapool.h:
include/dmamap/interrupt.h:
include/dmamap/io.h:
include/dmamap/hw/blk.h:
drivers/memcpy_dma.h:
include/dmamap/hw/memcpy-engine.h:
drivers/nic_drv.h:
include/dmamap/hw/nic.h:
