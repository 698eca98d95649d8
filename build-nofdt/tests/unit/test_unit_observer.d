build-nofdt/tests/unit/test_unit_observer.o: \
 tests/unit/test_unit_observer.c include/dmamap/dmamap.h \
 include/dmamap/dma-mapping.h include/dmamap/types.h \
 include/dmamap/dma-direction.h include/dmamap/page.h \
 include/dmamap/scatterlist.h include/dmamap/dma-map-ops.h \
 include/dmamap/platform.h include/dmamap/sim.h include/dmamap/debug.h \
 include/dmamap/model.h include/dmamap/swiotlb.h \
 include/dmamap/dmabounce.h include/dmamap/iommu.h include/dmamap/of.h \
 include/dmamap/dmapool.h tests/unit/../../src/base/observer.h \
 tests/unit/../../src/base/../lib/lib.h \
 tests/unit/../../src/base/device.h include/dmamap/trace.h \
 tests/unit/../../src/base/../lib/shard.h \
 tests/unit/../../src/base/../lib/fault.h \
 tests/unit/../../src/base/../lib/log.h tests/unit/../helpers.h \
 tests/unit/../tap.h
include/dmamap/dmamap.h:
include/dmamap/dma-mapping.h:
include/dmamap/types.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
include/dmamap/dma-map-ops.h:
include/dmamap/platform.h:
include/dmamap/sim.h:
include/dmamap/debug.h:
include/dmamap/model.h:
include/dmamap/swiotlb.h:
include/dmamap/dmabounce.h:
include/dmamap/iommu.h:
include/dmamap/of.h:
include/dmamap/dmapool.h:
tests/unit/../../src/base/observer.h:
tests/unit/../../src/base/../lib/lib.h:
tests/unit/../../src/base/device.h:
include/dmamap/trace.h:
tests/unit/../../src/base/../lib/shard.h:
tests/unit/../../src/base/../lib/fault.h:
tests/unit/../../src/base/../lib/log.h:
tests/unit/../helpers.h:
tests/unit/../tap.h:
