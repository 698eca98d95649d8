build-nofdt/src/hw/models/nic.o: src/hw/models/nic.c \
 include/dmamap/hw/nic.h include/dmamap/types.h include/dmamap/debug.h \
 include/dmamap/platform.h include/dmamap/dma-mapping.h \
 include/dmamap/dma-direction.h include/dmamap/page.h \
 include/dmamap/scatterlist.h include/dmamap/model.h \
 src/hw/models/models.h
include/dmamap/hw/nic.h:
include/dmamap/types.h:
include/dmamap/debug.h:
include/dmamap/platform.h:
include/dmamap/dma-mapping.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
include/dmamap/model.h:
src/hw/models/models.h:
