build-nofdt/tests/unit/test_unit_iova.o: tests/unit/test_unit_iova.c \
 tests/unit/../tap.h tests/unit/../../src/mm/iova.h \
 include/dmamap/types.h
tests/unit/../tap.h:
tests/unit/../../src/mm/iova.h:
include/dmamap/types.h:
