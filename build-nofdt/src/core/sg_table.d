build-nofdt/src/core/sg_table.o: src/core/sg_table.c \
 include/dmamap/dma-map-ops.h include/dmamap/dma-mapping.h \
 include/dmamap/types.h include/dmamap/dma-direction.h \
 include/dmamap/page.h include/dmamap/scatterlist.h src/core/../lib/lib.h
include/dmamap/dma-map-ops.h:
include/dmamap/dma-mapping.h:
include/dmamap/types.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
src/core/../lib/lib.h:
