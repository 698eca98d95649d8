build-nofdt/src/platform/sim/order.o: src/platform/sim/order.c \
 src/platform/sim/../../lib/log.h include/dmamap/platform.h \
 include/dmamap/dma-mapping.h include/dmamap/types.h \
 include/dmamap/dma-direction.h include/dmamap/page.h \
 include/dmamap/scatterlist.h include/dmamap/debug.h \
 src/platform/sim/../../base/ram.h src/platform/sim/../../base/device.h \
 include/dmamap/dma-map-ops.h include/dmamap/model.h \
 include/dmamap/trace.h src/platform/sim/../../base/../lib/shard.h \
 src/platform/sim/../../base/../lib/fault.h \
 src/platform/sim/../../base/../lib/log.h \
 src/platform/sim/../../base/report.h src/platform/sim/order.h \
 src/platform/sim/../../lib/lib.h src/platform/sim/../../lib/spinlock.h \
 src/platform/sim/../../base/bus.h \
 src/platform/sim/../../base/../lib/lib.h src/platform/sim/sim.h \
 include/dmamap/sim.h src/platform/sim/../../base/device.h
src/platform/sim/../../lib/log.h:
include/dmamap/platform.h:
include/dmamap/dma-mapping.h:
include/dmamap/types.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
include/dmamap/debug.h:
src/platform/sim/../../base/ram.h:
src/platform/sim/../../base/device.h:
include/dmamap/dma-map-ops.h:
include/dmamap/model.h:
include/dmamap/trace.h:
src/platform/sim/../../base/../lib/shard.h:
src/platform/sim/../../base/../lib/fault.h:
src/platform/sim/../../base/../lib/log.h:
src/platform/sim/../../base/report.h:
src/platform/sim/order.h:
src/platform/sim/../../lib/lib.h:
src/platform/sim/../../lib/spinlock.h:
src/platform/sim/../../base/bus.h:
src/platform/sim/../../base/../lib/lib.h:
src/platform/sim/sim.h:
include/dmamap/sim.h:
src/platform/sim/../../base/device.h:
