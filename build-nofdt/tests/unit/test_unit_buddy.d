build-nofdt/tests/unit/test_unit_buddy.o: tests/unit/test_unit_buddy.c \
 tests/unit/../tap.h tests/unit/../../src/mm/buddy.h
tests/unit/../tap.h:
tests/unit/../../src/mm/buddy.h:
