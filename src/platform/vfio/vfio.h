/* SPDX-License-Identifier: MIT */
/*
 * A PCI function held through Linux's VFIO: the container (one IOMMU
 * domain), the function's group and the function itself. Private to
 * src/platform/; the layers above reach it through the port.
 *
 * Every call into the kernel goes through one table, so that the tests
 * can stand a kernel of their own behind it (tests/vfio/): the mapping
 * logic above is then checked on machines with no IOMMU to give.
 */
#ifndef DMAMAP_PLATFORM_VFIO_VFIO_H
#define DMAMAP_PLATFORM_VFIO_VFIO_H

#include <sys/types.h>
#include "../../base/device.h"

struct dmamap_vfio_kernel {
	int (*open)(const char *path, int flags);
	int (*close)(int fd);
	int (*ioctl)(int fd, unsigned long request, void *arg);
	ssize_t (*pread)(int fd, void *buf, size_t len, off_t off);
	ssize_t (*pwrite)(int fd, const void *buf, size_t len, off_t off);
	void *(*mmap)(void *addr, size_t len, int prot, int flags, int fd, off_t off);
	int (*munmap)(void *addr, size_t len);
	/* The target of the symbolic link @path, NUL-terminated in @buf; -1 with errno. */
	ssize_t (*readlink)(const char *path, char *buf, size_t len);
	int (*mlock)(const void *addr, size_t len);
	int (*munlock)(const void *addr, size_t len);
	int (*flock)(int fd, int operation);
	/*
	 * The first entry of the directory @dir whose name starts with
	 * @prefix, NUL-terminated in @name: 0, or -1 with errno (ENOENT: no
	 * such directory, or no such entry in it).
	 */
	int (*dir_entry)(const char *dir, const char *prefix, char *name, size_t len);
};

/* The table in force: the kernel's own system calls unless a test swapped it. */
extern const struct dmamap_vfio_kernel *dmamap__vfio_kernel;

#define VFIO_MAX_BARS 6
#define VFIO_MAX_APERTURES 8

struct dmamap_vfio_bar {
	u64 offset, size; /* in the device file; through sysfs, in the first page of the mapping */
	bool mmio, mappable;
	void *map;        /* mapped at first use: the BAR's first byte */
};

struct dmamap_vfio {
	char bdf[16];
	int container, group, device;
	int group_id;
	/*
	 * Where the kernel has iommufd and the function its own file: the
	 * iommufd (-1 when the function came through its group and a type1
	 * container) and the IO address space the function is attached to.
	 */
	int iommufd;
	uint32_t ioas_id;
	u64 config_offset, config_size;
	pthread_mutex_t lock; /* BAR mapping, never a mapping path */
	struct dmamap_vfio_bar bars[VFIO_MAX_BARS];
	/* Where the IOMMU translates: [start, end) ranges, from the container. */
	unsigned int nr_apertures;
	u64 aperture_start[VFIO_MAX_APERTURES], aperture_end[VFIO_MAX_APERTURES];
	u64 pgsize_min; /* the IOMMU's smallest page */
	bool noiommu;   /* no IOMMU: DMA addresses are physical */
	/*
	 * ... and no VFIO either: the function's sysfs files. @device is its
	 * config file, each BAR's offset 0 in its own resourceN file.
	 */
	bool sysfs;
};

/*
 * Open @bdf's group and function in a new type1 container (@noiommu: a
 * no-IOMMU container); errors as dmamap_platform_vfio().
 */
int dmamap__vfio_open(struct dmamap_vfio **out, const char *bdf, bool noiommu,
		      struct dmamap_error *err);
void dmamap__vfio_close(struct dmamap_vfio *v);
/*
 * No IOMMU group, no VFIO: open @v->bdf's sysfs files (@driver: the one
 * bound, "" for none). 0; -EBUSY when @driver is one that drives the
 * function itself; -EIO for a resource file not as the kernel writes it;
 * the errno of a file that would not open, named in @err.
 */
int dmamap__vfio_sysfs_open(struct dmamap_vfio *v, const char *driver, struct dmamap_error *err);
/* BAR @bar through sysfs: its resourceN file mapped (the BAR's first byte), or NULL. */
void *dmamap__vfio_sysfs_bar(struct dmamap_vfio *v, unsigned int bar);
/* Undo dmamap__vfio_sysfs_bar(). */
void dmamap__vfio_sysfs_unmap_bar(struct dmamap_vfio *v, unsigned int bar);
/* Before the config file closes: bus mastering off, so the device stops reaching memory. */
void dmamap__vfio_sysfs_release(struct dmamap_vfio *v);
/* The function's sysfs reset: 0, -ENOTTY when it has none, or the kernel's -errno. */
int dmamap__vfio_sysfs_reset(struct dmamap_vfio *v);
/*
 * The function's own file bound to a fresh iommufd and attached to a new
 * IO address space, whose IOVA ranges become the apertures: where the
 * kernel has both (Linux 6.6 and later with CONFIG_IOMMUFD and
 * CONFIG_VFIO_DEVICE_CDEV). 0, @v->device open; 1 when this kernel, or
 * this user, has no such way in (no vfio-dev entry in sysfs, no
 * /dev/iommu, no right to open either): nothing is left open and the
 * group's way is to be taken; a negative errno, named in @err, when the
 * kernel refused a step.
 */
int dmamap__vfio_iommufd_open(struct dmamap_vfio *v, struct dmamap_error *err);
int dmamap__vfio_iommufd_map(struct dmamap_vfio *v, uintptr_t va, u64 iova, u64 size, bool read,
			     bool write);
int dmamap__vfio_iommufd_unmap(struct dmamap_vfio *v, u64 iova, u64 size);
/* An ioctl that must succeed: 0, or its -errno with @what and the reason in @err. */
int dmamap__vfio_must(int fd, unsigned long request, void *arg, const char *what,
		      struct dmamap_error *err);
/* Map [@va, +@size) at @iova, pinned, for the device to @read and/or @write; 0 or -errno. */
int dmamap__vfio_map(struct dmamap_vfio *v, uintptr_t va, u64 iova, u64 size, bool read,
		     bool write);
int dmamap__vfio_unmap(struct dmamap_vfio *v, u64 iova, u64 size);
void *dmamap__vfio_bar(struct dmamap_vfio *v, unsigned int bar, size_t *size);
int dmamap__vfio_config(struct dmamap_vfio *v, unsigned int off, void *buf, size_t len,
			bool write);
int dmamap__vfio_reset(struct dmamap_vfio *v);
/*
 * No IOMMU: lock the @n host pages at @va in memory and read their
 * physical addresses into @pa (one per host page): 0; -EPERM when the
 * kernel shows no frame numbers (no CAP_SYS_ADMIN); -EFAULT for a page
 * not present; -ENOMEM and the like when mlock() refuses.
 */
int dmamap__vfio_lock_phys(struct dmamap_vfio *v, uintptr_t va, size_t n, u64 *pa);
void dmamap__vfio_unlock(struct dmamap_vfio *v, uintptr_t va, size_t n);
/* How many MSI-X vectors the function has (0: none, or the kernel would not say). */
unsigned int dmamap__vfio_msix_count(struct dmamap_vfio *v);
/*
 * Vectors 0..@n-1 signal the eventfds @fds (VFIO_DEVICE_SET_IRQS): 0 or
 * the kernel's -errno. @n 0 turns MSI-X off again.
 */
int dmamap__vfio_msix_set(struct dmamap_vfio *v, unsigned int n, const int *fds);

#endif
