build-nofdt/drivers/nic_drv.o: drivers/nic_drv.c drivers/nic_drv.h \
 include/dmamap/dma-mapping.h include/dmamap/types.h \
 include/dmamap/dma-direction.h include/dmamap/page.h \
 include/dmamap/scatterlist.h include/dmamap/interrupt.h \
 include/dmamap/io.h include/dmamap/hw/nic.h
drivers/nic_drv.h:
include/dmamap/dma-mapping.h:
include/dmamap/types.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
include/dmamap/interrupt.h:
include/dmamap/io.h:
include/dmamap/hw/nic.h:
