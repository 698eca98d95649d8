build-nofdt/src/mm/iova.o: src/mm/iova.c src/mm/../lib/lib.h \
 include/dmamap/types.h include/dmamap/page.h src/mm/../lib/shard.h \
 src/mm/../lib/spinlock.h src/mm/buddy.h src/mm/iova.h
src/mm/../lib/lib.h:
include/dmamap/types.h:
include/dmamap/page.h:
src/mm/../lib/shard.h:
src/mm/../lib/spinlock.h:
src/mm/buddy.h:
src/mm/iova.h:
