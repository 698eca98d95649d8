build-nofdt/src/debug/ownership.o: src/debug/ownership.c \
 src/debug/../lib/lib.h include/dmamap/types.h include/dmamap/page.h \
 src/debug/../base/report.h src/debug/../base/device.h \
 include/dmamap/dma-map-ops.h include/dmamap/dma-mapping.h \
 include/dmamap/dma-direction.h include/dmamap/scatterlist.h \
 include/dmamap/platform.h include/dmamap/model.h include/dmamap/trace.h \
 include/dmamap/debug.h src/debug/../base/../lib/shard.h \
 src/debug/../base/../lib/fault.h src/debug/../base/../lib/log.h \
 src/debug/../platform/port.h src/debug/../platform/../lib/lib.h \
 src/debug/../platform/../base/device.h src/debug/checker.h \
 src/debug/../base/device.h src/debug/../hw/hw.h include/dmamap/sim.h \
 src/debug/../hw/../base/device.h
src/debug/../lib/lib.h:
include/dmamap/types.h:
include/dmamap/page.h:
src/debug/../base/report.h:
src/debug/../base/device.h:
include/dmamap/dma-map-ops.h:
include/dmamap/dma-mapping.h:
include/dmamap/dma-direction.h:
include/dmamap/scatterlist.h:
include/dmamap/platform.h:
include/dmamap/model.h:
include/dmamap/trace.h:
include/dmamap/debug.h:
src/debug/../base/../lib/shard.h:
src/debug/../base/../lib/fault.h:
src/debug/../base/../lib/log.h:
src/debug/../platform/port.h:
src/debug/../platform/../lib/lib.h:
src/debug/../platform/../base/device.h:
src/debug/checker.h:
src/debug/../base/device.h:
src/debug/../hw/hw.h:
include/dmamap/sim.h:
src/debug/../hw/../base/device.h:
