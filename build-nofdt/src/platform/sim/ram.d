build-nofdt/src/platform/sim/ram.o: src/platform/sim/ram.c \
 src/platform/sim/sim.h include/dmamap/sim.h include/dmamap/platform.h \
 include/dmamap/dma-mapping.h include/dmamap/types.h \
 include/dmamap/dma-direction.h include/dmamap/page.h \
 include/dmamap/scatterlist.h src/platform/sim/../../lib/lib.h \
 src/platform/sim/../../base/device.h include/dmamap/dma-map-ops.h \
 include/dmamap/model.h include/dmamap/trace.h include/dmamap/debug.h \
 src/platform/sim/../../base/../lib/shard.h \
 src/platform/sim/../../base/../lib/fault.h \
 src/platform/sim/../../base/../lib/log.h
src/platform/sim/sim.h:
include/dmamap/sim.h:
include/dmamap/platform.h:
include/dmamap/dma-mapping.h:
include/dmamap/types.h:
include/dmamap/dma-direction.h:
include/dmamap/page.h:
include/dmamap/scatterlist.h:
src/platform/sim/../../lib/lib.h:
src/platform/sim/../../base/device.h:
include/dmamap/dma-map-ops.h:
include/dmamap/model.h:
include/dmamap/trace.h:
include/dmamap/debug.h:
src/platform/sim/../../base/../lib/shard.h:
src/platform/sim/../../base/../lib/fault.h:
src/platform/sim/../../base/../lib/log.h:
