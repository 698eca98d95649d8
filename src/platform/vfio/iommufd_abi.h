/* SPDX-License-Identifier: MIT */
/*
 * The kernel's iommufd interface (Linux 6.6 and later: CONFIG_IOMMUFD and
 * CONFIG_VFIO_DEVICE_CDEV), declared here because the C library headers of
 * older distributions (Debian bookworm's are Linux 6.1) have no
 * <linux/iommufd.h> and no cdev requests in <linux/vfio.h>. Each argument
 * starts with its own size, which the kernel checks; only the fields up to
 * the ones used are given, which every kernel since accepts. Where the
 * system's headers have them, iommufd.c checks that both agree.
 * Private to src/platform/vfio/ and the tests' fake kernel.
 */
#ifndef DMAMAP_PLATFORM_VFIO_IOMMUFD_ABI_H
#define DMAMAP_PLATFORM_VFIO_IOMMUFD_ABI_H

#include <stdint.h>
#include <sys/ioctl.h>

/* Both subsystems number their requests under the same type character. */
#define DMAMAP_IOMMUFD_TYPE ';'
#define DMAMAP_IOMMU_DESTROY _IO(DMAMAP_IOMMUFD_TYPE, 0x80)
#define DMAMAP_IOMMU_IOAS_ALLOC _IO(DMAMAP_IOMMUFD_TYPE, 0x81)
#define DMAMAP_IOMMU_IOAS_IOVA_RANGES _IO(DMAMAP_IOMMUFD_TYPE, 0x84)
#define DMAMAP_IOMMU_IOAS_MAP _IO(DMAMAP_IOMMUFD_TYPE, 0x85)
#define DMAMAP_IOMMU_IOAS_UNMAP _IO(DMAMAP_IOMMUFD_TYPE, 0x86)
/* On the function's own file (/dev/vfio/devices/vfioN): VFIO's base 100, plus 18 and 19. */
#define DMAMAP_VFIO_DEVICE_BIND_IOMMUFD _IO(DMAMAP_IOMMUFD_TYPE, 118)
#define DMAMAP_VFIO_DEVICE_ATTACH_IOMMUFD_PT _IO(DMAMAP_IOMMUFD_TYPE, 119)

/* IOAS_MAP's flags: the IOVA is the caller's; the device may write, read. */
#define DMAMAP_IOAS_MAP_FIXED_IOVA (1u << 0)
#define DMAMAP_IOAS_MAP_WRITEABLE (1u << 1)
#define DMAMAP_IOAS_MAP_READABLE (1u << 2)

struct dmamap_iommu_destroy {
	uint32_t size;
	uint32_t id;
};

struct dmamap_iommu_ioas_alloc {
	uint32_t size;
	uint32_t flags;
	uint32_t out_ioas_id;
};

/* One range of IOVAs the address space may use; @last is inclusive. */
struct dmamap_iommu_iova_range {
	uint64_t start __attribute__((aligned(8)));
	uint64_t last __attribute__((aligned(8)));
};

/*
 * @num_iovas: in, the room at @allowed_iovas; out, how many there are
 * (EMSGSIZE when the room was too small). @out_iova_alignment: what every
 * mapping's IOVA and length must be a multiple of.
 */
struct dmamap_iommu_ioas_iova_ranges {
	uint32_t size;
	uint32_t ioas_id;
	uint32_t num_iovas;
	uint32_t reserved;
	uint64_t allowed_iovas __attribute__((aligned(8))); /* a user pointer */
	uint64_t out_iova_alignment __attribute__((aligned(8)));
};

struct dmamap_iommu_ioas_map {
	uint32_t size;
	uint32_t flags;
	uint32_t ioas_id;
	uint32_t reserved;
	uint64_t user_va __attribute__((aligned(8)));
	uint64_t length __attribute__((aligned(8)));
	uint64_t iova __attribute__((aligned(8)));
};

/* @length: in, the range; out, the bytes unmapped. */
struct dmamap_iommu_ioas_unmap {
	uint32_t size;
	uint32_t ioas_id;
	uint64_t iova __attribute__((aligned(8)));
	uint64_t length __attribute__((aligned(8)));
};

struct dmamap_vfio_device_bind_iommufd {
	uint32_t argsz;
	uint32_t flags;
	int32_t iommufd;
	uint32_t out_devid;
};

/* @pt_id: in, the IOAS; out, the page table the kernel made for it (not the IOAS). */
struct dmamap_vfio_device_attach_iommufd_pt {
	uint32_t argsz;
	uint32_t flags;
	uint32_t pt_id;
};

#endif
