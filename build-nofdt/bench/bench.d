build-nofdt/bench/bench.o: bench/bench.c bench/../tools/cli.h \
 include/dmamap/dmamap.h include/dmamap/dma-mapping.h \
 include/dmamap/types.h include/dmamap/dma-direction.h \
 include/dmamap/page.h include/dmamap/scatterlist.h \
 include/dmamap/dma-map-ops.h include/dmamap/platform.h \
 include/dmamap/sim.h include/dmamap/debug.h include/dmamap/model.h \
 include/dmamap/swiotlb.h include/dmamap/dmabounce.h \
 include/dmamap/iommu.h include/dmamap/of.h include/dmamap/dmapool.h \
 bench/../drivers/exercise.h bench/../drivers/blk_drv.h \
 include/dmamap/interrupt.h include/dmamap/io.h include/dmamap/hw/blk.h \
 bench/../drivers/memcpy_dma.h include/dmamap/hw/memcpy-engine.h \
 bench/../drivers/nic_drv.h include/dmamap/hw/nic.h
bench/../tools/cli.h:
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
bench/../drivers/exercise.h:
bench/../drivers/blk_drv.h:
include/dmamap/interrupt.h:
include/dmamap/io.h:
include/dmamap/hw/blk.h:
bench/../drivers/memcpy_dma.h:
include/dmamap/hw/memcpy-engine.h:
bench/../drivers/nic_drv.h:
include/dmamap/hw/nic.h:
