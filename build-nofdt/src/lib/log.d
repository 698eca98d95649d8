build-nofdt/src/lib/log.o: src/lib/log.c src/lib/log.h \
 include/dmamap/platform.h include/dmamap/dma-mapping.h \
 include/dmamap/types.h include/dmamap/dma-direction.h \
 include/dmamap/page.h include/dmamap/scatterlist.h \
 include/dmamap/debug.h
src/lib/log.h:
include/dmamap/platform.h:
include/dmamap/dma-mapping.h:
include/dmamap/types.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
include/dmamap/debug.h:
