build-nofdt/src/hw/irq.o: src/hw/irq.c include/dmamap/interrupt.h \
 include/dmamap/types.h src/hw/../base/trace.h \
 src/hw/../base/../lib/lib.h include/dmamap/page.h \
 src/hw/../base/device.h include/dmamap/dma-map-ops.h \
 include/dmamap/dma-mapping.h include/dmamap/dma-direction.h \
 include/dmamap/scatterlist.h include/dmamap/platform.h \
 include/dmamap/model.h include/dmamap/trace.h include/dmamap/debug.h \
 src/hw/../base/../lib/shard.h src/hw/../base/../lib/fault.h \
 src/hw/../base/../lib/log.h src/hw/../lib/lib.h src/hw/../base/report.h \
 src/hw/hw.h include/dmamap/sim.h src/hw/../base/device.h
include/dmamap/interrupt.h:
include/dmamap/types.h:
src/hw/../base/trace.h:
src/hw/../base/../lib/lib.h:
include/dmamap/page.h:
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
src/hw/../lib/lib.h:
src/hw/../base/report.h:
src/hw/hw.h:
include/dmamap/sim.h:
src/hw/../base/device.h:
