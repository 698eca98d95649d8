/* SPDX-License-Identifier: MIT */
/*
 * The library's one allocation point. Every heap block, mapping and memfd
 * the library makes comes through here, so that the process-wide countdown
 * injector reaches each of them (armed with dmamap_fault_inject(NULL, ...),
 * also before any platform exists), and a ledger counts the mapped bytes
 * and memfds still alive, which LeakSanitizer does not see. Heap blocks are
 * released with free(); mappings and memfds with the calls below, which
 * keep the ledger.
 */
#ifndef DMAMAP_LIB_MEM_H
#define DMAMAP_LIB_MEM_H

#include <stddef.h>
#include <sys/types.h>
#include "fault.h"

void *dmamap__malloc(size_t size);
void *dmamap__calloc(size_t n, size_t size);
void *dmamap__realloc(void *old, size_t size);
void *dmamap__aligned_alloc(size_t align, size_t size);
char *dmamap__strdup(const char *s);

/*
 * mmap(2) as a failure point; MAP_FAILED with errno ENOMEM when injected.
 * The ledger counts what it maps, except with MAP_FIXED, which replaces
 * pages of a mapping already counted.
 */
void *dmamap__mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
/* A mapping that lives as long as the process: a failure point, not in the ledger. */
void *dmamap__mmap_for_process(void *addr, size_t len, int prot, int flags, int fd, off_t off);
/*
 * A mapping the injector never fails, counted in the ledger: for memory
 * needed in the middle of work that has no way to fail (simulated RAM
 * mapped at its first touch). MAP_FAILED only when the system refuses.
 */
void *dmamap__mmap_unfailing(void *addr, size_t len, int prot, int flags, int fd, off_t off);
/*
 * Zero pages reserved, committed only as they are touched (MAP_NORESERVE),
 * through dmamap__mmap(): for bookkeeping sized by a board or an address
 * space, of which a run touches a little. NULL when refused or injected;
 * released with dmamap__munmap(@len).
 */
void *dmamap__zeroed_pages(size_t len);
/* munmap(2) of what dmamap__mmap() counted. */
int dmamap__munmap(void *addr, size_t len);
/* memfd_create(2) as a failure point (-1, errno ENOMEM), counted until dmamap__memfd_close(). */
int dmamap__memfd_create(const char *name, unsigned int flags);
int dmamap__memfd_close(int fd);

/*
 * The host's mmap granularity (sysconf(_SC_PAGESIZE)), which is not the
 * simulated PAGE_SIZE: 16 or 64 KiB on some arm64 hosts. Anything the
 * library maps, remaps or protects goes in these units. Its log2.
 */
unsigned int dmamap__host_page_shift(void);
static inline size_t dmamap__host_page_size(void)
{
	return (size_t)1 << dmamap__host_page_shift();
}

/* @len rounded up to whole host pages: what a mapping of @len takes. */
static inline size_t dmamap__host_pages_of(size_t len)
{
	size_t page = dmamap__host_page_size();

	return (len + page - 1) & ~(page - 1);
}

/* What the ledger holds now: bytes mapped and memfds open through the calls above. */
struct dmamap__ledger {
	long long mapped_bytes;
	long memfds;
};
void dmamap__ledger_read(struct dmamap__ledger *out);

#endif
