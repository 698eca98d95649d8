/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for what the VFIO platform reads from outside: the PCI
 * address it is given, and every answer of the kernel (sysfs links, the
 * function's own file where the kernel has iommufd and the address
 * space's IOVA ranges, the
 * IOMMU's info and its capability chain, region and interrupt info,
 * configuration space, /proc/self/pagemap without an IOMMU, a function's
 * sysfs resource file without VFIO either, refusals with
 * any errno), all taken from the input through a kernel of this file's
 * own. Then a few calls on the
 * platform, if one was made: BARs, configuration space, maps of
 * registered and unregistered memory, stats, destroy.
 *
 * What must hold: a refused platform says why (a negative errno and a
 * message) and leaves nothing behind, no descriptor open; one that is
 * made gives handles inside the IOVA space it reports, and gives every
 * mapping back when destroyed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/vfio.h>
#include <dmamap/dmamap.h>
#include "../src/platform/vfio/iommufd_abi.h"
#include "../src/platform/vfio/vfio.h"
#include "fuzz.h"

#define FD_BASE 1000
#define MAX_MAP (1u << 20)

static struct {
	const uint8_t *at, *end;
	int open_fds;
	unsigned int maps_live;
	int resource_fd; /* sysfs's resource file, when it is open */
} in;

static unsigned int byte(void)
{
	return in.at < in.end ? *in.at++ : 0;
}

static uint32_t in_u32(void)
{
	uint32_t v = byte();

	v |= byte() << 8;
	v |= byte() << 16;
	return v | (uint32_t)byte() << 24;
}

static uint64_t in_u64(void)
{
	uint64_t lo = in_u32();

	return lo | (uint64_t)in_u32() << 32;
}

/* One byte decides whether a call is refused: 0xf0 and above, with an errno from the next. */
static int refused(void)
{
	static const int errnos[] = { EINVAL, ENOMEM, EFAULT, EBUSY, EACCES, ENOENT, EPERM, ENOSPC };
	unsigned int b = byte();

	if (b < 0xf0)
		return 0;
	errno = errnos[byte() % 8];
	return -1;
}

static int k_open(const char *path, int flags)
{
	size_t n = strlen(path);

	(void)flags;
	if (refused())
		return -1;
	if (n > 9 && !strcmp(path + n - 9, "/resource"))
		in.resource_fd = FD_BASE + in.open_fds;
	return FD_BASE + in.open_fds++;
}

/*
 * sysfs's resource file (no IOMMU, no VFIO): mostly lines of the kernel's
 * form with numbers from the input, sometimes raw bytes.
 */
static ssize_t resource_text(char *buf, size_t len)
{
	size_t n = 0;

	if (byte() % 4 == 0)
		return -2; /* raw bytes, as for any other file */
	for (unsigned int i = 0; i < 8 && n + 64 < len; i++) {
		uint64_t start = in_u64() >> (byte() % 64), size = in_u64() >> (byte() % 64);

		n += (size_t)snprintf(buf + n, len - n, "0x%016llx 0x%016llx 0x%016llx\n",
				      (unsigned long long)start,
				      (unsigned long long)(byte() % 8 ? start + size : start - size),
				      (unsigned long long)(byte() % 2 ? 0x200 : 0x101));
	}
	return (ssize_t)n;
}

static int k_close(int fd)
{
	if (fd == in.resource_fd)
		in.resource_fd = -1;
	in.open_fds--;
	return 0;
}

static int k_ioctl(int fd, unsigned long request, void *arg)
{
	(void)fd;
	if (refused())
		return -1;
	switch (request) {
	case VFIO_GET_API_VERSION:
		return byte() == 1 ? 1 : VFIO_API_VERSION;
	case VFIO_CHECK_EXTENSION:
		return byte() != 1;
	case VFIO_GROUP_GET_STATUS:
		((struct vfio_group_status *)arg)->flags = byte() == 1 ? 0 : VFIO_GROUP_FLAGS_VIABLE;
		return 0;
	case VFIO_IOMMU_GET_INFO: {
		struct vfio_iommu_type1_info *info = arg;
		uint32_t room = info->argsz;

		/* The header as the kernel fills it, then raw bytes where the capabilities go. */
		info->flags = in_u32();
		info->iova_pgsizes = in_u64();
		info->argsz = in_u32() % 4096;
		if (room > sizeof(*info)) {
			info->cap_offset = in_u32() % room;
			for (uint32_t i = sizeof(*info); i < room; i++)
				((uint8_t *)info)[i] = (uint8_t)byte();
		}
		return 0;
	}
	case VFIO_GROUP_GET_DEVICE_FD:
		return FD_BASE + in.open_fds++;
	case VFIO_DEVICE_GET_INFO: {
		struct vfio_device_info *di = arg;

		di->flags = byte() == 1 ? 0 : VFIO_DEVICE_FLAGS_PCI;
		di->num_regions = byte() % 16;
		di->num_irqs = 5;
		return 0;
	}
	case VFIO_DEVICE_GET_REGION_INFO: {
		struct vfio_region_info *ri = arg;

		ri->flags = byte();
		ri->offset = (uint64_t)ri->index << 40;
		ri->size = byte() % 4 ? (uint64_t)1 << (byte() % 48) : 0;
		return 0;
	}
	case VFIO_DEVICE_GET_IRQ_INFO: {
		struct vfio_irq_info *ii = arg;

		ii->flags = byte() % 2 ? VFIO_IRQ_INFO_EVENTFD : 0;
		ii->count = byte() % 70;
		return 0;
	}
	case VFIO_IOMMU_MAP_DMA:
		in.maps_live++;
		return 0;
	case VFIO_IOMMU_UNMAP_DMA: {
		struct vfio_iommu_type1_dma_unmap *u = arg;

		/* Now and then the kernel unmaps less than asked. */
		if (byte() == 1)
			u->size /= 2;
		else if (in.maps_live)
			in.maps_live--;
		return 0;
	}
	case DMAMAP_IOMMU_IOAS_ALLOC:
		((struct dmamap_iommu_ioas_alloc *)arg)->out_ioas_id = in_u32();
		return 0;
	case DMAMAP_VFIO_DEVICE_ATTACH_IOMMUFD_PT:
		((struct dmamap_vfio_device_attach_iommufd_pt *)arg)->pt_id = in_u32();
		return 0;
	case DMAMAP_IOMMU_IOAS_IOVA_RANGES: {
		struct dmamap_iommu_ioas_iova_ranges *q = arg;
		struct dmamap_iommu_iova_range *r = (void *)(uintptr_t)q->allowed_iovas;
		uint32_t n = byte() % 12;

		/* As many ranges as the input says, each start and last from it: the room is filled, the rest said. */
		for (uint32_t i = 0; i < n && i < q->num_iovas; i++) {
			r[i].start = in_u64() >> (byte() % 64);
			r[i].last = in_u64() >> (byte() % 64);
		}
		q->out_iova_alignment = byte() % 2 ? (uint64_t)1 << (byte() % 64) : in_u64();
		if (n > q->num_iovas) {
			q->num_iovas = n;
			errno = EMSGSIZE;
			return -1;
		}
		q->num_iovas = n;
		return 0;
	}
	case DMAMAP_IOMMU_IOAS_MAP:
		in.maps_live++;
		return 0;
	case DMAMAP_IOMMU_IOAS_UNMAP: {
		struct dmamap_iommu_ioas_unmap *u = arg;

		if (byte() == 1)
			u->length /= 2;
		else if (in.maps_live)
			in.maps_live--;
		return 0;
	}
	case DMAMAP_VFIO_DEVICE_BIND_IOMMUFD:
	case VFIO_GROUP_SET_CONTAINER:
	case VFIO_SET_IOMMU:
	case VFIO_DEVICE_SET_IRQS:
	case VFIO_DEVICE_RESET:
		return 0;
	default:
		errno = ENOTTY;
		return -1;
	}
}

static ssize_t k_pread(int fd, void *buf, size_t len, off_t off)
{
	(void)off;
	if (refused())
		return -1;
	if (fd == in.resource_fd) {
		ssize_t n = resource_text(buf, len);

		if (n >= 0)
			return n;
	}
	for (size_t i = 0; i < len; i++)
		((uint8_t *)buf)[i] = (uint8_t)byte();
	return byte() == 1 ? (ssize_t)len / 2 : (ssize_t)len;
}

static ssize_t k_pwrite(int fd, const void *buf, size_t len, off_t off)
{
	(void)fd;
	(void)buf;
	(void)off;
	return refused() ? -1 : (ssize_t)len;
}

static void *k_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	(void)fd;
	(void)off;
	(void)flags;
	if (refused() || len > MAX_MAP)
		return MAP_FAILED;
	return mmap(addr, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

static ssize_t k_readlink(const char *path, char *buf, size_t len)
{
	size_t n = byte() % 24;

	(void)path;
	if (refused())
		return -1;
	/* Mostly the links a kernel makes; sometimes bytes of the input. */
	if (byte() % 4) {
		snprintf(buf, len, "%s", strstr(path, "driver") ? "../../../bus/pci/drivers/vfio-pci" :
				      strstr(path, "subsystem") ? "../../../bus/pci" :
				      "../../../kernel/iommu_groups/7");
		return (ssize_t)strlen(buf);
	}
	for (size_t i = 0; i < n && i + 1 < len; i++)
		buf[i] = (char)(byte() | 1);
	buf[n < len ? n : len - 1] = '\0';
	return (ssize_t)strlen(buf);
}

static int k_mlock(const void *addr, size_t len)
{
	(void)addr;
	(void)len;
	return refused();
}

static int k_munlock(const void *addr, size_t len)
{
	(void)addr;
	(void)len;
	return 0;
}

static int k_flock(int fd, int operation)
{
	(void)fd;
	(void)operation;
	return refused();
}

/* One time in four, the kernel has iommufd: the function's own file, mostly named as the kernel names it. */
static int k_dir_entry(const char *dir, const char *prefix, char *name, size_t len)
{
	(void)dir;
	(void)prefix;
	if (byte() % 4) {
		errno = ENOENT;
		return -1;
	}
	if (byte() % 4)
		snprintf(name, len, "vfio%u", byte());
	else
		snprintf(name, len, "vfio%c%c", (char)(byte() | 1), (char)(byte() | 1));
	return 0;
}

static const struct dmamap_vfio_kernel fuzz_kernel = {
	.open = k_open,
	.close = k_close,
	.ioctl = k_ioctl,
	.pread = k_pread,
	.pwrite = k_pwrite,
	.mmap = k_mmap,
	.munmap = munmap,
	.readlink = k_readlink,
	.mlock = k_mlock,
	.munlock = k_munlock,
	.flock = k_flock,
	.dir_entry = k_dir_entry,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dmamap_vfio_options opt = { .arena_size = 1u << 20 };
	struct dmamap_error err = { 0 };
	struct dmamap__ledger before;
	char bdf[16] = "0000:01:00.0";
	const struct dmamap_vfio_kernel *linux_kernel = dmamap__vfio_kernel;
	struct dmamap_platform *p;
	size_t n = size < 13 ? size : 13;

	in.at = data;
	in.end = data + size;
	in.open_fds = 0;
	in.maps_live = 0;
	in.resource_fd = -1;
	/* The address: the input's first bytes, or the canonical one when they start with 0. */
	if (n && data[0]) {
		memcpy(bdf, data, n);
		bdf[n < 15 ? n : 15] = '\0';
		in.at += n;
	}
	/* Every other input without an IOMMU: frames read from pagemap, which the input also plays. */
	opt.unsafe_noiommu = byte() & 1;
	dmamap__ledger_read(&before);
	dmamap__vfio_kernel = &fuzz_kernel;
	p = dmamap_platform_vfio(bdf, &opt, &err);
	if (!p) {
		if (err.code >= 0 || !err.msg[0] || in.open_fds)
			abort(); /* a refusal without a reason, or with a descriptor left open */
	} else {
		struct device *dev = dmamap_device_at(p, 0);
		struct dmamap_vfio_stats st;
		uint8_t *buf = malloc(8192);
		uint32_t reg;
		size_t len;

		for (unsigned int bar = 0; bar < 7; bar++) {
			volatile uint32_t *r = dmamap_vfio_bar(dev, bar, &len);

			if (r)
				reg = r[0];
		}
		dmamap_vfio_config_read(dev, byte() * 16, &reg, 4);
		if (buf) {
			dma_addr_t h = dma_map_single(dev, buf + byte(), 512, DMA_TO_DEVICE);

			dmamap_vfio_stats(dev, &st);
			if (h != DMA_MAPPING_ERROR && opt.unsafe_noiommu)
				abort(); /* unregistered memory, which nothing pins, given to a device */
			if (h != DMA_MAPPING_ERROR && (h < st.iova_start || h + 511 >= st.iova_end))
				abort(); /* a handle outside the space the platform reports */
			if (h != DMA_MAPPING_ERROR)
				dma_unmap_single(dev, h, 512, DMA_TO_DEVICE);
		}
		free(buf);
		dmamap_platform_destroy(p);
		if (in.open_fds)
			abort(); /* a descriptor outlived its platform */
	}
	dmamap__vfio_kernel = linux_kernel;
	ledger_back_to(&before);
	return 0;
}
