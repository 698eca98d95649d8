/* SPDX-License-Identifier: MIT */
/*
 * This process's own image: the read-only segments (code, constants) of
 * the executable and the libraries loaded when first asked, what the
 * kernel calls text and rodata. A device must never be handed them.
 */
#define _GNU_SOURCE
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include "port.h"
#include "../lib/mem.h"

struct span {
	uintptr_t lo, hi;
};

static struct span *spans;
static unsigned int nspans;
/* Learned once it worked: an allocation that failed (or was made to fail) is tried again. */
static bool learned;
static pthread_mutex_t learn_lock = PTHREAD_MUTEX_INITIALIZER;

struct collect {
	struct span *out; /* NULL: only count */
	unsigned int n;
};

static int collect_object(struct dl_phdr_info *info, size_t size, void *data)
{
	struct collect *c = data;

	(void)size;
	for (unsigned int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W) || !ph->p_memsz)
			continue;
		if (c->out)
			c->out[c->n] = (struct span){ info->dlpi_addr + ph->p_vaddr,
						      info->dlpi_addr + ph->p_vaddr + ph->p_memsz };
		c->n++;
	}
	return 0;
}

static int by_start(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static void learn_image(void)
{
	struct collect c = { NULL, 0 };
	unsigned int room;

	dl_iterate_phdr(collect_object, &c);
	room = c.n;
	if (!room) {
		__atomic_store_n(&learned, true, __ATOMIC_RELEASE);
		return;
	}
	/* Without memory there is nothing to compare against this time: no buffer is refused for it. */
	if (!(spans = dmamap__calloc(room, sizeof(*spans))))
		return;
	c = (struct collect){ spans, 0 };
	dl_iterate_phdr(collect_object, &c);
	/* An object loaded between the two walks is left out rather than overrun. */
	nspans = MIN(c.n, room);
	qsort(spans, nspans, sizeof(*spans), by_start);
	__atomic_store_n(&learned, true, __ATOMIC_RELEASE);
}

bool dmamap__port_in_image(const void *addr, size_t size, uintptr_t *gap_lo, uintptr_t *gap_hi)
{
	uintptr_t a = (uintptr_t)addr, end = a + size;
	unsigned int lo = 0, hi;

	if (!__atomic_load_n(&learned, __ATOMIC_ACQUIRE)) {
		pthread_mutex_lock(&learn_lock);
		if (!__atomic_load_n(&learned, __ATOMIC_RELAXED))
			learn_image();
		pthread_mutex_unlock(&learn_lock);
		if (!__atomic_load_n(&learned, __ATOMIC_ACQUIRE)) {
			/* Only this buffer is said clear, so that a caller's cache asks again for the next. */
			*gap_lo = a;
			*gap_hi = end < a ? UINTPTR_MAX : end;
			return false;
		}
	}
	hi = nspans;
	if (end < a)
		end = UINTPTR_MAX;
	/* The first span that ends after @a. */
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (spans[mid].hi <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < nspans && spans[lo].lo < end)
		return true;
	*gap_lo = lo ? spans[lo - 1].hi : 0;
	*gap_hi = lo < nspans ? spans[lo].lo : UINTPTR_MAX;
	return false;
}
