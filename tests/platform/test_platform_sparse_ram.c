/* SPDX-License-Identifier: MIT */
/*
 * Simulated RAM costs what a run uses: a board reserves address space for
 * its linear map only, memory behind it is committed when written, the
 * model's memory view and snapshot are mapped as they are first needed, and
 * an uncached alias lives exactly as long as its allocation.
 */
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <dmamap/dmamap.h>
#include "../helpers.h"
#include "../../src/lib/mem.h"
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif

/*
 * The process's address space and resident memory in bytes, from
 * /proc/self/status: counted in kB there, whatever the page size (qemu's
 * -p emulation leaves statm in the host's pages).
 */
static bool vm_now(unsigned long long *vm, unsigned long long *rss)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	int found = 0;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "VmSize: %llu", vm) == 1 || sscanf(line, "VmRSS: %llu", rss) == 1)
			found++;
	}
	fclose(f);
	*vm <<= 10;
	*rss <<= 10;
	return found == 2;
}

/* The permissions /proc/self/maps gives the page at @addr ("rw-s", "---p"), or "" if unmapped. */
static void perms_at(const void *addr, char perms[8])
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long long lo, hi;
	char line[512], pr[8];

	perms[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx-%llx %7s", &lo, &hi, pr) == 3 &&
		    (uintptr_t)addr >= lo && (uintptr_t)addr < hi) {
			memcpy(perms, pr, 8);
			break;
		}
	fclose(f);
}

static u64 ram_of(struct dmamap_platform *p)
{
	struct dmamap_ram_bank bank;
	u64 total = 0;

	for (unsigned int i = 0; dmamap_ram_bank(p, i, &bank) == 0; i++)
		total += bank.size;
	return total;
}

/*
 * rpi4-like (1 GiB in one bank, the built-in board with the most RAM):
 * its creation grows the address space by the linear map and a little
 * bookkeeping, where every byte of RAM used to be mapped four times.
 */
TEST(sparse_ram_board_reserves_its_linear_map_only)
{
	unsigned long long vm0, rss0, vm1, rss1;
	struct dmamap_platform *p;
	u64 ram;

	REQUIRE(vm_now(&vm0, &rss0));
	p = builtin_board("rpi4-like");
	REQUIRE(p);
	REQUIRE(vm_now(&vm1, &rss1));
	ram = ram_of(p);
	printf("# rpi4-like, %llu MiB of RAM: %llu MiB of address space, %llu MiB resident\n",
	       (unsigned long long)(ram >> 20), (vm1 - vm0) >> 20, (rss1 - rss0) >> 20);
	CHECK_MSG(vm1 - vm0 < ram + ram / 4, "%llu MiB of address space for %llu MiB of RAM",
		  (vm1 - vm0) >> 20, (unsigned long long)(ram >> 20));
	dmamap_platform_destroy(p);
}

/*
 * A board whose pools are large (256 MiB of CMA, 128 MiB of bounce
 * buffers): describing it, as `dmamap info` does, commits none of them.
 */
TEST(sparse_ram_large_pools_are_not_committed)
{
	static const struct dmamap_device_desc d = {
		.name = "dev", .dma_mask = DMA_BIT_MASK(32),
	};
	const struct dmamap_board b = {
		.name = "large-pools",
		.swiotlb_size = 128 * MiB,
		.cma_size = 256 * MiB,
		.nr_banks = 1,
		.banks = { { RAM0, 768 * MiB } },
		.nr_devices = 1,
		.devices = &d,
	};
	unsigned long long vm0, rss0, vm1, rss1;
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p;

	REQUIRE(vm_now(&vm0, &rss0));
	p = dmamap_platform_create(&b, &err);
	REQUIRE_MSG(p, "%s", err.msg);
	REQUIRE(vm_now(&vm1, &rss1));
	printf("# 768 MiB board, 384 MiB of pools: %llu MiB resident after creation\n",
	       (rss1 - rss0) >> 20);
	CHECK_MSG(rss1 - rss0 < 24 * MiB, "%llu MiB resident", (rss1 - rss0) >> 20);
	dmamap_platform_destroy(p);
}

/*
 * The default board's IOMMU domains each span up to 4 GiB of IOVA space,
 * a million IO pages: their buddy allocators' per-page arrays are
 * committed as a run touches them, not cleared in full at creation. The
 * board is made twice: freeing the first raises 64-bit glibc's threshold
 * for serving large blocks from fresh mappings, after which calloc
 * cleared (and committed) megabytes for each domain, so that the second
 * board cost more memory than the first. (32-bit glibc caps that
 * threshold, and ASan's calloc does not clear: there the two always cost
 * alike.)
 */
TEST(sparse_ram_iommu_domains_commit_what_they_use)
{
	unsigned long long vm0, rss0, vm1, rss1;
	long long first, second;
	struct dmamap_platform *p;
	unsigned int behind = 0;

	REQUIRE(vm_now(&vm0, &rss0));
	p = builtin_board("default");
	REQUIRE(p);
	REQUIRE(vm_now(&vm1, &rss1));
	first = (long long)(rss1 - rss0);
	for (unsigned int i = 0; i < dmamap_device_count(p); i++) {
		struct dmamap_device_info info;

		REQUIRE(dmamap_device_info(dmamap_device_at(p, i), &info) == 0);
		behind += !strcmp(info.ops, "iommu");
	}
	dmamap_platform_destroy(p);
	/* What the first one freed goes back to the system, so that clearing it would show. */
	malloc_trim(0);
	REQUIRE(vm_now(&vm0, &rss0));
	p = builtin_board("default");
	REQUIRE(p);
	REQUIRE(vm_now(&vm1, &rss1));
	second = (long long)(rss1 - rss0);
	printf("# default board, %u devices behind its IOMMU: %lld KiB resident after its first creation, %lld KiB after its second\n",
	       behind, first >> 10, second >> 10);
	CHECK(behind >= 3);
	/* Cleared in full, the second cost about 6 MiB more than the first. */
	CHECK_MSG(second < first + (long long)MiB, "first %lld KiB, second %lld KiB", first >> 10,
		  second >> 10);
	dmamap_platform_destroy(p);
}

/*
 * Memory mapped outside the heap is not scanned by LeakSanitizer: a heap
 * block reachable only through such a mapping is reported as leaked while
 * the board is alive (a domain's structure was mapped so for a while, and
 * the fuzzers' leak checks named the allocator it points to). Under ASan,
 * a leak check with every built-in board alive finds nothing.
 */
TEST(sparse_ram_a_live_board_hides_no_heap_from_the_leak_checker)
{
#ifdef __SANITIZE_ADDRESS__
	static const char *const boards[] = { "default", "rpi4-like", "arm64-server", "x86-like",
					      "armv5" };
	enum { N = sizeof(boards) / sizeof(boards[0]) };
	struct dmamap_platform *p[N];

	for (unsigned int i = 0; i < N; i++)
		p[i] = quiet(dmamap_platform_builtin(boards[i], NULL));
	CHECK_MSG(__lsan_do_recoverable_leak_check() == 0, "the leak checker reports leaks");
	for (unsigned int i = 0; i < N; i++)
		dmamap_platform_destroy(p[i]);
#else
	SKIP("needs ASan's leak checker (make test SAN=1)");
#endif
}

/*
 * A non-coherent device's coherent buffer is reached through an uncached
 * alias of its own: mapped at the allocation, gone at the free, with the
 * bytes the device wrote visible through it meanwhile.
 */
TEST(sparse_ram_uncached_alias_lives_with_its_allocation)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = p ? dmamap_device_lookup(p, "dma-nc") : NULL;
	const size_t size = 16 * PAGE_SIZE;
	uint8_t pattern[64], *other;
	dma_addr_t dma2;

	REQUIRE(dev);
	for (size_t i = 0; i < sizeof(pattern); i++)
		pattern[i] = (uint8_t)(0xa0 + i);
	other = dma_alloc_coherent(dev, size, &dma2, GFP_KERNEL);
	REQUIRE(other);
	CHECK_EQ(dmamap_device_write(dev, dma2, pattern, sizeof(pattern)), 0);
	CHECK_MEM(other, pattern, sizeof(pattern));
	/* Twice: the first round maps the model's chunks under the buffer, the second only aliases. */
	for (int round = 0; round < 2; round++) {
		struct dmamap__ledger l0, l1, l2;
		dma_addr_t dma;
		uint8_t *cpu;

		dmamap__ledger_read(&l0);
		cpu = dma_alloc_coherent(dev, size, &dma, GFP_KERNEL);
		REQUIRE(cpu);
		dmamap__ledger_read(&l1);
		CHECK(l1.mapped_bytes - l0.mapped_bytes >= (long long)size);
		CHECK(cpu + size <= other || other + size <= cpu);
		CHECK_EQ(dmamap_device_write(dev, dma + PAGE_SIZE, pattern, sizeof(pattern)), 0);
		CHECK_MEM(cpu + PAGE_SIZE, pattern, sizeof(pattern));
		/* The CPU's linear map is another way to the same page, not the alias. */
		CHECK(dmamap_phys_to_virt(p, dmamap_dma_to_phys(dev, dma)) != cpu);
		dma_free_coherent(dev, size, cpu, dma);
		dmamap__ledger_read(&l2);
		if (round)
			CHECK_MSG(l2.mapped_bytes == l0.mapped_bytes,
				  "%lld bytes still mapped after the free",
				  l2.mapped_bytes - l0.mapped_bytes);
	}
	dma_free_coherent(dev, size, other, dma2);
	dmamap_platform_destroy(p);
}

/* A store that runs off an alias's last host page hits a page of nothing, not another alias. */
TEST(sparse_ram_alias_ends_in_a_guard_page)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = p ? dmamap_device_lookup(p, "dma-nc") : NULL;
	const size_t size = 3 * PAGE_SIZE;
	uint8_t *cpu[2];
	dma_addr_t dma[2];
	char perms[8];

	REQUIRE(dev);
	for (int i = 0; i < 2; i++) {
		cpu[i] = dma_alloc_coherent(dev, size, &dma[i], GFP_KERNEL);
		REQUIRE(cpu[i]);
	}
	for (int i = 0; i < 2; i++) {
		uintptr_t end = ((uintptr_t)cpu[i] + size + host_page() - 1) & ~(uintptr_t)(host_page() - 1);

		perms_at(cpu[i], perms);
		CHECK_MSG(perms[0] == 'r' && perms[1] == 'w', "alias %d is %s", i, perms);
		perms_at((void *)end, perms);
		CHECK_MSG(strcmp(perms, "---p") == 0, "the page after alias %d is \"%s\"", i, perms);
	}
	for (int i = 0; i < 2; i++)
		dma_free_coherent(dev, size, cpu[i], dma[i]);
	dmamap_platform_destroy(p);
}
