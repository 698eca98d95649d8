/* SPDX-License-Identifier: MIT */
/*
 * A real PCI device for a user-space driver, through Linux's VFIO: the
 * device's DMA goes through the kernel's IOMMU, which gives it exactly the
 * pages this process mapped. The driver keeps the kernel's DMA API
 * (<dmamap/dma-mapping.h>) and the register accessors (<dmamap/io.h>), so
 * the same source runs on a simulated board and on the device.
 *
 * Memory the program registers up front (dmamap_vfio_register()) is mapped
 * in the IOMMU once: a streaming map of it is a table lookup with no system
 * call. A map of memory not registered pins and maps its pages on the
 * spot (VFIO_IOMMU_MAP_DMA) and unmaps them at unmap: correct, slower,
 * counted in dmamap_vfio_stats(). Coherent allocations come from an arena
 * registered when the platform is made, so dma_mmap_attrs() works on them.
 *
 * The function's MSI-X vectors (its first 32) are interrupt lines:
 * dmamap_device_irq(dev, vector) gives the number for request_irq(). The
 * kernel signals an eventfd per vector; a thread of the platform's waits
 * on them and runs the handlers, as a CPU takes an interrupt in Linux.
 *
 * docs/vfio.md: what the machine needs (groups, permissions, locked
 * memory), what is safe, and the test rig.
 */
#ifndef DMAMAP_VFIO_H
#define DMAMAP_VFIO_H

#include <dmamap/platform.h>
#include <dmamap/io.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dmamap_vfio_options {
	/*
	 * Bytes of the arena coherent allocations come from (0: 16 MiB),
	 * rounded up to the host page; registered, so pinned, for the
	 * platform's life.
	 */
	size_t arena_size;
	/*
	 * UNSAFE: no IOMMU (root only). DMA addresses are the physical
	 * addresses of the pages, read from /proc/self/pagemap, as DPDK's
	 * IOVA-as-PA mode. Nothing confines the device: a wrong address it is
	 * given is memory of someone else's. Only registered memory (locked,
	 * and the arena) can be mapped, and a buffer only where its pages are
	 * physically contiguous (hugepages are).
	 *
	 * The function is reached through VFIO's no-IOMMU mode when the
	 * kernel has one (the vfio module loaded with
	 * enable_unsafe_noiommu_mode=1: the function, bound to vfio-pci, is
	 * in a no-IOMMU group). A function in no group at all, bound to no
	 * driver (or to uio_pci_generic or pci-stub), is reached through its
	 * sysfs files instead: config, resourceN, reset. That way has no
	 * interrupts (the driver polls: dmamap_device_irq() finds no line),
	 * nothing filters configuration writes, and nothing turns on memory
	 * decoding for the driver (uio_pci_generic does, when bound). The
	 * platform holds the config file locked against a second holder, and
	 * turns bus mastering off when it is destroyed.
	 */
	bool unsafe_noiommu;
};

/* How a VFIO platform reaches its function (dmamap_vfio_access()). */
enum dmamap_vfio_access {
	DMAMAP_VFIO_IOMMU,   /* a type1 container: DMA addresses are IOVAs */
	DMAMAP_VFIO_NOIOMMU, /* VFIO's no-IOMMU mode: physical addresses */
	DMAMAP_VFIO_SYSFS,   /* the function's sysfs files: physical addresses, no interrupts */
	DMAMAP_VFIO_IOMMUFD, /* its own file bound to iommufd (/dev/iommu): DMA addresses are IOVAs */
};

/**
 * dmamap_platform_vfio() - a platform holding one PCI function through VFIO
 * @bdf: the function's address, "0000:01:00.0" (domain:bus:device.function)
 * @opt: options, or NULL for the defaults (arena_size above 1 GiB: -EINVAL)
 * @err: receives the reason on failure (may be NULL)
 *
 * The function must be bound to the vfio-pci driver. Where the kernel
 * has iommufd and gives the function its own file (Linux 6.6 and later,
 * CONFIG_IOMMUFD and CONFIG_VFIO_DEVICE_CDEV) and this user may open
 * /dev/iommu and /dev/vfio/devices/vfioN, that file is bound to an
 * iommufd and attached to a new IO address space; otherwise (and where
 * the kernel will not bind it: a group that is not viable, an IOMMU that
 * does not remap interrupts, a group another process holds) the VFIO
 * container, the function's IOMMU group and the function are opened and
 * the type1 IOMMU set (dmamap_vfio_access() says which). Then the
 * coherent arena is registered; without an IOMMU (unsafe_noiommu), the
 * function as that option says, and the arena locked and its physical
 * addresses read. The platform's one device is named @bdf
 * (dmamap_device_lookup()); its DMA addresses are IOVAs of its IOMMU
 * domain. It is coherent (PCIe snoops the CPU's caches on the machines
 * VFIO runs on), its mask 64-bit until the driver sets one.
 *
 * Return: the platform, or NULL with @err set:
 *
 * - -EINVAL: a NULL or malformed @bdf;
 * - -ENOENT: no such function, or it has no IOMMU group (no IOMMU, or
 *   the kernel was booted without it) and unsafe_noiommu is not set;
 * - -ENODEV: the kernel has no VFIO (/dev/vfio/vfio), or the function is
 *   not bound to vfio-pci;
 * - -EACCES: no permission on /dev/vfio/vfio or the group's file (with
 *   unsafe_noiommu and no group: on the config file, root's); -EROFS:
 *   sysfs is mounted read-only (a container);
 * - -EBUSY: the group is not viable (another function in it is bound to a
 *   host driver), or another process holds it (with unsafe_noiommu and
 *   no group: holds its config file, or a driver other than
 *   uio_pci_generic or pci-stub is bound to it);
 * - -EPERM, with unsafe_noiommu and no group: the kernel is locked down
 *   (Secure Boot), and refuses BAR mappings and configuration writes;
 * - -EOPNOTSUPP: the container has no type1v2 IOMMU (with unsafe_noiommu:
 *   the function is in an IOMMU group, but the kernel has no no-IOMMU
 *   mode);
 * - -EIO, with unsafe_noiommu and no group: its sysfs resource file
 *   cannot be read as the kernel writes it;
 * - -EPERM: unsafe_noiommu without the right to read physical addresses
 *   (CAP_SYS_ADMIN);
 * - -ENOMEM: the arena, or pinning it (RLIMIT_MEMLOCK);
 * - -ENOSPC: the IOMMU translates no IOVA range of 16 MiB or more below
 *   4 GiB;
 * - another negative errno that the kernel returned, named in @err
 *   (through iommufd, -EINVAL from VFIO_DEVICE_BIND_IOMMUFD: another
 *   process has the function's own file open).
 */
DMAMAP_API struct dmamap_platform *dmamap_platform_vfio(const char *bdf,
							const struct dmamap_vfio_options *opt,
							struct dmamap_error *err);

/**
 * dmamap_platform_is_vfio() - whether a platform was made by dmamap_platform_vfio()
 * @p: platform
 *
 * Return: true if so; false otherwise and for a NULL @p.
 */
DMAMAP_API bool dmamap_platform_is_vfio(const struct dmamap_platform *p);

/**
 * dmamap_vfio_register() - map memory in the IOMMU once, for fast streaming maps
 * @p: a VFIO platform
 * @addr: start, aligned to the host page and to the IOMMU's smallest page
 * @size: bytes, a multiple of both
 *
 * The pages are pinned and mapped at a fresh IOVA range until
 * dmamap_vfio_unregister() or the platform's end. A hugepage or memfd
 * arena from which the driver carves its buffers is the intended use.
 * Without an IOMMU (unsafe_noiommu) the pages are locked with mlock() and
 * their physical addresses read once.
 *
 * Return: 0; -EINVAL for a platform that is not VFIO, a NULL @addr, a
 * zero or unaligned @size or @addr, or a range that overlaps one already
 * registered; -ENOSPC when 64 ranges are registered (the coherent arena is
 * one of them), @size is above 1 GiB
 * or the IOVA space has no room; -ENOMEM or -EFAULT as the kernel refuses
 * to pin (locked-memory limit, memory not mapped); -EPERM without an IOMMU
 * when the physical addresses cannot be read.
 */
DMAMAP_API int dmamap_vfio_register(struct dmamap_platform *p, void *addr, size_t size);

/**
 * dmamap_vfio_unregister() - undo dmamap_vfio_register()
 * @p: a VFIO platform
 * @addr: the start given to dmamap_vfio_register()
 *
 * The range leaves the IOMMU. Streaming mappings of it must be unmapped
 * first: the device loses access to them here.
 *
 * Return: 0; -EINVAL for a platform that is not VFIO; -ENOENT if @addr
 * starts no registered range (the arena cannot be unregistered); -ENOMEM;
 * the kernel's -errno when it would not unmap the range (it stays
 * registered then).
 */
DMAMAP_API int dmamap_vfio_unregister(struct dmamap_platform *p, void *addr);

/**
 * dmamap_vfio_bar() - a PCI BAR of the function, mapped for the accessors
 * @dev: the device of a VFIO platform
 * @bar: 0..5
 * @size: receives its size in bytes (may be NULL)
 *
 * Mapped once, at first use, until the platform goes. Reach it only with
 * readl()/writel() and friends.
 *
 * Return: the BAR's base; NULL for a NULL or non-VFIO @dev, a BAR that
 * does not exist, is I/O ports or cannot be mapped.
 */
DMAMAP_API void __iomem *dmamap_vfio_bar(struct device *dev, unsigned int bar, size_t *size);

/**
 * dmamap_vfio_config_read() - read the function's PCI configuration space
 * @dev: the device of a VFIO platform
 * @offset: byte offset
 * @buf: receives @len bytes
 * @len: bytes (1..4096)
 *
 * Return: 0; -EINVAL for a non-VFIO @dev, a NULL @buf or a range outside
 * the space; -EIO when the kernel moves less; the kernel's -errno when it refuses.
 */
DMAMAP_API int dmamap_vfio_config_read(struct device *dev, unsigned int offset, void *buf,
				       size_t len);
/**
 * dmamap_vfio_config_write() - write the function's PCI configuration space
 * @dev: the device of a VFIO platform
 * @offset: byte offset (VFIO filters what a user may change; through sysfs nothing does)
 * @buf: @len bytes
 * @len: bytes (1..4096)
 *
 * Return: as dmamap_vfio_config_read().
 */
DMAMAP_API int dmamap_vfio_config_write(struct device *dev, unsigned int offset,
					const void *buf, size_t len);

/**
 * dmamap_vfio_reset() - reset the function (VFIO_DEVICE_RESET, or sysfs's reset file)
 * @dev: the device of a VFIO platform
 *
 * Through sysfs (DMAMAP_VFIO_SYSFS) the function's reset file is written.
 *
 * Return: 0; -EINVAL for a non-VFIO @dev; -ENOTTY if the function has no
 * reset the kernel can do; another negative errno from the kernel.
 */
DMAMAP_API int dmamap_vfio_reset(struct device *dev);

struct dmamap_vfio_stats {
	uint64_t registered_bytes; /* in the IOMMU for good: the arena and dmamap_vfio_register() */
	uint64_t fast_maps;        /* streaming maps that were a table lookup */
	uint64_t slow_maps;        /* maps that pinned and mapped (a system call each) */
	uint64_t slow_unmaps;
	uint64_t slow_bytes_live;  /* bytes the slow path keeps mapped now */
	uint64_t map_failures;     /* maps refused: the mask, the IOVA space, the kernel */
	uint64_t iova_start, iova_end; /* the IOVA space used: [start, end); 0, 0 without an IOMMU */
	unsigned int msix_vectors; /* interrupt lines: MSI-X vectors with an eventfd */
	uint64_t irqs_signalled;   /* messages the function sent, every vector */
	uint64_t irqs_delivered;   /* handler runs: messages that came together run them once */
	uint64_t irqs_unhandled;   /* of which no handler said IRQ_HANDLED */
};

/**
 * dmamap_vfio_access() - how a VFIO platform reaches its function
 * @dev: the device of a VFIO platform
 *
 * Return: DMAMAP_VFIO_IOMMU, DMAMAP_VFIO_IOMMUFD, DMAMAP_VFIO_NOIOMMU or DMAMAP_VFIO_SYSFS;
 * -EINVAL for a NULL or non-VFIO @dev.
 */
DMAMAP_API int dmamap_vfio_access(struct device *dev);

/**
 * dmamap_vfio_stats() - what the VFIO backend did for a device
 * @dev: the device of a VFIO platform
 * @st: filled
 *
 * Return: 0; -EINVAL for a NULL @st or a non-VFIO @dev.
 */
DMAMAP_API int dmamap_vfio_stats(struct device *dev, struct dmamap_vfio_stats *st);

#ifdef __cplusplus
}
#endif
#endif
