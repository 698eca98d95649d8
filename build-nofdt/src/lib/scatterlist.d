build-nofdt/src/lib/scatterlist.o: src/lib/scatterlist.c \
 include/dmamap/scatterlist.h include/dmamap/page.h \
 include/dmamap/types.h
include/dmamap/scatterlist.h:
include/dmamap/page.h:
include/dmamap/types.h:
