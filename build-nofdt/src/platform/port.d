build-nofdt/src/platform/port.o: src/platform/port.c \
 src/platform/../lib/lib.h include/dmamap/types.h include/dmamap/page.h \
 src/platform/../base/trace.h src/platform/../base/../lib/lib.h \
 src/platform/../base/device.h include/dmamap/dma-map-ops.h \
 include/dmamap/dma-mapping.h include/dmamap/dma-direction.h \
 include/dmamap/scatterlist.h include/dmamap/platform.h \
 include/dmamap/model.h include/dmamap/trace.h include/dmamap/debug.h \
 src/platform/../base/../lib/shard.h src/platform/../base/../lib/fault.h \
 src/platform/../base/../lib/log.h src/platform/port.h \
 src/platform/../base/device.h src/platform/../base/ram.h \
 src/platform/host/host.h src/platform/host/../../base/device.h \
 src/platform/sim/sim.h include/dmamap/sim.h \
 src/platform/sim/../../lib/lib.h src/platform/sim/../../base/device.h \
 src/platform/memory.h
src/platform/../lib/lib.h:
include/dmamap/types.h:
include/dmamap/page.h:
src/platform/../base/trace.h:
src/platform/../base/../lib/lib.h:
src/platform/../base/device.h:
include/dmamap/dma-map-ops.h:
include/dmamap/dma-mapping.h:
include/dmamap/dma-direction.h:
include/dmamap/scatterlist.h:
include/dmamap/platform.h:
include/dmamap/model.h:
include/dmamap/trace.h:
include/dmamap/debug.h:
src/platform/../base/../lib/shard.h:
src/platform/../base/../lib/fault.h:
src/platform/../base/../lib/log.h:
src/platform/port.h:
src/platform/../base/device.h:
src/platform/../base/ram.h:
src/platform/host/host.h:
src/platform/host/../../base/device.h:
src/platform/sim/sim.h:
include/dmamap/sim.h:
src/platform/sim/../../lib/lib.h:
src/platform/sim/../../base/device.h:
src/platform/memory.h:
