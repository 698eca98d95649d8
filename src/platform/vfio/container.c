/* SPDX-License-Identifier: MIT */
/*
 * Opening a PCI function through VFIO, as the kernel's documentation
 * orders it: the container, the function's group (viable: every function
 * in it belongs to vfio-pci), the type1 IOMMU, then the function. Each
 * refusal is turned into the error a driver author can act on, with the
 * file or request that refused.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/vfio.h>
#include "../../lib/lib.h"
#include "../../lib/mem.h"
#include "vfio.h"

static int sys_ioctl(int fd, unsigned long request, void *arg)
{
	return ioctl(fd, request, arg);
}

static int sys_open(const char *path, int flags)
{
	return open(path, flags | O_CLOEXEC);
}

static ssize_t sys_readlink(const char *path, char *buf, size_t len)
{
	ssize_t n = readlink(path, buf, len - 1);

	if (n >= 0)
		buf[n] = '\0';
	return n;
}

static int sys_dir_entry(const char *dir, const char *prefix, char *name, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int e = ENOENT;

	if (!d)
		return -1;
	errno = 0;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		if (strlen(de->d_name) < len) {
			memcpy(name, de->d_name, strlen(de->d_name) + 1);
			e = 0;
		} else {
			e = ENAMETOOLONG;
		}
		break;
	}
	if (!de && errno)
		e = errno;
	closedir(d);
	errno = e;
	return e ? -1 : 0;
}

static const struct dmamap_vfio_kernel linux_kernel = {
	.open = sys_open,
	.close = close,
	.ioctl = sys_ioctl,
	.pread = pread,
	.pwrite = pwrite,
	.mmap = mmap,
	.munmap = munmap,
	.readlink = sys_readlink,
	.mlock = mlock,
	.munlock = munlock,
	.flock = flock,
	.dir_entry = sys_dir_entry,
};

const struct dmamap_vfio_kernel *dmamap__vfio_kernel = &linux_kernel;

#define K dmamap__vfio_kernel

/* @len hex digits at *@s, exactly (no sign, no space), then @sep: their value, or -1. */
static long hex_field(const char **s, unsigned int len, char sep)
{
	long v = 0;

	for (unsigned int i = 0; i < len; i++) {
		char c = (*s)[i];
		int d = c >= '0' && c <= '9' ? c - '0' :
			c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	if ((*s)[len] != sep)
		return -1;
	*s += len + (sep ? 1 : 0);
	return v;
}

/* "0000:01:00.0", or "01:00.0" in domain 0, into its canonical form (lower case). */
static bool parse_bdf(const char *s, char out[16])
{
	long dom = 0, bus, dev, fn;

	if (strlen(s) == 12)
		dom = hex_field(&s, 4, ':');
	else if (strlen(s) != 7)
		return false;
	bus = hex_field(&s, 2, ':');
	dev = hex_field(&s, 2, '.');
	fn = hex_field(&s, 1, '\0');
	if (dom < 0 || bus < 0 || dev < 0 || dev > 0x1f || fn < 0 || fn > 7)
		return false;
	/* Masked to what the fields hold, so the compiler sees the 12 characters. */
	snprintf(out, 16, "%04x:%02x:%02x.%x", (unsigned int)dom & 0xffff, (unsigned int)bus & 0xff,
		 (unsigned int)dev & 0x1f, (unsigned int)fn & 7);
	return true;
}

/* The last part of the symbolic link sysfs keeps for @bdf's @what; false, with errno, if none. */
static bool sysfs_link(const char *bdf, const char *what, char *base, size_t len)
{
	char path[128], target[256];
	const char *slash;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", bdf, what);
	if (K->readlink(path, target, sizeof(target)) < 0)
		return false;
	slash = strrchr(target, '/');
	slash = slash ? slash + 1 : target;
	if (strlen(slash) >= len) {
		errno = ENAMETOOLONG;
		return false;
	}
	memcpy(base, slash, strlen(slash) + 1);
	return true;
}

/* The function's group: its number, or a negative errno with @err set. */
static int find_group(const char *bdf, struct dmamap_error *err)
{
	char name[64], driver[64];
	char *end;
	long id;

	if (!sysfs_link(bdf, "iommu_group", name, sizeof(name))) {
		if (!sysfs_link(bdf, "subsystem", driver, sizeof(driver))) {
			dmamap__set_error(err, -ENOENT, "vfio: no PCI function %s", bdf);
			return -ENOENT;
		}
		dmamap__set_error(err, -ENOENT,
				  "vfio: %s has no IOMMU group (no IOMMU, or the kernel runs without it: intel_iommu=on, amd_iommu=on)",
				  bdf);
		return -ENOENT;
	}
	driver[0] = '\0';
	if (!sysfs_link(bdf, "driver", driver, sizeof(driver)) || strcmp(driver, "vfio-pci")) {
		dmamap__set_error(err, -ENODEV,
				  "vfio: %s is bound to %s, not to vfio-pci (docs/vfio.md: binding a function)",
				  bdf, driver[0] ? driver : "no driver");
		return -ENODEV;
	}
	errno = 0;
	id = strtol(name, &end, 10);
	if (errno || *end || id < 0 || id > 1 << 20) {
		dmamap__set_error(err, -ENOENT, "vfio: %s: IOMMU group \"%s\" is not a number", bdf,
				  name);
		return -ENOENT;
	}
	return (int)id;
}

static int open_file(const char *path, struct dmamap_error *err)
{
	int fd = K->open(path, O_RDWR);
	int e = errno;

	if (fd >= 0)
		return fd;
	if (e == ENOENT) {
		dmamap__set_error(err, -ENODEV, "vfio: %s: no such file (modprobe vfio-pci)", path);
		return -ENODEV;
	}
	dmamap__set_error(err, -e, "vfio: %s: %s%s", path, strerror(e),
			  e == EACCES ? " (the group's file must be this user's: docs/vfio.md)" :
			  e == EBUSY ? " (another process holds the group)" : "");
	return -e;
}

int dmamap__vfio_must(int fd, unsigned long request, void *arg, const char *what,
		struct dmamap_error *err)
{
	int e;

	if (K->ioctl(fd, request, arg) >= 0)
		return 0;
	e = errno ? errno : EIO;
	dmamap__set_error(err, -e, "vfio: %s: %s", what, strerror(e));
	return -e;
}

/*
 * The IOVA ranges in the capability at @off of @info (@room bytes, what
 * was allocated, whatever the kernel wrote in argsz): false if it does
 * not fit. Read with memcpy: the kernel promises no alignment.
 */
static bool read_iova_ranges(struct dmamap_vfio *v, const uint8_t *info, size_t room, size_t off)
{
	struct vfio_iommu_type1_info_cap_iova_range cap;
	struct vfio_iova_range r;

	if (off + sizeof(cap) > room)
		return false;
	memcpy(&cap, info + off, sizeof(cap));
	if (cap.nr_iovas > (room - off - sizeof(cap)) / sizeof(r))
		return false;
	v->nr_apertures = 0;
	for (uint32_t i = 0; i < cap.nr_iovas && v->nr_apertures < VFIO_MAX_APERTURES; i++) {
		memcpy(&r, info + off + sizeof(cap) + i * sizeof(r), sizeof(r));
		if (r.end < r.start)
			continue;
		v->aperture_start[v->nr_apertures] = r.start;
		/* The kernel's end is inclusive; ours is not (the top page is given up). */
		v->aperture_end[v->nr_apertures++] = r.end == ~(u64)0 ? r.end : r.end + 1;
	}
	return true;
}

/* The IOMMU's IOVA ranges and page sizes, from the container's info and its capability chain. */
static int read_apertures(struct dmamap_vfio *v, struct dmamap_error *err)
{
	struct vfio_iommu_type1_info probe = { .argsz = sizeof(probe) };
	struct vfio_iommu_type1_info *info;
	size_t room;
	uint32_t off;
	int ret;

	ret = dmamap__vfio_must(v->container, VFIO_IOMMU_GET_INFO, &probe, "VFIO_IOMMU_GET_INFO", err);
	if (ret)
		return ret;
	v->pgsize_min = probe.iova_pgsizes ? probe.iova_pgsizes & -probe.iova_pgsizes : 4096;
	/* A kernel that says nothing (before 5.4): all of it, but x86's interrupt window. */
	v->nr_apertures = 1;
	v->aperture_start[0] = 0;
	v->aperture_end[0] = (u64)1 << 48;
#if defined(__x86_64__) || defined(__i386__)
	v->nr_apertures = 2;
	v->aperture_end[0] = 0xfee00000;
	v->aperture_start[1] = 0xfef00000;
	v->aperture_end[1] = (u64)1 << 48;
#endif
	if (!(probe.flags & VFIO_IOMMU_INFO_CAPS) || probe.argsz <= sizeof(probe) ||
	    probe.argsz > 65536)
		return 0;
	room = probe.argsz;
	info = dmamap__calloc(1, room);
	if (!info) {
		dmamap__set_error(err, -ENOMEM, "vfio: out of memory");
		return -ENOMEM;
	}
	info->argsz = probe.argsz;
	ret = dmamap__vfio_must(v->container, VFIO_IOMMU_GET_INFO, info, "VFIO_IOMMU_GET_INFO", err);
	/* Each hop goes forward, inside what was allocated: a chain cannot loop or run out. */
	for (off = ret ? 0 : info->cap_offset;
	     off >= sizeof(*info) && off + sizeof(struct vfio_info_cap_header) <= room;) {
		struct vfio_info_cap_header h;

		memcpy(&h, (const uint8_t *)info + off, sizeof(h));
		if (h.id == VFIO_IOMMU_TYPE1_INFO_CAP_IOVA_RANGE) {
			read_iova_ranges(v, (const uint8_t *)info, room, off);
			break;
		}
		if (h.next <= off)
			break;
		off = h.next;
	}
	free(info);
	return ret;
}

/* Where each BAR and the configuration space are in the device file. */
static int read_regions(struct dmamap_vfio *v, struct dmamap_error *err)
{
	struct vfio_device_info di = { .argsz = sizeof(di) };
	struct vfio_region_info ri = { .argsz = sizeof(ri), .index = VFIO_PCI_CONFIG_REGION_INDEX };
	int ret = dmamap__vfio_must(v->device, VFIO_DEVICE_GET_INFO, &di, "VFIO_DEVICE_GET_INFO", err);

	if (ret)
		return ret;
	if (!(di.flags & VFIO_DEVICE_FLAGS_PCI) || di.num_regions <= VFIO_PCI_CONFIG_REGION_INDEX) {
		dmamap__set_error(err, -ENODEV, "vfio: %s is not a PCI function", v->bdf);
		return -ENODEV;
	}
	ret = dmamap__vfio_must(v->device, VFIO_DEVICE_GET_REGION_INFO, &ri, "configuration space", err);
	if (ret)
		return ret;
	v->config_offset = ri.offset;
	v->config_size = ri.size;
	for (unsigned int i = 0; i < VFIO_MAX_BARS; i++) {
		struct dmamap_vfio_bar *b = &v->bars[i];
		uint32_t reg = 0;

		ri = (struct vfio_region_info){ .argsz = sizeof(ri), .index = VFIO_PCI_BAR0_REGION_INDEX + i };
		if (K->ioctl(v->device, VFIO_DEVICE_GET_REGION_INFO, &ri) < 0 || !ri.size)
			continue;
		b->offset = ri.offset;
		b->size = ri.size;
		b->mappable = ri.flags & VFIO_REGION_INFO_FLAG_MMAP;
		/* Bit 0 of the BAR register: I/O ports, which user space does not map. */
		b->mmio = dmamap__vfio_config(v, 0x10 + 4 * i, &reg, 4, false) == 0 && !(reg & 1);
	}
	return 0;
}

int dmamap__vfio_open(struct dmamap_vfio **out, const char *bdf, bool noiommu,
		      struct dmamap_error *err)
{
	struct vfio_group_status status = { .argsz = sizeof(status) };
	unsigned long iommu_type = noiommu ? VFIO_NOIOMMU_IOMMU : VFIO_TYPE1v2_IOMMU;
	struct dmamap_vfio *v;
	char path[64];
	int ret, group;

	*out = NULL;
	if (!bdf || strlen(bdf) > 15) {
		dmamap__set_error(err, -EINVAL, "vfio: no PCI address");
		return -EINVAL;
	}
	v = dmamap__calloc(1, sizeof(*v));
	if (!v) {
		dmamap__set_error(err, -ENOMEM, "vfio: out of memory");
		return -ENOMEM;
	}
	v->container = v->group = v->device = v->iommufd = -1;
	v->noiommu = noiommu;
	pthread_mutex_init(&v->lock, NULL);
	if (!parse_bdf(bdf, v->bdf)) {
		dmamap__set_error(err, -EINVAL,
				  "vfio: \"%s\" is not a PCI address (domain:bus:device.function, 0000:01:00.0)",
				  bdf);
		ret = -EINVAL;
		goto fail;
	}
	/*
	 * No IOMMU group and no VFIO to make one: with the caller's leave,
	 * the function's sysfs files are the way in.
	 */
	if (noiommu && !sysfs_link(v->bdf, "iommu_group", path, sizeof(path))) {
		char driver[64] = "";

		if (errno != ENOENT || !sysfs_link(v->bdf, "subsystem", path, sizeof(path))) {
			ret = errno == ENOENT ? -ENOENT : -(errno ? errno : EIO);
			if (ret == -ENOENT)
				dmamap__set_error(err, ret, "vfio: no PCI function %s", v->bdf);
			else
				dmamap__set_error(err, ret, "vfio: %s: its sysfs links: %s", v->bdf,
						  strerror(-ret));
			goto fail;
		}
		/* Which driver holds it must be known: one that drives it would fight the caller. */
		if (!sysfs_link(v->bdf, "driver", driver, sizeof(driver)) && errno != ENOENT) {
			ret = -(errno ? errno : EIO);
			dmamap__set_error(err, ret, "vfio: %s: which driver holds it: %s", v->bdf,
					  strerror(-ret));
			goto fail;
		}
		ret = dmamap__vfio_sysfs_open(v, driver, err);
		if (ret)
			goto fail;
		*out = v;
		return 0;
	}
	group = find_group(v->bdf, err);
	if (group < 0) {
		ret = group;
		goto fail;
	}
	v->group_id = group;
	/* iommufd where the kernel has it; the group and a type1 container otherwise. */
	if (!noiommu) {
		ret = dmamap__vfio_iommufd_open(v, err);
		if (!ret)
			ret = read_regions(v, err);
		if (ret <= 0)
			goto done;
	}
	ret = v->container = open_file("/dev/vfio/vfio", err);
	if (ret < 0)
		goto fail;
	errno = 0;
	ret = K->ioctl(v->container, VFIO_GET_API_VERSION, NULL);
	if (ret < 0) {
		ret = -(errno ? errno : EIO);
		dmamap__set_error(err, ret, "vfio: VFIO_GET_API_VERSION: %s", strerror(-ret));
		goto fail;
	}
	if (ret != VFIO_API_VERSION) {
		dmamap__set_error(err, -EOPNOTSUPP, "vfio: API version %d, not %d", ret,
				  VFIO_API_VERSION);
		ret = -EOPNOTSUPP;
		goto fail;
	}
	errno = 0;
	ret = K->ioctl(v->container, VFIO_CHECK_EXTENSION, (void *)(uintptr_t)iommu_type);
	if (ret < 0) {
		ret = -(errno ? errno : EIO);
		dmamap__set_error(err, ret, "vfio: VFIO_CHECK_EXTENSION: %s", strerror(-ret));
		goto fail;
	}
	if (!ret) {
		dmamap__set_error(err, -EOPNOTSUPP, noiommu ?
				  "vfio: the kernel has no no-IOMMU mode (modprobe vfio enable_unsafe_noiommu_mode=1)" :
				  "vfio: the container has no type1v2 IOMMU");
		ret = -EOPNOTSUPP;
		goto fail;
	}
	/* A no-IOMMU group's file says so in its name: nobody opens one by mistake. */
	snprintf(path, sizeof(path), noiommu ? "/dev/vfio/noiommu-%d" : "/dev/vfio/%d", group);
	ret = v->group = open_file(path, err);
	if (ret < 0)
		goto fail;
	ret = dmamap__vfio_must(v->group, VFIO_GROUP_GET_STATUS, &status, "VFIO_GROUP_GET_STATUS", err);
	if (ret)
		goto fail;
	if (!(status.flags & VFIO_GROUP_FLAGS_VIABLE)) {
		dmamap__set_error(err, -EBUSY,
				  "vfio: group %d is not viable: every function in /sys/kernel/iommu_groups/%d/devices must be bound to vfio-pci or to no driver",
				  group, group);
		ret = -EBUSY;
		goto fail;
	}
	ret = dmamap__vfio_must(v->group, VFIO_GROUP_SET_CONTAINER, &v->container, "VFIO_GROUP_SET_CONTAINER", err);
	if (!ret)
		ret = dmamap__vfio_must(v->container, VFIO_SET_IOMMU, (void *)(uintptr_t)iommu_type,
			   "VFIO_SET_IOMMU", err);
	/* Without an IOMMU there is no IOVA space: addresses are physical. */
	if (!ret && !noiommu)
		ret = read_apertures(v, err);
	if (ret)
		goto fail;
	v->device = K->ioctl(v->group, VFIO_GROUP_GET_DEVICE_FD, v->bdf);
	if (v->device < 0) {
		ret = -(errno ? errno : EIO);
		dmamap__set_error(err, ret, "vfio: VFIO_GROUP_GET_DEVICE_FD %s: %s", v->bdf,
				  strerror(-ret));
		goto fail;
	}
	ret = read_regions(v, err);
done:
	if (ret)
		goto fail;
	*out = v;
	return 0;
fail:
	dmamap__vfio_close(v);
	return ret;
}

void dmamap__vfio_close(struct dmamap_vfio *v)
{
	if (!v)
		return;
	for (unsigned int i = 0; i < VFIO_MAX_BARS; i++)
		if (v->bars[i].map && v->sysfs)
			dmamap__vfio_sysfs_unmap_bar(v, i);
		else if (v->bars[i].map)
			K->munmap(v->bars[i].map, v->bars[i].size);
	if (v->sysfs && v->device >= 0)
		dmamap__vfio_sysfs_release(v);
	/* The function, then the group, then the container: the kernel's order of release. */
	if (v->device >= 0)
		K->close(v->device);
	/* Its address space and every mapping in it go with the iommufd. */
	if (v->iommufd >= 0)
		K->close(v->iommufd);
	if (v->group >= 0)
		K->close(v->group);
	if (v->container >= 0)
		K->close(v->container);
	pthread_mutex_destroy(&v->lock);
	free(v);
}

/* An entry of /proc/self/pagemap: present, and the frame (zero without CAP_SYS_ADMIN). */
#define PM_PRESENT (1ULL << 63)
#define PM_PFN_MASK ((1ULL << 55) - 1)

int dmamap__vfio_lock_phys(struct dmamap_vfio *v, uintptr_t va, size_t n, u64 *pa)
{
	size_t page = dmamap__host_page_size();
	int fd, ret = 0;

	(void)v;
	/* EPERM here is the locked-memory limit (0 without CAP_IPC_LOCK): -ENOMEM, as the header says. */
	if (K->mlock((const void *)va, n * page))
		return -(errno == EPERM || !errno ? ENOMEM : errno);
	fd = K->open("/proc/self/pagemap", O_RDONLY);
	if (fd < 0) {
		ret = -(errno ? errno : EIO);
		goto out;
	}
	for (size_t i = 0; i < n && !ret; i++) {
		uint64_t e;

		if (K->pread(fd, &e, sizeof(e), (off_t)((va / page + i) * sizeof(e))) != sizeof(e))
			ret = -EIO;
		else if (!(e & PM_PRESENT))
			ret = -EFAULT;
		else if (!(e & PM_PFN_MASK))
			ret = -EPERM;
		else
			pa[i] = (e & PM_PFN_MASK) * page;
	}
	K->close(fd);
out:
	if (ret)
		K->munlock((const void *)va, n * page);
	return ret;
}

void dmamap__vfio_unlock(struct dmamap_vfio *v, uintptr_t va, size_t n)
{
	(void)v;
	K->munlock((const void *)va, n * dmamap__host_page_size());
}

int dmamap__vfio_map(struct dmamap_vfio *v, uintptr_t va, u64 iova, u64 size, bool read,
		     bool write)
{
	/* The kernel pins for writing only what the device may write: read-only memory maps. */
	struct vfio_iommu_type1_dma_map m;

	if (v->iommufd >= 0)
		return dmamap__vfio_iommufd_map(v, va, iova, size, read, write);
	m = (struct vfio_iommu_type1_dma_map){
		.argsz = sizeof(m),
		.flags = (read ? VFIO_DMA_MAP_FLAG_READ : 0) | (write ? VFIO_DMA_MAP_FLAG_WRITE : 0),
		.vaddr = va,
		.iova = iova,
		.size = size,
	};

	return K->ioctl(v->container, VFIO_IOMMU_MAP_DMA, &m) < 0 ? -(errno ? errno : EIO) : 0;
}

int dmamap__vfio_unmap(struct dmamap_vfio *v, u64 iova, u64 size)
{
	struct vfio_iommu_type1_dma_unmap u = { .argsz = sizeof(u), .iova = iova, .size = size };

	if (v->iommufd >= 0)
		return dmamap__vfio_iommufd_unmap(v, iova, size);
	if (K->ioctl(v->container, VFIO_IOMMU_UNMAP_DMA, &u) < 0)
		return -(errno ? errno : EIO);
	/* The kernel says how much it unmapped: less is a range it never mapped whole. */
	return u.size == size ? 0 : -ENOENT;
}
