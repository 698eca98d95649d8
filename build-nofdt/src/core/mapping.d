build-nofdt/src/core/mapping.o: src/core/mapping.c src/core/../lib/lib.h \
 include/dmamap/types.h include/dmamap/page.h src/core/../base/report.h \
 src/core/../base/device.h include/dmamap/dma-map-ops.h \
 include/dmamap/dma-mapping.h include/dmamap/dma-direction.h \
 include/dmamap/scatterlist.h include/dmamap/platform.h \
 include/dmamap/model.h include/dmamap/trace.h include/dmamap/debug.h \
 src/core/../base/../lib/shard.h src/core/../base/../lib/fault.h \
 src/core/../base/../lib/log.h src/core/../base/trace.h \
 src/core/../base/../lib/lib.h src/core/../debug/checker.h \
 src/core/../debug/../lib/lib.h src/core/../debug/../base/device.h \
 src/core/../debug/../hw/hw.h include/dmamap/sim.h \
 src/core/../debug/../hw/../base/device.h src/core/../ops/direct.h \
 src/core/../ops/../lib/lib.h src/core/../ops/../base/device.h \
 src/core/../platform/port.h src/core/../platform/../lib/lib.h \
 src/core/../platform/../base/device.h src/core/core.h \
 src/core/../base/bus.h src/core/../hw/hw.h
src/core/../lib/lib.h:
include/dmamap/types.h:
include/dmamap/page.h:
src/core/../base/report.h:
src/core/../base/device.h:
include/dmamap/dma-map-ops.h:
include/dmamap/dma-mapping.h:
include/dmamap/dma-direction.h:
include/dmamap/scatterlist.h:
include/dmamap/platform.h:
include/dmamap/model.h:
include/dmamap/trace.h:
include/dmamap/debug.h:
src/core/../base/../lib/shard.h:
src/core/../base/../lib/fault.h:
src/core/../base/../lib/log.h:
src/core/../base/trace.h:
src/core/../base/../lib/lib.h:
src/core/../debug/checker.h:
src/core/../debug/../lib/lib.h:
src/core/../debug/../base/device.h:
src/core/../debug/../hw/hw.h:
include/dmamap/sim.h:
src/core/../debug/../hw/../base/device.h:
src/core/../ops/direct.h:
src/core/../ops/../lib/lib.h:
src/core/../ops/../base/device.h:
src/core/../platform/port.h:
src/core/../platform/../lib/lib.h:
src/core/../platform/../base/device.h:
src/core/core.h:
src/core/../base/bus.h:
src/core/../hw/hw.h:
