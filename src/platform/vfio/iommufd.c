/* SPDX-License-Identifier: MIT */
/*
 * The function through iommufd, the kernel's newer way in: the
 * function's own file (/dev/vfio/devices/vfioN, named in sysfs) is bound
 * to an iommufd (/dev/iommu), an IO address space is made in it and the
 * function attached to it; mappings are made in the address space. No
 * group or container is opened. Where the kernel or the user has no such
 * way (a kernel before 6.6, one built without it, /dev/iommu left to
 * root), the caller takes the group's.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <linux/vfio.h>
#include "../../lib/lib.h"
#include "iommufd_abi.h"
#include "vfio.h"

#define K dmamap__vfio_kernel

/*
 * The system's own headers, where they have the interface: their numbers
 * and sizes are ours. (cppcheck cannot evaluate __has_include.)
 */
#if defined(__has_include) && !defined(__CPPCHECK__)
#if __has_include(<linux/iommufd.h>)
#include <linux/iommufd.h>
_Static_assert(IOMMU_IOAS_MAP == DMAMAP_IOMMU_IOAS_MAP, "IOMMU_IOAS_MAP");
_Static_assert(IOMMU_IOAS_UNMAP == DMAMAP_IOMMU_IOAS_UNMAP, "IOMMU_IOAS_UNMAP");
_Static_assert(IOMMU_IOAS_ALLOC == DMAMAP_IOMMU_IOAS_ALLOC, "IOMMU_IOAS_ALLOC");
_Static_assert(IOMMU_IOAS_IOVA_RANGES == DMAMAP_IOMMU_IOAS_IOVA_RANGES, "IOVA_RANGES");
_Static_assert(sizeof(struct iommu_ioas_map) == sizeof(struct dmamap_iommu_ioas_map), "map");
_Static_assert(sizeof(struct iommu_ioas_iova_ranges) ==
	       sizeof(struct dmamap_iommu_ioas_iova_ranges), "ranges");
_Static_assert(sizeof(struct iommu_ioas_alloc) == sizeof(struct dmamap_iommu_ioas_alloc), "alloc");
_Static_assert(sizeof(struct iommu_ioas_unmap) == sizeof(struct dmamap_iommu_ioas_unmap), "unmap");
#endif
#endif
#ifdef VFIO_DEVICE_BIND_IOMMUFD
_Static_assert(VFIO_DEVICE_BIND_IOMMUFD == DMAMAP_VFIO_DEVICE_BIND_IOMMUFD, "bind");
_Static_assert(VFIO_DEVICE_ATTACH_IOMMUFD_PT == DMAMAP_VFIO_DEVICE_ATTACH_IOMMUFD_PT, "attach");
_Static_assert(sizeof(struct vfio_device_bind_iommufd) >= sizeof(struct dmamap_vfio_device_bind_iommufd),
	       "bind");
#endif

/* A file this user cannot have, or this kernel does not make: the group's way instead. */
static bool no_such_way(int e)
{
	return e == ENOENT || e == ENODEV || e == ENXIO || e == EACCES || e == EPERM;
}

/* "vfio" and a number, as the kernel names the function's file: the only name trusted in a path. */
static bool cdev_name(const char *name)
{
	size_t n = strlen(name);

	if (n < 5 || n > 14 || strncmp(name, "vfio", 4))
		return false;
	for (size_t i = 4; i < n; i++)
		if (name[i] < '0' || name[i] > '9')
			return false;
	return true;
}

/* The IOVA ranges of the address space, now that the function narrowed them. */
static int read_ranges(struct dmamap_vfio *v, struct dmamap_error *err)
{
	struct dmamap_iommu_iova_range r[VFIO_MAX_APERTURES];
	struct dmamap_iommu_ioas_iova_ranges q = {
		.size = sizeof(q),
		.ioas_id = v->ioas_id,
		.num_iovas = VFIO_MAX_APERTURES,
		.allowed_iovas = (uintptr_t)r,
	};
	uint32_t n;
	int e;

	memset(r, 0, sizeof(r));
	/* More ranges than room: the kernel fills the room and says EMSGSIZE; the first do. */
	if (K->ioctl(v->iommufd, DMAMAP_IOMMU_IOAS_IOVA_RANGES, &q) < 0 && errno != EMSGSIZE) {
		e = errno ? errno : EIO;
		dmamap__set_error(err, -e, "vfio: IOMMU_IOAS_IOVA_RANGES: %s", strerror(e));
		return -e;
	}
	n = q.num_iovas < VFIO_MAX_APERTURES ? q.num_iovas : VFIO_MAX_APERTURES;
	v->nr_apertures = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (r[i].last < r[i].start)
			continue;
		v->aperture_start[v->nr_apertures] = r[i].start;
		/* Inclusive there, exclusive here: the very top page is given up. */
		v->aperture_end[v->nr_apertures++] = r[i].last == ~(u64)0 ? r[i].last : r[i].last + 1;
	}
	/* A power of two, as the type1 page sizes are: its lowest bit, whatever else is set. */
	v->pgsize_min = q.out_iova_alignment & -q.out_iova_alignment;
	if (v->pgsize_min < 4096)
		v->pgsize_min = 4096;
	return 0;
}

/* A way in that was not there after all: the iommufd, if open, closed again. */
static int not_here(struct dmamap_vfio *v)
{
	if (v->iommufd >= 0)
		K->close(v->iommufd);
	v->device = v->iommufd = -1;
	return 1;
}

int dmamap__vfio_iommufd_open(struct dmamap_vfio *v, struct dmamap_error *err)
{
	struct dmamap_vfio_device_bind_iommufd bind = { .argsz = sizeof(bind) };
	struct dmamap_vfio_device_attach_iommufd_pt attach = { .argsz = sizeof(attach) };
	struct dmamap_iommu_ioas_alloc alloc = { .size = sizeof(alloc) };
	char dir[96], name[32], path[64];
	int ret, e;

	snprintf(dir, sizeof(dir), "/sys/bus/pci/devices/%s/vfio-dev", v->bdf);
	if (K->dir_entry(dir, "vfio", name, sizeof(name)) < 0 || !cdev_name(name))
		return 1;
	v->iommufd = K->open("/dev/iommu", O_RDWR);
	if (v->iommufd < 0) {
		e = errno ? errno : EIO;
		if (no_such_way(e))
			return not_here(v);
		dmamap__set_error(err, -e, "vfio: /dev/iommu: %s", strerror(e));
		return -e;
	}
	snprintf(path, sizeof(path), "/dev/vfio/devices/%s", name);
	v->device = K->open(path, O_RDWR);
	if (v->device < 0) {
		e = errno ? errno : EIO;
		if (no_such_way(e))
			return not_here(v);
		dmamap__set_error(err, -e, "vfio: %s: %s", path, strerror(e));
		return -e;
	}
	bind.iommufd = v->iommufd;
	if (K->ioctl(v->device, DMAMAP_VFIO_DEVICE_BIND_IOMMUFD, &bind) < 0) {
		e = errno ? errno : EIO;
		/*
		 * EPERM: the group is not viable, or the IOMMU does not remap
		 * interrupts and iommufd's own allow_unsafe_interrupts is off;
		 * EBUSY: another process holds the group. The group's way says
		 * which, with its own switch for unsafe interrupts.
		 */
		if (e == EPERM || e == EBUSY) {
			K->close(v->device);
			return not_here(v);
		}
		dmamap__set_error(err, -e, "vfio: VFIO_DEVICE_BIND_IOMMUFD: %s%s", strerror(e),
				  e == EINVAL ? " (another process may have the function's file open)" :
				  "");
		return -e;
	}
	ret = dmamap__vfio_must(v->iommufd, DMAMAP_IOMMU_IOAS_ALLOC, &alloc, "IOMMU_IOAS_ALLOC",
				err);
	if (ret)
		return ret;
	v->ioas_id = alloc.out_ioas_id;
	/* The kernel answers with the page table it made; the address space keeps its own number. */
	attach.pt_id = v->ioas_id;
	ret = dmamap__vfio_must(v->device, DMAMAP_VFIO_DEVICE_ATTACH_IOMMUFD_PT, &attach,
				"VFIO_DEVICE_ATTACH_IOMMUFD_PT", err);
	return ret ? ret : read_ranges(v, err);
}

int dmamap__vfio_iommufd_map(struct dmamap_vfio *v, uintptr_t va, u64 iova, u64 size, bool read,
			     bool write)
{
	struct dmamap_iommu_ioas_map m = {
		.size = sizeof(m),
		.flags = DMAMAP_IOAS_MAP_FIXED_IOVA | (read ? DMAMAP_IOAS_MAP_READABLE : 0) |
			 (write ? DMAMAP_IOAS_MAP_WRITEABLE : 0),
		.ioas_id = v->ioas_id,
		.user_va = va,
		.length = size,
		.iova = iova,
	};

	return K->ioctl(v->iommufd, DMAMAP_IOMMU_IOAS_MAP, &m) < 0 ? -(errno ? errno : EIO) : 0;
}

int dmamap__vfio_iommufd_unmap(struct dmamap_vfio *v, u64 iova, u64 size)
{
	struct dmamap_iommu_ioas_unmap u = {
		.size = sizeof(u), .ioas_id = v->ioas_id, .iova = iova, .length = size
	};

	if (K->ioctl(v->iommufd, DMAMAP_IOMMU_IOAS_UNMAP, &u) < 0)
		return -(errno ? errno : EIO);
	/* Less than asked: a range that was never mapped whole. */
	return u.length == size ? 0 : -ENOENT;
}
