build-nofdt/src/hw/models/memcpy_engine.o: src/hw/models/memcpy_engine.c \
 include/dmamap/hw/memcpy-engine.h include/dmamap/model.h \
 include/dmamap/platform.h include/dmamap/dma-mapping.h \
 include/dmamap/types.h include/dmamap/dma-direction.h \
 include/dmamap/page.h include/dmamap/scatterlist.h \
 src/hw/models/models.h
include/dmamap/hw/memcpy-engine.h:
include/dmamap/model.h:
include/dmamap/platform.h:
include/dmamap/dma-mapping.h:
include/dmamap/types.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
src/hw/models/models.h:
