build-nofdt/src/lib/fault.o: src/lib/fault.c src/lib/fault.h
src/lib/fault.h:
