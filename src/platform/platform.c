/* SPDX-License-Identifier: MIT */
/* Platforms and their devices: creation, lookup, destruction, counters. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "../internal.h"
#include "../mm/cma.h"
#include "../debug/checker.h"

#define HOST_ARENA_SIZE (256ULL << 20)

static struct dmamap_platform *plat_alloc(enum dmamap_plat_kind kind,
					  const char *name)
{
	struct dmamap_platform *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->kind = kind;
	snprintf(p->name, sizeof(p->name), "%s", name ? name : "board");
	p->line_size = 64;
	p->line_shift = 6;
	p->strict = -1;
	pthread_mutex_init(&p->dev_lock, NULL);
	pthread_mutex_init(&p->ev_lock, NULL);
	pthread_mutex_init(&p->chaos.lock, NULL);
	for (unsigned int i = 0; i < STRIPE_LOCKS; i++)
		pthread_mutex_init(&p->stripe[i], NULL);
	if (dmamap__env_debug())
		dmamap_debug_enable(p, true);
	return p;
}

static int check_board(const struct dmamap_board *board,
		       struct dmamap_error *err)
{
	unsigned int ls = board->cache_line_size ? board->cache_line_size : 64;
	u64 total = 0;

	if (ls < 16 || ls > 256 || (ls & (ls - 1))) {
		dmamap__set_error(err, -EINVAL,
				  "board %s: cache line size %u is not a power of two in 16..256",
				  board->name ? board->name : "?", ls);
		return -EINVAL;
	}
	if (!board->nr_banks || board->nr_banks > DMAMAP_MAX_BANKS) {
		dmamap__set_error(err, -EINVAL, "board %s: %u RAM banks (need 1..%d)",
				  board->name ? board->name : "?", board->nr_banks,
				  DMAMAP_MAX_BANKS);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < board->nr_banks; i++) {
		const struct dmamap_ram_bank *b = &board->banks[i];

		if (!b->size || (b->start | b->size) & (PAGE_SIZE - 1) ||
		    b->start + b->size < b->start ||
		    b->size > ((u64)SIZE_MAX >> 3)) {
			dmamap__set_error(err, -EINVAL,
					  "board %s: RAM bank %u (0x%llx+0x%llx) is empty, unaligned or too large",
					  board->name ? board->name : "?", i,
					  (unsigned long long)b->start,
					  (unsigned long long)b->size);
			return -EINVAL;
		}
		total += b->size;
		if (total > DMAMAP_SIM_RAM_MAX) {
			dmamap__set_error(err, -EINVAL,
					  "board %s: more than %llu MiB of RAM to simulate",
					  board->name ? board->name : "?",
					  (unsigned long long)(DMAMAP_SIM_RAM_MAX >> 20));
			return -EINVAL;
		}
		for (unsigned int j = 0; j < i; j++) {
			const struct dmamap_ram_bank *o = &board->banks[j];

			if (b->start < o->start + o->size &&
			    o->start < b->start + b->size) {
				dmamap__set_error(err, -EINVAL,
						  "board %s: RAM banks %u and %u overlap",
						  board->name ? board->name : "?", j, i);
				return -EINVAL;
			}
		}
	}
	return 0;
}

/*
 * The default bounce pool sits at the bottom of the lowest bank, where
 * every device reaches, as the kernel puts it in low memory. @want: 0 for
 * the default size (64 MiB, at most 1/32 of RAM), ~0 for none.
 */
/* The RAM bank at the lowest address, where the bounce pool and CMA go. */
static struct dmamap_bank *lowest_bank(struct dmamap_platform *p)
{
	struct dmamap_bank *low = NULL;

	for (unsigned int i = 0; i < p->nr_banks; i++)
		if (!low || p->banks[i].start < low->start)
			low = &p->banks[i];
	return low;
}

static int swiotlb_setup(struct dmamap_platform *p, u64 want,
			 struct dmamap_error *err)
{
	struct dmamap_bank *low;
	u64 total = 0;

	if (want == ~0ULL)
		return 0;
	for (unsigned int i = 0; i < p->nr_banks; i++)
		total += p->banks[i].size;
	low = lowest_bank(p);
	if (!want)
		want = MIN(64ULL << 20, total / 32);
	want -= want % DMAMAP_SWIOTLB_MAX_MAPPING;
	if (!want || want >= low->size) {
		dmamap__set_error(err, -EINVAL,
				  "board %s: swiotlb pool of 0x%llx bytes does not fit the lowest RAM bank",
				  p->name, (unsigned long long)want);
		return -EINVAL;
	}
	p->swiotlb = dmamap__iotlb_create(p, "swiotlb", low->start, want);
	if (!p->swiotlb) {
		dmamap__set_error(err, -ENOMEM, "board %s: cannot set up swiotlb", p->name);
		return -ENOMEM;
	}
	p->swiotlb_start = low->start;
	p->swiotlb_bytes = want;
	return 0;
}

/* The CMA area at the top of the lowest bank, above everything swiotlb took. */
static int cma_setup(struct dmamap_platform *p, u64 size, phys_addr_t start,
		     struct dmamap_error *err)
{
	struct dmamap_bank *low = NULL;

	if (!size)
		return 0;
	if (start) {
		/* Placed by the board (reserved-memory reg): it must be RAM. */
		if (!dmamap__bank_of_phys(p, start, PAGE_ALIGN(size)) ||
		    (start & (PAGE_SIZE - 1))) {
			dmamap__set_error(err, -EINVAL, "board %s: CMA area at 0x%llx is not RAM",
					  p->name, (unsigned long long)start);
			return -EINVAL;
		}
		p->cma_start = start;
		p->cma = dmamap__cma_create(start, PAGE_ALIGN(size));
		p->cma_bytes = p->cma ? PAGE_ALIGN(size) : 0;
		return p->cma ? 0 : -ENOMEM;
	}
	low = lowest_bank(p);
	size = PAGE_ALIGN(size);
	if (size + (p->swiotlb_start == low->start ? p->swiotlb_bytes : 0) >= low->size) {
		dmamap__set_error(err, -EINVAL,
				  "board %s: CMA area of 0x%llx bytes does not fit the lowest RAM bank",
				  p->name, (unsigned long long)size);
		return -EINVAL;
	}
	p->cma_start = low->start + low->size - size;
	p->cma = dmamap__cma_create(p->cma_start, size);
	if (!p->cma) {
		dmamap__set_error(err, -ENOMEM, "board %s: cannot set up CMA", p->name);
		return -ENOMEM;
	}
	p->cma_bytes = size;
	return 0;
}

struct dmamap_platform *dmamap_platform_create(const struct dmamap_board *board,
					       struct dmamap_error *err)
{
	struct dmamap_platform *p;
	int ret;

	if (!board) {
		dmamap__set_error(err, -EINVAL, "no board description");
		return NULL;
	}
	if (check_board(board, err))
		return NULL;
	p = plat_alloc(PLAT_SIM, board->name);
	if (!p) {
		dmamap__set_error(err, -ENOMEM, "out of memory");
		return NULL;
	}
	p->line_size = board->cache_line_size ? board->cache_line_size : 64;
	p->line_shift = (unsigned int)__builtin_ctz(p->line_size);
	p->arch = board->arch;
	p->edge = board->edge_policy;
	p->zone_dma_limit = board->zone_dma_limit;
	p->highmem_start = board->highmem_start;
	p->default_mask = DMA_BIT_MASK(32);
	p->bounce_small_kmalloc = board->bounce_unaligned_kmalloc;
	p->nr_reserved = MIN(board->nr_reserved, (unsigned int)DMAMAP_MAX_RESERVED);
	memcpy(p->reserved, board->reserved, sizeof(p->reserved[0]) * p->nr_reserved);
	ret = dmamap__sim_ram_init(p, board, err);
	if (!ret)
		ret = swiotlb_setup(p, board->swiotlb_size, err);
	if (!ret)
		ret = cma_setup(p, board->cma_size, board->cma_start, err);
	if (!ret) {
		ret = dmamap__mm_init(p);
		if (ret)
			dmamap__set_error(err, ret, "board %s: cannot set up page allocator",
					  p->name);
	}
	if (ret) {
		dmamap_platform_destroy(p);
		return NULL;
	}
	dmamap__linear_register(p);
	for (unsigned int i = 0; i < board->nr_devices; i++) {
		if (!dmamap_device_create(p, &board->devices[i], err)) {
			dmamap_platform_destroy(p);
			return NULL;
		}
	}
	return p;
}

struct dmamap_platform *dmamap_platform_host(struct dmamap_error *err)
{
	struct dmamap_platform *p = plat_alloc(PLAT_HOST, "host");

	if (!p) {
		dmamap__set_error(err, -ENOMEM, "out of memory");
		return NULL;
	}
	p->default_mask = DMA_BIT_MASK(64);
	if (dmamap__host_arena_init(p, HOST_ARENA_SIZE) ||
	    swiotlb_setup(p, HOST_ARENA_SIZE / 32, err) || dmamap__mm_init(p)) {
		dmamap__set_error(err, -ENOMEM, "host: cannot create the coherent arena");
		dmamap_platform_destroy(p);
		return NULL;
	}
	return p;
}

struct dmamap_platform *dmamap_platform_builtin(const char *name,
						struct dmamap_error *err)
{
	const struct dmamap_board *b = name ? dmamap__builtin_board(name) : NULL;
	struct dmamap_platform *p;
	struct dmamap_error e = { 0 };

	/* The boards/NAME.dts files first; the same boards in C serve builds without libfdt. */
	if (name && (p = dmamap__dt_builtin(name, &e)))
		return p;
	if (name && e.code) {
		if (err)
			*err = e;
		return NULL;
	}
	if (b)
		return dmamap_platform_create(b, err);
	dmamap__set_error(err, -ENOENT, "no built-in board named '%s'", name ? name : "(null)");
	return NULL;
}

static const char *builtin_names[32];
static pthread_once_t builtin_names_once = PTHREAD_ONCE_INIT;

/* The boards written in C, then the ones embedded from boards/NAME.dts. */
static void builtin_names_init(void)
{
	unsigned int n = 0;

	for (unsigned int i = 0; n < 31 && dmamap__dt_builtin_name(i); i++)
		builtin_names[n++] = dmamap__dt_builtin_name(i);
	for (const char *const *c = dmamap__builtin_board_names; *c && n < 31; c++) {
		bool dup = false;

		for (unsigned int k = 0; k < n; k++)
			dup |= !strcmp(builtin_names[k], *c);
		if (!dup)
			builtin_names[n++] = *c;
	}
	builtin_names[n] = NULL;
}

const char *const *dmamap_platform_builtin_names(void)
{
	pthread_once(&builtin_names_once, builtin_names_init);
	return builtin_names;
}

static void device_free(struct device *dev);

void dmamap_platform_destroy(struct dmamap_platform *p)
{
	if (!p)
		return;
	while (p->nr_devices)
		dmamap_device_destroy(p->devices[p->nr_devices - 1]);
	free(p->devices);
	dmamap__dbg_platform_gone(p);
	dmamap__iotlb_destroy(p->swiotlb);
	dmamap__cma_destroy(p->cma);
	dmamap__linear_unregister(p);
	dmamap__mm_fini(p);
	dmamap__sim_ram_fini(p); /* the host arena is a bank with one view */
	free(p);
}

const char *dmamap_platform_name(const struct dmamap_platform *p)
{
	return p ? p->name : "";
}

bool dmamap_platform_is_sim(const struct dmamap_platform *p)
{
	return p && p->kind == PLAT_SIM;
}

unsigned int dmamap_cache_line_size(const struct dmamap_platform *p)
{
	return p ? p->line_size : 64;
}

/* ---- devices ------------------------------------------------------------- */

static int check_desc(struct dmamap_platform *p,
		      const struct dmamap_device_desc *d,
		      struct dmamap_error *err)
{
	if (!d->name || !d->name[0] || strlen(d->name) >= DMAMAP_NAME_MAX) {
		dmamap__set_error(err, -EINVAL, "device name missing or longer than %d",
				  DMAMAP_NAME_MAX - 1);
		return -EINVAL;
	}
	if (d->nr_ranges > DMAMAP_MAX_RANGES) {
		dmamap__set_error(err, -EINVAL, "device %s: %u dma ranges (max %d)",
				  d->name, d->nr_ranges, DMAMAP_MAX_RANGES);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < d->nr_ranges; i++) {
		const struct dmamap_dma_range *r = &d->ranges[i];

		if (!r->size || r->cpu_start + r->size - 1 < r->cpu_start ||
		    r->dma_start + r->size - 1 < r->dma_start) {
			dmamap__set_error(err, -EINVAL,
					  "device %s: dma range %u is empty or wraps", d->name, i);
			return -EINVAL;
		}
		for (unsigned int j = 0; j < i; j++) {
			const struct dmamap_dma_range *o = &d->ranges[j];

			if (r->dma_start <= o->dma_start + o->size - 1 &&
			    o->dma_start <= r->dma_start + r->size - 1) {
				dmamap__set_error(err, -EINVAL,
						  "device %s: dma ranges %u and %u overlap in bus space",
						  d->name, j, i);
				return -EINVAL;
			}
		}
	}
	if (d->model && !dmamap_model_find(d->model)) {
		dmamap__set_error(err, -EINVAL, "device %s: unknown device model '%s'",
				  d->name, d->model);
		return -EINVAL;
	}
	if (dmamap_device_lookup(p, d->name)) {
		dmamap__set_error(err, -EEXIST, "device %s: name already used", d->name);
		return -EEXIST;
	}
	return 0;
}

struct device *dmamap_device_create(struct dmamap_platform *p,
				    const struct dmamap_device_desc *d,
				    struct dmamap_error *err)
{
	struct device *dev;
	int ret;

	if (!p || !d) {
		dmamap__set_error(err, -EINVAL, "NULL platform or description");
		return NULL;
	}
	ret = check_desc(p, d, err);
	if (ret)
		return NULL;
	if (dmamap__fault(p, DMAMAP_FAULT_ALLOC) ||
	    !(dev = dmamap__zalloc_lines(sizeof(*dev)))) {
		dmamap__set_error(err, -ENOMEM, "device %s: out of memory", d->name);
		return NULL;
	}
	snprintf(dev->name, sizeof(dev->name), "%s", d->name);
	snprintf(dev->of_path, sizeof(dev->of_path), "%s", d->of_path ? d->of_path : "");
	dev->plat = p;
	dev->dma_mask = &dev->dma_mask_store;
	dev->dma_mask_store = d->dma_mask ? d->dma_mask : p->default_mask;
	dev->coherent_dma_mask = d->coherent_dma_mask ? d->coherent_dma_mask :
							 dev->dma_mask_store;
	dev->coherent = p->kind == PLAT_HOST ? true : d->coherent;
	dev->bus_master = true;
	dev->nr_ranges = d->nr_ranges;
	memcpy(dev->ranges, d->ranges, sizeof(d->ranges[0]) * d->nr_ranges);
	dev->bus_dma_limit = d->bus_dma_limit;
	if (!dev->bus_dma_limit) {
		for (unsigned int i = 0; i < d->nr_ranges; i++)
			dev->bus_dma_limit = MAX(dev->bus_dma_limit,
						 d->ranges[i].dma_start + d->ranges[i].size - 1);
	}
	dev->max_segment_size = d->max_segment_size ? d->max_segment_size : 65536;
	dev->segment_boundary_mask = d->segment_boundary_mask ?
					     d->segment_boundary_mask : ~0UL;
	pthread_mutex_init(&dev->fault_lock, NULL);
	dmamap__device_refresh(dev);

	pthread_mutex_lock(&p->dev_lock);
	if (p->nr_devices == p->cap_devices) {
		unsigned int cap = p->cap_devices ? p->cap_devices * 2 : 8;
		struct device **n = realloc(p->devices, cap * sizeof(*n));

		if (!n) {
			pthread_mutex_unlock(&p->dev_lock);
			free(dev);
			dmamap__set_error(err, -ENOMEM, "device %s: out of memory", d->name);
			return NULL;
		}
		p->devices = n;
		p->cap_devices = cap;
	}
	dev->id = p->next_dev_id++;
	p->devices[p->nr_devices++] = dev;
	pthread_mutex_unlock(&p->dev_lock);

	dev->iommu_stream = d->iommu_stream;
	if (d->iommu) {
		ret = dmamap__iommu_attach(dev, d->iommu, d->iommu_group, d->iommu_lazy);
		if (ret) {
			dmamap_device_destroy(dev);
			dmamap__set_error(err, ret, "device %s: cannot attach to IOMMU %s",
					  d->name, d->iommu);
			return NULL;
		}
	}
	if (d->coherent_pool_size &&
	    (ret = dma_declare_coherent_memory(dev, d->coherent_pool_start,
					       dmamap_phys_to_dma(dev, d->coherent_pool_start),
					       d->coherent_pool_size))) {
		dmamap_device_destroy(dev);
		dmamap__set_error(err, ret, "device %s: its coherent pool at 0x%llx is unusable",
				  d->name, (unsigned long long)d->coherent_pool_start);
		return NULL;
	}
	if (d->restricted_pool_size &&
	    (ret = dmamap_swiotlb_restricted_pool(dev, d->restricted_pool_start,
						  d->restricted_pool_size))) {
		dmamap_device_destroy(dev);
		dmamap__set_error(err, ret, "device %s: its restricted pool at 0x%llx is unusable",
				  d->name, (unsigned long long)d->restricted_pool_start);
		return NULL;
	}
	if (d->dmabounce_above) {
		ret = dmamap__dmabounce_register_above(dev, d->dmabounce_small ?
								d->dmabounce_small : 512,
						       d->dmabounce_large,
						       d->dmabounce_above);
		if (ret) {
			dmamap_device_destroy(dev);
			dmamap__set_error(err, ret, "device %s: dmabounce registration failed",
					  d->name);
			return NULL;
		}
	}
	if (d->model) {
		dev->model = dmamap_model_find(d->model);
		if (dev->model->probe) {
			ret = dev->model->probe(dev, &dev->model_priv);
			if (ret) {
				dev->model = NULL;
				dmamap_device_destroy(dev);
				dmamap__set_error(err, ret, "device %s: model %s failed to probe",
						  d->name, d->model);
				return NULL;
			}
		}
	}
	return dev;
}

void dmamap__device_refresh(struct device *dev)
{
	dev->map_limit = dmamap__reach_limit(dev, *dev->dma_mask);
	dev->fast_identity = dev->plat->kind == PLAT_HOST && !dev->dma_ops &&
			     dev->coherent && !dev->nr_ranges && !dev->pool &&
			     !dev->restricted && !dev->plat->swiotlb_force;
	dev->bounce_start = dev->plat->swiotlb_start;
	dev->bounce_len = dev->plat->swiotlb ? dev->plat->swiotlb_bytes : 0;
	dev->bounce_all = dmamap__swiotlb_bounce_all(dev);
}

void dmamap_device_destroy(struct device *dev)
{
	struct dmamap_platform *p;

	if (!dev)
		return;
	p = dev->plat;
	if (dev->model && dev->model->remove)
		dev->model->remove(dev, dev->model_priv);
	dmamap__dbg_device_gone(dev);
	dmamap__dmabounce_release(dev);
	dmamap__iommu_detach(dev);
	dmamap__iotlb_destroy(dev->restricted);
	dmamap__pool_destroy(dev);
	pthread_mutex_lock(&p->dev_lock);
	for (unsigned int i = 0; i < p->nr_devices; i++) {
		if (p->devices[i] == dev) {
			memmove(&p->devices[i], &p->devices[i + 1],
				(p->nr_devices - i - 1) * sizeof(dev));
			p->nr_devices--;
			break;
		}
	}
	pthread_mutex_unlock(&p->dev_lock);
	device_free(dev);
}

static void device_free(struct device *dev)
{
	pthread_mutex_destroy(&dev->fault_lock);
	free(dev);
}

struct device *dmamap_device_lookup(struct dmamap_platform *p, const char *name)
{
	struct device *found = NULL;

	if (!p || !name)
		return NULL;
	pthread_mutex_lock(&p->dev_lock);
	for (unsigned int i = 0; i < p->nr_devices; i++) {
		if (!strcmp(p->devices[i]->name, name)) {
			found = p->devices[i];
			break;
		}
	}
	pthread_mutex_unlock(&p->dev_lock);
	return found;
}

unsigned int dmamap_device_count(struct dmamap_platform *p)
{
	return p ? p->nr_devices : 0;
}

struct device *dmamap_device_at(struct dmamap_platform *p, unsigned int i)
{
	struct device *dev = NULL;

	if (!p)
		return NULL;
	pthread_mutex_lock(&p->dev_lock);
	if (i < p->nr_devices)
		dev = p->devices[i];
	pthread_mutex_unlock(&p->dev_lock);
	return dev;
}

const char *dmamap_device_model_name(const struct device *dev)
{
	return dev && dev->model ? dev->model->name : "";
}

const char *dev_name(const struct device *dev)
{
	return dev ? dev->name : "(null)";
}

struct dmamap_platform *dmamap_device_platform(const struct device *dev)
{
	return dev ? dev->plat : NULL;
}

bool dev_is_dma_coherent(const struct device *dev)
{
	return dev && dev->coherent;
}

/* ---- counters ------------------------------------------------------------ */

__thread unsigned int dmamap__shard_id __attribute__((tls_model("initial-exec")));
static unsigned int shard_next;

unsigned int dmamap__shard_assign(void)
{
	dmamap__shard_id = __atomic_add_fetch(&shard_next, 1, __ATOMIC_RELAXED);
	if (dmamap__shard_id == 0)
		dmamap__shard_id = __atomic_add_fetch(&shard_next, 1, __ATOMIC_RELAXED);
	return dmamap__shard_id;
}

int dmamap_device_stats(struct device *dev, struct dmamap_device_stats *s)
{
	uint64_t v[ST_COUNT] = { 0 };

	if (!dev || !s)
		return -EINVAL;
	for (unsigned int k = 0; k < ST_COUNT; k++)
		v[k] = dmamap__count_sum(dev->stats, sizeof(dev->stats[0]),
					 offsetof(struct dmamap_stat_shard, v) + k * sizeof(uint64_t));
	memset(s, 0, sizeof(*s));
	s->maps = v[ST_MAPS];
	s->unmaps = v[ST_UNMAPS];
	s->sg_maps = v[ST_SG_MAPS];
	s->bytes_mapped = v[ST_BYTES_MAPPED];
	s->bytes_bounced = v[ST_BYTES_BOUNCED];
	s->syncs_for_cpu = v[ST_SYNC_CPU];
	s->syncs_for_device = v[ST_SYNC_DEV];
	s->cache_bytes_cleaned = v[ST_CLEANED];
	s->cache_bytes_invalidated = v[ST_INVALIDATED];
	s->allocs = v[ST_ALLOCS];
	s->frees = v[ST_FREES];
	s->bytes_allocated = v[ST_BYTES_ALLOC];
	s->iommu_pages_mapped = v[ST_IOMMU_PAGES];
	s->dev_bytes_read = v[ST_DEV_READ];
	s->dev_bytes_written = v[ST_DEV_WRITTEN];
	s->faults = v[ST_FAULTS];
	for (unsigned int k = 0; k < DMAMAP_ERRK_COUNT; k++) {
		s->errors_by_kind[k] = v[ST_ERR0 + k];
		s->errors += v[ST_ERR0 + k];
	}
	return 0;
}

void dmamap_device_stats_reset(struct device *dev)
{
	if (!dev)
		return;
	for (unsigned int i = 0; i < DMAMAP_STAT_SHARDS; i++)
		for (unsigned int k = 0; k < ST_COUNT; k++)
			__atomic_store_n(&dev->stats[i].v[k], 0, __ATOMIC_RELAXED);
}

const char *dmamap_err_kind_name(enum dmamap_err_kind kind)
{
	static const char *const names[DMAMAP_ERRK_COUNT] = {
		"null-arg", "bad-direction", "zero-size", "bad-handle",
		"unreachable", "not-linear", "bad-mask", "no-memory", "bad-arg",
	};

	return (unsigned int)kind < DMAMAP_ERRK_COUNT ? names[kind] : "unknown";
}

int dmamap_device_info(struct device *dev, struct dmamap_device_info *info)
{
	const struct dma_map_ops *ops;
	struct dmamap_swiotlb_stats sw;

	if (!dev || !info)
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	ops = get_dma_ops(dev);
	snprintf(info->name, sizeof(info->name), "%s", dev->name);
	snprintf(info->path, sizeof(info->path), "%s", dev->of_path);
	snprintf(info->model, sizeof(info->model), "%s", dmamap_device_model_name(dev));
	snprintf(info->ops, sizeof(info->ops), "%s", ops->name ? ops->name : "?");
	info->coherent = dev->coherent;
	info->dma_mask = *dev->dma_mask;
	info->coherent_dma_mask = dev->coherent_dma_mask;
	info->bus_dma_limit = dev->bus_dma_limit;
	info->nr_ranges = dev->nr_ranges;
	memcpy(info->ranges, dev->ranges, sizeof(dev->ranges[0]) * dev->nr_ranges);
	info->coherent_pool = dev->pool != NULL;
	if (dev->domain) {
		snprintf(info->iommu, sizeof(info->iommu), "%s", dmamap__iommu_name(dev));
		info->iommu_stream = dev->iommu_stream;
	}
	if (dev->restricted && !dmamap_swiotlb_stats(NULL, dev, &sw)) {
		info->restricted_pool = sw.start;
		info->restricted_pool_size = sw.total_slots * sw.slot_size;
	}
	return 0;
}

int dmamap_ram_bank(struct dmamap_platform *p, unsigned int i,
		    struct dmamap_ram_bank *bank)
{
	if (!p || !bank)
		return -EINVAL;
	if (p->kind != PLAT_SIM || i >= p->nr_banks)
		return -ENOENT;
	bank->start = p->banks[i].start;
	bank->size = p->banks[i].size;
	return 0;
}
