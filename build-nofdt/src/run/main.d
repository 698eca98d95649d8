build-nofdt/src/run/main.o: src/run/main.c src/run/runner.h \
 include/dmamap/trace.h include/dmamap/debug.h include/dmamap/platform.h \
 include/dmamap/dma-mapping.h include/dmamap/types.h \
 include/dmamap/dma-direction.h include/dmamap/page.h \
 include/dmamap/scatterlist.h include/dmamap/run.h \
 include/dmamap/platform_device.h include/dmamap/device.h \
 include/dmamap/err.h include/dmamap/interrupt.h include/dmamap/io.h \
 include/dmamap/of.h
src/run/runner.h:
include/dmamap/trace.h:
include/dmamap/debug.h:
include/dmamap/platform.h:
include/dmamap/dma-mapping.h:
include/dmamap/types.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
include/dmamap/run.h:
include/dmamap/platform_device.h:
include/dmamap/device.h:
include/dmamap/err.h:
include/dmamap/interrupt.h:
include/dmamap/io.h:
include/dmamap/of.h:
