build-nofdt/tests/tap.o: tests/tap.c tests/tap.h
tests/tap.h:
