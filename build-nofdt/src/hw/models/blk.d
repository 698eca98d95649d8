build-nofdt/src/hw/models/blk.o: src/hw/models/blk.c \
 include/dmamap/hw/blk.h include/dmamap/types.h include/dmamap/model.h \
 include/dmamap/platform.h include/dmamap/dma-mapping.h \
 include/dmamap/dma-direction.h include/dmamap/page.h \
 include/dmamap/scatterlist.h src/hw/models/models.h
include/dmamap/hw/blk.h:
include/dmamap/types.h:
include/dmamap/model.h:
include/dmamap/platform.h:
include/dmamap/dma-mapping.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
src/hw/models/models.h:
