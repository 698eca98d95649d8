build-nofdt/src/ops/swiotlb.o: src/ops/swiotlb.c include/dmamap/swiotlb.h \
 include/dmamap/platform.h include/dmamap/dma-mapping.h \
 include/dmamap/types.h include/dmamap/dma-direction.h \
 include/dmamap/page.h include/dmamap/scatterlist.h \
 src/ops/../base/trace.h src/ops/../base/../lib/lib.h \
 src/ops/../base/device.h include/dmamap/dma-map-ops.h \
 include/dmamap/model.h include/dmamap/trace.h include/dmamap/debug.h \
 src/ops/../base/../lib/shard.h src/ops/../base/../lib/fault.h \
 src/ops/../base/../lib/log.h src/ops/../lib/lib.h src/ops/../base/bus.h \
 src/ops/../base/report.h src/ops/../hw/hw.h include/dmamap/sim.h \
 src/ops/../hw/../base/device.h src/ops/../lib/spinlock.h \
 src/ops/../mm/mm.h src/ops/../mm/../base/device.h \
 src/ops/../platform/port.h src/ops/../platform/../lib/lib.h \
 src/ops/../platform/../base/device.h src/ops/swiotlb.h \
 src/ops/../base/device.h
include/dmamap/swiotlb.h:
include/dmamap/platform.h:
include/dmamap/dma-mapping.h:
include/dmamap/types.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
src/ops/../base/trace.h:
src/ops/../base/../lib/lib.h:
src/ops/../base/device.h:
include/dmamap/dma-map-ops.h:
include/dmamap/model.h:
include/dmamap/trace.h:
include/dmamap/debug.h:
src/ops/../base/../lib/shard.h:
src/ops/../base/../lib/fault.h:
src/ops/../base/../lib/log.h:
src/ops/../lib/lib.h:
src/ops/../base/bus.h:
src/ops/../base/report.h:
src/ops/../hw/hw.h:
include/dmamap/sim.h:
src/ops/../hw/../base/device.h:
src/ops/../lib/spinlock.h:
src/ops/../mm/mm.h:
src/ops/../mm/../base/device.h:
src/ops/../platform/port.h:
src/ops/../platform/../lib/lib.h:
src/ops/../platform/../base/device.h:
src/ops/swiotlb.h:
src/ops/../base/device.h:
