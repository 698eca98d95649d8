build-nofdt/src/mm/buddy.o: src/mm/buddy.c src/mm/buddy.h
src/mm/buddy.h:
