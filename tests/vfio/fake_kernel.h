/* SPDX-License-Identifier: MIT */
/*
 * A Linux kernel of our own behind the VFIO platform's system calls
 * (dmamap__vfio_kernel): sysfs links of one PCI function, /dev/vfio/vfio
 * and its group's file, the container, group and device ioctls, the type1
 * IOMMU's table of IOVA -> process memory, the function's configuration
 * space and BAR0. Each refusal is the errno the real kernel gives.
 *
 * The device's side is fake_dma(): an access through the recorded IOMMU
 * table, refused (-EFAULT, counted) when any byte of it is not mapped, as
 * the IOMMU refuses it; and fake_msix_fire(): an MSI-X message, signalled
 * on the eventfd the library gave for that vector (VFIO_DEVICE_SET_IRQS),
 * as the kernel's interrupt handler signals it.
 *
 * Without an IOMMU (cfg.noiommu: VFIO's unsafe no-IOMMU mode) the group's
 * file is /dev/vfio/noiommu-<group>, the container takes VFIO_NOIOMMU_IOMMU
 * and refuses every type1 request; the process's pages are locked with
 * mlock() (recorded) and their frames read from /proc/self/pagemap, which
 * the fake serves with frame numbers of its own invention (enum
 * fake_pagemap). The device's side is then fake_dma_phys(): an access at
 * a physical address, reaching the page the fake gave that frame, while
 * it is locked.
 *
 * The function's sysfs files are there too, for the no-IOMMU way in that
 * needs no VFIO (cfg.no_group, unsafe_noiommu): config is its
 * configuration space from offset 0 (locked with flock()), resource its
 * BARs as text, resource0 BAR0 to map (resource2, the I/O BAR, maps
 * nothing), reset a file "1" is written to (the space is saved and
 * restored around it, as pci_reset_function() does); and
 * /sys/kernel/security/lockdown where cfg.lockdown says.
 *
 * Where cfg.iommufd says the kernel has iommufd (Linux 6.6 and later),
 * the function also has its own file: sysfs lists it as
 * vfio-dev/vfio<FAKE_CDEV>, /dev/vfio/devices/vfio<FAKE_CDEV> opens it,
 * and /dev/iommu gives an iommufd. The function's file answers nothing
 * but VFIO_DEVICE_BIND_IOMMUFD until it is bound; an IO address space
 * (IOMMU_IOAS_ALLOC) takes mappings in the same IOMMU table the type1
 * container uses, its IOVA ranges are the whole space until a function is
 * attached and the configuration's (cfg.ranges, or Intel's two) after;
 * VFIO_DEVICE_ATTACH_IOMMUFD_PT answers with a page table's number, not
 * the address space's, as the kernel does.
 *
 * State is process-wide (each test runs in its own process): install once
 * per test, remove at its end.
 */
#ifndef DMAMAP_TESTS_VFIO_FAKE_KERNEL_H
#define DMAMAP_TESTS_VFIO_FAKE_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <dmamap/dmamap.h>
#include <dmamap/vfio.h>

#define FAKE_BDF "0000:01:00.0"
#define FAKE_GROUP 12
#define FAKE_VENDOR 0x1b36
#define FAKE_DEVICE 0x0010
#define FAKE_BAR0_SIZE 16384
#define FAKE_BAR2_SIZE 256
#define FAKE_CONFIG_SIZE 4096
/* Intel's IOVA ranges (inclusive ends): the interrupt window is a hole. */
#define FAKE_IOVA0_END 0xfedfffffULL
#define FAKE_IOVA1_START 0xfef00000ULL
#define FAKE_IOVA1_END ((1ULL << 48) - 1)
#define FAKE_PGSIZES (0x1000ULL | 0x200000ULL | 0x40000000ULL)
/* MSI-X vectors of the function unless the configuration says otherwise: QEMU's NVMe has 65. */
#define FAKE_MSIX_VECTORS 65
/* The number in the function's own file's name where the kernel has iommufd: vfio3. */
#define FAKE_CDEV 3
/* IOVA ranges a configuration may give: more than the library keeps (8). */
#define FAKE_MAX_RANGES 12

/*
 * What /proc/self/pagemap shows of a locked page (a page not locked is not
 * present, as one never touched). Frames are invented per host page and
 * never below 4 GiB; bits 55 and 56 (soft-dirty, exclusive) are set in
 * every present entry, as the kernel sets them.
 */
enum fake_pagemap {
	/* Contiguous within each FAKE_CHUNK-aligned chunk of virtual memory (as hugepages), chunks scattered. */
	FAKE_PM_HUGE,
	FAKE_PM_SCATTERED,   /* no two pages of virtual memory adjacent in physical memory */
	FAKE_PM_PFN_ZERO,    /* present, frame 0: what a process without CAP_SYS_ADMIN reads */
	FAKE_PM_NOT_PRESENT, /* no page present at all */
};
/* The chunk of virtual memory FAKE_PM_HUGE keeps physically contiguous: 2 MiB, a hugepage. */
#define FAKE_CHUNK (2ULL << 20)

struct fake_vfio_range {
	uint64_t start, end; /* inclusive, as the kernel gives them */
};

/* What the machine looks like; all zeros: a healthy function bound to vfio-pci. */
struct fake_vfio_cfg {
	const char *bdf;        /* the function that exists (NULL: FAKE_BDF) */
	int group;              /* its IOMMU group (0: FAKE_GROUP) */
	bool no_function;       /* no /sys/bus/pci/devices/<bdf> at all */
	bool no_group;          /* no iommu_group link: no IOMMU */
	const char *driver;     /* bound driver (NULL: "vfio-pci"; "": none) */
	int container_errno;    /* open("/dev/vfio/vfio") fails so */
	int group_errno;        /* open("/dev/vfio/<group>") fails so */
	bool no_type1v2;        /* VFIO_CHECK_EXTENSION(VFIO_TYPE1v2_IOMMU) says 0 */
	bool bad_api_version;   /* VFIO_GET_API_VERSION says 1 */
	bool not_viable;        /* VFIO_GROUP_GET_STATUS without VIABLE */
	bool no_caps;           /* VFIO_IOMMU_GET_INFO with no capability chain */
	unsigned int nr_ranges; /* the IOVA-range capability (0: Intel's two) */
	struct fake_vfio_range ranges[FAKE_MAX_RANGES];
	int reset_errno;        /* VFIO_DEVICE_RESET fails so */
	bool config_short;      /* config reads and writes move one byte less */
	unsigned int msix_vectors; /* MSI-X vectors GET_IRQ_INFO gives (0: FAKE_MSIX_VECTORS) */
	bool no_msix;           /* no MSI-X capability: GET_IRQ_INFO gives count 0 */
	int msix_errno;         /* SET_IRQS that would turn MSI-X on fails so (the kernel's refusal) */
	/* No IOMMU: /dev/vfio/noiommu-<group> (not /dev/vfio/<group>), no type1, VFIO_NOIOMMU_IOMMU. */
	bool noiommu;
	bool noiommu_no_ext;    /* ... but VFIO_CHECK_EXTENSION(VFIO_NOIOMMU_IOMMU) says 0 */
	int mlock_errno;        /* mlock() fails so (fake_mlock_errno() changes it later) */
	/*
	 * The function's sysfs files (config, resource, resource0, reset),
	 * there whenever the function is: what opening config fails with
	 * (EACCES: not root), the resource file's text (NULL: as the kernel
	 * writes it, BAR0 memory and BAR2 I/O ports), no reset file (a
	 * function the kernel cannot reset).
	 */
	int sysfs_config_errno;
	const char *resource_text;
	bool no_reset_file;
	bool config_256;          /* config is 256 bytes (no PCIe extended space) */
	int resource0_mmap_errno; /* mmap of resource0 fails so */
	bool sysfs_held;          /* another process holds config locked: flock says EWOULDBLOCK */
	/*
	 * /sys/kernel/security/lockdown's text (NULL: no such file): with
	 * "[integrity]" in force, config writes fail with EPERM.
	 */
	const char *lockdown;
	enum fake_pagemap pagemap; /* what pagemap shows (fake_pagemap_mode() changes it later) */
	/*
	 * The kernel has iommufd and gives the function its own file (only
	 * while it is bound to vfio-pci and in an IOMMU group); what opening
	 * /dev/iommu and that file fails with; what VFIO_DEVICE_BIND_IOMMUFD
	 * fails with (cfg.not_viable: EPERM, as iommu_device_claim_dma_owner()
	 * refuses; EINVAL is another process with the function's file open,
	 * EBUSY another holding the group).
	 */
	bool iommufd;
	const char *cdev_entry; /* the name sysfs lists in vfio-dev (NULL: "vfio3") */
	int iommufd_errno;
	int cdev_errno;
	int bind_errno;
	uint64_t iova_alignment; /* IOAS_IOVA_RANGES' out_iova_alignment, which IOAS_MAP enforces (0: 4096) */
	bool short_unmap;        /* IOAS_UNMAP says it unmapped one page less than it did */
};

enum fake_ioctl {
	FAKE_GET_API_VERSION,
	FAKE_CHECK_EXTENSION,
	FAKE_GROUP_GET_STATUS,
	FAKE_GROUP_SET_CONTAINER,
	FAKE_SET_IOMMU,
	FAKE_IOMMU_GET_INFO,
	FAKE_MAP_DMA,
	FAKE_UNMAP_DMA,
	FAKE_GET_DEVICE_FD,
	FAKE_DEVICE_GET_INFO,
	FAKE_GET_REGION_INFO,
	FAKE_DEVICE_RESET,
	FAKE_GET_IRQ_INFO,
	FAKE_SET_IRQS,
	FAKE_BIND_IOMMUFD,
	FAKE_ATTACH_PT,
	FAKE_IOAS_ALLOC,
	FAKE_IOAS_IOVA_RANGES,
	FAKE_IOAS_MAP,
	FAKE_IOAS_UNMAP,
	FAKE_IOMMU_DESTROY,
	FAKE_OTHER_IOCTL,
	FAKE_NR_IOCTLS
};

struct fake_vfio_counts {
	unsigned long ioctl[FAKE_NR_IOCTLS];      /* calls, failed or not */
	unsigned long ioctl_failed[FAKE_NR_IOCTLS];
	unsigned long opens, open_failures, closes, readlinks;
	unsigned long config_reads, config_writes;
	unsigned long bar_mmaps, bar_munmaps;
	unsigned long dma_ok, dma_faults;         /* fake_dma() */
	unsigned long unmapped_bytes;             /* what UNMAP_DMA took */
	unsigned long dropped_at_close;           /* mappings the container's close released */
	unsigned long injected;                   /* calls fake_vfio_fail_call_in() failed */
	unsigned long misuse;                     /* calls the real kernel would refuse as misuse */
	unsigned long msix_enables;               /* SET_IRQS that turned MSI-X on */
	unsigned long msix_disables;              /* SET_IRQS that turned it off (DATA_NONE, count 0) */
	unsigned long msix_fired;                 /* fake_msix_fire() that signalled an eventfd */
	unsigned long msix_off_at_close;          /* MSI-X still on when the function's file closed */
	unsigned long mlocks, mlock_failures;     /* mlock() calls, and those refused */
	unsigned long munlocks;                   /* munlock() calls */
	unsigned long munlock_stray;              /* munlock()s of a range with no page locked */
	unsigned long pagemap_opens, pagemap_reads; /* /proc/self/pagemap: opens, preads */
	unsigned long phys_dma_ok, phys_dma_faults; /* fake_dma_phys() */
	unsigned long sysfs_opens;                /* opens of the function's sysfs files */
	unsigned long resource_reads;             /* preads of its resource file */
	unsigned long sysfs_resets;               /* "1" written to its reset file */
	unsigned long flocks;                     /* flock() calls */
	unsigned long lockdown_reads;             /* opens of /sys/kernel/security/lockdown */
	unsigned long dir_lists;                  /* directories listed (the function's vfio-dev) */
	unsigned long ranges_before_attach;       /* IOVA ranges asked before any function was attached */
};

extern struct fake_vfio_counts fake_counts;
/* The last misuse, in words ("" when none). */
extern char fake_misuse[256];

/* Stand the fake kernel behind dmamap__vfio_kernel, fresh (@cfg NULL: the defaults). */
void fake_vfio_install(const struct fake_vfio_cfg *cfg);
/* The kernel the library had before; the fake's BAR mappings released. */
void fake_vfio_remove(void);

/* The @n-th VFIO_IOMMU_MAP_DMA from now fails with ENOMEM (0: none). */
void fake_vfio_map_fail_in(long n);
/*
 * The @n-th call from now (open, ioctl, pread, pwrite, mmap, readlink,
 * mlock, flock; not the directory listing, whose failure only means the
 * kernel has no iommufd) fails with @err (0: none).
 */
void fake_vfio_fail_call_in(long n, int err);
/* Calls into the table so far (close, munmap and munlock not counted). */
unsigned long fake_vfio_calls(void);

/* Files open now: container, group, device, iommufd and pagemap descriptors. */
unsigned int fake_vfio_open_fds(void);
/* Mappings in the IOMMU table now, and their bytes. */
unsigned int fake_vfio_nr_mappings(void);
uint64_t fake_vfio_mapped_bytes(void);
/* The @i-th mapping in the table (no order): true and its fields, or false past the last. */
bool fake_vfio_mapping_nth(unsigned int i, uint64_t *iova, uint64_t *vaddr, uint64_t *size);
/* The mapping holding @iova: true and its fields, or false. */
bool fake_vfio_mapping_at(uint64_t iova, uint64_t *map_iova, uint64_t *vaddr, uint64_t *size);
/* Whether the function's own file is bound to an iommufd and attached to its address space. */
bool fake_iommufd_attached(void);
/* The BAR0 memory the library mapped (NULL when it is not mapped). */
void *fake_vfio_bar0(void);
unsigned int fake_vfio_live_bar_maps(void);
/* The function's configuration space as the fake holds it. */
const uint8_t *fake_vfio_config(void);
/* The last readlink() path asked ("" when none). */
const char *fake_vfio_last_readlink(void);

/*
 * The device reads (@write false) or writes @len bytes at @iova through
 * the IOMMU: 0, or -EFAULT (counted) when any byte is not mapped with the
 * permission needed; nothing moves then.
 */
int fake_dma(uint64_t iova, void *buf, size_t len, bool write);

/*
 * The function sends MSI-X vector @vector's message: the kernel writes 1
 * to the eventfd the library gave for it. 0; -EINVAL when MSI-X is off or
 * @vector is past the vectors turned on; -ENOENT when the library gave no
 * eventfd (-1) for it.
 */
int fake_msix_fire(unsigned int vector);
/* Vectors MSI-X is on with now (0: off). */
unsigned int fake_msix_enabled(void);
/* The eventfd the library gave for @vector, as it numbered it (-1: none, or MSI-X off). */
int fake_msix_fd(unsigned int vector);
/*
 * The eventfds of the last SET_IRQS that turned MSI-X on, kept after it
 * is turned off: up to @max into @fds; how many there were.
 */
unsigned int fake_msix_last_fds(int *fds, unsigned int max);
/* Whether @fd is open in this process and an eventfd. */
bool fake_is_eventfd(int fd);
/* Eventfds open in this process now (the fake's own references to them included). */
unsigned int fake_eventfds_open(void);

/* ---- no IOMMU ---------------------------------------------------------------- */

/* What pagemap shows from now on. */
void fake_pagemap_mode(enum fake_pagemap mode);
/* The page holding @va shows not present from now on, whatever the mode (NULL: none). */
void fake_pagemap_absent(const void *va);
/* mlock() fails with @err from now on (0: it works). */
void fake_mlock_errno(int err);
/*
 * The physical address pagemap gives @va in the current mode (its frame
 * and @va's offset in the page), whether or not it is locked; 0 for the
 * modes that show no frame.
 */
uint64_t fake_phys_of(const void *va);
/* Bytes locked now (the union of what mlock() locked and munlock() did not undo). */
uint64_t fake_locked_bytes(void);
/* Disjoint locked ranges now. */
unsigned int fake_locked_ranges(void);
/* The @i-th locked range (by address): true and its start and bytes, or false past the last. */
bool fake_locked_nth(unsigned int i, uint64_t *start, uint64_t *len);
/* Whether every page of [@va, +@len) is locked. */
bool fake_is_locked(const void *va, size_t len);
/*
 * The device reads (@write false) or writes @len bytes at physical
 * address @pa: each page must have a frame the fake gave (any mode) and
 * its virtual page be locked now, else -EFAULT (counted) and nothing
 * moves; 0 otherwise.
 */
int fake_dma_phys(uint64_t pa, void *buf, size_t len, bool write);

/*
 * Nothing open, nothing mapped, nothing locked, no BAR mapped, MSI-X off (and never left
 * on for the function's close to turn off), no misuse: true; false with
 * the first thing left in @why.
 */
bool fake_vfio_clean(char *why, size_t len);

/*
 * The fake installed with @cfg, then dmamap_platform_vfio(FAKE_BDF) with
 * an arena of @arena bytes (0: the default), its reports captured
 * (checked() when @check, quiet() otherwise). *@dev: the function's
 * device. NULL, said, on failure.
 */
struct dmamap_platform *fake_platform(const struct fake_vfio_cfg *cfg, size_t arena, bool check,
				      struct device **dev);
/* The same with options of the test's own (no IOMMU, an arena size). */
struct dmamap_platform *fake_platform_opt(const struct fake_vfio_cfg *cfg,
					  const struct dmamap_vfio_options *opt, bool check,
					  struct device **dev);
/*
 * One point @k of a failure-point walk over dmamap_platform_vfio(): the
 * fake installed with @cfg, DMAMAP_FAULT_ALL armed at @k, the platform
 * asked for with @opt. The platform (quiet), or NULL with the refusal
 * checked to be the injected -ENOMEM, with a message. *@fired: whether
 * the point fired (the walk is over when it did not).
 */
struct dmamap_platform *fake_walk_point(const struct fake_vfio_cfg *cfg,
					const struct dmamap_vfio_options *opt, long k, bool *fired);
/* Destroy @p, check that nothing is left (fake_vfio_clean()), and remove the fake. */
void fake_platform_end(struct dmamap_platform *p);
/* Whether the device reads @want at IOVA @h through the IOMMU (fake_dma()). */
bool fake_device_reads(uint64_t h, const void *want, size_t len);
/* dmamap_vfio_stats(), all ones when it fails (no check can pass on them). */
struct dmamap_vfio_stats vstats(struct device *dev);

#endif
