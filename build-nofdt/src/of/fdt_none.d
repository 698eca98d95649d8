build-nofdt/src/of/fdt_none.o: src/of/fdt_none.c include/dmamap/of.h \
 include/dmamap/platform.h include/dmamap/dma-mapping.h \
 include/dmamap/types.h include/dmamap/dma-direction.h \
 include/dmamap/page.h include/dmamap/scatterlist.h src/of/../lib/log.h \
 include/dmamap/debug.h src/of/of.h
include/dmamap/of.h:
include/dmamap/platform.h:
include/dmamap/dma-mapping.h:
include/dmamap/types.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
src/of/../lib/log.h:
include/dmamap/debug.h:
src/of/of.h:
