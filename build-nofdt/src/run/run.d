build-nofdt/src/run/run.o: src/run/run.c include/dmamap/dma-mapping.h \
 include/dmamap/types.h include/dmamap/dma-direction.h \
 include/dmamap/page.h include/dmamap/scatterlist.h \
 src/run/../driver/driver.h include/dmamap/platform_device.h \
 include/dmamap/device.h include/dmamap/platform.h include/dmamap/err.h \
 include/dmamap/interrupt.h include/dmamap/io.h include/dmamap/of.h \
 src/run/../driver/../of/of.h src/run/../lib/lib.h src/run/runner.h \
 include/dmamap/trace.h include/dmamap/debug.h include/dmamap/run.h
include/dmamap/dma-mapping.h:
include/dmamap/types.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
src/run/../driver/driver.h:
include/dmamap/platform_device.h:
include/dmamap/device.h:
include/dmamap/platform.h:
include/dmamap/err.h:
include/dmamap/interrupt.h:
include/dmamap/io.h:
include/dmamap/of.h:
src/run/../driver/../of/of.h:
src/run/../lib/lib.h:
src/run/runner.h:
include/dmamap/trace.h:
include/dmamap/debug.h:
include/dmamap/run.h:
