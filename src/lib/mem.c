/* SPDX-License-Identifier: MIT */
/* The one allocation point: the process-wide injector asked first, then the system. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <dmamap/platform.h>
#include "mem.h"

static long long ledger_bytes;
static long ledger_memfds;

/* Whether this allocation must fail now; errno says why, as the system would. */
static bool injected(void)
{
	if (!dmamap__fault(&dmamap__process_fault, DMAMAP_FAULT_ALLOC))
		return false;
	errno = ENOMEM;
	return true;
}

void *dmamap__malloc(size_t size)
{
	return injected() ? NULL : malloc(size);
}

void *dmamap__calloc(size_t n, size_t size)
{
	return injected() ? NULL : calloc(n, size);
}

void *dmamap__realloc(void *old, size_t size)
{
	return injected() ? NULL : realloc(old, size);
}

void *dmamap__aligned_alloc(size_t align, size_t size)
{
	return injected() ? NULL : aligned_alloc(align, size);
}

char *dmamap__strdup(const char *s)
{
	return injected() ? NULL : strdup(s);
}

unsigned int dmamap__host_page_shift(void)
{
	static unsigned int shift;
	unsigned int s = __atomic_load_n(&shift, __ATOMIC_RELAXED);

	if (!s) {
		long page = sysconf(_SC_PAGESIZE);

		/* No answer, or not a power of two: the smallest page any Linux has. */
		s = page > 0 && !(page & (page - 1)) ? (unsigned int)__builtin_ctzl((unsigned long)page) : 12;
		__atomic_store_n(&shift, s, __ATOMIC_RELAXED);
	}
	return s;
}

void *dmamap__mmap_for_process(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return injected() ? MAP_FAILED : mmap(addr, len, prot, flags, fd, off);
}

static void *counted(void *m, size_t len, int flags)
{
	if (m != MAP_FAILED && !(flags & MAP_FIXED))
		__atomic_add_fetch(&ledger_bytes, (long long)dmamap__host_pages_of(len), __ATOMIC_RELAXED);
	return m;
}

void *dmamap__mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return counted(dmamap__mmap_for_process(addr, len, prot, flags, fd, off), len, flags);
}

void *dmamap__mmap_unfailing(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return counted(mmap(addr, len, prot, flags, fd, off), len, flags);
}

void *dmamap__zeroed_pages(size_t len)
{
	void *m = dmamap__mmap(NULL, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return m == MAP_FAILED ? NULL : m;
}

int dmamap__munmap(void *addr, size_t len)
{
	int ret = munmap(addr, len);

	if (!ret)
		__atomic_sub_fetch(&ledger_bytes, (long long)dmamap__host_pages_of(len), __ATOMIC_RELAXED);
	return ret;
}

int dmamap__memfd_create(const char *name, unsigned int flags)
{
	int fd = injected() ? -1 : memfd_create(name, flags);

	if (fd >= 0)
		__atomic_add_fetch(&ledger_memfds, 1, __ATOMIC_RELAXED);
	return fd;
}

int dmamap__memfd_close(int fd)
{
	int ret = fd < 0 ? -1 : close(fd);

	/* A descriptor close() refused is not one the ledger may forget. */
	if (!ret)
		__atomic_sub_fetch(&ledger_memfds, 1, __ATOMIC_RELAXED);
	return ret;
}

void dmamap__ledger_read(struct dmamap__ledger *out)
{
	out->mapped_bytes = __atomic_load_n(&ledger_bytes, __ATOMIC_RELAXED);
	out->memfds = __atomic_load_n(&ledger_memfds, __ATOMIC_RELAXED);
}
