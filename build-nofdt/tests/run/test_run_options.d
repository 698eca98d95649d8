build-nofdt/tests/run/test_run_options.o: tests/run/test_run_options.c \
 tests/run/run_helpers.h include/dmamap/run.h \
 include/dmamap/platform_device.h include/dmamap/device.h \
 include/dmamap/platform.h include/dmamap/dma-mapping.h \
 include/dmamap/types.h include/dmamap/dma-direction.h \
 include/dmamap/page.h include/dmamap/scatterlist.h include/dmamap/err.h \
 include/dmamap/interrupt.h include/dmamap/io.h include/dmamap/of.h \
 tests/run/../helpers.h include/dmamap/dmamap.h \
 include/dmamap/dma-map-ops.h include/dmamap/sim.h include/dmamap/debug.h \
 include/dmamap/model.h include/dmamap/swiotlb.h \
 include/dmamap/dmabounce.h include/dmamap/iommu.h \
 include/dmamap/dmapool.h tests/run/../tap.h
tests/run/run_helpers.h:
include/dmamap/run.h:
include/dmamap/platform_device.h:
include/dmamap/device.h:
include/dmamap/platform.h:
include/dmamap/dma-mapping.h:
include/dmamap/types.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
include/dmamap/err.h:
include/dmamap/interrupt.h:
include/dmamap/io.h:
include/dmamap/of.h:
tests/run/../helpers.h:
include/dmamap/dmamap.h:
include/dmamap/dma-map-ops.h:
include/dmamap/sim.h:
include/dmamap/debug.h:
include/dmamap/model.h:
include/dmamap/swiotlb.h:
include/dmamap/dmabounce.h:
include/dmamap/iommu.h:
include/dmamap/dmapool.h:
tests/run/../tap.h:
