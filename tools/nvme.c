/* SPDX-License-Identifier: MIT */
/*
 * dmamap nvme BDF: the example NVMe driver on a real function held
 * through VFIO. Identify, then blocks written and read back through
 * dma_map_single() (memory registered and not) and dma_map_sg(), then a
 * read aimed at an IOVA nobody mapped, which the IOMMU must refuse; with
 * --bench, the cost of a map and unmap on each path beside the host's
 * identity path, measured in this run.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <dmamap/vfio.h>
#include "../drivers/nvme.h"
#include "cli.h"

#define PCI_COMMAND 0x04
#define PCI_COMMAND_MEMORY 0x2
#define PCI_COMMAND_MASTER 0x4

/* Bus mastering and memory decoding on: what the PCI core does before a driver's probe. */
static int enable_function(struct device *dev)
{
	uint16_t cmd;
	int ret = dmamap_vfio_config_read(dev, PCI_COMMAND, &cmd, 2);

	if (ret)
		return ret;
	cmd |= PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER;
	return dmamap_vfio_config_write(dev, PCI_COMMAND, &cmd, 2);
}

static void fill(uint8_t *buf, size_t len, uint32_t seed)
{
	for (size_t i = 0; i < len; i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = (uint8_t)(seed >> 16);
	}
}

/*
 * POSIX cksum(1) of @len bytes: the rig runs cksum on the disk image after
 * the guest is gone and must find the same number.
 */
static uint32_t posix_cksum(const uint8_t *buf, size_t len)
{
	uint32_t crc = 0;

	for (size_t i = 0; i < len + 8; i++) {
		uint8_t byte;

		if (i < len)
			byte = buf[i];
		else if ((size_t)(i - len) < sizeof(size_t) && (len >> (8 * (i - len))))
			byte = (uint8_t)(len >> (8 * (i - len)));
		else
			continue;
		crc ^= (uint32_t)byte << 24;
		for (int k = 0; k < 8; k++)
			crc = crc & 0x80000000u ? crc << 1 ^ 0x04c11db7u : crc << 1;
	}
	return ~crc;
}

/* Write @len bytes at @lba from @src and read them into @dst: whether they came back identical. */
static int round_trip(struct nvme_ctrl *c, const char *how, uint64_t lba, uint8_t *src,
		      uint8_t *dst, size_t len, uint32_t seed)
{
	uint32_t n = (uint32_t)(len / c->block_size);
	int ret;

	fill(src, len, seed);
	memset(dst, 0, len);
	ret = nvme_write(c, lba, src, n);
	if (!ret)
		ret = nvme_read(c, lba, dst, n);
	printf("nvme: %s: %u blocks at %llu written and read back: %s (cksum %u %zu)\n", how, n,
	       (unsigned long long)lba,
	       ret ? strerror(-ret) : memcmp(src, dst, len) ? "DIFFERENT" : "identical",
	       posix_cksum(src, len), len);
	return ret ? ret : memcmp(src, dst, len) ? -EIO : 0;
}

/* The same through dma_map_sg(): @len bytes in page-sized pieces of a registered arena, out of order. */
static int round_trip_sg(struct nvme_ctrl *c, uint64_t lba, uint8_t *arena, size_t len)
{
	unsigned int pages = (unsigned int)(len / 4096), i;
	struct scatterlist sg[16];
	uint8_t *expect = malloc(len);
	int ret;

	if (!expect || pages > 8)
		return free(expect), -EINVAL;
	/* Pages 2k+1 of the arena hold piece k: scattered for the CPU, one list for the device. */
	sg_init_table(sg, pages);
	for (i = 0; i < pages; i++) {
		fill(arena + (2 * i + 1) * 4096, 4096, 77 + i);
		memcpy(expect + i * 4096, arena + (2 * i + 1) * 4096, 4096);
		sg_set_buf(&sg[i], arena + (2 * i + 1) * 4096, 4096);
	}
	ret = nvme_rw_sg(c, true, lba, sg, (int)pages);
	for (i = 0; !ret && i < pages; i++)
		memset(arena + (2 * i + 1) * 4096, 0, 4096);
	if (!ret)
		ret = nvme_rw_sg(c, false, lba, sg, (int)pages);
	for (i = 0; !ret && i < pages; i++)
		if (memcmp(arena + (2 * i + 1) * 4096, expect + i * 4096, 4096))
			ret = -EIO;
	printf("nvme: dma_map_sg, %u scattered pages: %zu blocks at %llu written and read back: %s (cksum %u %zu)\n",
	       pages, len / c->block_size, (unsigned long long)lba,
	       ret == -EIO ? "DIFFERENT" : ret ? strerror(-ret) : "identical",
	       posix_cksum(expect, len), len);
	free(expect);
	return ret;
}

/* Nanoseconds per dma_map_single() + dma_unmap_single() of @len bytes at @buf. */
static double map_cost(struct device *dev, void *buf, size_t len, unsigned int rounds)
{
	double t0 = cli_now_s();

	for (unsigned int i = 0; i < rounds; i++) {
		dma_addr_t dma = dma_map_single(dev, buf, len, DMA_TO_DEVICE);

		if (dma_mapping_error(dev, dma))
			return -1;
		dma_unmap_single(dev, dma, len, DMA_TO_DEVICE);
	}
	return (cli_now_s() - t0) * 1e9 / rounds;
}

static void bench(struct device *dev, uint8_t *registered)
{
	struct dmamap_platform *host = dmamap_platform_host(NULL);
	struct dmamap_device_desc desc = { .name = "identity" };
	struct device *hdev = host ? dmamap_device_create(host, &desc, NULL) : NULL;
	uint8_t *plain = aligned_alloc(4096, 4096);
	double reg = 0, ident = 0, slow = 0;

	if (!hdev || !plain) {
		printf("nvme: bench: no host platform to compare with\n");
		goto out;
	}
	/* Interleaved rounds, the best of each kept: the machine is shared. */
	for (int r = 0; r < 5; r++) {
		double a = map_cost(dev, registered, 2048, 200000);
		double b = map_cost(hdev, plain, 2048, 200000);
		double c = map_cost(dev, plain, 2048, 2000);

		reg = r && reg < a ? reg : a;
		ident = r && ident < b ? ident : b;
		slow = r && slow < c ? slow : c;
	}
	printf("bench: vfio map+unmap, registered memory: %.1f ns\n", reg);
	printf("bench: host identity map+unmap: %.1f ns\n", ident);
	printf("bench: ratio registered / identity: %.2f (target: 2.00 or less)\n", reg / ident);
	printf("bench: vfio map+unmap, unregistered memory (%s): %.0f ns, %.0fx registered\n",
	       dmamap_vfio_access(dev) == DMAMAP_VFIO_IOMMUFD ? "IOMMU_IOAS_MAP + IOAS_UNMAP" :
	       "VFIO_IOMMU_MAP_DMA + UNMAP_DMA", slow, slow / reg);
out:
	free(plain);
	dmamap_platform_destroy(host);
}

int cli_nvme(int argc, char **argv)
{
	struct dmamap_error err = { 0 };
	struct nvme_ctrl c = { 0 };
	struct dmamap_vfio_stats st;
	struct dmamap_platform *p;
	struct device *dev;
	void __iomem *bar;
	uint8_t *arena = MAP_FAILED, *heap_src = NULL, *heap_dst = NULL;
	size_t arena_len = 256 << 10, bar_len = 0;
	bool do_bench = false, stray = true, poll = false;
	struct dmamap_vfio_options opt = { 0 };
	uint8_t *src2, *dst2;
	const char *bdf = NULL;
	int ret, status = 1;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--bench"))
			do_bench = true;
		else if (!strcmp(argv[i], "--no-stray"))
			stray = false;
		else if (!strcmp(argv[i], "--poll"))
			poll = true;
		else if (!strcmp(argv[i], "--unsafe-noiommu"))
			opt.unsafe_noiommu = true;
		else if (argv[i][0] != '-' && !bdf)
			bdf = argv[i];
		else {
			fprintf(stderr, "dmamap nvme: unknown argument %s\n", argv[i]);
			return 2;
		}
	}
	if (!bdf) {
		fprintf(stderr, "usage: dmamap nvme BDF [--bench] [--no-stray] [--poll] [--unsafe-noiommu]\n");
		return 2;
	}
	p = dmamap_platform_vfio(bdf, &opt, &err);
	if (!p) {
		fprintf(stderr, "dmamap nvme: %s\n", err.msg);
		return 1;
	}
	dev = dmamap_device_at(p, 0);
	ret = dmamap_vfio_access(dev);
	printf("nvme: %s reached through %s\n", bdf,
	       ret == DMAMAP_VFIO_SYSFS ? "sysfs (no IOMMU, no VFIO; UNSAFE, polled)" :
	       ret == DMAMAP_VFIO_NOIOMMU ? "VFIO's no-IOMMU mode (UNSAFE)" :
	       ret == DMAMAP_VFIO_IOMMUFD ? "VFIO and the IOMMU, through iommufd" :
	       "VFIO and the IOMMU, through its group and a type1 container");
	bar = dev ? dmamap_vfio_bar(dev, 0, &bar_len) : NULL;
	if (!bar || enable_function(dev)) {
		fprintf(stderr, "dmamap nvme: %s: BAR0 cannot be mapped or bus mastering enabled\n", bdf);
		goto out;
	}
	/* Interrupts where the function has a vector for the I/O queue. */
	c.use_irq = !poll && dmamap_device_irq(dev, 1) > 0;
	ret = nvme_probe(&c, dev, bar);
	if (ret) {
		fprintf(stderr, "dmamap nvme: %s: probe: %s (status 0x%x)\n", bdf, strerror(-ret),
			c.last_status);
		goto out;
	}
	printf("nvme: %s: model \"%s\", serial \"%s\", firmware \"%s\", vendor 0x%04x\n", bdf,
	       c.model, c.serial, c.firmware, c.vendor);
	printf("nvme: namespace 1: %llu blocks of %u bytes; %u namespaces\n",
	       (unsigned long long)c.blocks, c.block_size, c.namespaces);

	if (opt.unsafe_noiommu) {
		/*
		 * No IOMMU: a buffer must be physically contiguous, and a 2 MiB
		 * hugepage is (echo N > /proc/sys/vm/nr_hugepages first).
		 */
		arena_len = 2 << 20;
		arena = mmap(NULL, arena_len, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_POPULATE, -1, 0);
		printf("nvme: no IOMMU (unsafe): DMA addresses are physical, buffers in a %s\n",
		       arena == MAP_FAILED ? "MISSING hugepage" : "2 MiB hugepage");
	} else {
		arena = mmap(NULL, arena_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			     -1, 0);
	}
	heap_src = aligned_alloc(4096, 64 << 10);
	heap_dst = aligned_alloc(4096, 64 << 10);
	if (arena == MAP_FAILED || !heap_src || !heap_dst ||
	    (ret = dmamap_vfio_register(p, arena, arena_len))) {
		fprintf(stderr, "dmamap nvme: cannot register %zu bytes\n", arena_len);
		goto out;
	}
	/* Without an IOMMU unregistered memory has no device address: the second pair is the arena's. */
	src2 = opt.unsafe_noiommu ? arena + (1 << 20) : heap_src;
	dst2 = opt.unsafe_noiommu ? arena + (1 << 20) + (128 << 10) : heap_dst;
	ret = round_trip(&c, "dma_map_single, registered memory", 8, arena, arena + 128 * 1024,
			 64 << 10, 1);
	if (!ret && opt.unsafe_noiommu) {
		dma_addr_t h = dma_map_single(dev, heap_src, 4096, DMA_TO_DEVICE);

		printf("nvme: dma_map_single of unregistered memory without an IOMMU: %s\n",
		       dma_mapping_error(dev, h) ? "refused, as it must be" : "MAPPED");
		if (!dma_mapping_error(dev, h)) {
			dma_unmap_single(dev, h, 4096, DMA_TO_DEVICE);
			ret = -EIO;
		}
	}
	if (!ret)
		ret = round_trip(&c, opt.unsafe_noiommu ? "dma_map_single, more registered memory" :
							  "dma_map_single, unregistered memory",
				 200, src2, dst2, 64 << 10, 2);
	if (!ret)
		ret = round_trip(&c, "dma_map_single, 3 blocks at an odd offset", 400,
				 src2 + c.block_size, dst2 + 3 * c.block_size,
				 3 * (size_t)c.block_size, 3);
	if (!ret)
		ret = round_trip_sg(&c, 600, arena, 16 << 10);
	dmamap_vfio_stats(dev, &st);
	printf("nvme: maps: %llu through registered memory, %llu pinned and mapped on the spot; %llu bytes still mapped so\n",
	       (unsigned long long)st.fast_maps, (unsigned long long)st.slow_maps,
	       (unsigned long long)st.slow_bytes_live);
	if (c.irq > 0)
		printf("nvme: I/O completions by interrupt: MSI-X vector 1 of %u, irq %d: %llu messages, %llu handler runs, %llu of them with a completion not yet taken\n",
		       st.msix_vectors, c.irq, (unsigned long long)st.irqs_signalled,
		       (unsigned long long)st.irqs_delivered, (unsigned long long)c.irqs);
	else
		printf("nvme: I/O completions polled\n");
	/* Without an IOMMU a stray address is someone's memory: never aimed at. */
	if (!ret && stray && !opt.unsafe_noiommu) {
		/* Above everything this process mapped: the IOMMU has no entry there. */
		dma_addr_t nowhere = st.iova_end - 0x100000;
		int r = nvme_read_to(&c, 8, nowhere);

		/*
		 * The IOMMU's refusal is the kernel's to report (a DMAR or
		 * AMD-Vi fault line); what the controller makes of it is its own
		 * business (QEMU's completes the read).
		 */
		printf("nvme: a read into IOVA 0x%llx, which nobody mapped: the controller says %s (status 0x%x); the IOMMU's refusal is in the kernel log\n",
		       (unsigned long long)nowhere, r == -EIO ? "error" : r ? strerror(-r) : "success",
		       c.last_status);
		/* A controller that failed fatally cannot be shut down cleanly: start it again. */
		if (r == -ETIMEDOUT || r == -ENODEV)
			ret = r;
	}
	if (!ret && do_bench)
		bench(dev, arena);
	nvme_remove(&c);
	if (!ret)
		status = 0;
	printf("nvme: %s: %llu commands, %s\n", bdf, (unsigned long long)c.commands,
	       status ? "FAILED" : "all as expected");
out:
	if (arena != MAP_FAILED) {
		dmamap_vfio_unregister(p, arena);
		munmap(arena, arena_len);
	}
	free(heap_src);
	free(heap_dst);
	dmamap_platform_destroy(p);
	return status;
}
