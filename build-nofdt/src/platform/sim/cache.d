build-nofdt/src/platform/sim/cache.o: src/platform/sim/cache.c \
 src/platform/sim/../../base/observer.h \
 src/platform/sim/../../base/../lib/lib.h include/dmamap/types.h \
 include/dmamap/page.h src/platform/sim/../../base/device.h \
 include/dmamap/dma-map-ops.h include/dmamap/dma-mapping.h \
 include/dmamap/dma-direction.h include/dmamap/scatterlist.h \
 include/dmamap/platform.h include/dmamap/model.h include/dmamap/trace.h \
 include/dmamap/debug.h src/platform/sim/../../base/../lib/shard.h \
 src/platform/sim/../../base/../lib/fault.h \
 src/platform/sim/../../base/../lib/log.h \
 src/platform/sim/../../base/report.h src/platform/sim/../../base/ram.h \
 src/platform/sim/sim.h include/dmamap/sim.h \
 src/platform/sim/../../lib/lib.h src/platform/sim/../../base/device.h
src/platform/sim/../../base/observer.h:
src/platform/sim/../../base/../lib/lib.h:
include/dmamap/types.h:
include/dmamap/page.h:
src/platform/sim/../../base/device.h:
include/dmamap/dma-map-ops.h:
include/dmamap/dma-mapping.h:
include/dmamap/dma-direction.h:
include/dmamap/scatterlist.h:
include/dmamap/platform.h:
include/dmamap/model.h:
include/dmamap/trace.h:
include/dmamap/debug.h:
src/platform/sim/../../base/../lib/shard.h:
src/platform/sim/../../base/../lib/fault.h:
src/platform/sim/../../base/../lib/log.h:
src/platform/sim/../../base/report.h:
src/platform/sim/../../base/ram.h:
src/platform/sim/sim.h:
include/dmamap/sim.h:
src/platform/sim/../../lib/lib.h:
src/platform/sim/../../base/device.h:
