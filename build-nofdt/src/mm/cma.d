build-nofdt/src/mm/cma.o: src/mm/cma.c src/mm/../lib/lib.h \
 include/dmamap/types.h include/dmamap/page.h src/mm/cma.h src/mm/zones.h \
 src/mm/mm.h src/mm/../base/device.h include/dmamap/dma-map-ops.h \
 include/dmamap/dma-mapping.h include/dmamap/dma-direction.h \
 include/dmamap/scatterlist.h include/dmamap/platform.h \
 include/dmamap/model.h include/dmamap/trace.h include/dmamap/debug.h \
 src/mm/../base/../lib/shard.h src/mm/../base/../lib/fault.h \
 src/mm/../base/../lib/log.h
src/mm/../lib/lib.h:
include/dmamap/types.h:
include/dmamap/page.h:
src/mm/cma.h:
src/mm/zones.h:
src/mm/mm.h:
src/mm/../base/device.h:
include/dmamap/dma-map-ops.h:
include/dmamap/dma-mapping.h:
include/dmamap/dma-direction.h:
include/dmamap/scatterlist.h:
include/dmamap/platform.h:
include/dmamap/model.h:
include/dmamap/trace.h:
include/dmamap/debug.h:
src/mm/../base/../lib/shard.h:
src/mm/../base/../lib/fault.h:
src/mm/../base/../lib/log.h:
