/* SPDX-License-Identifier: MIT */
/*
 * swiotlb. A pool is a run of 2 KiB slots in memory the devices reach,
 * split into areas with their own locks; a mapping takes contiguous slots
 * inside one 128-slot segment, keeping the low address bits the device's
 * min_align_mask asks for. The CPU copies between the original buffer and
 * the slots (both through the cache, as the kernel does); the slots then
 * get the cache maintenance a non-coherent device needs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "../debug/checker.h"

#define AREAS 4

struct area {
	pthread_mutex_t lock;
	unsigned long first, nslots; /* slots of this area */
	unsigned long next;          /* where the next search starts */
} __attribute__((aligned(64)));

struct dmamap_iotlb {
	char name[DMAMAP_NAME_MAX];
	struct dmamap_platform *p;
	phys_addr_t start;
	unsigned long nslots;
	unsigned int nareas;
	struct area areas[AREAS];
	/* Per slot: in use, and the head slot of its mapping. */
	uint8_t *used;
	uint32_t *head;
	/* Per head slot: the original buffer, the bounce address, the size. */
	phys_addr_t *orig;
	phys_addr_t *tlb;
	uint32_t *size;
	uint32_t *nused; /* slots held by the mapping */
	/* counters */
	unsigned long used_slots, high_water, bounced, failures;
	uint64_t to_dev, from_dev;
};

static void *cpu_at(struct dmamap_platform *p, phys_addr_t phys)
{
	return dmamap__phys_to_view(p, phys, VIEW_CPU);
}

void dmamap__iotlb_destroy(struct dmamap_iotlb *t)
{
	if (!t)
		return;
	for (unsigned int a = 0; a < t->nareas; a++)
		pthread_mutex_destroy(&t->areas[a].lock);
	free(t->used);
	free(t->head);
	free(t->orig);
	free(t->tlb);
	free(t->size);
	free(t->nused);
	free(t);
}

struct dmamap_iotlb *dmamap__iotlb_create(struct dmamap_platform *p,
					  const char *name, phys_addr_t start,
					  u64 bytes)
{
	struct dmamap_iotlb *t;
	unsigned long n = (unsigned long)(bytes >> IO_TLB_SHIFT);
	unsigned long segs = n / IO_TLB_SEGSIZE;

	if (!segs || (start & (PAGE_SIZE - 1)))
		return NULL;
	n = segs * IO_TLB_SEGSIZE;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->p = p;
	t->start = start;
	t->nslots = n;
	t->used = calloc(n, 1);
	t->head = calloc(n, sizeof(*t->head));
	t->orig = calloc(n, sizeof(*t->orig));
	t->tlb = calloc(n, sizeof(*t->tlb));
	t->size = calloc(n, sizeof(*t->size));
	t->nused = calloc(n, sizeof(*t->nused));
	if (!t->used || !t->head || !t->orig || !t->tlb || !t->size || !t->nused) {
		dmamap__iotlb_destroy(t);
		return NULL;
	}
	/* Areas of whole segments, so no mapping straddles two locks. */
	t->nareas = (unsigned int)MIN((unsigned long)AREAS, segs);
	for (unsigned int a = 0; a < t->nareas; a++) {
		unsigned long per = segs / t->nareas;

		pthread_mutex_init(&t->areas[a].lock, NULL);
		t->areas[a].first = a * per * IO_TLB_SEGSIZE;
		t->areas[a].nslots = (a == t->nareas - 1 ? segs - a * per : per) *
				     IO_TLB_SEGSIZE;
	}
	return t;
}

bool dmamap__iotlb_contains(const struct dmamap_iotlb *t, phys_addr_t phys)
{
	return t && phys >= t->start &&
	       phys - t->start < ((u64)t->nslots << IO_TLB_SHIFT);
}

/*
 * Find @nslots free slots in one segment of area @a whose address keeps
 * the bits @align_mask of @orig (slot granular), starting at a multiple of
 * @stride slots. Returns the first slot or -1.
 */
static long area_find(struct dmamap_iotlb *t, struct area *ar, unsigned long nslots,
		      phys_addr_t orig, u64 align_mask, unsigned long stride)
{
	unsigned long tries = ar->nslots;
	unsigned long i = ar->next;

	for (; tries--; i++) {
		unsigned long j;

		if (i >= ar->nslots)
			i = 0;
		if (i % stride)
			continue;
		if ((i % IO_TLB_SEGSIZE) + nslots > IO_TLB_SEGSIZE)
			continue;
		if (((t->start + ((u64)(ar->first + i) << IO_TLB_SHIFT)) ^ orig) & align_mask)
			continue;
		for (j = 0; j < nslots && !t->used[ar->first + i + j]; j++)
			;
		if (j == nslots) {
			ar->next = (i + nslots) % ar->nslots;
			return (long)(ar->first + i);
		}
	}
	return -1;
}

static unsigned long largest_run(struct dmamap_iotlb *t)
{
	unsigned long best = 0, run = 0;

	for (unsigned long i = 0; i < t->nslots; i++) {
		if (i % IO_TLB_SEGSIZE == 0)
			run = 0;
		run = t->used[i] ? 0 : run + 1;
		best = MAX(best, run);
	}
	return best;
}

/*
 * Take slots for a mapping of @size bytes of @orig. Returns the bounce
 * physical address (slot plus the offset min_align_mask keeps), or
 * PHYS_NONE.
 */
static phys_addr_t slots_get(struct device *dev, struct dmamap_iotlb *t,
			     phys_addr_t orig, size_t size, unsigned int min_align,
			     unsigned long attrs)
{
	u64 offset = orig & min_align & (IO_TLB_SIZE - 1);
	u64 align_mask = min_align & ~(u64)(IO_TLB_SIZE - 1);
	unsigned long nslots = (unsigned long)((offset + size + IO_TLB_SIZE - 1) >> IO_TLB_SHIFT);
	unsigned long stride = 1;
	unsigned int a0 = dmamap__my_shard() % t->nareas;
	long slot = -1;
	unsigned long used;

	/* Page-sized and larger bounce buffers start on a page, as the kernel's. */
	if (size >= PAGE_SIZE && !align_mask)
		stride = PAGE_SIZE >> IO_TLB_SHIFT;
	if (size > DMAMAP_SWIOTLB_MAX_MAPPING || nslots > IO_TLB_SEGSIZE) {
		__atomic_fetch_add(&t->failures, 1, __ATOMIC_RELAXED);
		if (!(attrs & DMA_ATTR_NO_WARN))
			dmamap__report(dev->plat, dev, DMAMAP_DBG_ALLOC_FAILED,
				       "swiotlb pool %s: mapping of %zu bytes is over the maximum of %lu",
				       t->name, size, DMAMAP_SWIOTLB_MAX_MAPPING);
		return PHYS_NONE;
	}
	for (unsigned int k = 0; k < t->nareas && slot < 0; k++) {
		struct area *ar = &t->areas[(a0 + k) % t->nareas];

		pthread_mutex_lock(&ar->lock);
		slot = area_find(t, ar, nslots, orig, align_mask, stride);
		if (slot >= 0) {
			for (unsigned long j = 0; j < nslots; j++) {
				t->used[slot + j] = 1;
				t->head[slot + j] = (uint32_t)slot;
			}
			t->orig[slot] = orig;
			t->tlb[slot] = t->start + ((u64)slot << IO_TLB_SHIFT) + offset;
			t->size[slot] = (uint32_t)size;
			t->nused[slot] = (uint32_t)nslots;
		}
		pthread_mutex_unlock(&ar->lock);
	}
	if (slot < 0) {
		__atomic_fetch_add(&t->failures, 1, __ATOMIC_RELAXED);
		if (!(attrs & DMA_ATTR_NO_WARN))
			dmamap__report(dev->plat, dev, DMAMAP_DBG_ALLOC_FAILED,
				       "swiotlb pool %s full: %zu bytes (%lu slots) asked; slots total %lu, used %lu, high-water %lu, largest free run %lu",
				       t->name, size, nslots, t->nslots,
				       __atomic_load_n(&t->used_slots, __ATOMIC_RELAXED),
				       __atomic_load_n(&t->high_water, __ATOMIC_RELAXED),
				       largest_run(t));
		return PHYS_NONE;
	}
	used = __atomic_add_fetch(&t->used_slots, nslots, __ATOMIC_RELAXED);
	for (unsigned long hw = __atomic_load_n(&t->high_water, __ATOMIC_RELAXED);
	     used > hw && !__atomic_compare_exchange_n(&t->high_water, &hw, used, false,
						       __ATOMIC_RELAXED, __ATOMIC_RELAXED);)
		;
	return t->start + ((u64)slot << IO_TLB_SHIFT) + offset;
}

static unsigned long slot_of(const struct dmamap_iotlb *t, phys_addr_t tlb)
{
	return (unsigned long)((tlb - t->start) >> IO_TLB_SHIFT);
}

static void slots_put(struct dmamap_iotlb *t, phys_addr_t tlb)
{
	unsigned long head = t->head[slot_of(t, tlb)];
	unsigned long n = t->nused[head];

	for (unsigned int a = 0; a < t->nareas; a++) {
		struct area *ar = &t->areas[a];

		if (head < ar->first || head >= ar->first + ar->nslots)
			continue;
		pthread_mutex_lock(&ar->lock);
		for (unsigned long j = 0; j < n; j++)
			t->used[head + j] = 0;
		t->nused[head] = 0;
		pthread_mutex_unlock(&ar->lock);
		break;
	}
	__atomic_fetch_sub(&t->used_slots, n, __ATOMIC_RELAXED);
}

/* Copy @size bytes at bounce address @tlb to (TO_DEVICE) or from its original. */
static void bounce(struct dmamap_iotlb *t, phys_addr_t tlb, size_t size,
		   enum dma_data_direction dir)
{
	unsigned long head = t->head[slot_of(t, tlb)];
	u64 off = tlb - t->tlb[head];
	uint8_t *orig, *slot;

	if (off >= t->size[head])
		return;
	size = MIN(size, (size_t)(t->size[head] - off));
	orig = cpu_at(t->p, t->orig[head] + off);
	slot = cpu_at(t->p, tlb);
	if (!orig || !slot)
		return;
	if (dir == DMA_TO_DEVICE) {
		memcpy(slot, orig, size);
		__atomic_fetch_add(&t->to_dev, size, __ATOMIC_RELAXED);
	} else {
		memcpy(orig, slot, size);
		__atomic_fetch_add(&t->from_dev, size, __ATOMIC_RELAXED);
	}
}

/* ---- the dma-direct side ---------------------------------------------------- */

static struct dmamap_iotlb *pool_for(const struct device *dev)
{
	return dev->restricted ? dev->restricted : dev->plat->swiotlb;
}

bool dmamap__swiotlb_wanted(const struct device *dev, phys_addr_t phys,
			    size_t size, enum dma_data_direction dir)
{
	struct dmamap_platform *p = dev->plat;

	if (dev->restricted || (p->swiotlb && p->swiotlb_force))
		return true;
	if (p->swiotlb_off)
		return false;
	/* Sub-line kmalloc buffers on a non-coherent device share lines: bounce them. */
	return p->bounce_small_kmalloc && p->swiotlb && !dev->coherent &&
	       dir != DMA_TO_DEVICE && size < 2 * (size_t)p->line_size &&
	       dmamap__kmalloc_tail_shared(p, phys + size);
}

dma_addr_t dmamap__swiotlb_map(struct device *dev, phys_addr_t phys, size_t size,
			       enum dma_data_direction dir, unsigned long attrs,
			       int *errp)
{
	struct dmamap_iotlb *t = pool_for(dev);
	phys_addr_t tlb;
	dma_addr_t dma;

	if (!t) {
		*errp = -EIO;
		return DMA_MAPPING_ERROR;
	}
	tlb = slots_get(dev, t, phys, size, dev->min_align_mask, attrs);
	if (tlb == PHYS_NONE) {
		*errp = -ENOMEM;
		dmamap__stat_add(dev, ST_ERR0 + DMAMAP_ERRK_NOMEM, 1);
		return DMA_MAPPING_ERROR;
	}
	dma = dmamap_phys_to_dma(dev, tlb);
	if (dma == DMA_MAPPING_ERROR || !dmamap_dma_capable(dev, dma, size, true)) {
		slots_put(t, tlb);
		*errp = -EIO;
		dmamap__api_error(dev, "dma_map", DMAMAP_ERRK_UNREACHABLE,
				  DMAMAP_DBG_UNREACHABLE,
				  "swiotlb pool %s [phys=0x%llx] is beyond the device's reach too",
				  t->name, (unsigned long long)tlb);
		return DMA_MAPPING_ERROR;
	}
	/*
	 * Always copy in, whatever the direction: a device that writes only
	 * part of the buffer must leave the rest as it was, not as the last
	 * user of the slots left it.
	 */
	bounce(t, tlb, size, DMA_TO_DEVICE);
	__atomic_fetch_add(&t->bounced, 1, __ATOMIC_RELAXED);
	dmamap__stat_add(dev, ST_BYTES_BOUNCED, size);
	if (!dev->coherent && !(attrs & DMA_ATTR_SKIP_CPU_SYNC))
		dmamap__sim_sync_for_device(dev, tlb, size, dir);
	return dma;
}

/* The pool holding @phys for this device, if it is a bounce address. */
struct dmamap_iotlb *dmamap__swiotlb_of(const struct device *dev, phys_addr_t phys)
{
	if (dev->restricted && dmamap__iotlb_contains(dev->restricted, phys))
		return dev->restricted;
	if (dmamap__iotlb_contains(dev->plat->swiotlb, phys))
		return dev->plat->swiotlb;
	return NULL;
}

void dmamap__swiotlb_unmap(struct device *dev, struct dmamap_iotlb *t,
			   phys_addr_t tlb, size_t size,
			   enum dma_data_direction dir, unsigned long attrs)
{
	if (!t->used[slot_of(t, tlb)])
		return; /* not a live bounce buffer: the checker says why */
	if (!dev->coherent && !(attrs & DMA_ATTR_SKIP_CPU_SYNC))
		dmamap__sim_sync_for_cpu(dev, tlb, size, dir);
	if (dir == DMA_FROM_DEVICE || dir == DMA_BIDIRECTIONAL)
		bounce(t, tlb, size, DMA_FROM_DEVICE);
	slots_put(t, tlb);
}

void dmamap__swiotlb_sync(struct device *dev, struct dmamap_iotlb *t,
			  phys_addr_t tlb, size_t size,
			  enum dma_data_direction dir, bool for_cpu)
{
	if (!t->used[slot_of(t, tlb)])
		return;
	if (for_cpu) {
		if (!dev->coherent)
			dmamap__sim_sync_for_cpu(dev, tlb, size, dir);
		if (dir == DMA_FROM_DEVICE || dir == DMA_BIDIRECTIONAL)
			bounce(t, tlb, size, DMA_FROM_DEVICE);
	} else {
		if (dir == DMA_TO_DEVICE || dir == DMA_BIDIRECTIONAL)
			bounce(t, tlb, size, DMA_TO_DEVICE);
		if (!dev->coherent)
			dmamap__sim_sync_for_device(dev, tlb, size, dir);
	}
}

/* ---- restricted pools: coherent allocations come from them too --------------- */

void *dmamap__swiotlb_alloc(struct device *dev, size_t size, dma_addr_t *dma)
{
	struct dmamap_iotlb *t = dev->restricted;
	phys_addr_t tlb;

	if (!t)
		return NULL;
	size = PAGE_ALIGN(size);
	tlb = slots_get(dev, t, 0, size, 0, DMA_ATTR_NO_WARN);
	if (tlb == PHYS_NONE)
		return NULL;
	t->orig[t->head[slot_of(t, tlb)]] = PHYS_NONE; /* nothing to bounce */
	*dma = dmamap_phys_to_dma(dev, tlb);
	if (dev->plat->kind == PLAT_SIM)
		dmamap__sim_reset_range(dev->plat, tlb, size, true);
	else
		memset(cpu_at(dev->plat, tlb), 0, size);
	return dmamap__phys_to_view(dev->plat, tlb, dev->coherent ? VIEW_CPU : VIEW_MEM);
}

bool dmamap__swiotlb_free(struct device *dev, void *vaddr)
{
	struct dmamap_iotlb *t = dev->restricted;
	enum dmamap_view view;
	phys_addr_t phys;

	if (!t)
		return false;
	phys = dmamap__addr_to_phys(dev->plat, vaddr, &view);
	if (!dmamap__iotlb_contains(t, phys))
		return false;
	if (t->used[slot_of(t, phys)])
		slots_put(t, phys);
	return true;
}

/* ---- public ------------------------------------------------------------------- */

int dmamap_swiotlb_stats(struct dmamap_platform *p, struct device *dev,
			 struct dmamap_swiotlb_stats *s)
{
	struct dmamap_iotlb *t;

	if ((!p && !dev) || !s)
		return -EINVAL;
	t = dev ? pool_for(dev) : p->swiotlb;
	if (!t)
		return -ENODEV;
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", t->name);
	s->start = t->start;
	s->slot_size = IO_TLB_SIZE;
	s->total_slots = t->nslots;
	s->used_slots = __atomic_load_n(&t->used_slots, __ATOMIC_RELAXED);
	s->high_water = __atomic_load_n(&t->high_water, __ATOMIC_RELAXED);
	s->bounced_maps = __atomic_load_n(&t->bounced, __ATOMIC_RELAXED);
	s->bytes_to_device = __atomic_load_n(&t->to_dev, __ATOMIC_RELAXED);
	s->bytes_from_device = __atomic_load_n(&t->from_dev, __ATOMIC_RELAXED);
	s->failures = __atomic_load_n(&t->failures, __ATOMIC_RELAXED);
	for (unsigned int a = 0; a < t->nareas; a++)
		pthread_mutex_lock(&t->areas[a].lock);
	s->largest_free_run = largest_run(t);
	for (unsigned int a = 0; a < t->nareas; a++)
		pthread_mutex_unlock(&t->areas[a].lock);
	return 0;
}

int dmamap_swiotlb_set_mode(struct dmamap_platform *p,
			    enum dmamap_swiotlb_mode mode)
{
	if (!p || (unsigned int)mode > DMAMAP_SWIOTLB_NOFORCE)
		return -EINVAL;
	if (!p->swiotlb && mode != DMAMAP_SWIOTLB_NOFORCE)
		return -ENODEV;
	p->swiotlb_force = mode == DMAMAP_SWIOTLB_FORCE;
	p->swiotlb_off = mode == DMAMAP_SWIOTLB_NOFORCE;
	pthread_mutex_lock(&p->dev_lock);
	for (unsigned int i = 0; i < p->nr_devices; i++)
		dmamap__device_refresh(p->devices[i]);
	pthread_mutex_unlock(&p->dev_lock);
	return 0;
}

int dmamap_swiotlb_restricted_pool(struct device *dev, phys_addr_t phys,
				   size_t size)
{
	struct dmamap_platform *p;
	char name[DMAMAP_NAME_MAX];

	if (!dev || !size || (phys & (PAGE_SIZE - 1)) ||
	    size % DMAMAP_SWIOTLB_MAX_MAPPING)
		return -EINVAL;
	p = dev->plat;
	if (p->kind == PLAT_SIM && !dmamap__bank_of_phys(p, phys, size))
		return -EINVAL;
	if (dev->restricted)
		return -EBUSY;
	snprintf(name, sizeof(name), "restricted:%.50s", dev->name);
	dev->restricted = dmamap__iotlb_create(p, name, phys, size);
	if (!dev->restricted)
		return -ENOMEM;
	if (p->kind == PLAT_SIM)
		dmamap__sim_reset_range(p, phys, size, false);
	dmamap__device_refresh(dev);
	return 0;
}

bool dmamap_swiotlb_is_bounce(struct device *dev, dma_addr_t dma)
{
	phys_addr_t phys;

	if (!dev)
		return false;
	phys = dmamap__dev_dma_to_phys(dev, dma, 1);
	return phys != PHYS_NONE && dmamap__swiotlb_of(dev, phys) != NULL;
}

int dma_set_min_align_mask(struct device *dev, unsigned int min_align_mask)
{
	if (!dev)
		return -EINVAL;
	dev->min_align_mask = min_align_mask;
	return 0;
}

unsigned int dma_get_min_align_mask(struct device *dev)
{
	return dev ? dev->min_align_mask : 0;
}
