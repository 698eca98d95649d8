build-nofdt/src/driver/devres.o: src/driver/devres.c \
 include/dmamap/dma-mapping.h include/dmamap/types.h \
 include/dmamap/dma-direction.h include/dmamap/page.h \
 include/dmamap/scatterlist.h src/driver/../lib/lib.h src/driver/driver.h \
 include/dmamap/platform_device.h include/dmamap/device.h \
 include/dmamap/platform.h include/dmamap/err.h \
 include/dmamap/interrupt.h include/dmamap/io.h include/dmamap/of.h \
 src/driver/../of/of.h
include/dmamap/dma-mapping.h:
include/dmamap/types.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
src/driver/../lib/lib.h:
src/driver/driver.h:
include/dmamap/platform_device.h:
include/dmamap/device.h:
include/dmamap/platform.h:
include/dmamap/err.h:
include/dmamap/interrupt.h:
include/dmamap/io.h:
include/dmamap/of.h:
src/driver/../of/of.h:
