build-nofdt/src/ops/iommu.o: src/ops/iommu.c src/ops/../base/trace.h \
 src/ops/../base/../lib/lib.h include/dmamap/types.h \
 include/dmamap/page.h src/ops/../base/device.h \
 include/dmamap/dma-map-ops.h include/dmamap/dma-mapping.h \
 include/dmamap/dma-direction.h include/dmamap/scatterlist.h \
 include/dmamap/platform.h include/dmamap/model.h include/dmamap/trace.h \
 include/dmamap/debug.h src/ops/../base/../lib/shard.h \
 src/ops/../base/../lib/fault.h src/ops/../base/../lib/log.h \
 src/ops/../lib/lib.h src/ops/../base/report.h src/ops/../hw/iopt.h \
 include/dmamap/iommu.h src/ops/../hw/../base/device.h \
 src/ops/../lib/spinlock.h src/ops/../mm/iova.h src/ops/../mm/mm.h \
 src/ops/../mm/../base/device.h src/ops/../platform/port.h \
 src/ops/../platform/../lib/lib.h src/ops/../platform/../base/device.h \
 src/ops/iommu.h src/ops/../base/device.h src/ops/iommu_int.h \
 src/ops/ops_helpers.h
src/ops/../base/trace.h:
src/ops/../base/../lib/lib.h:
include/dmamap/types.h:
include/dmamap/page.h:
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
src/ops/../lib/lib.h:
src/ops/../base/report.h:
src/ops/../hw/iopt.h:
include/dmamap/iommu.h:
src/ops/../hw/../base/device.h:
src/ops/../lib/spinlock.h:
src/ops/../mm/iova.h:
src/ops/../mm/mm.h:
src/ops/../mm/../base/device.h:
src/ops/../platform/port.h:
src/ops/../platform/../lib/lib.h:
src/ops/../platform/../base/device.h:
src/ops/iommu.h:
src/ops/../base/device.h:
src/ops/iommu_int.h:
src/ops/ops_helpers.h:
