build-nofdt/src/ops/direct_limits.o: src/ops/direct_limits.c \
 src/ops/../lib/lib.h include/dmamap/types.h include/dmamap/page.h \
 src/ops/../base/bus.h src/ops/../base/../lib/lib.h \
 src/ops/../base/device.h include/dmamap/dma-map-ops.h \
 include/dmamap/dma-mapping.h include/dmamap/dma-direction.h \
 include/dmamap/scatterlist.h include/dmamap/platform.h \
 include/dmamap/model.h include/dmamap/trace.h include/dmamap/debug.h \
 src/ops/../base/../lib/shard.h src/ops/../base/../lib/fault.h \
 src/ops/../base/../lib/log.h src/ops/../platform/port.h \
 src/ops/../platform/../lib/lib.h src/ops/../platform/../base/device.h \
 src/ops/direct.h src/ops/../base/device.h src/ops/swiotlb.h
src/ops/../lib/lib.h:
include/dmamap/types.h:
include/dmamap/page.h:
src/ops/../base/bus.h:
src/ops/../base/../lib/lib.h:
src/ops/../base/device.h:
include/dmamap/dma-map-ops.h:
include/dmamap/dma-mapping.h:
include/dmamap/dma-direction.h:
include/dmamap/scatterlist.h:
include/dmamap/platform.h:
include/dmamap/model.h:
include/dmamap/trace.h:
include/dmamap/debug.h:
src/ops/../base/../lib/shard.h:
src/ops/../base/../lib/fault.h:
src/ops/../base/../lib/log.h:
src/ops/../platform/port.h:
src/ops/../platform/../lib/lib.h:
src/ops/../platform/../base/device.h:
src/ops/direct.h:
src/ops/../base/device.h:
src/ops/swiotlb.h:
