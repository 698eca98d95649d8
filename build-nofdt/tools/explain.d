build-nofdt/tools/explain.o: tools/explain.c tools/cli.h \
 include/dmamap/dmamap.h include/dmamap/dma-mapping.h \
 include/dmamap/types.h include/dmamap/dma-direction.h \
 include/dmamap/page.h include/dmamap/scatterlist.h \
 include/dmamap/dma-map-ops.h include/dmamap/platform.h \
 include/dmamap/sim.h include/dmamap/debug.h include/dmamap/model.h \
 include/dmamap/swiotlb.h include/dmamap/dmabounce.h \
 include/dmamap/iommu.h include/dmamap/of.h include/dmamap/dmapool.h
tools/cli.h:
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
