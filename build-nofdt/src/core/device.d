build-nofdt/src/core/device.o: src/core/device.c include/dmamap/swiotlb.h \
 include/dmamap/platform.h include/dmamap/dma-mapping.h \
 include/dmamap/types.h include/dmamap/dma-direction.h \
 include/dmamap/page.h include/dmamap/scatterlist.h \
 src/core/../base/unbind.h src/core/../lib/lib.h \
 src/core/../debug/checker.h src/core/../debug/../lib/lib.h \
 src/core/../debug/../base/device.h include/dmamap/dma-map-ops.h \
 include/dmamap/model.h include/dmamap/trace.h include/dmamap/debug.h \
 src/core/../debug/../base/../lib/shard.h \
 src/core/../debug/../base/../lib/fault.h \
 src/core/../debug/../base/../lib/log.h src/core/../debug/../hw/hw.h \
 include/dmamap/sim.h src/core/../debug/../hw/../base/device.h \
 src/core/../hw/hw.h src/core/../mm/mm.h src/core/../mm/../base/device.h \
 src/core/../ops/direct.h src/core/../ops/../lib/lib.h \
 src/core/../ops/../base/device.h src/core/../ops/dmabounce.h \
 src/core/../ops/iommu.h src/core/../ops/swiotlb.h \
 src/core/../platform/port.h src/core/../platform/../lib/lib.h \
 src/core/../platform/../base/device.h src/core/core.h \
 src/core/../base/bus.h src/core/../base/../lib/lib.h \
 src/core/../base/device.h
include/dmamap/swiotlb.h:
include/dmamap/platform.h:
include/dmamap/dma-mapping.h:
include/dmamap/types.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
src/core/../base/unbind.h:
src/core/../lib/lib.h:
src/core/../debug/checker.h:
src/core/../debug/../lib/lib.h:
src/core/../debug/../base/device.h:
include/dmamap/dma-map-ops.h:
include/dmamap/model.h:
include/dmamap/trace.h:
include/dmamap/debug.h:
src/core/../debug/../base/../lib/shard.h:
src/core/../debug/../base/../lib/fault.h:
src/core/../debug/../base/../lib/log.h:
src/core/../debug/../hw/hw.h:
include/dmamap/sim.h:
src/core/../debug/../hw/../base/device.h:
src/core/../hw/hw.h:
src/core/../mm/mm.h:
src/core/../mm/../base/device.h:
src/core/../ops/direct.h:
src/core/../ops/../lib/lib.h:
src/core/../ops/../base/device.h:
src/core/../ops/dmabounce.h:
src/core/../ops/iommu.h:
src/core/../ops/swiotlb.h:
src/core/../platform/port.h:
src/core/../platform/../lib/lib.h:
src/core/../platform/../base/device.h:
src/core/core.h:
src/core/../base/bus.h:
src/core/../base/../lib/lib.h:
src/core/../base/device.h:
