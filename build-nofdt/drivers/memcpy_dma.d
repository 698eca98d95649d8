build-nofdt/drivers/memcpy_dma.o: drivers/memcpy_dma.c \
 drivers/memcpy_dma.h include/dmamap/dma-mapping.h include/dmamap/types.h \
 include/dmamap/dma-direction.h include/dmamap/page.h \
 include/dmamap/scatterlist.h include/dmamap/io.h \
 include/dmamap/hw/memcpy-engine.h
drivers/memcpy_dma.h:
include/dmamap/dma-mapping.h:
include/dmamap/types.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
include/dmamap/io.h:
include/dmamap/hw/memcpy-engine.h:
