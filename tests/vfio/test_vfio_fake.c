/* SPDX-License-Identifier: MIT */
/*
 * The fake kernel itself (fake_kernel.h), driven through the table the
 * library calls: what the other vfio tests conclude is only as good as
 * its refusals. Each check is a rule of the real kernel's VFIO.
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <linux/vfio.h>
#include "../helpers.h"
#include "../../src/platform/vfio/vfio.h"
#include "fake_kernel.h"

#define K dmamap__vfio_kernel

/* Container, group and IOMMU set up as the library does; the fds. */
static bool setup(int *c, int *g)
{
	*c = K->open("/dev/vfio/vfio", O_RDWR);
	*g = K->open("/dev/vfio/12", O_RDWR);
	return *c >= 0 && *g >= 0 && K->ioctl(*g, VFIO_GROUP_SET_CONTAINER, c) == 0 &&
	       K->ioctl(*c, VFIO_SET_IOMMU, (void *)(uintptr_t)VFIO_TYPE1v2_IOMMU) == 0;
}

static int map(int c, void *va, uint64_t iova, uint64_t size)
{
	struct vfio_iommu_type1_dma_map m = {
		.argsz = sizeof(m),
		.flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE,
		.vaddr = (uintptr_t)va, .iova = iova, .size = size,
	};

	return K->ioctl(c, VFIO_IOMMU_MAP_DMA, &m) ? -errno : 0;
}

/* UNMAP_DMA: -errno, or the bytes the kernel says it unmapped. */
static long long unmap(int c, uint64_t iova, uint64_t size)
{
	struct vfio_iommu_type1_dma_unmap u = { .argsz = sizeof(u), .iova = iova, .size = size };

	return K->ioctl(c, VFIO_IOMMU_UNMAP_DMA, &u) ? -errno : (long long)u.size;
}

TEST(vfio_fake_kernel_files_and_sysfs)
{
	char buf[256];
	int c, c2, g;

	fake_vfio_install(NULL);
	CHECK_EQ(K->readlink("/sys/bus/pci/devices/0000:01:00.0/iommu_group", buf, sizeof(buf)), 34);
	CHECK(!strcmp(buf, "../../../../kernel/iommu_groups/12"));
	CHECK(K->readlink("/sys/bus/pci/devices/0000:01:00.0/driver", buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "/vfio-pci"));
	CHECK(K->readlink("/sys/bus/pci/devices/0000:02:00.0/driver", buf, sizeof(buf)) < 0);
	CHECK_EQ(errno, ENOENT);
	/* Truncated to the buffer, NUL-terminated, as the library's own wrapper does. */
	CHECK_EQ(K->readlink("/sys/bus/pci/devices/0000:01:00.0/subsystem", buf, 6), 5);
	CHECK_EQ(strlen(buf), 5);

	c = K->open("/dev/vfio/vfio", O_RDWR);
	c2 = K->open("/dev/vfio/vfio", O_RDWR);
	g = K->open("/dev/vfio/12", O_RDWR);
	CHECK(c >= 0 && c2 >= 0 && g >= 0 && c != c2);
	/* A group opens once; other groups do not exist. */
	CHECK(K->open("/dev/vfio/12", O_RDWR) < 0 && errno == EBUSY);
	CHECK(K->open("/dev/vfio/13", O_RDWR) < 0 && errno == ENOENT);
	CHECK_EQ(fake_vfio_open_fds(), 3);
	CHECK_EQ(K->ioctl(c, VFIO_GET_API_VERSION, NULL), VFIO_API_VERSION);
	CHECK_EQ(K->ioctl(c, VFIO_CHECK_EXTENSION, (void *)(uintptr_t)VFIO_TYPE1v2_IOMMU), 1);
	/* No IOMMU before a group is in the container; no device before the IOMMU. */
	CHECK(K->ioctl(c, VFIO_SET_IOMMU, (void *)(uintptr_t)VFIO_TYPE1v2_IOMMU) < 0);
	CHECK(K->ioctl(g, VFIO_GROUP_GET_DEVICE_FD, (void *)FAKE_BDF) < 0);
	/* An ioctl on the wrong kind of file is misuse. */
	CHECK(K->ioctl(g, VFIO_GET_API_VERSION, NULL) < 0 && errno == ENOTTY);
	CHECK_EQ(fake_counts.misuse, 1);
	CHECK_EQ(K->close(c2), 0);
	CHECK(K->close(c2) < 0 && errno == EBADF);
	CHECK_EQ(K->close(g), 0);
	CHECK_EQ(K->close(c), 0);
	CHECK_EQ(fake_vfio_open_fds(), 0);
	fake_vfio_remove();
}

TEST(vfio_fake_kernel_iommu_rules)
{
	uint8_t *mem = mmap(NULL, 16 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			    -1, 0), b[8];
	struct vfio_iommu_type1_info probe = { .argsz = sizeof(probe) };
	int c, g;

	REQUIRE(mem != MAP_FAILED);
	fake_vfio_install(NULL);
	REQUIRE(setup(&c, &g));
	/* GET_INFO: too small for the chain, it says how much it needs. */
	CHECK_EQ(K->ioctl(c, VFIO_IOMMU_GET_INFO, &probe), 0);
	CHECK(probe.flags & VFIO_IOMMU_INFO_CAPS);
	CHECK(probe.argsz > sizeof(probe));
	CHECK_EQ(probe.cap_offset, 0);
	CHECK_EQ(probe.iova_pgsizes, FAKE_PGSIZES);

	CHECK_EQ(map(c, mem, 0x100000, 4 * 4096), 0);
	/* Overlaps are refused; unaligned ranges and the hole are invalid. */
	CHECK_EQ(map(c, mem + 8 * 4096, 0x100000 + 3 * 4096, 4096), -EEXIST);
	CHECK_EQ(map(c, mem + 1, 0x200000, 4096), -EINVAL);
	CHECK_EQ(map(c, mem, 0xfee00000, 4096), -EINVAL);
	fake_vfio_map_fail_in(1);
	CHECK_EQ(map(c, mem + 8 * 4096, 0x300000, 4096), -ENOMEM);
	CHECK_EQ(map(c, mem + 8 * 4096, 0x300000, 4096), 0);
	CHECK_EQ(fake_vfio_nr_mappings(), 2);
	/* The device through it: bytes move; one byte outside faults, moving nothing. */
	mem[5] = 0xab;
	CHECK_EQ(fake_dma(0x100000 + 5, b, 1, false), 0);
	CHECK_EQ(b[0], 0xab);
	CHECK_EQ(fake_dma(0x100000 + 4 * 4096 - 4, b, 8, false), -EFAULT);
	CHECK_EQ(fake_counts.dma_faults, 1);
	/* UNMAP: bisecting a mapping is invalid (type1v2); else what lies inside, its size said. */
	CHECK_EQ(unmap(c, 0x100000 + 4096, 4096), -EINVAL);
	CHECK_EQ(unmap(c, 0x500000, 4096), 0);
	CHECK_EQ(unmap(c, 0x000000, 0x400000), 5 * 4096);
	CHECK_EQ(fake_vfio_nr_mappings(), 0);
	/* The container's close drops what is left. */
	CHECK_EQ(map(c, mem, 0x100000, 4096), 0);
	CHECK_EQ(K->close(g), 0);
	CHECK_EQ(fake_counts.dropped_at_close, 1);
	CHECK_EQ(fake_vfio_nr_mappings(), 0);
	CHECK_EQ(K->close(c), 0);
	fake_vfio_remove();
	munmap(mem, 16 * 4096);
}

TEST(vfio_fake_kernel_device_file)
{
	struct vfio_region_info ri = { .argsz = sizeof(ri), .index = VFIO_PCI_CONFIG_REGION_INDEX };
	uint32_t id = 0;
	void *bar;
	int c, g, d;

	fake_vfio_install(NULL);
	REQUIRE(setup(&c, &g));
	CHECK(K->ioctl(g, VFIO_GROUP_GET_DEVICE_FD, (void *)"0000:01:00.1") < 0);
	d = K->ioctl(g, VFIO_GROUP_GET_DEVICE_FD, (void *)FAKE_BDF);
	REQUIRE(d >= 0);
	CHECK_EQ(K->ioctl(d, VFIO_DEVICE_GET_REGION_INFO, &ri), 0);
	CHECK_EQ(ri.size, FAKE_CONFIG_SIZE);
	CHECK_EQ(K->pread(d, &id, 4, (off_t)ri.offset), 4);
	CHECK_EQ(id, FAKE_VENDOR | (FAKE_DEVICE << 16));
	/* Past the end: short, then refused. */
	CHECK_EQ(K->pread(d, &id, 4, (off_t)ri.offset + FAKE_CONFIG_SIZE - 2), 2);
	CHECK(K->pread(d, &id, 4, (off_t)ri.offset + FAKE_CONFIG_SIZE) < 0);
	ri = (struct vfio_region_info){ .argsz = sizeof(ri), .index = VFIO_PCI_BAR0_REGION_INDEX };
	CHECK_EQ(K->ioctl(d, VFIO_DEVICE_GET_REGION_INFO, &ri), 0);
	CHECK(ri.flags & VFIO_REGION_INFO_FLAG_MMAP);
	bar = K->mmap(NULL, FAKE_BAR0_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, d, (off_t)ri.offset);
	REQUIRE(bar != MAP_FAILED);
	CHECK(fake_vfio_bar0() == bar);
	/* BAR2 is never mapped. */
	ri = (struct vfio_region_info){ .argsz = sizeof(ri), .index = VFIO_PCI_BAR2_REGION_INDEX };
	CHECK_EQ(K->ioctl(d, VFIO_DEVICE_GET_REGION_INFO, &ri), 0);
	CHECK(!(ri.flags & VFIO_REGION_INFO_FLAG_MMAP));
	CHECK(K->mmap(NULL, 4096, PROT_READ, MAP_SHARED, d, (off_t)ri.offset) == MAP_FAILED);
	CHECK_EQ(K->munmap(bar, FAKE_BAR0_SIZE), 0);
	CHECK_EQ(fake_vfio_live_bar_maps(), 0);
	K->close(d);
	K->close(g);
	K->close(c);
	CHECK_EQ(fake_counts.misuse, 0);
	fake_vfio_remove();
}
