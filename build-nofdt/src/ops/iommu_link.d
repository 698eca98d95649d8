build-nofdt/src/ops/iommu_link.o: src/ops/iommu_link.c \
 src/ops/../base/report.h src/ops/../base/device.h \
 include/dmamap/dma-map-ops.h include/dmamap/dma-mapping.h \
 include/dmamap/types.h include/dmamap/dma-direction.h \
 include/dmamap/page.h include/dmamap/scatterlist.h \
 include/dmamap/platform.h include/dmamap/model.h include/dmamap/trace.h \
 include/dmamap/debug.h src/ops/../base/../lib/shard.h \
 src/ops/../base/../lib/fault.h src/ops/../base/../lib/log.h \
 src/ops/iommu.h src/ops/../base/device.h src/ops/iommu_int.h \
 src/ops/../lib/lib.h src/ops/../hw/iopt.h include/dmamap/iommu.h \
 src/ops/../hw/../base/device.h src/ops/../mm/iova.h src/ops/../mm/mm.h \
 src/ops/../mm/../base/device.h
src/ops/../base/report.h:
src/ops/../base/device.h:
include/dmamap/dma-map-ops.h:
include/dmamap/dma-mapping.h:
include/dmamap/types.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
include/dmamap/platform.h:
include/dmamap/model.h:
include/dmamap/trace.h:
include/dmamap/debug.h:
src/ops/../base/../lib/shard.h:
src/ops/../base/../lib/fault.h:
src/ops/../base/../lib/log.h:
src/ops/iommu.h:
src/ops/../base/device.h:
src/ops/iommu_int.h:
src/ops/../lib/lib.h:
src/ops/../hw/iopt.h:
include/dmamap/iommu.h:
src/ops/../hw/../base/device.h:
src/ops/../mm/iova.h:
src/ops/../mm/mm.h:
src/ops/../mm/../base/device.h:
