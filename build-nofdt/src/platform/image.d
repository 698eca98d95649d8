build-nofdt/src/platform/image.o: src/platform/image.c \
 src/platform/port.h src/platform/../lib/lib.h include/dmamap/types.h \
 include/dmamap/page.h src/platform/../base/device.h \
 include/dmamap/dma-map-ops.h include/dmamap/dma-mapping.h \
 include/dmamap/dma-direction.h include/dmamap/scatterlist.h \
 include/dmamap/platform.h include/dmamap/model.h include/dmamap/trace.h \
 include/dmamap/debug.h src/platform/../base/../lib/shard.h \
 src/platform/../base/../lib/fault.h src/platform/../base/../lib/log.h
src/platform/port.h:
src/platform/../lib/lib.h:
include/dmamap/types.h:
include/dmamap/page.h:
src/platform/../base/device.h:
include/dmamap/dma-map-ops.h:
include/dmamap/dma-mapping.h:
include/dmamap/dma-direction.h:
include/dmamap/scatterlist.h:
include/dmamap/platform.h:
include/dmamap/model.h:
include/dmamap/trace.h:
include/dmamap/debug.h:
src/platform/../base/../lib/shard.h:
src/platform/../base/../lib/fault.h:
src/platform/../base/../lib/log.h:
