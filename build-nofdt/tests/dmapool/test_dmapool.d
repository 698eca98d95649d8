build-nofdt/tests/dmapool/test_dmapool.o: tests/dmapool/test_dmapool.c \
 include/dmamap/dmapool.h include/dmamap/types.h \
 tests/dmapool/../helpers.h include/dmamap/dmamap.h \
 include/dmamap/dma-mapping.h include/dmamap/dma-direction.h \
 include/dmamap/page.h include/dmamap/scatterlist.h \
 include/dmamap/dma-map-ops.h include/dmamap/platform.h \
 include/dmamap/sim.h include/dmamap/debug.h include/dmamap/model.h \
 include/dmamap/swiotlb.h include/dmamap/dmabounce.h \
 include/dmamap/iommu.h include/dmamap/of.h tests/dmapool/../tap.h
include/dmamap/dmapool.h:
include/dmamap/types.h:
tests/dmapool/../helpers.h:
include/dmamap/dmamap.h:
include/dmamap/dma-mapping.h:
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
tests/dmapool/../tap.h:
