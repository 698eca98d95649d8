build-nofdt/src/lib/shard.o: src/lib/shard.c src/lib/shard.h
src/lib/shard.h:
