build-nofdt/tests/cache/test_cache_chaos.o: \
 tests/cache/test_cache_chaos.c tests/cache/../../drivers/memcpy_dma.h \
 include/dmamap/dma-mapping.h include/dmamap/types.h \
 include/dmamap/dma-direction.h include/dmamap/page.h \
 include/dmamap/scatterlist.h include/dmamap/io.h \
 include/dmamap/hw/memcpy-engine.h tests/cache/../helpers.h \
 include/dmamap/dmamap.h include/dmamap/dma-map-ops.h \
 include/dmamap/platform.h include/dmamap/sim.h include/dmamap/debug.h \
 include/dmamap/model.h include/dmamap/swiotlb.h \
 include/dmamap/dmabounce.h include/dmamap/iommu.h include/dmamap/of.h \
 include/dmamap/dmapool.h tests/cache/../tap.h
tests/cache/../../drivers/memcpy_dma.h:
include/dmamap/dma-mapping.h:
include/dmamap/types.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
include/dmamap/io.h:
include/dmamap/hw/memcpy-engine.h:
tests/cache/../helpers.h:
include/dmamap/dmamap.h:
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
tests/cache/../tap.h:
