/* SPDX-License-Identifier: MIT */
/*
 * make bench's native VFIO line: a map and unmap of registered memory on
 * a VFIO platform against the host platform's identity path, interleaved
 * in one run. No IOMMU is needed for it: the registered path makes no
 * call into the kernel, so a stand-in answers the few calls that open
 * the platform (and says so if the path ever made another). The figures
 * in the guest (make test-vm) run the same path against a real kernel,
 * under an emulated CPU.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <linux/vfio.h>
#include <dmamap/dmamap.h>
#include "../../src/platform/vfio/vfio.h"

#define ROUNDS 9
#define PAIRS 1000000

static unsigned long kernel_calls; /* after the platform is open: must stay 0 */

static int k_open(const char *path, int flags)
{
	(void)path;
	(void)flags;
	return 100;
}

static int k_close(int fd)
{
	(void)fd;
	return 0;
}

static int k_ioctl(int fd, unsigned long request, void *arg)
{
	(void)fd;
	kernel_calls++;
	switch (request) {
	case VFIO_GET_API_VERSION:
		return VFIO_API_VERSION;
	case VFIO_CHECK_EXTENSION:
		return 1;
	case VFIO_GROUP_GET_STATUS:
		((struct vfio_group_status *)arg)->flags = VFIO_GROUP_FLAGS_VIABLE;
		return 0;
	case VFIO_IOMMU_GET_INFO:
		((struct vfio_iommu_type1_info *)arg)->iova_pgsizes = 4096;
		return 0;
	case VFIO_DEVICE_GET_INFO:
		((struct vfio_device_info *)arg)->flags = VFIO_DEVICE_FLAGS_PCI;
		((struct vfio_device_info *)arg)->num_regions = 9;
		return 0;
	case VFIO_DEVICE_GET_REGION_INFO: {
		struct vfio_region_info *ri = arg;

		ri->size = ri->index == VFIO_PCI_CONFIG_REGION_INDEX ? 256 : 0;
		return 0;
	}
	case VFIO_IOMMU_UNMAP_DMA:
		return 0; /* the size asked is the size unmapped */
	case VFIO_GROUP_GET_DEVICE_FD:
		return 101;
	default:
		return 0; /* set container, set IOMMU, map: done */
	}
}

static ssize_t k_pread(int fd, void *buf, size_t len, off_t off)
{
	(void)fd;
	(void)off;
	memset(buf, 0, len);
	return (ssize_t)len;
}

static ssize_t k_pwrite(int fd, const void *buf, size_t len, off_t off)
{
	(void)fd;
	(void)buf;
	(void)off;
	return (ssize_t)len;
}

static ssize_t k_readlink(const char *path, char *buf, size_t len)
{
	snprintf(buf, len, "%s", strstr(path, "driver") ? "../vfio-pci" : "../iommu_groups/1");
	return (ssize_t)strlen(buf);
}

static int k_mlock(const void *addr, size_t len)
{
	(void)addr;
	(void)len;
	return 0;
}

static int k_flock(int fd, int operation)
{
	(void)fd;
	(void)operation;
	return 0;
}

/* No iommufd here: the group's way, whose fast path is the same table lookup. */
static int k_dir_entry(const char *dir, const char *prefix, char *name, size_t len)
{
	(void)dir;
	(void)prefix;
	(void)name;
	(void)len;
	errno = ENOENT;
	return -1;
}

static const struct dmamap_vfio_kernel stand_in = {
	.open = k_open, .close = k_close, .ioctl = k_ioctl, .pread = k_pread,
	.pwrite = k_pwrite, .mmap = mmap, .munmap = munmap, .readlink = k_readlink,
	.mlock = k_mlock, .munlock = k_mlock, .flock = k_flock, .dir_entry = k_dir_entry,
};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Nanoseconds per dma_map_single() + dma_unmap_single() of 2 KiB at @buf. */
static double pair_ns(struct device *dev, void *buf)
{
	double t0 = now();

	for (int i = 0; i < PAIRS; i++) {
		dma_addr_t a = dma_map_single(dev, buf, 2048, DMA_TO_DEVICE);

		if (dma_mapping_error(dev, a))
			return -1;
		dma_unmap_single(dev, a, 2048, DMA_TO_DEVICE);
	}
	return (now() - t0) * 1e9 / PAIRS;
}

int main(void)
{
	struct dmamap_device_desc desc = { .name = "identity" };
	struct dmamap_platform *vp, *hp;
	struct device *vdev, *hdev;
	void *arena = aligned_alloc(1 << 20, 1 << 20), *plain = aligned_alloc(4096, 4096);
	double reg = 0, ident = 0;
	unsigned long calls;

	dmamap__vfio_kernel = &stand_in;
	vp = dmamap_platform_vfio("0000:01:00.0", NULL, NULL);
	hp = dmamap_platform_host(NULL);
	vdev = vp ? dmamap_device_at(vp, 0) : NULL;
	hdev = hp ? dmamap_device_create(hp, &desc, NULL) : NULL;
	if (!vdev || !hdev || !arena || !plain || dmamap_vfio_register(vp, arena, 1 << 20)) {
		fprintf(stderr, "vfio bench: cannot set up\n");
		return 1;
	}
	calls = kernel_calls;
	/* Interleaved, the best of each: one noisy machine. */
	for (int r = 0; r < ROUNDS; r++) {
		double a = pair_ns(vdev, (char *)arena + 4096), b = pair_ns(hdev, plain);

		reg = r && reg < a ? reg : a;
		ident = r && ident < b ? ident : b;
	}
	if (kernel_calls != calls) {
		fprintf(stderr, "vfio bench: the registered path called the kernel %lu times\n",
			kernel_calls - calls);
		return 1;
	}
	printf("vfio (native, no kernel call on the path): map+unmap of registered memory %.2f ns, host identity %.2f ns: %.2fx (target <= 2x): %s\n",
	       reg, ident, reg / ident, reg / ident <= 2 ? "pass" : "MISS");
	dmamap_vfio_unregister(vp, arena);
	dmamap_platform_destroy(vp);
	dmamap_platform_destroy(hp);
	free(arena);
	free(plain);
	return reg / ident <= 2 ? 0 : 3;
}
