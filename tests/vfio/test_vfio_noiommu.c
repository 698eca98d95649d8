/* SPDX-License-Identifier: MIT */
/*
 * The VFIO platform in the UNSAFE no-IOMMU mode (unsafe_noiommu), against
 * the fake kernel (fake_kernel.h, cfg.noiommu): the group's file is
 * /dev/vfio/noiommu-N, the container's IOMMU VFIO_NOIOMMU_IOMMU and no
 * type1 request is ever made; registered memory (and the arena) is
 * locked and its physical addresses read from /proc/self/pagemap; a map
 * of it is the physical address, only where the buffer's pages are
 * physically contiguous; unregistered memory is refused; an unmap makes
 * no call. The device's side is fake_dma_phys(): what it reads and writes
 * at a physical address is the CPU's memory. Every refusal of the kernel
 * (no CAP_SYS_ADMIN, a page not present, mlock refused) leaves nothing
 * locked, open or in the ledger.
 *
 * Tests named vfio_bug_* show a bug of src/ that is not fixed yet.
 */
#include <sys/mman.h>
#include <fcntl.h>
#include <linux/vfio.h>
#include "../helpers.h"
#include "../../src/lib/mem.h"
#include "../../src/platform/vfio/vfio.h"
#include "fake_kernel.h"

#define K dmamap__vfio_kernel
#define ARENA (1ULL << 20)
#define CHUNK FAKE_CHUNK

static bool ledger_same(const struct dmamap__ledger *a)
{
	struct dmamap__ledger b;

	dmamap__ledger_read(&b);
	return a->mapped_bytes == b.mapped_bytes && a->memfds == b.memfds;
}

/*
 * The fake installed in no-IOMMU mode with @cfg (NULL: the defaults; its
 * noiommu set whatever it says), then the platform with unsafe_noiommu
 * and an arena of @arena bytes, checked or quiet. NULL, said, on failure.
 */
static struct dmamap_platform *nplat(const struct fake_vfio_cfg *cfg, size_t arena, bool check,
				     struct device **dev)
{
	struct fake_vfio_cfg c = cfg ? *cfg : (struct fake_vfio_cfg){ 0 };
	struct dmamap_vfio_options opt = { .arena_size = arena, .unsafe_noiommu = true };

	c.noiommu = true;
	return fake_platform_opt(&c, &opt, check, dev);
}

/* Destroy @p: nothing open, mapped or locked, no misuse, no stray munlock. */
static void end(struct dmamap_platform *p)
{
	char why[256];

	dmamap_platform_destroy(p);
	CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "after destroy: %s", why);
	CHECK_EQ(fake_counts.munlock_stray, 0);
	fake_vfio_remove();
}

/* Anonymous memory of @n whole 2 MiB chunks, the first byte chunk-aligned. */
struct chunks {
	uint8_t *raw, *mem;
	size_t raw_len;
};

static bool chunks_get(struct chunks *c, unsigned int n)
{
	c->raw_len = (n + 1) * CHUNK;
	c->raw = mmap(NULL, c->raw_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c->raw == MAP_FAILED) {
		printf("#   mmap of %zu bytes failed\n", c->raw_len);
		return false;
	}
	c->mem = (uint8_t *)(((uintptr_t)c->raw + (uintptr_t)CHUNK - 1) & ~((uintptr_t)CHUNK - 1));
	return true;
}

static void chunks_put(struct chunks *c)
{
	munmap(c->raw, c->raw_len);
}

/* Does the device read @want at physical @pa? */
static bool device_reads(uint64_t pa, const void *want, size_t len)
{
	uint8_t *seen = malloc(len);
	bool ok = seen && fake_dma_phys(pa, seen, len, false) == 0 && !memcmp(seen, want, len);

	free(seen);
	return ok;
}

/* The fake itself, through the table: what the tests below conclude is as good as its rules. */
TEST(vfio_noiommu_fake_kernel_rules)
{
	const size_t pg = host_page();
	struct fake_vfio_cfg cfg = { .noiommu = true };
	struct vfio_iommu_type1_info info = { .argsz = sizeof(info) };
	struct vfio_iommu_type1_dma_map m = { .argsz = sizeof(m) };
	struct vfio_iommu_type1_dma_unmap u = { .argsz = sizeof(u) };
	struct chunks ch;
	uint64_t e[4], pa;
	uint8_t w[64], r[64];
	int c, g, pm;

	REQUIRE(chunks_get(&ch, 2));
	fake_vfio_install(&cfg);
	/* The group's file is the no-IOMMU one; the IOMMU one is not there. */
	CHECK(K->open("/dev/vfio/12", O_RDWR) < 0);
	CHECK_EQ(errno, ENOENT);
	c = K->open("/dev/vfio/vfio", O_RDWR);
	g = K->open("/dev/vfio/noiommu-12", O_RDWR);
	REQUIRE(c >= 0 && g >= 0);
	CHECK_EQ(K->ioctl(c, VFIO_CHECK_EXTENSION, (void *)(uintptr_t)VFIO_NOIOMMU_IOMMU), 1);
	CHECK_EQ(K->ioctl(c, VFIO_CHECK_EXTENSION, (void *)(uintptr_t)VFIO_TYPE1v2_IOMMU), 0);
	CHECK_EQ(K->ioctl(c, VFIO_CHECK_EXTENSION, (void *)(uintptr_t)VFIO_TYPE1_IOMMU), 0);
	REQUIRE(K->ioctl(g, VFIO_GROUP_SET_CONTAINER, &c) == 0);
	CHECK(K->ioctl(c, VFIO_SET_IOMMU, (void *)(uintptr_t)VFIO_TYPE1v2_IOMMU) < 0);
	CHECK_EQ(errno, EINVAL);
	CHECK_EQ(K->ioctl(c, VFIO_SET_IOMMU, (void *)(uintptr_t)VFIO_NOIOMMU_IOMMU), 0);
	CHECK_EQ(fake_counts.misuse, 0);
	/* The no-IOMMU driver answers no type1 request: each refused, misuse. */
	CHECK(K->ioctl(c, VFIO_IOMMU_GET_INFO, &info) < 0);
	CHECK_EQ(errno, ENOTTY);
	CHECK_EQ(fake_counts.misuse, 1);
	CHECK(K->ioctl(c, VFIO_IOMMU_MAP_DMA, &m) < 0);
	CHECK(K->ioctl(c, VFIO_IOMMU_UNMAP_DMA, &u) < 0);
	CHECK_EQ(fake_counts.misuse, 3);
	CHECK(strstr(fake_misuse, "UNMAP_DMA"));
	K->close(g);
	K->close(c);

	/* Without the driver (or on a machine with an IOMMU) no VFIO_NOIOMMU_IOMMU. */
	cfg.noiommu_no_ext = true;
	fake_vfio_install(&cfg);
	c = K->open("/dev/vfio/vfio", O_RDWR);
	CHECK_EQ(K->ioctl(c, VFIO_CHECK_EXTENSION, (void *)(uintptr_t)VFIO_NOIOMMU_IOMMU), 0);
	K->close(c);
	fake_vfio_install(NULL);
	c = K->open("/dev/vfio/vfio", O_RDWR);
	CHECK_EQ(K->ioctl(c, VFIO_CHECK_EXTENSION, (void *)(uintptr_t)VFIO_NOIOMMU_IOMMU), 0);
	CHECK(K->open("/dev/vfio/noiommu-12", O_RDWR) < 0);
	K->close(c);

	/* pagemap: read only; a page not locked is not present. */
	fake_vfio_install(&cfg);
	CHECK(K->open("/proc/self/pagemap", O_RDWR) < 0);
	CHECK_EQ(errno, EACCES);
	CHECK_EQ(fake_counts.misuse, 1);
	fake_vfio_install(&cfg);
	pm = K->open("/proc/self/pagemap", O_RDONLY);
	REQUIRE(pm >= 0);
	CHECK_EQ(K->pread(pm, e, 8, (off_t)((uintptr_t)ch.mem / pg * 8)), 8);
	CHECK_EQ(e[0], 0);
	CHECK(K->pread(pm, e, 8, 4) < 0); /* not a whole entry: misuse */
	CHECK_EQ(fake_counts.misuse, 1);
	fake_vfio_install(&cfg);
	pm = K->open("/proc/self/pagemap", O_RDONLY);

	/* Locked: present, bits 55 and 56 set, the frame fake_phys_of() gives. */
	CHECK_EQ(K->mlock(ch.mem + CHUNK - 2 * pg, 4 * pg), 0);
	CHECK_EQ(fake_locked_bytes(), 4 * pg);
	CHECK(fake_is_locked(ch.mem + CHUNK - 2 * pg, 4 * pg));
	CHECK(!fake_is_locked(ch.mem + CHUNK - 3 * pg, pg));
	CHECK_EQ(K->pread(pm, e, 32, (off_t)(((uintptr_t)ch.mem + CHUNK - 2 * pg) / pg * 8)), 32);
	for (int i = 0; i < 4; i++) {
		CHECK(e[i] >> 63);
		CHECK((e[i] >> 55 & 3) == 3);
		CHECK_EQ((e[i] & ((1ULL << 55) - 1)) * pg, fake_phys_of(ch.mem + CHUNK + (i - 2) * pg));
		CHECK((e[i] & ((1ULL << 55) - 1)) * pg >= (1ULL << 32));
	}
	/* Contiguous within a chunk, not across its end. */
	CHECK_EQ(e[1], e[0] + 1);
	CHECK(e[2] != e[1] + 1);
	CHECK_EQ(e[3], e[2] + 1);
	/* The device at a physical address: the CPU's bytes, across the chunks' boundary too. */
	pat(w, sizeof(w), 1);
	memcpy(ch.mem + CHUNK - 32, w, sizeof(w));
	pa = fake_phys_of(ch.mem + CHUNK - 32);
	CHECK_EQ(fake_dma_phys(pa, r, 32, false), 0);
	CHECK_MEM(r, w, 32);
	CHECK_EQ(fake_dma_phys(fake_phys_of(ch.mem + CHUNK), r, 32, false), 0);
	CHECK_MEM(r, w + 32, 32);
	/* 64 bytes from @pa run into another chunk's frame: not this memory, not locked. */
	CHECK_EQ(fake_dma_phys(pa, r, 64, false), -EFAULT);
	pat(w, sizeof(w), 2);
	CHECK_EQ(fake_dma_phys(fake_phys_of(ch.mem + CHUNK + 5), w, 16, true), 0);
	CHECK_MEM(ch.mem + CHUNK + 5, w, 16);
	CHECK_EQ(fake_counts.phys_dma_ok, 3);
	CHECK_EQ(fake_counts.phys_dma_faults, 1);

	/* Scattered: no two pages adjoin. */
	fake_pagemap_mode(FAKE_PM_SCATTERED);
	CHECK_EQ(K->pread(pm, e, 32, (off_t)(((uintptr_t)ch.mem + CHUNK - 2 * pg) / pg * 8)), 32);
	for (int i = 0; i < 3; i++)
		CHECK(e[i + 1] != e[i] + 1);
	CHECK_EQ(fake_dma_phys(fake_phys_of(ch.mem + CHUNK + 5), r, 16, false), 0);
	CHECK_MEM(r, w, 16);
	/* Without CAP_SYS_ADMIN: present, frame 0. Not present: nothing. One page absent. */
	fake_pagemap_mode(FAKE_PM_PFN_ZERO);
	CHECK_EQ(K->pread(pm, e, 8, (off_t)((uintptr_t)(ch.mem + CHUNK) / pg * 8)), 8);
	CHECK_EQ(e[0], (1ULL << 63) | (3ULL << 55));
	CHECK_EQ(fake_phys_of(ch.mem + CHUNK), 0);
	fake_pagemap_mode(FAKE_PM_NOT_PRESENT);
	CHECK_EQ(K->pread(pm, e, 8, (off_t)((uintptr_t)(ch.mem + CHUNK) / pg * 8)), 8);
	CHECK_EQ(e[0], 0);
	fake_pagemap_mode(FAKE_PM_HUGE);
	fake_pagemap_absent(ch.mem + CHUNK + pg);
	CHECK_EQ(K->pread(pm, e, 16, (off_t)((uintptr_t)(ch.mem + CHUNK) / pg * 8)), 16);
	CHECK(e[0] >> 63);
	CHECK_EQ(e[1], 0);
	fake_pagemap_absent(NULL);

	/* munlock: what was locked goes, a range with nothing locked is stray; the device faults there. */
	CHECK_EQ(K->munlock(ch.mem + CHUNK - 2 * pg, 2 * pg), 0);
	CHECK_EQ(fake_locked_bytes(), 2 * pg);
	CHECK_EQ(fake_locked_ranges(), 1);
	CHECK_EQ(fake_dma_phys(pa, r, 16, false), -EFAULT);
	CHECK_EQ(K->munlock(ch.mem, pg), 0);
	CHECK_EQ(fake_counts.munlock_stray, 1);
	/* A hole punched in a locked range splits it. */
	CHECK_EQ(K->mlock(ch.mem, 8 * pg), 0);
	CHECK_EQ(K->munlock(ch.mem + 2 * pg, pg), 0);
	CHECK_EQ(fake_locked_ranges(), 3);
	CHECK_EQ(fake_locked_bytes(), 9 * pg);
	CHECK_EQ(K->munlock(ch.mem, CHUNK + 2 * pg), 0);
	CHECK_EQ(fake_locked_bytes(), 0);
	/* mlock refused: memory not mapped (ENOMEM, as the kernel), or as configured. */
	{
		void *gone = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		REQUIRE(gone != MAP_FAILED);
		munmap(gone, pg);
		CHECK(K->mlock(gone, pg) < 0);
		CHECK_EQ(errno, ENOMEM);
	}
	fake_mlock_errno(EPERM);
	CHECK(K->mlock(ch.mem, pg) < 0);
	CHECK_EQ(errno, EPERM);
	CHECK_EQ(fake_locked_bytes(), 0);
	CHECK_EQ(fake_counts.mlock_failures, fake_counts.mlocks - 2);
	K->close(pm);
	CHECK_EQ(fake_vfio_open_fds(), 0);
	fake_vfio_remove();
	chunks_put(&ch);
}

/*
 * The platform without an IOMMU: the no-IOMMU group file (the other is
 * not there), VFIO_NOIOMMU_IOMMU checked and set, no type1 request ever;
 * the arena locked whole, its frames read once through pagemap (closed
 * again); no IOVA space in the stats.
 */
TEST(vfio_noiommu_platform_made_without_iommu_calls)
{
	struct dmamap__ledger l0;
	struct dmamap_vfio_stats st;
	struct dmamap_platform *p;
	struct device *dev;
	uint64_t lstart, llen;
	dma_addr_t h;
	void *cpu;

	dmamap__ledger_read(&l0);
	p = nplat(NULL, ARENA, false, &dev);
	REQUIRE(p && dev);
	CHECK(dmamap_platform_is_vfio(p));
	CHECK_EQ(fake_counts.open_failures, 0); /* /dev/vfio/12 was never tried */
	CHECK_EQ(fake_vfio_open_fds(), 3);      /* container, group, function: pagemap closed */
	CHECK_EQ(fake_counts.ioctl[FAKE_CHECK_EXTENSION], 1);
	CHECK_EQ(fake_counts.ioctl_failed[FAKE_CHECK_EXTENSION], 0);
	CHECK_EQ(fake_counts.ioctl[FAKE_SET_IOMMU], 1);
	CHECK_EQ(fake_counts.ioctl_failed[FAKE_SET_IOMMU], 0);
	CHECK_EQ(fake_counts.ioctl[FAKE_IOMMU_GET_INFO], 0);
	CHECK_EQ(fake_counts.ioctl[FAKE_MAP_DMA], 0);
	CHECK_EQ(fake_counts.ioctl[FAKE_UNMAP_DMA], 0);
	CHECK_EQ(fake_counts.misuse, 0);
	/* The arena: locked in one mlock(), its frames read. */
	CHECK_EQ(fake_counts.mlocks, 1);
	CHECK_EQ(fake_locked_bytes(), ARENA);
	CHECK_EQ(fake_locked_ranges(), 1);
	CHECK_EQ(fake_counts.pagemap_opens, 1);
	CHECK(fake_counts.pagemap_reads >= 1);
	st = vstats(dev);
	CHECK_EQ(st.registered_bytes, ARENA);
	CHECK_EQ(st.iova_start, 0);
	CHECK_EQ(st.iova_end, 0);
	CHECK_EQ(st.fast_maps + st.slow_maps + st.slow_unmaps + st.slow_bytes_live + st.map_failures, 0);
	CHECK_EQ(dma_get_mask(dev), DMA_BIT_MASK(64));
	CHECK_EQ(dma_get_required_mask(dev), DMA_BIT_MASK(64));
	/* An allocation lies in what was locked. */
	REQUIRE(fake_locked_nth(0, &lstart, &llen));
	CHECK_EQ(llen, ARENA);
	cpu = dma_alloc_coherent(dev, PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	CHECK((uintptr_t)cpu >= lstart && (uintptr_t)cpu + PAGE_SIZE <= lstart + llen);
	CHECK_EQ(h, fake_phys_of(cpu));
	dma_free_coherent(dev, PAGE_SIZE, cpu, h);
	CHECK_EQ(fake_counts.ioctl[FAKE_MAP_DMA] + fake_counts.ioctl[FAKE_UNMAP_DMA], 0);
	end(p);
	CHECK_EQ(fake_counts.munlocks, 1);
	CHECK_MSG(ledger_same(&l0), "the ledger holds what the platform had");
}

/*
 * Registered memory maps to the physical address pagemap gave, with no
 * call into the kernel (nor at unmap); the device reads the CPU's bytes
 * there and the CPU sees what it writes.
 */
TEST(vfio_noiommu_registered_memory_maps_to_physical)
{
	const size_t pg = host_page(), len = 16 * pg;
	struct dmamap_vfio_stats st;
	struct dmamap_platform *p;
	struct device *dev;
	uint8_t want[1000];
	unsigned long calls, pm0, mlocks0;
	struct chunks ch;
	dma_addr_t h;

	REQUIRE(chunks_get(&ch, 1));
	p = nplat(NULL, ARENA, false, &dev);
	REQUIRE(p && dev);
	mlocks0 = fake_counts.mlocks;
	pm0 = fake_counts.pagemap_opens;
	REQUIRE(dmamap_vfio_register(p, ch.mem, len) == 0);
	CHECK_EQ(fake_counts.mlocks, mlocks0 + 1);
	CHECK_EQ(fake_counts.pagemap_opens, pm0 + 1);
	CHECK(fake_is_locked(ch.mem, len));
	CHECK_EQ(fake_locked_bytes(), ARENA + len);
	CHECK_EQ(fake_vfio_open_fds(), 3);
	CHECK_EQ(vstats(dev).registered_bytes, ARENA + len);

	calls = fake_vfio_calls();
	pat(ch.mem + 100, sizeof(want), 1);
	h = map_ok(dev, ch.mem + 100, sizeof(want), DMA_BIDIRECTIONAL);
	REQUIRE(h != DMA_MAPPING_ERROR);
	CHECK_EQ(h, fake_phys_of(ch.mem + 100));
	CHECK(device_reads(h, ch.mem + 100, sizeof(want)));
	pat(want, sizeof(want), 2);
	CHECK_EQ(fake_dma_phys(h, want, sizeof(want), true), 0);
	CHECK_MEM(ch.mem + 100, want, sizeof(want));
	dma_unmap_single(dev, h, sizeof(want), DMA_BIDIRECTIONAL);
	/* The whole range (in one chunk: contiguous), its last byte, a page across a page boundary. */
	h = map_ok(dev, ch.mem, len, DMA_TO_DEVICE);
	CHECK_EQ(h, fake_phys_of(ch.mem));
	CHECK(device_reads(h, ch.mem, len));
	dma_unmap_single(dev, h, len, DMA_TO_DEVICE);
	h = map_ok(dev, ch.mem + len - 1, 1, DMA_FROM_DEVICE);
	CHECK_EQ(h, fake_phys_of(ch.mem + len - 1));
	dma_unmap_single(dev, h, 1, DMA_FROM_DEVICE);
	h = map_ok(dev, ch.mem + 3 * pg - 7, pg, DMA_TO_DEVICE);
	CHECK_EQ(h, fake_phys_of(ch.mem + 3 * pg - 7));
	CHECK(device_reads(h, ch.mem + 3 * pg - 7, pg));
	dma_unmap_single(dev, h, pg, DMA_TO_DEVICE);
	/* Not one call into the kernel for any of it. */
	CHECK_EQ(fake_vfio_calls(), calls);
	CHECK_EQ(fake_counts.ioctl[FAKE_MAP_DMA] + fake_counts.ioctl[FAKE_UNMAP_DMA], 0);
	st = vstats(dev);
	CHECK_EQ(st.fast_maps, 4);
	CHECK_EQ(st.slow_maps + st.slow_unmaps + st.map_failures, 0);
	CHECK_EQ(live_maps(dev), 0);
	CHECK_EQ(dmamap_vfio_unregister(p, ch.mem), 0);
	end(p);
	chunks_put(&ch);
}

/*
 * A buffer maps only where its pages are physically contiguous: in a
 * range registered across two chunks, anything within one chunk maps,
 * anything over the boundary is refused (a mapping error, counted, said;
 * no call), whatever its size.
 */
TEST(vfio_noiommu_buffer_across_discontiguous_pages_refused)
{
	const size_t pg = host_page();
	struct dmamap_platform *p;
	struct device *dev;
	struct chunks ch;
	uint8_t *reg;
	unsigned long calls;
	unsigned int r0;
	dma_addr_t h;

	REQUIRE(chunks_get(&ch, 2));
	p = nplat(NULL, ARENA, false, &dev);
	REQUIRE(p && dev);
	reg = ch.mem + CHUNK - 4 * pg; /* 4 pages before the boundary, 4 after */
	REQUIRE(dmamap_vfio_register(p, reg, 8 * pg) == 0);
	calls = fake_vfio_calls();
	r0 = reps.n;

	/* Within either chunk: mapped, the device reads the CPU's bytes. */
	pat(reg, 8 * pg, 3);
	h = map_ok(dev, reg, 4 * pg, DMA_TO_DEVICE);
	CHECK_EQ(h, fake_phys_of(reg));
	CHECK(device_reads(h, reg, 4 * pg));
	dma_unmap_single(dev, h, 4 * pg, DMA_TO_DEVICE);
	h = map_ok(dev, ch.mem + CHUNK, 4 * pg, DMA_TO_DEVICE);
	CHECK_EQ(h, fake_phys_of(ch.mem + CHUNK));
	CHECK(device_reads(h, ch.mem + CHUNK, 4 * pg));
	dma_unmap_single(dev, h, 4 * pg, DMA_TO_DEVICE);
	h = map_ok(dev, ch.mem + CHUNK - 1, 1, DMA_TO_DEVICE);
	CHECK_EQ(h, fake_phys_of(ch.mem + CHUNK - 1));
	dma_unmap_single(dev, h, 1, DMA_TO_DEVICE);
	CHECK_EQ(reps.n, r0);

	/* Over the boundary: two bytes, a page, the whole range. */
	h = dma_map_single(dev, ch.mem + CHUNK - 1, 2, DMA_TO_DEVICE);
	CHECK(dma_mapping_error(dev, h));
	h = dma_map_single(dev, ch.mem + CHUNK - pg / 2, pg, DMA_BIDIRECTIONAL);
	CHECK(dma_mapping_error(dev, h));
	h = dma_map_single(dev, reg, 8 * pg, DMA_FROM_DEVICE);
	CHECK(dma_mapping_error(dev, h));
	CHECK_EQ(vstats(dev).map_failures, 3);
	CHECK_EQ(vstats(dev).fast_maps, 3);
	CHECK_EQ(reps.n, r0 + 3);
	CHECK_MSG(strstr(reps.last.text, "physically contiguous"), "said: %s", reps.last.text);
	CHECK_EQ(fake_vfio_calls(), calls);
	CHECK_EQ(live_maps(dev), 0);
	end(p);
	chunks_put(&ch);
}

/* Pages scattered in memory: a buffer within one page maps, one over two pages never does. */
TEST(vfio_noiommu_scattered_pages_map_one_page_at_a_time)
{
	const size_t pg = host_page();
	struct fake_vfio_cfg cfg = { .pagemap = FAKE_PM_SCATTERED };
	struct scatterlist sg[3];
	struct dmamap_platform *p;
	struct device *dev;
	struct chunks ch;
	dma_addr_t h;
	int n;

	REQUIRE(chunks_get(&ch, 1));
	p = nplat(&cfg, ARENA, false, &dev);
	REQUIRE(p && dev);
	REQUIRE(dmamap_vfio_register(p, ch.mem, 4 * pg) == 0);
	pat(ch.mem, 4 * pg, 4);
	for (unsigned int i = 0; i < 4; i++) {
		h = map_ok(dev, ch.mem + i * pg, pg, DMA_TO_DEVICE);
		CHECK_EQ(h, fake_phys_of(ch.mem + i * pg));
		CHECK(device_reads(h, ch.mem + i * pg, pg));
		dma_unmap_single(dev, h, pg, DMA_TO_DEVICE);
	}
	h = dma_map_single(dev, ch.mem + pg - 8, 16, DMA_TO_DEVICE);
	CHECK(dma_mapping_error(dev, h));
	h = dma_map_single(dev, ch.mem, 2 * pg, DMA_TO_DEVICE);
	CHECK(dma_mapping_error(dev, h));
	CHECK_EQ(vstats(dev).map_failures, 2);
	/* A scatterlist of one page per entry maps, each entry at its own frame. */
	sg_init_table(sg, 3);
	for (unsigned int i = 0; i < 3; i++)
		sg_set_buf(&sg[i], ch.mem + i * pg, (unsigned int)pg);
	n = dma_map_sg(dev, sg, 3, DMA_TO_DEVICE);
	CHECK(n >= 1);
	for (int i = 0; i < n; i++)
		CHECK(device_reads(sg_dma_address(&sg[i]), ch.mem + i * pg, sg_dma_len(&sg[i])));
	if (n > 0)
		dma_unmap_sg(dev, sg, 3, DMA_TO_DEVICE);
	CHECK_EQ(live_maps(dev), 0);
	end(p);
	chunks_put(&ch);
}

/*
 * Unregistered memory is refused, nothing pinned or mapped for it: with
 * the checker on, reported (UNREACHABLE, naming why); a buffer running
 * past the end of a registered range too; dma_map_resource() as well.
 */
TEST(vfio_noiommu_unregistered_memory_refused_and_reported)
{
	const size_t pg = host_page();
	uint8_t *heap = malloc(3000);
	struct dmamap_platform *p;
	struct device *dev;
	struct chunks ch;
	unsigned long calls;
	dma_addr_t h;

	REQUIRE(heap && chunks_get(&ch, 1));
	p = nplat(NULL, ARENA, true, &dev);
	REQUIRE(p && dev);
	REQUIRE(dmamap_vfio_register(p, ch.mem, 2 * pg) == 0);
	calls = fake_vfio_calls();

	EXPECT_ONLY(DMAMAP_DBG_UNREACHABLE,
		    h = dma_map_single(dev, heap, 3000, DMA_TO_DEVICE));
	CHECK(dma_mapping_error(dev, h));
	CHECK_MSG(text_has(0, "registered"), "said: %s", rec.n ? rec.r[0].text : "");
	/* Past the registered range's end by one byte. */
	EXPECT_ONLY(DMAMAP_DBG_UNREACHABLE,
		    h = dma_map_single(dev, ch.mem + 2 * pg - 100, 101, DMA_FROM_DEVICE));
	CHECK(dma_mapping_error(dev, h));
	/* Just before: fine. */
	rec_reset();
	h = map_ok(dev, ch.mem + 2 * pg - 100, 100, DMA_TO_DEVICE);
	CHECK_EQ(h, fake_phys_of(ch.mem + 2 * pg - 100));
	dma_unmap_single(dev, h, 100, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	/* A resource: refused, reported (how many times is the core's business, as with an IOMMU). */
	rec_reset();
	h = dma_map_resource(dev, 0xfebf0000, 64, DMA_TO_DEVICE, 0);
	CHECK(dma_mapping_error(dev, h));
	CHECK(rec.n >= 1 && rec.r[0].kind == DMAMAP_DBG_UNREACHABLE);
	rec_reset();
	CHECK_EQ(vstats(dev).map_failures, 3);
	CHECK(stats_of(dev).errors_by_kind[DMAMAP_ERRK_UNREACHABLE] >= 3);
	CHECK_EQ(fake_vfio_calls(), calls);
	CHECK_EQ(fake_locked_bytes(), ARENA + 2 * pg);
	CHECK_EQ(fake_counts.ioctl[FAKE_MAP_DMA], 0);
	DESTROY_CLEAN(p);
	{
		char why[256];

		CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "%s", why);
	}
	fake_vfio_remove();
	free(heap);
	chunks_put(&ch);
}

/* An unmap makes no call and leaves the memory locked and where it was. */
TEST(vfio_noiommu_unmap_makes_no_kernel_call)
{
	const size_t pg = host_page();
	struct dmamap_platform *p;
	struct device *dev;
	struct chunks ch;
	unsigned long calls, munlocks;
	uint8_t w[32];
	dma_addr_t h;

	REQUIRE(chunks_get(&ch, 1));
	p = nplat(NULL, ARENA, true, &dev);
	REQUIRE(p && dev);
	REQUIRE(dmamap_vfio_register(p, ch.mem, 2 * pg) == 0);
	h = map_ok(dev, ch.mem + 64, 256, DMA_FROM_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	calls = fake_vfio_calls();
	munlocks = fake_counts.munlocks;
	dma_unmap_single(dev, h, 256, DMA_FROM_DEVICE);
	EXPECT_NO_REPORTS();
	CHECK_EQ(fake_vfio_calls(), calls);
	CHECK_EQ(fake_counts.munlocks, munlocks);
	CHECK(fake_is_locked(ch.mem, 2 * pg));
	/* The device still reaches the page (no IOMMU to stop it): it is the CPU's memory, locked. */
	pat(w, sizeof(w), 5);
	CHECK_EQ(fake_dma_phys(h, w, sizeof(w), true), 0);
	CHECK_MEM(ch.mem + 64, w, sizeof(w));
	/* A second unmap: the checker's report, no call either. */
	EXPECT_ONLY(DMAMAP_DBG_NOT_MAPPED, dma_unmap_single(dev, h, 256, DMA_FROM_DEVICE));
	CHECK_EQ(fake_vfio_calls(), calls);
	stop_checking(p);
	end(p);
	chunks_put(&ch);
}

/*
 * Coherent memory comes from the locked arena, at the physical address
 * of its pages; zeroed; the device and the CPU see each other's bytes;
 * dma_mmap_coherent() and dma_get_sgtable() find the arena's pages by
 * their physical address; free returns them; a handle that is not an
 * allocation is refused. No call into the kernel for any of it.
 */
TEST(vfio_noiommu_coherent_alloc_mmap_free)
{
	const size_t pg = host_page(), len = 3 * pg;
	struct vm_area_struct vma = { 0, len, 0, DMAMAP_PROT_READ | DMAMAP_PROT_WRITE };
	struct vm_area_struct vma1 = { 0, pg, pg / PAGE_SIZE, DMAMAP_PROT_READ };
	uint8_t *want = malloc(len), *seen = malloc(len), *cpu, *um, *cpu2;
	struct sg_table sgt = { 0 };
	struct dmamap_platform *p;
	struct device *dev;
	struct chunks ch;
	unsigned long calls;
	dma_addr_t h, h2, hs;
	int ret;

	REQUIRE(want && seen && chunks_get(&ch, 1));
	p = nplat(NULL, ARENA, true, &dev);
	REQUIRE(p && dev);
	calls = fake_vfio_calls();
	cpu = dma_alloc_coherent(dev, len, &h, GFP_KERNEL);
	REQUIRE(cpu);
	CHECK_EQ(h, fake_phys_of(cpu));
	CHECK_EQ(h % pg, 0);
	CHECK(fake_is_locked(cpu, len));
	CHECK(all_bytes(cpu, len, 0));
	pat(want, len, 1);
	CHECK_EQ(fake_dma_phys(h, want, len, true), 0);
	CHECK_MEM(cpu, want, len);
	pat(cpu, len, 2);
	CHECK(device_reads(h, cpu, len));

	ret = dma_mmap_coherent(dev, &vma, cpu, h, len);
	CHECK_EQ(ret, 0);
	if (!ret) {
		um = (uint8_t *)vma.vm_start;
		CHECK(um != cpu);
		CHECK_MEM(um, cpu, len);
		pat(want, len, 3);
		CHECK_EQ(fake_dma_phys(h, want, len, true), 0);
		CHECK_MEM(um, want, len);
		CHECK_EQ(dmamap_munmap(&vma), 0);
	}
	/* Its second page, by vm_pgoff: found by the second page's frame. */
	ret = dma_mmap_coherent(dev, &vma1, cpu, h, len);
	CHECK_EQ(ret, 0);
	if (!ret) {
		CHECK_MEM((uint8_t *)vma1.vm_start, cpu + pg, pg);
		CHECK_EQ(dmamap_munmap(&vma1), 0);
	}
	ret = dma_get_sgtable(dev, &sgt, cpu, h, len);
	CHECK_EQ(ret, 0);
	if (!ret) {
		CHECK(sgt.orig_nents >= 1);
		CHECK_EQ((uintptr_t)sg_virt(sgt.sgl), (uintptr_t)cpu);
		sg_free_table(&sgt);
	}
	dma_free_coherent(dev, len, cpu, h);
	EXPECT_NO_REPORTS();
	CHECK_EQ(stats_of(dev).allocs, 1);
	CHECK_EQ(stats_of(dev).frees, 1);
	/* The pages came back: the same allocation again gets them. */
	cpu2 = dma_alloc_coherent(dev, len, &h2, GFP_KERNEL);
	CHECK(cpu2 == cpu);
	CHECK_EQ(h2, h);
	if (cpu2)
		dma_free_coherent(dev, len, cpu2, h2);
	/* Non-coherent and cookie allocations alike. */
	cpu2 = dma_alloc_noncoherent(dev, pg, &h2, DMA_FROM_DEVICE, GFP_KERNEL);
	REQUIRE(cpu2);
	CHECK_EQ(h2, fake_phys_of(cpu2));
	dma_free_noncoherent(dev, pg, cpu2, h2, DMA_FROM_DEVICE);
	cpu2 = dma_alloc_attrs(dev, 2 * pg, &h2, GFP_KERNEL, DMA_ATTR_NO_KERNEL_MAPPING);
	REQUIRE(cpu2);
	dma_free_attrs(dev, 2 * pg, cpu2, h2, DMA_ATTR_NO_KERNEL_MAPPING);
	EXPECT_NO_REPORTS();
	CHECK_EQ(fake_vfio_calls(), calls);

	/* A handle of registered memory is no coherent allocation: mmap and free refused. */
	REQUIRE(dmamap_vfio_register(p, ch.mem, 2 * pg) == 0);
	hs = map_ok(dev, ch.mem, pg, DMA_TO_DEVICE);
	REQUIRE(hs != DMA_MAPPING_ERROR);
	stop_checking(p);
	cur_p = NULL;
	dmamap_set_report_hook(p, rec_hook, NULL);
	rec.n = 0;
	{
		struct vm_area_struct v2 = { 0, pg, 0, DMAMAP_PROT_READ };

		CHECK(dma_mmap_coherent(dev, &v2, ch.mem, hs, pg) != 0);
	}
	CHECK(dma_get_sgtable(dev, &sgt, ch.mem, hs, pg) != 0);
	rec.n = 0;
	dma_free_coherent(dev, pg, ch.mem, hs);
	CHECK_MSG(rec.n == 1 && rec.r[0].kind == DMAMAP_DBG_FREE_INVALID, "%u reports", rec.n);
	dma_unmap_single(dev, hs, pg, DMA_TO_DEVICE);
	end(p);
	free(want);
	free(seen);
	chunks_put(&ch);
}

/*
 * Scattered frames: an allocation of one page works, one of two pages
 * cannot be contiguous and fails (NULL), its pages given back; the
 * arena's pages are not lost to the attempts.
 */
TEST(vfio_noiommu_coherent_only_where_contiguous)
{
	const size_t pg = host_page();
	struct fake_vfio_cfg cfg = { .pagemap = FAKE_PM_SCATTERED };
	struct dmamap_platform *p;
	struct device *dev;
	void *cpu[2];
	dma_addr_t h[2];

	p = nplat(&cfg, 4 * pg, false, &dev);
	REQUIRE(p && dev);
	for (int round = 0; round < 3; round++) {
		CHECK(dma_alloc_coherent(dev, 2 * pg, &h[0], GFP_KERNEL) == NULL);
		cpu[0] = dma_alloc_coherent(dev, pg, &h[0], GFP_KERNEL);
		REQUIRE(cpu[0]);
		CHECK_EQ(h[0], fake_phys_of(cpu[0]));
		dma_free_coherent(dev, pg, cpu[0], h[0]);
	}
	/* All four pages still there, one at a time. */
	for (int i = 0; i < 4; i++) {
		void *c = dma_alloc_coherent(dev, pg, &h[0], GFP_KERNEL);

		CHECK_MSG(c != NULL, "page %d of the arena lost", i);
		if (i < 2)
			cpu[i] = c, h[i] = h[0];
		else if (c)
			dma_free_coherent(dev, pg, c, h[0]);
	}
	for (int i = 0; i < 2; i++)
		if (cpu[i])
			dma_free_coherent(dev, pg, cpu[i], h[i]);
	end(p);
}

struct refusal {
	const char *what;
	struct fake_vfio_cfg cfg;
	int code;
	const char *says;
};

/*
 * Reading the arena's frames refused at creation: no CAP_SYS_ADMIN
 * (-EPERM), a page not present (-EFAULT), mlock() refused (-ENOMEM):
 * no platform, each said, and nothing locked, open or in the ledger.
 */
TEST(vfio_noiommu_creation_refusals_leave_nothing)
{
	const struct refusal cases[] = {
		{ "frame 0", { .pagemap = FAKE_PM_PFN_ZERO }, -EPERM, "CAP_SYS_ADMIN" },
		{ "not present", { .pagemap = FAKE_PM_NOT_PRESENT }, -EFAULT, "arena" },
		{ "RLIMIT_MEMLOCK", { .mlock_errno = ENOMEM }, -ENOMEM, "ulimit -l" },
		{ "mlock EAGAIN", { .mlock_errno = EAGAIN }, -EAGAIN, "arena" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct dmamap_vfio_options opt = { .arena_size = ARENA, .unsafe_noiommu = true };
		struct fake_vfio_cfg c = cases[i].cfg;
		struct dmamap_error err = { 0 };
		struct dmamap__ledger l0;
		struct dmamap_platform *p;
		char why[256];

		c.noiommu = true;
		dmamap__ledger_read(&l0);
		fake_vfio_install(&c);
		p = dmamap_platform_vfio(FAKE_BDF, &opt, &err);
		CHECK_MSG(!p, "%s: a platform was made", cases[i].what);
		if (p) {
			dmamap_platform_destroy(p);
			continue;
		}
		CHECK_MSG(err.code == cases[i].code, "%s: code %d, want %d (%s)", cases[i].what,
			  err.code, cases[i].code, err.msg);
		CHECK_MSG(strstr(err.msg, cases[i].says), "%s: '%s' does not say '%s'", cases[i].what,
			  err.msg, cases[i].says);
		CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "%s: %s", cases[i].what, why);
		CHECK_MSG(fake_counts.munlock_stray == 0, "%s: a stray munlock", cases[i].what);
		CHECK_MSG(ledger_same(&l0), "%s: the ledger changed", cases[i].what);
		CHECK_EQ(fake_counts.ioctl[FAKE_MAP_DMA], 0);
		fake_vfio_remove();
	}
}

/*
 * The same refusals at dmamap_vfio_register(): the error, the range not
 * registered, none of its pages left locked, no file left open; the
 * platform goes on working, and the range registers once the kernel lets it.
 */
TEST(vfio_noiommu_register_refusals_leave_nothing)
{
	const size_t pg = host_page(), len = 4 * pg;
	struct dmamap__ledger l0;
	struct dmamap_platform *p;
	struct device *dev;
	struct chunks ch;
	dma_addr_t h;
	int ret;

	REQUIRE(chunks_get(&ch, 1));
	dmamap__ledger_read(&l0);
	p = nplat(NULL, ARENA, false, &dev);
	REQUIRE(p && dev);

	fake_pagemap_mode(FAKE_PM_PFN_ZERO);
	CHECK_EQ(dmamap_vfio_register(p, ch.mem, len), -EPERM);
	fake_pagemap_mode(FAKE_PM_NOT_PRESENT);
	CHECK_EQ(dmamap_vfio_register(p, ch.mem, len), -EFAULT);
	/* Its third page alone not present: the first two were read, and are unlocked again. */
	fake_pagemap_mode(FAKE_PM_HUGE);
	fake_pagemap_absent(ch.mem + 2 * pg);
	CHECK_EQ(dmamap_vfio_register(p, ch.mem, len), -EFAULT);
	fake_pagemap_absent(NULL);
	fake_mlock_errno(ENOMEM);
	CHECK_EQ(dmamap_vfio_register(p, ch.mem, len), -ENOMEM);
	fake_mlock_errno(0);
	/* pagemap cannot be opened. */
	fake_vfio_fail_call_in(2, EACCES); /* the mlock, then the open */
	ret = dmamap_vfio_register(p, ch.mem, len);
	CHECK_EQ(ret, -EACCES);
	CHECK_EQ(fake_counts.injected, 1);
	fake_vfio_fail_call_in(0, 0);

	/* Each left nothing: the arena alone locked, the range not registered, no file open. */
	CHECK_EQ(fake_locked_bytes(), ARENA);
	CHECK(!fake_is_locked(ch.mem, pg));
	CHECK_EQ(fake_counts.munlock_stray, 0);
	CHECK_EQ(fake_vfio_open_fds(), 3);
	CHECK_EQ(vstats(dev).registered_bytes, ARENA);
	CHECK_EQ(fake_counts.misuse, 0);
	h = dma_map_single(dev, ch.mem, 64, DMA_TO_DEVICE);
	CHECK(dma_mapping_error(dev, h));
	CHECK_EQ(dmamap_vfio_unregister(p, ch.mem), -ENOENT);

	/* Now it works. */
	CHECK_EQ(dmamap_vfio_register(p, ch.mem, len), 0);
	CHECK(fake_is_locked(ch.mem, len));
	h = map_ok(dev, ch.mem, 64, DMA_TO_DEVICE);
	CHECK_EQ(h, fake_phys_of(ch.mem));
	dma_unmap_single(dev, h, 64, DMA_TO_DEVICE);
	end(p);
	CHECK_MSG(ledger_same(&l0), "the ledger holds what the platform had");
	chunks_put(&ch);
}

/*
 * -EOPNOTSUPP when the kernel has no no-IOMMU mode: a machine with an
 * IOMMU (the module not loaded so), or VFIO_CHECK_EXTENSION saying no.
 * Nothing open after. And the other way: a no-IOMMU machine without the
 * option has no type1v2.
 */
TEST(vfio_noiommu_eopnotsupp_without_the_mode)
{
	const struct fake_vfio_cfg cfgs[2] = { { 0 }, { .noiommu = true, .noiommu_no_ext = true } };
	struct dmamap_vfio_options opt = { .arena_size = ARENA, .unsafe_noiommu = true };
	struct dmamap_platform *p;
	char why[256];

	for (int i = 0; i < 2; i++) {
		struct dmamap_error err = { 0 };

		fake_vfio_install(&cfgs[i]);
		p = dmamap_platform_vfio(FAKE_BDF, &opt, &err);
		CHECK_MSG(!p, "case %d: a platform was made", i);
		dmamap_platform_destroy(p);
		CHECK_EQ(err.code, -EOPNOTSUPP);
		CHECK_MSG(strstr(err.msg, "no-IOMMU"), "case %d: %s", i, err.msg);
		CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "case %d: %s", i, why);
		CHECK_EQ(fake_counts.mlocks + fake_counts.pagemap_opens, 0);
		fake_vfio_remove();
	}
	{
		struct fake_vfio_cfg c = { .noiommu = true };
		struct dmamap_error err = { 0 };

		opt.unsafe_noiommu = false;
		fake_vfio_install(&c);
		p = dmamap_platform_vfio(FAKE_BDF, &opt, &err);
		CHECK(!p);
		dmamap_platform_destroy(p);
		CHECK_EQ(err.code, -EOPNOTSUPP);
		CHECK_MSG(strstr(err.msg, "type1v2"), "%s", err.msg);
		CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "%s", why);
		fake_vfio_remove();
	}
}

/* Unregister munlocks exactly that range; the others stay locked and mapped. */
TEST(vfio_noiommu_unregister_munlocks)
{
	const size_t pg = host_page();
	struct dmamap_platform *p;
	struct device *dev;
	struct chunks ch;
	uint8_t *a, *b;
	uint64_t arena, alen;
	unsigned long calls;
	dma_addr_t h;

	REQUIRE(chunks_get(&ch, 1));
	a = ch.mem;
	b = ch.mem + 8 * pg;
	p = nplat(NULL, ARENA, false, &dev);
	REQUIRE(p && dev);
	REQUIRE(fake_locked_nth(0, &arena, &alen)); /* the arena, alone locked yet */
	REQUIRE(dmamap_vfio_register(p, a, 4 * pg) == 0);
	REQUIRE(dmamap_vfio_register(p, b, 2 * pg) == 0);
	CHECK_EQ(fake_locked_bytes(), ARENA + 6 * pg);
	CHECK_EQ(dmamap_vfio_register(p, a + pg, pg), -EINVAL); /* overlaps */
	CHECK_EQ(fake_locked_bytes(), ARENA + 6 * pg);

	calls = fake_counts.munlocks;
	CHECK_EQ(dmamap_vfio_unregister(p, a), 0);
	CHECK_EQ(fake_counts.munlocks, calls + 1);
	CHECK(!fake_is_locked(a, pg) && !fake_is_locked(a + 3 * pg, pg));
	CHECK(fake_is_locked(b, 2 * pg));
	CHECK_EQ(fake_locked_bytes(), ARENA + 2 * pg);
	CHECK_EQ(vstats(dev).registered_bytes, ARENA + 2 * pg);
	CHECK_EQ(dmamap_vfio_unregister(p, a), -ENOENT);
	CHECK_EQ(fake_counts.munlocks, calls + 1);
	/* Gone: a map of it is refused; the other still maps. */
	h = dma_map_single(dev, a, 64, DMA_TO_DEVICE);
	CHECK(dma_mapping_error(dev, h));
	h = map_ok(dev, b + 10, 64, DMA_TO_DEVICE);
	CHECK_EQ(h, fake_phys_of(b + 10));
	dma_unmap_single(dev, h, 64, DMA_TO_DEVICE);
	/* The arena cannot be unregistered; it stays locked. */
	CHECK_EQ(dmamap_vfio_unregister(p, (void *)(uintptr_t)arena), -ENOENT);
	CHECK(fake_is_locked((void *)(uintptr_t)arena, alen));
	CHECK_EQ(fake_counts.munlocks, calls + 1);
	/* Registered again: locked again, mapped again. */
	CHECK_EQ(dmamap_vfio_register(p, a, 4 * pg), 0);
	CHECK(fake_is_locked(a, 4 * pg));
	h = map_ok(dev, a, 64, DMA_TO_DEVICE);
	CHECK_EQ(h, fake_phys_of(a));
	dma_unmap_single(dev, h, 64, DMA_TO_DEVICE);
	CHECK_EQ(fake_counts.munlock_stray, 0);
	end(p);
	chunks_put(&ch);
}

/* Destroy munlocks everything: the arena and every registered range, one munlock each. */
TEST(vfio_noiommu_destroy_munlocks_everything)
{
	const size_t pg = host_page();
	struct dmamap__ledger l0;
	struct dmamap_platform *p;
	struct device *dev;
	struct chunks ch;
	unsigned long munlocks;

	REQUIRE(chunks_get(&ch, 1));
	dmamap__ledger_read(&l0);
	p = nplat(NULL, ARENA, false, &dev);
	REQUIRE(p && dev);
	/* Not at the chunk's start: the arena may end just below it (one locked range then). */
	REQUIRE(dmamap_vfio_register(p, ch.mem + pg, 2 * pg) == 0);
	REQUIRE(dmamap_vfio_register(p, ch.mem + 4 * pg, 3 * pg) == 0);
	REQUIRE(dmamap_vfio_register(p, ch.mem + 16 * pg, pg) == 0);
	REQUIRE(dmamap_vfio_unregister(p, ch.mem + 16 * pg) == 0);
	CHECK_EQ(fake_locked_bytes(), ARENA + 5 * pg);
	CHECK_EQ(fake_locked_ranges(), 3);
	munlocks = fake_counts.munlocks;
	end(p);
	CHECK_EQ(fake_counts.munlocks - munlocks, 3);
	CHECK_EQ(fake_locked_bytes(), 0);
	CHECK_MSG(ledger_same(&l0), "the ledger holds what the platform had");
	chunks_put(&ch);
}

/*
 * Masks: physical addresses may be anywhere, so below 32 bits is refused
 * (-EIO, the mask kept); 32 bits is taken, and then memory above 4 GiB
 * (all of the fake's) neither maps nor allocates.
 */
TEST(vfio_noiommu_masks)
{
	const size_t pg = host_page();
	struct dmamap_platform *p;
	struct device *dev;
	struct chunks ch;
	dma_addr_t h;

	REQUIRE(chunks_get(&ch, 1));
	p = nplat(NULL, ARENA, false, &dev);
	REQUIRE(p && dev);
	REQUIRE(dmamap_vfio_register(p, ch.mem, pg) == 0);
	CHECK_EQ(dma_supported(dev, DMA_BIT_MASK(31)), 0);
	CHECK_EQ(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(31)), -EIO);
	CHECK_EQ(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(24)), -EIO);
	CHECK_EQ(dma_get_mask(dev), DMA_BIT_MASK(64));
	CHECK_EQ(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(32)), 0);
	CHECK_EQ(dma_get_mask(dev), DMA_BIT_MASK(32));
	h = dma_map_single(dev, ch.mem, 64, DMA_TO_DEVICE);
	CHECK(dma_mapping_error(dev, h));
	CHECK(dma_alloc_coherent(dev, pg, &h, GFP_KERNEL) == NULL);
	CHECK_EQ(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64)), 0);
	h = map_ok(dev, ch.mem, 64, DMA_TO_DEVICE);
	CHECK_EQ(h, fake_phys_of(ch.mem));
	dma_unmap_single(dev, h, 64, DMA_TO_DEVICE);
	end(p);
	chunks_put(&ch);
}

/*
 * Every failure point of the library in dmamap_platform_vfio() without an
 * IOMMU: each failure is -ENOMEM, said, with nothing open, locked or in
 * the ledger; with none failing, the platform maps registered memory.
 */
TEST(vfio_noiommu_failure_point_walk)
{
	const size_t pg = host_page();
	struct dmamap__ledger l0;
	struct chunks ch;
	long k, failed = 0;
	char why[256];

	REQUIRE(chunks_get(&ch, 1));
	dmamap__ledger_read(&l0);
	for (k = 1; k < 500; k += tap_sample()) {
		struct dmamap_vfio_options opt = { .arena_size = 64 * KiB, .unsafe_noiommu = true };
		struct fake_vfio_cfg cfg = { .noiommu = true };
		bool fired;
		struct dmamap_platform *p = fake_walk_point(&cfg, &opt, k, &fired);

		if (!p) {
			failed++;
		} else {
			struct device *dev = dmamap_device_lookup(p, FAKE_BDF);
			dma_addr_t h;

			REQUIRE_MSG(dev, "point %ld: a platform without its device", k);
			CHECK_MSG(fake_locked_bytes() == 64 * KiB, "point %ld: %llu bytes locked", k,
				  (unsigned long long)fake_locked_bytes());
			CHECK_MSG(dmamap_vfio_register(p, ch.mem, pg) == 0, "point %ld: register", k);
			pat(ch.mem, 64, (unsigned int)k);
			h = dma_map_single(dev, ch.mem, 64, DMA_TO_DEVICE);
			CHECK_MSG(!dma_mapping_error(dev, h), "point %ld: map failed", k);
			if (!dma_mapping_error(dev, h)) {
				CHECK(device_reads(h, ch.mem, 64));
				dma_unmap_single(dev, h, 64, DMA_TO_DEVICE);
			}
			dmamap_platform_destroy(p);
		}
		CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "point %ld: %s", k, why);
		CHECK_MSG(fake_counts.munlock_stray == 0, "point %ld: a stray munlock", k);
		CHECK_MSG(ledger_same(&l0), "point %ld: the ledger changed", k);
		fake_vfio_remove();
		if (tap_failures)
			break;
		if (!fired)
			break;
	}
	CHECK_MSG(k < 500, "more than 500 failure points");
	/* A sampled run (an emulator) walks one point in DMAMAP_TEST_SAMPLE. */
	CHECK_MSG(failed >= (tap_sample() > 1 ? 1 : 5), "only %ld failure points failed the call",
		  failed);
	printf("# %ld failure points, %ld failed the call\n", k - 1, failed);
	chunks_put(&ch);
}

/*
 * Every call into the kernel refused in turn (EIO) at creation without an
 * IOMMU, mlock and the pagemap's open and reads among them: each refusal
 * that fails the call leaves nothing open or locked and is said.
 */
TEST(vfio_noiommu_kernel_refusal_walk)
{
	struct dmamap__ledger l0;
	long k, failed = 0;
	bool saw_mlock = false, saw_pagemap = false;
	char why[256];

	dmamap__ledger_read(&l0);
	for (k = 1; k < 200; k++) {
		struct dmamap_error err = { 0 };
		struct dmamap_vfio_options opt = { .arena_size = 64 * KiB, .unsafe_noiommu = true };
		struct fake_vfio_cfg cfg = { .noiommu = true };
		struct dmamap_platform *p;
		bool fired;

		fake_vfio_install(&cfg);
		fake_vfio_fail_call_in(k, EIO);
		p = dmamap_platform_vfio(FAKE_BDF, &opt, &err);
		fired = fake_counts.injected != 0;
		fake_vfio_fail_call_in(0, 0);
		if (!p) {
			failed++;
			saw_mlock |= fake_counts.mlock_failures != 0;
			/* The pagemap's open or read refused: the arena's, after its mlock. */
			saw_pagemap |= !fake_counts.mlock_failures && fake_counts.mlocks &&
				       strstr(err.msg, "arena");
			CHECK_MSG(fired, "call %ld: failed with nothing refused: %d %s", k, err.code,
				  err.msg);
			CHECK_MSG(err.code < 0, "call %ld: code %d", k, err.code);
			CHECK_MSG(!strncmp(err.msg, "vfio: ", 6), "call %ld: message '%s'", k, err.msg);
		} else {
			quiet(p);
			CHECK_MSG(dmamap_device_lookup(p, FAKE_BDF) != NULL, "call %ld: no device", k);
			dmamap_platform_destroy(p);
		}
		CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "call %ld: %s", k, why);
		CHECK_MSG(fake_counts.munlock_stray == 0, "call %ld: a stray munlock", k);
		CHECK_MSG(ledger_same(&l0), "call %ld: the ledger changed", k);
		fake_vfio_remove();
		if (tap_failures || !fired)
			break;
	}
	CHECK_MSG(k < 200, "more than 200 calls");
	CHECK(saw_mlock);
	CHECK(saw_pagemap);
	CHECK_MSG(failed >= 10, "only %ld refusals failed the call", failed);
	printf("# %ld kernel calls, %ld refusals failed the call\n", k - 1, failed);
}

/*
 * With the checker on, a device's writes into FROM_DEVICE and
 * BIDIRECTIONAL mappings of registered memory are the device's, not the
 * CPU's: nothing is reported at unmap, and the CPU finds the bytes.
 */
TEST(vfio_noiommu_checker_does_not_blame_the_cpu_for_device_writes)
{
	const size_t pg = host_page();
	const enum dma_data_direction dirs2[2] = { DMA_FROM_DEVICE, DMA_BIDIRECTIONAL };
	struct dmamap_platform *p;
	struct device *dev;
	struct chunks ch;
	uint8_t w[512];

	REQUIRE(chunks_get(&ch, 1));
	p = nplat(NULL, ARENA, true, &dev);
	REQUIRE(p && dev);
	REQUIRE(dmamap_vfio_register(p, ch.mem, 4 * pg) == 0);
	for (int d = 0; d < 2; d++) {
		uint8_t *buf = ch.mem + 128 + d * pg;
		dma_addr_t h = map_ok(dev, buf, sizeof(w), dirs2[d]);

		REQUIRE(h != DMA_MAPPING_ERROR);
		rec_reset();
		pat(w, sizeof(w), 40 + d);
		CHECK_EQ(fake_dma_phys(h, w, sizeof(w), true), 0);
		dma_unmap_single(dev, h, sizeof(w), dirs2[d]);
		CHECK_MEM(buf, w, sizeof(w));
		CHECK_MSG(rec.n == 0, "%s: the device's write reported as [%s] %s", dir_name(dirs2[d]),
			  rec.n ? kname(rec.r[0].kind) : "", rec.n ? rec.r[0].text : "");
	}
	stop_checking(p);
	end(p);
	chunks_put(&ch);
}

/*
 * mlock() refused with EPERM (RLIMIT_MEMLOCK of 0 without CAP_IPC_LOCK,
 * mlock(2)) is the locked-memory limit, as with an IOMMU (MAP_DMA says
 * ENOMEM then): -ENOMEM and "ulimit -l", not -EPERM blaming
 * CAP_SYS_ADMIN, which the header keeps for pagemap's frames.
 */
TEST(vfio_noiommu_mlock_eperm_is_the_locked_memory_limit)
{
	struct dmamap_vfio_options opt = { .arena_size = ARENA, .unsafe_noiommu = true };
	struct fake_vfio_cfg cfg = { .noiommu = true, .mlock_errno = EPERM };
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p;
	char why[256];

	fake_vfio_install(&cfg);
	p = dmamap_platform_vfio(FAKE_BDF, &opt, &err);
	REQUIRE(!p);
	CHECK_EQ(fake_counts.pagemap_opens, 0); /* refused at mlock, before pagemap */
	CHECK_MSG(err.code == -ENOMEM, "code %d: %s", err.code, err.msg);
	CHECK_MSG(strstr(err.msg, "ulimit -l") && !strstr(err.msg, "CAP_SYS_ADMIN"), "said: %s",
		  err.msg);
	CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "%s", why);
	fake_vfio_remove();
}
