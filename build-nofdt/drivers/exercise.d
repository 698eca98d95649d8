build-nofdt/drivers/exercise.o: drivers/exercise.c drivers/exercise.h \
 drivers/blk_drv.h include/dmamap/dma-mapping.h include/dmamap/types.h \
 include/dmamap/dma-direction.h include/dmamap/page.h \
 include/dmamap/scatterlist.h include/dmamap/dmapool.h \
 include/dmamap/interrupt.h include/dmamap/io.h include/dmamap/hw/blk.h \
 drivers/memcpy_dma.h include/dmamap/hw/memcpy-engine.h drivers/nic_drv.h \
 include/dmamap/hw/nic.h
drivers/exercise.h:
drivers/blk_drv.h:
include/dmamap/dma-mapping.h:
include/dmamap/types.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
include/dmamap/dmapool.h:
include/dmamap/interrupt.h:
include/dmamap/io.h:
include/dmamap/hw/blk.h:
drivers/memcpy_dma.h:
include/dmamap/hw/memcpy-engine.h:
drivers/nic_drv.h:
include/dmamap/hw/nic.h:
