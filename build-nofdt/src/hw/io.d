build-nofdt/src/hw/io.o: src/hw/io.c include/dmamap/io.h \
 include/dmamap/types.h src/hw/../lib/lib.h include/dmamap/page.h \
 src/hw/../base/report.h src/hw/../base/device.h \
 include/dmamap/dma-map-ops.h include/dmamap/dma-mapping.h \
 include/dmamap/dma-direction.h include/dmamap/scatterlist.h \
 include/dmamap/platform.h include/dmamap/model.h include/dmamap/trace.h \
 include/dmamap/debug.h src/hw/../base/../lib/shard.h \
 src/hw/../base/../lib/fault.h src/hw/../base/../lib/log.h \
 src/hw/../platform/port.h src/hw/../platform/../lib/lib.h \
 src/hw/../platform/../base/device.h src/hw/hw.h include/dmamap/sim.h \
 src/hw/../base/device.h
include/dmamap/io.h:
include/dmamap/types.h:
src/hw/../lib/lib.h:
include/dmamap/page.h:
src/hw/../base/report.h:
src/hw/../base/device.h:
include/dmamap/dma-map-ops.h:
include/dmamap/dma-mapping.h:
include/dmamap/dma-direction.h:
include/dmamap/scatterlist.h:
include/dmamap/platform.h:
include/dmamap/model.h:
include/dmamap/trace.h:
include/dmamap/debug.h:
src/hw/../base/../lib/shard.h:
src/hw/../base/../lib/fault.h:
src/hw/../base/../lib/log.h:
src/hw/../platform/port.h:
src/hw/../platform/../lib/lib.h:
src/hw/../platform/../base/device.h:
src/hw/hw.h:
include/dmamap/sim.h:
src/hw/../base/device.h:
