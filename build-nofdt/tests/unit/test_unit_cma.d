build-nofdt/tests/unit/test_unit_cma.o: tests/unit/test_unit_cma.c \
 tests/unit/../tap.h tests/unit/../../src/mm/cma.h include/dmamap/types.h
tests/unit/../tap.h:
tests/unit/../../src/mm/cma.h:
include/dmamap/types.h:
