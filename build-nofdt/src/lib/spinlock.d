build-nofdt/src/lib/spinlock.o: src/lib/spinlock.c src/lib/spinlock.h
src/lib/spinlock.h:
