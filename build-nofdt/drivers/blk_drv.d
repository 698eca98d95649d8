build-nofdt/drivers/blk_drv.o: drivers/blk_drv.c drivers/blk_drv.h \
 include/dmamap/dma-mapping.h include/dmamap/types.h \
 include/dmamap/dma-direction.h include/dmamap/page.h \
 include/dmamap/scatterlist.h include/dmamap/dmapool.h \
 include/dmamap/interrupt.h include/dmamap/io.h include/dmamap/hw/blk.h
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
