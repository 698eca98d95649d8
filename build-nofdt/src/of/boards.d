build-nofdt/src/of/boards.o: src/of/boards.c include/dmamap/platform.h \
 include/dmamap/dma-mapping.h include/dmamap/types.h \
 include/dmamap/dma-direction.h include/dmamap/page.h \
 include/dmamap/scatterlist.h src/of/of.h
include/dmamap/platform.h:
include/dmamap/dma-mapping.h:
include/dmamap/types.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
src/of/of.h:
