build-nofdt/tests/unit/test_unit_shard.o: tests/unit/test_unit_shard.c \
 tests/unit/../tap.h tests/unit/../../src/lib/shard.h
tests/unit/../tap.h:
tests/unit/../../src/lib/shard.h:
