/* SPDX-License-Identifier: MIT */
/*
 * The fake Linux VFIO kernel (fake_kernel.h): what each call checks and
 * refuses follows drivers/vfio/vfio_main.c, drivers/vfio/group.c,
 * drivers/vfio/vfio_iommu_type1.c, drivers/vfio/device_cdev.c,
 * drivers/iommu/iommufd/ and drivers/vfio/pci/vfio_pci_core.c.
 * Nothing here allocates through the library, so its failure points and
 * ledger see none of it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <sys/file.h>
#include <linux/vfio.h>
#include "../helpers.h"
#include "../../src/platform/vfio/iommufd_abi.h"
#include "../../src/platform/vfio/vfio.h"
#include "fake_kernel.h"

#define FD_BASE 1000
#define MAX_FDS 4096
#define MAX_MAPS 8192
#define MAX_BAR_MAPS 16
#define IOMMU_PAGE 4096ULL
#define REGION_SHIFT 40 /* VFIO_PCI_OFFSET_SHIFT */
#define REGION_OFFSET(i) ((uint64_t)(i) << REGION_SHIFT)
#define MSIX_MAX 2048 /* PCI's limit: the table size field is 11 bits */

enum fd_kind {
	FD_CLOSED, FD_CONTAINER, FD_GROUP, FD_DEVICE, FD_PAGEMAP, FD_IOMMUFD,
	/* The function's sysfs files (resource2: its I/O BAR), and the kernel's lockdown state. */
	FD_SYS_CONFIG, FD_SYS_RESOURCE, FD_SYS_BAR0, FD_SYS_BAR2, FD_SYS_RESET, FD_LOCKDOWN,
};

struct fake_fd {
	enum fd_kind kind;
	/* container: its IOMMU is set, how many groups it holds */
	bool iommu_set;
	bool noiommu; /* the IOMMU set is VFIO_NOIOMMU_IOMMU */
	unsigned int groups;
	/* group: the container it is in (-1: none) */
	int container;
	bool flocked; /* sysfs's config file: held with flock() */
	/* device: opened as its own file (not from the group), bound to the iommufd @iommufd */
	bool cdev, bound, attached;
	int iommufd;
	/* iommufd: its one IO address space (0: none), functions attached to it */
	uint32_t ioas;
	unsigned int attached_devs;
};

struct fake_map {
	int container;
	uint64_t iova, vaddr, size;
	uint32_t prot; /* VFIO_DMA_MAP_FLAG_READ | _WRITE */
};

struct fake_bar_map {
	void *addr;
	size_t len;
};

struct fake_vfio_counts fake_counts;
char fake_misuse[256];

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct fake_vfio_cfg cfg;
static char cfg_bdf[32], cfg_driver[64];
static const struct dmamap_vfio_kernel *saved;
static bool installed;
static struct fake_fd fds[MAX_FDS];
static unsigned int nfds;
static int group_fd = -1; /* the one group's open file (a group opens once) */
static struct fake_map maps[MAX_MAPS];
static unsigned int nmaps;
static struct fake_bar_map bars[MAX_BAR_MAPS];
static uint8_t config[FAKE_CONFIG_SIZE];
static long map_fail_countdown, call_fail_countdown;
static int call_fail_errno;
static unsigned long calls;
static char last_readlink[256];
/*
 * MSI-X as vfio-pci holds it: on for msix_on vectors (0: off); each
 * vector's eventfd as the library numbered it, and the kernel's own
 * reference to it (a duplicate: the kernel holds the eventfd's context,
 * so the file lives on whatever the library closes).
 */
static bool msix_ready; /* the tables below hold -1 where no file is (static zeros are fd 0) */
static unsigned int msix_on;
static int msix_fds[MSIX_MAX], msix_refs[MSIX_MAX];
static int last_fds[MSIX_MAX];
static unsigned int nlast;
/*
 * No IOMMU: the locked ranges (disjoint, sorted, [start, end)), what
 * pagemap shows, and a page it shows absent whatever the mode.
 */
#define MAX_LOCKED 1024
struct locked_range {
	uint64_t start, end;
};
static struct locked_range locked[MAX_LOCKED];
static unsigned int nlocked;
static enum fake_pagemap pm_mode;
static uint64_t pm_absent; /* a page's address, or ~0 */
static int mlock_err;

/* ---- the function's configuration space ------------------------------------ */

static void put16(unsigned int off, uint16_t v)
{
	config[off] = (uint8_t)v;
	config[off + 1] = (uint8_t)(v >> 8);
}

static void put32(unsigned int off, uint32_t v)
{
	put16(off, (uint16_t)v);
	put16(off + 2, (uint16_t)(v >> 16));
}

static void config_reset(void)
{
	memset(config, 0, sizeof(config));
	put16(0x00, FAKE_VENDOR);
	put16(0x02, FAKE_DEVICE);
	put16(0x04, 0x0000);     /* command: nothing enabled yet */
	put16(0x06, 0x0010);     /* status: a capability list */
	config[0x08] = 0x02;     /* revision */
	config[0x09] = 0x02;     /* NVMe */
	config[0x0a] = 0x08;
	config[0x0b] = 0x01;     /* mass storage */
	put32(0x10, 0xfebf0004); /* BAR0: memory, 64-bit, not prefetchable */
	put32(0x14, 0x00000000); /* BAR1: BAR0's upper half */
	put32(0x18, 0x0000c001); /* BAR2: I/O ports */
	put16(0x2c, FAKE_VENDOR);
	put16(0x2e, 0x1100);
	config[0x34] = 0x40;
}

/* ---- bookkeeping --------------------------------------------------------------- */

static void misuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void misuse(const char *fmt, ...)
{
	va_list ap;

	fake_counts.misuse++;
	va_start(ap, fmt);
	vsnprintf(fake_misuse, sizeof(fake_misuse), fmt, ap);
	va_end(ap);
}

static int fail(int e)
{
	errno = e;
	return -1;
}

/* A call that the armed countdown fails. */
static bool injected(void)
{
	calls++;
	if (call_fail_countdown > 0 && --call_fail_countdown == 0) {
		fake_counts.injected++;
		errno = call_fail_errno ? call_fail_errno : EIO;
		return true;
	}
	return false;
}

static struct fake_fd *fd_of(int fd)
{
	if (fd < FD_BASE || fd >= FD_BASE + (int)nfds || fds[fd - FD_BASE].kind == FD_CLOSED)
		return NULL;
	return &fds[fd - FD_BASE];
}

static int new_fd(enum fd_kind kind)
{
	if (nfds == MAX_FDS)
		return fail(EMFILE);
	fds[nfds] = (struct fake_fd){ .kind = kind, .container = -1, .iommufd = -1 };
	return FD_BASE + (int)nfds++;
}

static void drop_maps_of(int container, bool at_close)
{
	for (unsigned int i = 0; i < nmaps;) {
		if (maps[i].container != container) {
			i++;
			continue;
		}
		if (at_close)
			fake_counts.dropped_at_close++;
		maps[i] = maps[--nmaps];
	}
}

/* The last group left its container: the kernel releases the IOMMU and every mapping. */
static void detach_group(void)
{
	struct fake_fd *g = fd_of(group_fd), *c;

	if (!g || g->container < 0)
		return;
	c = fd_of(g->container);
	if (c && c->groups && !--c->groups) {
		drop_maps_of(g->container, true);
		c->iommu_set = c->noiommu = false;
	}
	g->container = -1;
}

/* ---- MSI-X (vfio_pci_intrs.c) ---------------------------------------------------- */

static void msix_vector_put(unsigned int i)
{
	if (msix_refs[i] >= 0)
		close(msix_refs[i]);
	msix_refs[i] = msix_fds[i] = -1;
}

/* vfio_msi_disable(): every vector's eventfd let go, MSI-X off. */
static void msix_off(void)
{
	for (unsigned int i = 0; i < MSIX_MAX; i++)
		if (msix_refs[i] >= 0 || msix_fds[i] >= 0)
			msix_vector_put(i);
	msix_on = 0;
}

/* What vfio_pci_get_irq_count() says of each index. */
static unsigned int irq_count(unsigned int index)
{
	switch (index) {
	case VFIO_PCI_INTX_IRQ_INDEX:
		return 1; /* interrupt pin A */
	case VFIO_PCI_MSIX_IRQ_INDEX:
		if (cfg.no_msix)
			return 0;
		if (!cfg.msix_vectors)
			return FAKE_MSIX_VECTORS;
		return cfg.msix_vectors < MSIX_MAX ? cfg.msix_vectors : MSIX_MAX;
	case VFIO_PCI_ERR_IRQ_INDEX:
	case VFIO_PCI_REQ_IRQ_INDEX:
		return 1; /* PCI Express */
	default:
		return 0; /* no MSI capability, as QEMU's NVMe */
	}
}

bool fake_is_eventfd(int fd)
{
	char path[64], target[64];
	ssize_t n;

	if (fd < 0 || fcntl(fd, F_GETFD) < 0)
		return false;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return true; /* no /proc: open is all that can be told */
	target[n] = '\0';
	return !strcmp(target, "anon_inode:[eventfd]");
}

unsigned int fake_eventfds_open(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	unsigned int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char *end;
		long fd = strtol(e->d_name, &end, 10);

		if (*end || e->d_name[0] == '.' || fd == dirfd(d))
			continue;
		n += fake_is_eventfd((int)fd);
	}
	closedir(d);
	return n;
}

/*
 * vfio_msi_set_block(): vectors [@start, +@count) signal @efd (-1: none).
 * eventfd_ctx_fdget() refuses a file not open (EBADF) or not an eventfd
 * (EINVAL); nothing changes then. The kernel's references are duplicates
 * far above the numbers the process uses, so that one never takes the
 * number of a file just closed.
 */
#define REF_FD_MIN 512

static int msix_set_block(unsigned int start, unsigned int count, const int32_t *efd)
{
	int refs[MSIX_MAX];

	for (unsigned int j = 0; j < count; j++) {
		if (efd[j] < 0)
			continue;
		if (fcntl(efd[j], F_GETFD) < 0)
			return fail(EBADF);
		if (!fake_is_eventfd(efd[j]))
			return fail(EINVAL);
	}
	for (unsigned int j = 0; j < count; j++) {
		refs[j] = efd[j] < 0 ? -1 : fcntl(efd[j], F_DUPFD_CLOEXEC, REF_FD_MIN);
		if (efd[j] >= 0 && refs[j] < 0 && errno == EINVAL) /* RLIMIT_NOFILE below it */
			refs[j] = fcntl(efd[j], F_DUPFD_CLOEXEC, 0);
		if (efd[j] >= 0 && refs[j] < 0) {
			int e = errno;

			while (j--)
				if (refs[j] >= 0)
					close(refs[j]);
			return fail(e);
		}
	}
	for (unsigned int j = 0; j < count; j++) {
		msix_vector_put(start + j);
		msix_fds[start + j] = efd[j];
		msix_refs[start + j] = refs[j];
	}
	return 0;
}

static void msix_signal(unsigned int i)
{
	uint64_t one = 1;

	if (msix_refs[i] >= 0 && write(msix_refs[i], &one, sizeof(one)) == sizeof(one))
		fake_counts.msix_fired++;
}

/* VFIO_DEVICE_GET_IRQ_INFO, as vfio_pci_ioctl_get_irq_info(). */
static int get_irq_info(struct vfio_irq_info *info)
{
	if (!info)
		return fail(EFAULT);
	if (info->argsz < offsetof(struct vfio_irq_info, count) + sizeof(info->count) ||
	    info->index >= VFIO_PCI_NUM_IRQS)
		return fail(EINVAL);
	info->flags = VFIO_IRQ_INFO_EVENTFD;
	info->count = irq_count(info->index);
	if (info->index == VFIO_PCI_INTX_IRQ_INDEX)
		info->flags |= VFIO_IRQ_INFO_MASKABLE | VFIO_IRQ_INFO_AUTOMASKED;
	else
		info->flags |= VFIO_IRQ_INFO_NORESIZE; /* no dynamic MSI-X */
	return 0;
}

/*
 * VFIO_DEVICE_SET_IRQS: vfio_set_irqs_validate_and_prepare(), then
 * vfio_pci_set_msi_trigger() for MSI-X. The other indexes are not
 * modelled (refused with ENOTTY, as a kernel without their handlers).
 */
static int set_irqs(struct vfio_irq_set *hdr)
{
	const size_t minsz = offsetof(struct vfio_irq_set, count) + sizeof(hdr->count);
	uint32_t data = hdr ? hdr->flags & VFIO_IRQ_SET_DATA_TYPE_MASK : 0;
	unsigned int max, size;

	if (!hdr)
		return fail(EFAULT);
	if (hdr->argsz < minsz || hdr->index >= VFIO_PCI_NUM_IRQS ||
	    hdr->count >= UINT32_MAX - hdr->start ||
	    (hdr->flags & ~(VFIO_IRQ_SET_DATA_TYPE_MASK | VFIO_IRQ_SET_ACTION_TYPE_MASK)))
		return fail(EINVAL);
	max = irq_count(hdr->index);
	if (hdr->start >= max || hdr->start + hdr->count > max)
		return fail(EINVAL);
	switch (data) {
	case VFIO_IRQ_SET_DATA_NONE: size = 0; break;
	case VFIO_IRQ_SET_DATA_BOOL: size = 1; break;
	case VFIO_IRQ_SET_DATA_EVENTFD: size = 4; break;
	default: return fail(EINVAL);
	}
	if (size && hdr->argsz - minsz < (uint64_t)hdr->count * size)
		return fail(EINVAL);
	if (hdr->index != VFIO_PCI_MSIX_IRQ_INDEX)
		return fail(ENOTTY);
	/* MSI-X has a trigger only: no mask, no unmask, and one action at a time. */
	if ((hdr->flags & VFIO_IRQ_SET_ACTION_TYPE_MASK) != VFIO_IRQ_SET_ACTION_TRIGGER)
		return fail(ENOTTY);
	if (msix_on && !hdr->count && data == VFIO_IRQ_SET_DATA_NONE) {
		msix_off();
		fake_counts.msix_disables++;
		return 0;
	}
	if (data == VFIO_IRQ_SET_DATA_EVENTFD) {
		const int32_t *efd = (const int32_t *)hdr->data;

		if (msix_on) /* new eventfds for vectors already on */
			return hdr->start + hdr->count > msix_on ? fail(EINVAL) :
			       msix_set_block(hdr->start, hdr->count, efd);
		/* vfio_msi_enable(): the vectors allocated, or the kernel's refusal. */
		if (cfg.msix_errno)
			return fail(cfg.msix_errno);
		if (!hdr->count)
			return fail(EINVAL);
		msix_on = hdr->start + hdr->count;
		if (msix_set_block(hdr->start, hdr->count, efd)) {
			int e = errno;

			msix_off();
			return fail(e);
		}
		nlast = hdr->count;
		memcpy(last_fds, efd, hdr->count * sizeof(int32_t));
		fake_counts.msix_enables++;
		return 0;
	}
	if (!msix_on)
		return fail(EINVAL);
	/* DATA_NONE or DATA_BOOL with a count: the kernel signals those vectors itself (a loopback). */
	for (unsigned int i = hdr->start; i < hdr->start + hdr->count; i++)
		if (data == VFIO_IRQ_SET_DATA_NONE || ((const uint8_t *)hdr->data)[i - hdr->start])
			msix_signal(i);
	return 0;
}

/* ---- no IOMMU: locked memory and /proc/self/pagemap -------------------------- */

/*
 * Frame numbers are invented, never below 4 GiB, and decoded back by
 * fake_dma_phys(). FAKE_PM_HUGE: a chunk's pages are consecutive frames
 * in a slot of twice the chunk's frames (so no two chunks ever adjoin),
 * the slot the chunk's number times an odd constant modulo 2^28 (a
 * bijection: chunks of one 2^49-byte address space never share one).
 * FAKE_PM_SCATTERED: each page its own even frame offset past 2^40 (so
 * no two pages ever adjoin), again an odd multiple modulo 2^36.
 */
#define PFN_HUGE_BASE 0x100000ULL
#define PFN_SCAT_BASE (1ULL << 40)
#define HUGE_SLOT_BITS 28
#define SCAT_SLOT_BITS 36
#define MIX_HUGE 0x9e3779b1ULL
#define MIX_SCAT 0x2545f491ULL
#define PM_PRESENT (1ULL << 63)
#define PM_EXCLUSIVE (1ULL << 56)
#define PM_SOFT_DIRTY (1ULL << 55)
#define PM_PFN_MASK ((1ULL << 55) - 1)

static uint64_t host_pg(void)
{
	return (uint64_t)sysconf(_SC_PAGESIZE);
}

/* The inverse of odd @k modulo 2^64 (Newton: each step doubles the bits right). */
static uint64_t inverse_of(uint64_t k)
{
	uint64_t x = k;

	for (int i = 0; i < 6; i++)
		x *= 2 - k * x;
	return x;
}

/* The frame of the page at @va in @mode (0: none shown). */
static uint64_t pfn_of(uint64_t va, enum fake_pagemap mode)
{
	const uint64_t pg = host_pg(), cpp = FAKE_CHUNK / pg;

	switch (mode) {
	case FAKE_PM_HUGE: {
		uint64_t slot = ((va / FAKE_CHUNK) * MIX_HUGE) & ((1ULL << HUGE_SLOT_BITS) - 1);

		return PFN_HUGE_BASE + slot * 2 * cpp + (va % FAKE_CHUNK) / pg;
	}
	case FAKE_PM_SCATTERED:
		return PFN_SCAT_BASE + 2 * (((va / pg) * MIX_SCAT) & ((1ULL << SCAT_SLOT_BITS) - 1));
	default:
		return 0;
	}
}

/* The virtual page whose frame is @pfn in either mode that shows frames, or false. */
static bool va_of_pfn(uint64_t pfn, uint64_t *va)
{
	const uint64_t pg = host_pg(), cpp = FAKE_CHUNK / pg;

	if (pfn >= PFN_SCAT_BASE) {
		uint64_t r = pfn - PFN_SCAT_BASE;

		if (r & 1 || r / 2 >= (1ULL << SCAT_SLOT_BITS))
			return false;
		*va = ((r / 2 * inverse_of(MIX_SCAT)) & ((1ULL << SCAT_SLOT_BITS) - 1)) * pg;
	} else if (pfn >= PFN_HUGE_BASE) {
		uint64_t r = pfn - PFN_HUGE_BASE, slot = r / (2 * cpp), idx = r % (2 * cpp);

		if (idx >= cpp || slot >= (1ULL << HUGE_SLOT_BITS))
			return false;
		*va = ((slot * inverse_of(MIX_HUGE)) & ((1ULL << HUGE_SLOT_BITS) - 1)) * FAKE_CHUNK +
		      idx * pg;
	} else {
		return false;
	}
	return pfn_of(*va, pfn >= PFN_SCAT_BASE ? FAKE_PM_SCATTERED : FAKE_PM_HUGE) == pfn;
}

/* Whether the page at @va (page-aligned) is locked (lock held). */
static bool page_locked(uint64_t va)
{
	for (unsigned int i = 0; i < nlocked; i++)
		if (va >= locked[i].start && va < locked[i].end)
			return true;
	return false;
}

/* [@s, @e) added to the locked ranges (lock held): false when the table is full. */
static bool lock_add(uint64_t s, uint64_t e)
{
	struct locked_range out[MAX_LOCKED];
	unsigned int n = 0, i = 0;

	/* Those wholly before, then the merge of every one touching [s, e), then those after. */
	for (; i < nlocked && locked[i].end < s; i++)
		out[n++] = locked[i];
	for (; i < nlocked && locked[i].start <= e; i++) {
		s = locked[i].start < s ? locked[i].start : s;
		e = locked[i].end > e ? locked[i].end : e;
	}
	if (n + 1 + (nlocked - i) > MAX_LOCKED)
		return false;
	out[n++] = (struct locked_range){ s, e };
	for (; i < nlocked; i++)
		out[n++] = locked[i];
	memcpy(locked, out, n * sizeof(out[0]));
	nlocked = n;
	return true;
}

/* [@s, @e) taken out of the locked ranges (lock held): whether any byte of it was locked. */
static bool lock_sub(uint64_t s, uint64_t e)
{
	struct locked_range out[MAX_LOCKED + 1];
	unsigned int n = 0;
	bool any = false;

	for (unsigned int i = 0; i < nlocked; i++) {
		const struct locked_range r = locked[i];

		if (r.end <= s || r.start >= e) {
			out[n++] = r;
			continue;
		}
		any = true;
		if (r.start < s)
			out[n++] = (struct locked_range){ r.start, s };
		if (r.end > e)
			out[n++] = (struct locked_range){ e, r.end };
	}
	/* Splitting one range in two can overflow only a table already full. */
	if (n > MAX_LOCKED)
		n = MAX_LOCKED;
	memcpy(locked, out, n * sizeof(out[0]));
	nlocked = n;
	return any;
}

/* The page-rounded range of [@addr, +@len), as mlock() takes it; false if it wraps. */
static bool page_range(const void *addr, size_t len, uint64_t *s, uint64_t *e)
{
	const uint64_t pg = host_pg();

	*s = (uintptr_t)addr & ~(pg - 1);
	*e = ((uintptr_t)addr + (uint64_t)len + pg - 1) & ~(pg - 1);
	return *e >= *s && (uintptr_t)addr + (uint64_t)len >= (uintptr_t)addr;
}

static bool pages_present(uint64_t va, uint64_t size);

/* mlock(): the pages must be mapped (else ENOMEM, as the kernel); recorded, never really locked. */
static int f_mlock(const void *addr, size_t len)
{
	uint64_t s, e;
	int ret = 0;

	pthread_mutex_lock(&lock);
	fake_counts.mlocks++;
	if (injected()) {
		ret = -1;
	} else if (mlock_err) {
		ret = fail(mlock_err);
	} else if (!page_range(addr, len, &s, &e)) {
		ret = fail(EINVAL);
	} else if (!pages_present(s, e - s)) {
		ret = fail(ENOMEM);
	} else if (e > s && !lock_add(s, e)) {
		ret = fail(EAGAIN);
	}
	if (ret)
		fake_counts.mlock_failures++;
	pthread_mutex_unlock(&lock);
	return ret;
}

static int f_munlock(const void *addr, size_t len)
{
	uint64_t s, e;
	int ret = 0;

	pthread_mutex_lock(&lock);
	fake_counts.munlocks++;
	if (!page_range(addr, len, &s, &e)) {
		ret = fail(EINVAL);
	} else if (!pages_present(s, e - s)) {
		ret = fail(ENOMEM);
	} else if (e > s && !lock_sub(s, e)) {
		fake_counts.munlock_stray++;
	}
	pthread_mutex_unlock(&lock);
	return ret;
}

/* The entry pagemap holds for the page at @va (lock held). */
static uint64_t pagemap_entry(uint64_t va)
{
	if (!page_locked(va) || va == pm_absent || pm_mode == FAKE_PM_NOT_PRESENT)
		return 0;
	return PM_PRESENT | PM_EXCLUSIVE | PM_SOFT_DIRTY | (pfn_of(va, pm_mode) & PM_PFN_MASK);
}

/* pread() of /proc/self/pagemap (pagemap_read()): whole 8-byte entries, one per host page. */
static ssize_t pagemap_read(void *buf, size_t len, off_t off)
{
	ssize_t ret;

	pthread_mutex_lock(&lock);
	fake_counts.pagemap_reads++;
	if (injected()) {
		ret = -1;
	} else if (off < 0 || off % 8 || len % 8) {
		misuse("pagemap pread of %zu bytes at %lld: not whole entries", len, (long long)off);
		ret = fail(EINVAL);
	} else {
		for (size_t i = 0; i < len / 8; i++) {
			uint64_t e = pagemap_entry(((uint64_t)off / 8 + i) * host_pg());

			memcpy((uint8_t *)buf + 8 * i, &e, 8);
		}
		ret = (ssize_t)len;
	}
	pthread_mutex_unlock(&lock);
	return ret;
}

/* ---- the function's sysfs files -------------------------------------------------- */

/*
 * The resource file as the kernel writes it (resource_show()): a line per
 * resource, start, end (inclusive) and flags; BAR0 memory, BAR2 I/O
 * ports, nothing else, then the ROM and the rest, all zeros.
 */
static size_t resource_text(char *out, size_t len)
{
	size_t n = 0;

	if (cfg.resource_text)
		return (size_t)snprintf(out, len, "%s", cfg.resource_text);
	for (unsigned int i = 0; i < 13 && n < len; i++) {
		uint64_t start = 0, end = 0, flags = 0;

		if (i == 0) {
			start = 0xfebf0000;
			end = start + FAKE_BAR0_SIZE - 1;
			flags = 0x00140204; /* IORESOURCE_MEM, 64-bit, sized */
		} else if (i == 2) {
			start = 0xc000;
			end = start + FAKE_BAR2_SIZE - 1;
			flags = 0x00040101; /* IORESOURCE_IO */
		}
		n += (size_t)snprintf(out + n, len - n, "0x%016llx 0x%016llx 0x%016llx\n",
				      (unsigned long long)start, (unsigned long long)end,
				      (unsigned long long)flags);
	}
	return n < len ? n : len - 1;
}

/*
 * open() of /sys/bus/pci/devices/<bdf>/<file>: true when @path is one
 * (*@fd the file, or -1 with errno), false for any other path. Called
 * locked.
 */
static bool sysfs_file(const char *path, int flags, int *fd)
{
	static const struct {
		const char *name;
		enum fd_kind kind;
		int mode; /* O_RDWR: root may write it */
	} files[] = {
		{ "config", FD_SYS_CONFIG, O_RDWR },
		{ "resource", FD_SYS_RESOURCE, O_RDONLY },
		{ "resource0", FD_SYS_BAR0, O_RDWR },
		{ "resource2", FD_SYS_BAR2, O_RDWR },
		{ "reset", FD_SYS_RESET, O_WRONLY },
	};
	char prefix[64];
	size_t plen;

	if (!strcmp(path, "/sys/kernel/security/lockdown")) {
		fake_counts.lockdown_reads++;
		if (!cfg.lockdown)
			*fd = fail(ENOENT); /* no securityfs, or no lockdown module */
		else if ((flags & O_ACCMODE) != O_RDONLY)
			*fd = fail(EACCES);
		else
			*fd = new_fd(FD_LOCKDOWN);
		return true;
	}
	snprintf(prefix, sizeof(prefix), "/sys/bus/pci/devices/%s/", cfg_bdf);
	plen = strlen(prefix);
	if (strncmp(path, prefix, plen))
		return false;
	for (unsigned int i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (strcmp(path + plen, files[i].name))
			continue;
		fake_counts.sysfs_opens++;
		if (cfg.no_function || (files[i].kind == FD_SYS_RESET && cfg.no_reset_file))
			*fd = fail(ENOENT);
		else if (files[i].kind == FD_SYS_CONFIG && cfg.sysfs_config_errno)
			*fd = fail(cfg.sysfs_config_errno);
		else if (files[i].mode != O_RDWR && (flags & O_ACCMODE) != files[i].mode)
			*fd = fail(EACCES); /* resource is 0444, reset 0200 */
		else
			*fd = new_fd(files[i].kind);
		return true;
	}
	*fd = fail(ENOENT);
	return true;
}

/* ---- the table's calls ------------------------------------------------------- */

/* Whether the function's own file is open already. */
static bool cdev_open(void)
{
	for (unsigned int i = 0; i < nfds; i++)
		if (fds[i].kind == FD_DEVICE && fds[i].cdev)
			return true;
	return false;
}

static int f_open(const char *path, int flags)
{
	char want[64], cdev[64];
	int fd;

	pthread_mutex_lock(&lock);
	fake_counts.opens++;
	if (injected()) {
		fd = -1;
		goto out;
	}
	if (!strcmp(path, "/proc/self/pagemap")) {
		/* Mode 0400: read only. */
		fake_counts.pagemap_opens++;
		if ((flags & O_ACCMODE) != O_RDONLY) {
			misuse("open(%s) not O_RDONLY", path);
			fd = fail(EACCES);
		} else {
			fd = new_fd(FD_PAGEMAP);
		}
		goto out;
	}
	if (sysfs_file(path, flags, &fd))
		goto out;
	if ((flags & O_ACCMODE) != O_RDWR)
		misuse("open(%s) not O_RDWR", path);
	/* A no-IOMMU group's file says so (vfio_group_find_or_alloc(): "noiommu-%d"). */
	snprintf(want, sizeof(want), cfg.noiommu ? "/dev/vfio/noiommu-%d" : "/dev/vfio/%d",
		 cfg.group);
	snprintf(cdev, sizeof(cdev), "/dev/vfio/devices/vfio%d", FAKE_CDEV);
	if (!strcmp(path, "/dev/vfio/vfio")) {
		fd = cfg.container_errno ? fail(cfg.container_errno) : new_fd(FD_CONTAINER);
	} else if (!strcmp(path, "/dev/iommu")) {
		fd = !cfg.iommufd ? fail(ENOENT) : cfg.iommufd_errno ? fail(cfg.iommufd_errno) :
		     new_fd(FD_IOMMUFD);
	} else if (!strcmp(path, cdev)) {
		/* The function's own file, while vfio-pci holds it. */
		if (!cfg.iommufd || cfg.no_group || strcmp(cfg_driver, "vfio-pci")) {
			fd = fail(ENOENT);
		} else if (cfg.cdev_errno) {
			fd = fail(cfg.cdev_errno);
		} else {
			/* The kernel lets a second open through (its bind refuses): the library never needs one. */
			if (cdev_open())
				misuse("the function's own file opened twice");
			fd = new_fd(FD_DEVICE);
			if (fd >= 0)
				fd_of(fd)->cdev = true;
		}
	} else if (!strcmp(path, want)) {
		if (cfg.group_errno)
			fd = fail(cfg.group_errno);
		else if (group_fd >= 0)
			fd = fail(EBUSY); /* a group's file opens once */
		else
			fd = group_fd = new_fd(FD_GROUP);
	} else {
		fd = fail(ENOENT);
	}
out:
	if (fd < 0)
		fake_counts.open_failures++;
	pthread_mutex_unlock(&lock);
	return fd;
}

static int f_close(int fd)
{
	struct fake_fd *f;
	int ret = 0;

	pthread_mutex_lock(&lock);
	fake_counts.closes++;
	f = fd_of(fd);
	if (!f) {
		misuse("close(%d) of a file not open", fd);
		ret = fail(EBADF);
		goto out;
	}
	switch (f->kind) {
	case FD_CONTAINER:
		drop_maps_of(fd, true);
		/* A group still in it leaves it (the kernel keeps it until then; nothing to map after). */
		if (group_fd >= 0 && fd_of(group_fd)->container == fd)
			fd_of(group_fd)->container = -1;
		break;
	case FD_GROUP:
		detach_group();
		group_fd = -1;
		break;
	case FD_DEVICE:
		/* vfio_pci_core_disable(): the interrupts go with the last close. */
		if (msix_on) {
			fake_counts.msix_off_at_close++;
			msix_off();
		}
		/* Unbound with its file: detached from its address space. */
		if (f->attached && fd_of(f->iommufd) && fd_of(f->iommufd)->attached_devs)
			fd_of(f->iommufd)->attached_devs--;
		break;
	case FD_IOMMUFD:
		/* Its address spaces and their mappings go with it. */
		drop_maps_of(fd, true);
		for (unsigned int i = 0; i < nfds; i++)
			if (fds[i].kind == FD_DEVICE && fds[i].iommufd == fd)
				misuse("the iommufd closed before the function bound to it");
		break;
	default:
		break;
	}
	f->kind = FD_CLOSED;
out:
	pthread_mutex_unlock(&lock);
	return ret;
}

static ssize_t f_readlink(const char *path, char *buf, size_t len)
{
	static const char prefix[] = "/sys/bus/pci/devices/";
	const char *rest, *slash, *target = NULL;
	char tbuf[128];
	size_t n;

	pthread_mutex_lock(&lock);
	fake_counts.readlinks++;
	snprintf(last_readlink, sizeof(last_readlink), "%s", path);
	if (injected()) {
		pthread_mutex_unlock(&lock);
		return -1;
	}
	if (strncmp(path, prefix, sizeof(prefix) - 1))
		goto enoent;
	rest = path + sizeof(prefix) - 1;
	slash = strchr(rest, '/');
	if (!slash || (size_t)(slash - rest) != strlen(cfg_bdf) ||
	    strncmp(rest, cfg_bdf, strlen(cfg_bdf)) || cfg.no_function)
		goto enoent;
	slash++;
	if (!strcmp(slash, "iommu_group") && !cfg.no_group) {
		snprintf(tbuf, sizeof(tbuf), "../../../../kernel/iommu_groups/%d", cfg.group);
		target = tbuf;
	} else if (!strcmp(slash, "driver") && cfg_driver[0]) {
		snprintf(tbuf, sizeof(tbuf), "../../../../bus/pci/drivers/%s", cfg_driver);
		target = tbuf;
	} else if (!strcmp(slash, "subsystem")) {
		target = "../../../../bus/pci";
	}
	if (!target)
		goto enoent;
	if (!len) {
		pthread_mutex_unlock(&lock);
		return fail(EINVAL);
	}
	n = strlen(target);
	if (n > len - 1)
		n = len - 1;
	memcpy(buf, target, n);
	buf[n] = '\0';
	pthread_mutex_unlock(&lock);
	return (ssize_t)n;
enoent:
	pthread_mutex_unlock(&lock);
	return fail(ENOENT);
}

/* VFIO_IOMMU_GET_INFO: the page sizes and the capability chain (migration, DMA left, IOVA ranges). */
static int get_info(struct vfio_iommu_type1_info *info)
{
	uint8_t caps[512];
	size_t csize = 0, base = sizeof(*info);
	struct vfio_iommu_type1_info_cap_migration *mig;
	struct vfio_iommu_type1_info_dma_avail *avail;
	struct vfio_iommu_type1_info_cap_iova_range *iova;
	unsigned int nr = cfg.nr_ranges ? cfg.nr_ranges : 2;
	size_t s;

	if (info->argsz < offsetof(struct vfio_iommu_type1_info, cap_offset) + sizeof(info->cap_offset))
		return fail(EINVAL);
	info->flags = VFIO_IOMMU_INFO_PGSIZES;
	info->iova_pgsizes = FAKE_PGSIZES;
	if (cfg.no_caps) {
		info->cap_offset = 0;
		return 0;
	}
	memset(caps, 0, sizeof(caps));
	/* As vfio_info_cap_add(): each cap 8-byte aligned, next = offset from the start of info. */
	mig = (void *)(caps + csize);
	s = (sizeof(*mig) + 7) & ~(size_t)7;
	mig->header.id = VFIO_IOMMU_TYPE1_INFO_CAP_MIGRATION;
	mig->header.version = 1;
	mig->pgsize_bitmap = FAKE_PGSIZES;
	mig->max_dirty_bitmap_size = 256ULL << 20;
	csize += s;
	mig->header.next = (uint32_t)(base + csize);
	avail = (void *)(caps + csize);
	s = (sizeof(*avail) + 7) & ~(size_t)7;
	avail->header.id = VFIO_IOMMU_TYPE1_INFO_DMA_AVAIL;
	avail->header.version = 1;
	avail->avail = 65535 - nmaps;
	csize += s;
	avail->header.next = (uint32_t)(base + csize);
	iova = (void *)(caps + csize);
	s = (sizeof(*iova) + nr * sizeof(iova->iova_ranges[0]) + 7) & ~(size_t)7;
	iova->header.id = VFIO_IOMMU_TYPE1_INFO_CAP_IOVA_RANGE;
	iova->header.version = 1;
	iova->header.next = 0;
	iova->nr_iovas = nr;
	for (unsigned int i = 0; i < nr; i++) {
		if (cfg.nr_ranges) {
			iova->iova_ranges[i].start = cfg.ranges[i].start;
			iova->iova_ranges[i].end = cfg.ranges[i].end;
		} else {
			iova->iova_ranges[i].start = i ? FAKE_IOVA1_START : 0;
			iova->iova_ranges[i].end = i ? FAKE_IOVA1_END : FAKE_IOVA0_END;
		}
	}
	csize += s;
	info->flags |= VFIO_IOMMU_INFO_CAPS;
	if (info->argsz < base + csize) {
		/* Too small for the chain: the size it needs, and no chain. */
		info->argsz = (uint32_t)(base + csize);
		info->cap_offset = 0;
		return 0;
	}
	memcpy((uint8_t *)info + base, caps, csize);
	info->cap_offset = (uint32_t)base;
	return 0;
}

static bool in_ranges(uint64_t s, uint64_t e)
{
	unsigned int nr = cfg.nr_ranges ? cfg.nr_ranges : 2;

	for (unsigned int i = 0; i < nr; i++) {
		uint64_t rs = cfg.nr_ranges ? cfg.ranges[i].start : (i ? FAKE_IOVA1_START : 0);
		uint64_t re = cfg.nr_ranges ? cfg.ranges[i].end : (i ? FAKE_IOVA1_END : FAKE_IOVA0_END);

		if (s >= rs && e <= re)
			return true;
	}
	return false;
}

/* What pinning the pages finds: every page of [@va, +@size) mapped in this process. */
static bool pages_present(uint64_t va, uint64_t size)
{
	static unsigned char vec[4096];
	const uint64_t chunk = sizeof(vec) * IOMMU_PAGE;

	for (uint64_t off = 0; off < size; off += chunk) {
		uint64_t n = size - off < chunk ? size - off : chunk;

		if (mincore((void *)(uintptr_t)(va + off), (size_t)n, vec))
			return false;
	}
	return true;
}

static int map_dma(int container, struct vfio_iommu_type1_dma_map *m)
{
	uint32_t prot;

	if (m->argsz < offsetof(struct vfio_iommu_type1_dma_map, size) + sizeof(m->size) ||
	    m->flags & ~(uint32_t)(VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE)) {
		misuse("MAP_DMA argsz %u flags 0x%x", m->argsz, m->flags);
		return fail(EINVAL);
	}
	prot = m->flags & (VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE);
	if (!prot || !m->size || (m->size | m->iova | m->vaddr) & (IOMMU_PAGE - 1) ||
	    m->iova + m->size - 1 < m->iova || m->vaddr + m->size - 1 < m->vaddr) {
		misuse("MAP_DMA iova 0x%llx vaddr 0x%llx size 0x%llx flags 0x%x",
		       (unsigned long long)m->iova, (unsigned long long)m->vaddr,
		       (unsigned long long)m->size, m->flags);
		return fail(EINVAL);
	}
	for (unsigned int i = 0; i < nmaps; i++)
		if (maps[i].container == container && m->iova < maps[i].iova + maps[i].size &&
		    maps[i].iova < m->iova + m->size)
			return fail(EEXIST);
	if (nmaps == MAX_MAPS)
		return fail(ENOSPC);
	if (!in_ranges(m->iova, m->iova + m->size - 1))
		return fail(EINVAL);
	if (map_fail_countdown > 0 && --map_fail_countdown == 0)
		return fail(ENOMEM); /* RLIMIT_MEMLOCK */
	if (!pages_present(m->vaddr, m->size))
		return fail(EFAULT);
	maps[nmaps++] = (struct fake_map){ .container = container, .iova = m->iova,
					   .vaddr = m->vaddr, .size = m->size, .prot = prot };
	return 0;
}

static int unmap_dma(int container, struct vfio_iommu_type1_dma_unmap *u)
{
	uint64_t end, done = 0;

	if (u->argsz < offsetof(struct vfio_iommu_type1_dma_unmap, size) + sizeof(u->size) ||
	    u->flags) {
		misuse("UNMAP_DMA argsz %u flags 0x%x", u->argsz, u->flags);
		return fail(EINVAL);
	}
	if (!u->size || (u->iova | u->size) & (IOMMU_PAGE - 1) || u->iova + u->size - 1 < u->iova) {
		misuse("UNMAP_DMA iova 0x%llx size 0x%llx", (unsigned long long)u->iova,
		       (unsigned long long)u->size);
		return fail(EINVAL);
	}
	end = u->iova + u->size;
	/* type1v2: a range may not bisect a mapping. */
	for (unsigned int i = 0; i < nmaps; i++) {
		const struct fake_map *m = &maps[i];

		if (m->container != container)
			continue;
		if ((m->iova < u->iova && u->iova < m->iova + m->size) ||
		    (m->iova < end && end < m->iova + m->size))
			return fail(EINVAL);
	}
	for (unsigned int i = 0; i < nmaps;) {
		if (maps[i].container == container && maps[i].iova >= u->iova &&
		    maps[i].iova + maps[i].size <= end) {
			done += maps[i].size;
			maps[i] = maps[--nmaps];
			continue;
		}
		i++;
	}
	fake_counts.unmapped_bytes += done;
	u->size = done;
	return 0;
}

static int region_info(struct vfio_region_info *ri)
{
	if (ri->argsz < offsetof(struct vfio_region_info, offset) + sizeof(ri->offset))
		return fail(EINVAL);
	if (ri->index >= VFIO_PCI_NUM_REGIONS)
		return fail(EINVAL);
	ri->offset = REGION_OFFSET(ri->index);
	ri->cap_offset = 0;
	ri->flags = 0;
	ri->size = 0;
	switch (ri->index) {
	case VFIO_PCI_BAR0_REGION_INDEX:
		ri->size = FAKE_BAR0_SIZE;
		ri->flags = VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE |
			    VFIO_REGION_INFO_FLAG_MMAP;
		break;
	case VFIO_PCI_BAR2_REGION_INDEX:
		/* I/O ports: read and write through the file, never mapped. */
		ri->size = FAKE_BAR2_SIZE;
		ri->flags = VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE;
		break;
	case VFIO_PCI_CONFIG_REGION_INDEX:
		ri->size = FAKE_CONFIG_SIZE;
		ri->flags = VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE;
		break;
	default:
		break; /* BAR1 (BAR0's upper half), BAR3-5, ROM, VGA: none */
	}
	return 0;
}

/* ---- iommufd (drivers/iommu/iommufd/ioas.c, drivers/vfio/device_cdev.c) ------- */

/* The IOVA ranges an address space has: all of it until a function narrows them. */
static unsigned int ioas_ranges(const struct fake_fd *ifd, struct dmamap_iommu_iova_range *r)
{
	unsigned int nr = cfg.nr_ranges ? cfg.nr_ranges : 2;

	if (!ifd->attached_devs) {
		r[0] = (struct dmamap_iommu_iova_range){ 0, ~0ULL };
		return 1;
	}
	for (unsigned int i = 0; i < nr; i++)
		r[i] = cfg.nr_ranges ? (struct dmamap_iommu_iova_range){ cfg.ranges[i].start,
									  cfg.ranges[i].end } :
		       (struct dmamap_iommu_iova_range){ i ? FAKE_IOVA1_START : 0,
							 i ? FAKE_IOVA1_END : FAKE_IOVA0_END };
	return nr;
}

static int ioas_map(int fd, struct fake_fd *f, struct dmamap_iommu_ioas_map *m)
{
	const uint32_t known = DMAMAP_IOAS_MAP_FIXED_IOVA | DMAMAP_IOAS_MAP_READABLE |
			       DMAMAP_IOAS_MAP_WRITEABLE;
	struct vfio_iommu_type1_dma_map tm;
	int ret;

	if (m->size < sizeof(*m) || m->reserved || m->flags & ~known) {
		misuse("IOAS_MAP size %u flags 0x%x", m->size, m->flags);
		return fail(m->size < sizeof(*m) ? EINVAL : EOPNOTSUPP);
	}
	if (!f->ioas || m->ioas_id != f->ioas)
		return fail(ENOENT);
	/* iopt_map_pages(): both ends on the alignment IOVA_RANGES gave. */
	if (cfg.iova_alignment && (m->iova | m->length) % cfg.iova_alignment)
		return fail(EINVAL);
	/* Legal, but the library places every mapping itself: an IOVA of the kernel's is a bug. */
	if (!(m->flags & DMAMAP_IOAS_MAP_FIXED_IOVA))
		misuse("IOAS_MAP without FIXED_IOVA");
	tm = (struct vfio_iommu_type1_dma_map){
		.argsz = sizeof(tm),
		.flags = (m->flags & DMAMAP_IOAS_MAP_READABLE ? VFIO_DMA_MAP_FLAG_READ : 0) |
			 (m->flags & DMAMAP_IOAS_MAP_WRITEABLE ? VFIO_DMA_MAP_FLAG_WRITE : 0),
		.vaddr = m->user_va,
		.iova = m->iova,
		.size = m->length,
	};
	ret = map_dma(fd, &tm);
	/* iopt_map_pages(): an IOVA already used is EEXIST there too; pinning refusals the same. */
	return ret;
}

static int ioas_unmap(int fd, struct fake_fd *f, struct dmamap_iommu_ioas_unmap *u)
{
	struct vfio_iommu_type1_dma_unmap tu;
	int ret;

	if (u->size < sizeof(*u)) {
		misuse("IOAS_UNMAP size %u", u->size);
		return fail(EINVAL);
	}
	if (!f->ioas || u->ioas_id != f->ioas)
		return fail(ENOENT);
	tu = (struct vfio_iommu_type1_dma_unmap){ .argsz = sizeof(tu), .iova = u->iova,
						  .size = u->length };
	ret = unmap_dma(fd, &tu);
	if (ret)
		return ret;
	/* iopt_unmap_iova_range(): a range holding no mapping at all is ENOENT. */
	if (!tu.size)
		return fail(ENOENT);
	u->length = cfg.short_unmap ? tu.size - IOMMU_PAGE : tu.size;
	return 0;
}

static int iommufd_ioctl(int fd, struct fake_fd *f, enum fake_ioctl k, void *arg)
{
	if (!arg)
		return fail(EFAULT);
	switch (k) {
	case FAKE_BIND_IOMMUFD: {
		struct dmamap_vfio_device_bind_iommufd *b = arg;
		struct fake_fd *i;

		if (!f->cdev) {
			misuse("BIND_IOMMUFD on a function's file opened through its group");
			return fail(EINVAL);
		}
		if (b->argsz < sizeof(*b) || b->flags)
			return fail(EINVAL);
		if (f->bound)
			return fail(EINVAL);
		i = fd_of(b->iommufd);
		if (!i || i->kind != FD_IOMMUFD) {
			misuse("BIND_IOMMUFD of fd %d, not an iommufd", b->iommufd);
			return fail(EBADF);
		}
		if (cfg.bind_errno)
			return fail(cfg.bind_errno);
		if (cfg.not_viable)
			return fail(EPERM);
		f->bound = true;
		f->iommufd = b->iommufd;
		b->out_devid = 1;
		return 0;
	}
	case FAKE_ATTACH_PT: {
		struct dmamap_vfio_device_attach_iommufd_pt *a = arg;
		struct fake_fd *i = fd_of(f->iommufd);

		if (a->argsz < sizeof(*a) || a->flags)
			return fail(EINVAL);
		if (!i || !i->ioas || a->pt_id != i->ioas)
			return fail(ENOENT);
		if (f->attached)
			return fail(EBUSY);
		f->attached = true;
		i->attached_devs++;
		/* The kernel made a page table for the address space, and gives its number. */
		a->pt_id = i->ioas + 100;
		return 0;
	}
	case FAKE_IOAS_ALLOC: {
		struct dmamap_iommu_ioas_alloc *a = arg;

		if (a->size < sizeof(*a) || a->flags)
			return fail(a->size < sizeof(*a) ? EINVAL : EOPNOTSUPP);
		if (f->ioas) {
			misuse("a second IO address space in one iommufd");
			return fail(ENOMEM);
		}
		f->ioas = a->out_ioas_id = 2; /* the iommufd's first object is not number 1 here */
		return 0;
	}
	case FAKE_IOAS_IOVA_RANGES: {
		struct dmamap_iommu_ioas_iova_ranges *q = arg;
		struct dmamap_iommu_iova_range r[FAKE_MAX_RANGES];
		unsigned int nr;

		if (q->size < sizeof(*q) || q->reserved)
			return fail(EINVAL);
		if (!f->ioas || q->ioas_id != f->ioas)
			return fail(ENOENT);
		if (!f->attached_devs)
			fake_counts.ranges_before_attach++;
		nr = ioas_ranges(f, r);
		if (q->num_iovas)
			memcpy((void *)(uintptr_t)q->allowed_iovas, r,
			       (q->num_iovas < nr ? q->num_iovas : nr) * sizeof(r[0]));
		q->out_iova_alignment = cfg.iova_alignment ? cfg.iova_alignment : IOMMU_PAGE;
		if (q->num_iovas < nr) {
			q->num_iovas = nr;
			return fail(EMSGSIZE);
		}
		q->num_iovas = nr;
		return 0;
	}
	case FAKE_IOAS_MAP:
		return ioas_map(fd, f, arg);
	case FAKE_IOAS_UNMAP:
		return ioas_unmap(fd, f, arg);
	case FAKE_IOMMU_DESTROY: {
		struct dmamap_iommu_destroy *d = arg;

		if (d->size < sizeof(*d) || !f->ioas || d->id != f->ioas)
			return fail(ENOENT);
		if (f->attached_devs)
			return fail(EBUSY);
		drop_maps_of(fd, false);
		f->ioas = 0;
		return 0;
	}
	default:
		return fail(ENOTTY);
	}
}

static enum fake_ioctl which(unsigned long request)
{
	switch (request) {
	case VFIO_GET_API_VERSION: return FAKE_GET_API_VERSION;
	case VFIO_CHECK_EXTENSION: return FAKE_CHECK_EXTENSION;
	case VFIO_GROUP_GET_STATUS: return FAKE_GROUP_GET_STATUS;
	case VFIO_GROUP_SET_CONTAINER: return FAKE_GROUP_SET_CONTAINER;
	case VFIO_SET_IOMMU: return FAKE_SET_IOMMU;
	case VFIO_IOMMU_GET_INFO: return FAKE_IOMMU_GET_INFO;
	case VFIO_IOMMU_MAP_DMA: return FAKE_MAP_DMA;
	case VFIO_IOMMU_UNMAP_DMA: return FAKE_UNMAP_DMA;
	case VFIO_GROUP_GET_DEVICE_FD: return FAKE_GET_DEVICE_FD;
	case VFIO_DEVICE_GET_INFO: return FAKE_DEVICE_GET_INFO;
	case VFIO_DEVICE_GET_REGION_INFO: return FAKE_GET_REGION_INFO;
	case VFIO_DEVICE_RESET: return FAKE_DEVICE_RESET;
	case VFIO_DEVICE_GET_IRQ_INFO: return FAKE_GET_IRQ_INFO;
	case VFIO_DEVICE_SET_IRQS: return FAKE_SET_IRQS;
	case DMAMAP_VFIO_DEVICE_BIND_IOMMUFD: return FAKE_BIND_IOMMUFD;
	case DMAMAP_VFIO_DEVICE_ATTACH_IOMMUFD_PT: return FAKE_ATTACH_PT;
	case DMAMAP_IOMMU_IOAS_ALLOC: return FAKE_IOAS_ALLOC;
	case DMAMAP_IOMMU_IOAS_IOVA_RANGES: return FAKE_IOAS_IOVA_RANGES;
	case DMAMAP_IOMMU_IOAS_MAP: return FAKE_IOAS_MAP;
	case DMAMAP_IOMMU_IOAS_UNMAP: return FAKE_IOAS_UNMAP;
	case DMAMAP_IOMMU_DESTROY: return FAKE_IOMMU_DESTROY;
	default: return FAKE_OTHER_IOCTL;
	}
}

static const enum fd_kind ioctl_kind[FAKE_NR_IOCTLS] = {
	[FAKE_GET_API_VERSION] = FD_CONTAINER, [FAKE_CHECK_EXTENSION] = FD_CONTAINER,
	[FAKE_GROUP_GET_STATUS] = FD_GROUP,    [FAKE_GROUP_SET_CONTAINER] = FD_GROUP,
	[FAKE_SET_IOMMU] = FD_CONTAINER,       [FAKE_IOMMU_GET_INFO] = FD_CONTAINER,
	[FAKE_MAP_DMA] = FD_CONTAINER,         [FAKE_UNMAP_DMA] = FD_CONTAINER,
	[FAKE_GET_DEVICE_FD] = FD_GROUP,       [FAKE_DEVICE_GET_INFO] = FD_DEVICE,
	[FAKE_GET_REGION_INFO] = FD_DEVICE,    [FAKE_DEVICE_RESET] = FD_DEVICE,
	[FAKE_GET_IRQ_INFO] = FD_DEVICE,       [FAKE_SET_IRQS] = FD_DEVICE,
	[FAKE_BIND_IOMMUFD] = FD_DEVICE,       [FAKE_ATTACH_PT] = FD_DEVICE,
	[FAKE_IOAS_ALLOC] = FD_IOMMUFD,        [FAKE_IOAS_IOVA_RANGES] = FD_IOMMUFD,
	[FAKE_IOAS_MAP] = FD_IOMMUFD,          [FAKE_IOAS_UNMAP] = FD_IOMMUFD,
	[FAKE_IOMMU_DESTROY] = FD_IOMMUFD,
};

static int do_ioctl(int fd, enum fake_ioctl k, void *arg)
{
	struct fake_fd *f = fd_of(fd);

	if (!f) {
		misuse("ioctl %d on fd %d, not open", (int)k, fd);
		return fail(EBADF);
	}
	if (k == FAKE_OTHER_IOCTL)
		return fail(ENOTTY);
	if (f->kind != ioctl_kind[k]) {
		misuse("ioctl %d on a file of kind %d", (int)k, (int)f->kind);
		return fail(ENOTTY);
	}
	/* vfio_device_fops_unl_ioctl(): the function's own file answers nothing else until bound. */
	if (f->cdev && !f->bound && k != FAKE_BIND_IOMMUFD) {
		misuse("ioctl %d on the function's own file before VFIO_DEVICE_BIND_IOMMUFD", (int)k);
		return fail(EINVAL);
	}
	if (k >= FAKE_BIND_IOMMUFD && k <= FAKE_IOMMU_DESTROY)
		return iommufd_ioctl(fd, f, k, arg);
	/* vfio_noiommu_ioctl(): a no-IOMMU container answers VFIO_CHECK_EXTENSION only. */
	if (f->noiommu && (k == FAKE_IOMMU_GET_INFO || k == FAKE_MAP_DMA || k == FAKE_UNMAP_DMA)) {
		misuse("%s on a no-IOMMU container", k == FAKE_IOMMU_GET_INFO ? "IOMMU_GET_INFO" :
		       k == FAKE_MAP_DMA ? "MAP_DMA" : "UNMAP_DMA");
		return fail(ENOTTY);
	}
	switch (k) {
	case FAKE_GET_API_VERSION:
		return cfg.bad_api_version ? 1 : VFIO_API_VERSION;
	case FAKE_CHECK_EXTENSION:
		/* No IOMMU: no type1 driver has a group to serve; the no-IOMMU driver if loaded so. */
		switch ((uintptr_t)arg) {
		case VFIO_TYPE1_IOMMU: return cfg.noiommu ? 0 : 1;
		case VFIO_TYPE1v2_IOMMU: return cfg.noiommu || cfg.no_type1v2 ? 0 : 1;
		case VFIO_NOIOMMU_IOMMU: return cfg.noiommu && !cfg.noiommu_no_ext ? 1 : 0;
		default: return 0;
		}
	case FAKE_GROUP_GET_STATUS: {
		struct vfio_group_status *st = arg;

		if (!st || st->argsz < sizeof(*st))
			return fail(EINVAL);
		st->flags = (cfg.not_viable ? 0 : VFIO_GROUP_FLAGS_VIABLE) |
			    (f->container >= 0 ? VFIO_GROUP_FLAGS_CONTAINER_SET : 0);
		return 0;
	}
	case FAKE_GROUP_SET_CONTAINER: {
		struct fake_fd *c;

		if (!arg)
			return fail(EFAULT);
		c = fd_of(*(int *)arg);
		if (!c || c->kind != FD_CONTAINER) {
			misuse("SET_CONTAINER of fd %d, not a container", *(int *)arg);
			return fail(EBADF);
		}
		if (f->container >= 0)
			return fail(EINVAL);
		if (cfg.not_viable)
			return fail(EPERM);
		f->container = *(int *)arg;
		c->groups++;
		return 0;
	}
	case FAKE_SET_IOMMU:
		if (!f->groups)
			return fail(EINVAL); /* no group in the container yet */
		if (f->iommu_set)
			return fail(EBUSY);
		if ((uintptr_t)arg == VFIO_NOIOMMU_IOMMU) {
			/* Only a no-IOMMU group's container, with the driver loaded. */
			if (!cfg.noiommu || cfg.noiommu_no_ext)
				return fail(EINVAL);
			f->iommu_set = f->noiommu = true;
			return 0;
		}
		if ((uintptr_t)arg != VFIO_TYPE1v2_IOMMU && (uintptr_t)arg != VFIO_TYPE1_IOMMU)
			return fail(EINVAL);
		if (cfg.noiommu || ((uintptr_t)arg == VFIO_TYPE1v2_IOMMU && cfg.no_type1v2))
			return fail(EINVAL);
		f->iommu_set = true;
		return 0;
	case FAKE_IOMMU_GET_INFO:
		if (!f->iommu_set)
			return fail(EINVAL);
		return get_info(arg);
	case FAKE_MAP_DMA:
		if (!f->iommu_set) {
			misuse("MAP_DMA before SET_IOMMU");
			return fail(EINVAL);
		}
		return map_dma(fd, arg);
	case FAKE_UNMAP_DMA:
		if (!f->iommu_set) {
			misuse("UNMAP_DMA before SET_IOMMU");
			return fail(EINVAL);
		}
		return unmap_dma(fd, arg);
	case FAKE_GET_DEVICE_FD: {
		struct fake_fd *c = fd_of(f->container);

		if (!c || !c->iommu_set)
			return fail(EINVAL);
		if (!arg || strcmp(arg, cfg_bdf))
			return fail(ENODEV);
		return new_fd(FD_DEVICE);
	}
	case FAKE_DEVICE_GET_INFO: {
		struct vfio_device_info *di = arg;

		if (!di || di->argsz < offsetof(struct vfio_device_info, num_irqs) + sizeof(di->num_irqs))
			return fail(EINVAL);
		di->flags = VFIO_DEVICE_FLAGS_PCI | VFIO_DEVICE_FLAGS_RESET;
		di->num_regions = VFIO_PCI_NUM_REGIONS;
		di->num_irqs = VFIO_PCI_NUM_IRQS;
		return 0;
	}
	case FAKE_GET_REGION_INFO:
		return arg ? region_info(arg) : fail(EFAULT);
	case FAKE_DEVICE_RESET:
		if (cfg.reset_errno)
			return fail(cfg.reset_errno);
		config_reset();
		return 0;
	case FAKE_GET_IRQ_INFO:
		return get_irq_info(arg);
	case FAKE_SET_IRQS:
		return set_irqs(arg);
	default:
		return fail(ENOTTY);
	}
}

static int f_ioctl(int fd, unsigned long request, void *arg)
{
	enum fake_ioctl k = which(request);
	int ret;

	pthread_mutex_lock(&lock);
	fake_counts.ioctl[k]++;
	ret = injected() ? -1 : do_ioctl(fd, k, arg);
	if (ret < 0)
		fake_counts.ioctl_failed[k]++;
	pthread_mutex_unlock(&lock);
	return ret;
}

/* pread/pwrite of the device file: the configuration space region only. */
static ssize_t config_rw(int fd, void *buf, size_t len, off_t off, bool write)
{
	struct fake_fd *f;
	uint64_t pos = (uint64_t)off & (REGION_OFFSET(1) - 1);
	size_t n;
	ssize_t ret;

	pthread_mutex_lock(&lock);
	if (write)
		fake_counts.config_writes++;
	else
		fake_counts.config_reads++;
	if (injected()) {
		ret = -1;
		goto out;
	}
	f = fd_of(fd);
	if (!f || (f->kind != FD_DEVICE && f->kind != FD_SYS_CONFIG)) {
		misuse("%s of fd %d, not a device", write ? "pwrite" : "pread", fd);
		ret = fail(EBADF);
		goto out;
	}
	/* sysfs's config file is the space alone, from offset 0; past its end, nothing. */
	if (f->kind == FD_SYS_CONFIG) {
		pos = (uint64_t)off;
		if (off < 0) {
			ret = fail(EINVAL);
			goto out;
		}
		/* The file is as long as the space: 256 bytes for a function without PCIe's. */
		if (pos >= (cfg.config_256 ? 256 : FAKE_CONFIG_SIZE)) {
			ret = 0;
			goto out;
		}
		if (write && cfg.lockdown && strstr(cfg.lockdown, "[integrity]")) {
			ret = fail(EPERM);
			goto out;
		}
	} else if (off < 0 || ((uint64_t)off >> REGION_SHIFT) != VFIO_PCI_CONFIG_REGION_INDEX ||
		   pos >= FAKE_CONFIG_SIZE) {
		ret = fail(EINVAL);
		goto out;
	}
	n = len < FAKE_CONFIG_SIZE - pos ? len : FAKE_CONFIG_SIZE - pos;
	if (f->kind == FD_SYS_CONFIG && cfg.config_256 && n > 256 - pos)
		n = 256 - pos;
	if (cfg.config_short && n)
		n--;
	for (size_t i = 0; i < n; i++) {
		if (!write)
			((uint8_t *)buf)[i] = config[pos + i];
		else if (pos + i >= 4) /* vendor and device IDs are read-only */
			config[pos + i] = ((const uint8_t *)buf)[i];
	}
	ret = (ssize_t)n;
out:
	pthread_mutex_unlock(&lock);
	return ret;
}

/* pread of sysfs's resource file (or the lockdown file): its text from @off. */
static ssize_t text_read(enum fd_kind kind, void *buf, size_t len, off_t off)
{
	char text[4096];
	size_t n;

	pthread_mutex_lock(&lock);
	if (kind == FD_SYS_RESOURCE)
		fake_counts.resource_reads++;
	if (injected()) {
		pthread_mutex_unlock(&lock);
		return -1;
	}
	if (kind == FD_SYS_RESOURCE)
		n = resource_text(text, sizeof(text));
	else
		n = (size_t)snprintf(text, sizeof(text), "%s\n", cfg.lockdown ? cfg.lockdown : "");
	pthread_mutex_unlock(&lock);
	if (off < 0)
		return fail(EINVAL);
	if ((size_t)off >= n)
		return 0;
	n -= (size_t)off;
	n = n < len ? n : len;
	memcpy(buf, text + off, n);
	return (ssize_t)n;
}

/* pwrite of sysfs's reset file: "1" resets the function (its configuration space here). */
static ssize_t reset_write(const void *buf, size_t len)
{
	ssize_t ret = (ssize_t)len;

	pthread_mutex_lock(&lock);
	if (injected())
		ret = -1;
	else if (!len || ((const char *)buf)[0] != '1')
		ret = fail(EINVAL);
	else if (cfg.reset_errno)
		ret = fail(cfg.reset_errno);
	else
		/* pci_reset_function() saves the space and restores it after: nothing to see here. */
		fake_counts.sysfs_resets++;
	pthread_mutex_unlock(&lock);
	return ret;
}

static ssize_t f_pread(int fd, void *buf, size_t len, off_t off)
{
	struct fake_fd *f;
	enum fd_kind kind;

	pthread_mutex_lock(&lock);
	f = fd_of(fd);
	kind = f ? f->kind : FD_CLOSED;
	pthread_mutex_unlock(&lock);
	if (kind == FD_PAGEMAP)
		return pagemap_read(buf, len, off);
	if (kind == FD_SYS_RESOURCE || kind == FD_LOCKDOWN)
		return text_read(kind, buf, len, off);
	return config_rw(fd, buf, len, off, false);
}

static ssize_t f_pwrite(int fd, const void *buf, size_t len, off_t off)
{
	struct fake_fd *f;
	bool reset;

	pthread_mutex_lock(&lock);
	f = fd_of(fd);
	reset = f && f->kind == FD_SYS_RESET;
	pthread_mutex_unlock(&lock);
	return reset ? reset_write(buf, len) : config_rw(fd, (void *)(uintptr_t)buf, len, off, true);
}

static void *f_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	struct fake_fd *f;
	void *m = MAP_FAILED;
	unsigned int slot;

	pthread_mutex_lock(&lock);
	if (injected())
		goto out;
	f = fd_of(fd);
	if (f && f->kind == FD_SYS_BAR2) {
		/* x86 maps no I/O port resource: pci_mmap_resource() says EINVAL. */
		misuse("mmap of resource2, an I/O BAR");
		errno = EINVAL;
		goto out;
	}
	if (!f || (f->kind != FD_DEVICE && f->kind != FD_SYS_BAR0)) {
		misuse("mmap of fd %d, not a device", fd);
		errno = EBADF;
		goto out;
	}
	if (f->kind == FD_SYS_BAR0 && cfg.resource0_mmap_errno) {
		errno = cfg.resource0_mmap_errno;
		goto out;
	}
	if (!(flags & MAP_SHARED))
		misuse("mmap of a BAR not MAP_SHARED");
	/* Only BAR0 is mmap-able (the region's MMAP flag); sysfs's resource0 from its start. */
	if ((uint64_t)off != (f->kind == FD_SYS_BAR0 ? 0 : REGION_OFFSET(VFIO_PCI_BAR0_REGION_INDEX)) ||
	    !len || len > FAKE_BAR0_SIZE) {
		errno = EINVAL;
		goto out;
	}
	for (slot = 0; slot < MAX_BAR_MAPS && bars[slot].addr; slot++)
		;
	if (slot == MAX_BAR_MAPS) {
		errno = ENOMEM;
		goto out;
	}
	m = mmap(addr, len, prot, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m != MAP_FAILED) {
		bars[slot] = (struct fake_bar_map){ m, len };
		fake_counts.bar_mmaps++;
	}
out:
	pthread_mutex_unlock(&lock);
	return m;
}

static int f_munmap(void *addr, size_t len)
{
	int ret = -1;

	pthread_mutex_lock(&lock);
	for (unsigned int i = 0; i < MAX_BAR_MAPS; i++) {
		if (bars[i].addr != addr)
			continue;
		if (len != bars[i].len)
			misuse("munmap of a BAR with %zu bytes, mapped %zu", len, bars[i].len);
		ret = munmap(addr, bars[i].len);
		bars[i].addr = NULL;
		fake_counts.bar_munmaps++;
		break;
	}
	if (ret) {
		misuse("munmap(%p) of nothing the fake mapped", addr);
		errno = EINVAL;
	}
	pthread_mutex_unlock(&lock);
	return ret;
}

static int f_flock(int fd, int operation)
{
	struct fake_fd *f;
	int ret = 0;

	pthread_mutex_lock(&lock);
	fake_counts.flocks++;
	if (injected()) {
		ret = -1;
		goto out;
	}
	f = fd_of(fd);
	if (!f || f->kind != FD_SYS_CONFIG) {
		misuse("flock of fd %d, not a config file", fd);
		ret = fail(EBADF);
	} else if (operation != (LOCK_EX | LOCK_NB)) {
		misuse("flock(%d) that may block, or is not exclusive", operation);
		ret = fail(EINVAL);
	} else if (cfg.sysfs_held) {
		ret = fail(EWOULDBLOCK); /* another process holds it */
	} else {
		f->flocked = true;
	}
out:
	pthread_mutex_unlock(&lock);
	return ret;
}

/* The function's vfio-dev directory lists its own file where the kernel makes one. */
static int f_dir_entry(const char *dir, const char *prefix, char *name, size_t len)
{
	char want[96], entry[32];
	int ret = 0;

	pthread_mutex_lock(&lock);
	fake_counts.dir_lists++;
	snprintf(want, sizeof(want), "/sys/bus/pci/devices/%s/vfio-dev", cfg_bdf);
	if (cfg.cdev_entry)
		snprintf(entry, sizeof(entry), "%s", cfg.cdev_entry);
	else
		snprintf(entry, sizeof(entry), "vfio%d", FAKE_CDEV);
	if (strcmp(dir, want) || !cfg.iommufd || cfg.no_function || cfg.no_group ||
	    strcmp(cfg_driver, "vfio-pci") || strncmp(entry, prefix, strlen(prefix)))
		ret = fail(ENOENT);
	else if (strlen(entry) >= len)
		ret = fail(ENAMETOOLONG);
	else
		memcpy(name, entry, strlen(entry) + 1);
	pthread_mutex_unlock(&lock);
	return ret;
}

static const struct dmamap_vfio_kernel fake_kernel = {
	.open = f_open,
	.close = f_close,
	.ioctl = f_ioctl,
	.pread = f_pread,
	.pwrite = f_pwrite,
	.mmap = f_mmap,
	.munmap = f_munmap,
	.readlink = f_readlink,
	.mlock = f_mlock,
	.munlock = f_munlock,
	.flock = f_flock,
	.dir_entry = f_dir_entry,
};

/* ---- installing, and what tests ask ----------------------------------------- */

void fake_vfio_install(const struct fake_vfio_cfg *c)
{
	/*
	 * The fake and the tests count in 4 KiB pages, as the IOMMU does; the
	 * library maps in host pages, which on a 16 or 64 KiB host are
	 * larger: there the tests would check a 4 KiB host's figures.
	 */
	if (host_page() != 4096)
		SKIP("the fake kernel models a 4 KiB-page host (this one has %zu-byte pages)",
		     host_page());
	pthread_mutex_lock(&lock);
	cfg = c ? *c : (struct fake_vfio_cfg){ 0 };
	snprintf(cfg_bdf, sizeof(cfg_bdf), "%s", cfg.bdf ? cfg.bdf : FAKE_BDF);
	snprintf(cfg_driver, sizeof(cfg_driver), "%s", cfg.driver ? cfg.driver : "vfio-pci");
	cfg.bdf = cfg_bdf;
	cfg.driver = cfg_driver;
	if (!cfg.group)
		cfg.group = FAKE_GROUP;
	memset(&fake_counts, 0, sizeof(fake_counts));
	fake_misuse[0] = last_readlink[0] = '\0';
	nfds = nmaps = 0;
	group_fd = -1;
	map_fail_countdown = call_fail_countdown = 0;
	call_fail_errno = 0;
	calls = 0;
	config_reset();
	if (msix_ready) {
		msix_off();
	} else {
		for (unsigned int i = 0; i < MSIX_MAX; i++)
			msix_fds[i] = msix_refs[i] = -1;
		msix_ready = true;
	}
	nlast = 0;
	nlocked = 0;
	pm_mode = cfg.pagemap;
	pm_absent = ~0ULL;
	mlock_err = cfg.mlock_errno;
	if (!installed)
		saved = dmamap__vfio_kernel;
	installed = true;
	dmamap__vfio_kernel = &fake_kernel;
	pthread_mutex_unlock(&lock);
}

void fake_vfio_remove(void)
{
	pthread_mutex_lock(&lock);
	for (unsigned int i = 0; i < MAX_BAR_MAPS; i++)
		if (bars[i].addr) {
			munmap(bars[i].addr, bars[i].len);
			bars[i].addr = NULL;
		}
	if (msix_ready)
		msix_off();
	if (installed)
		dmamap__vfio_kernel = saved;
	installed = false;
	pthread_mutex_unlock(&lock);
}

void fake_vfio_map_fail_in(long n)
{
	pthread_mutex_lock(&lock);
	map_fail_countdown = n;
	pthread_mutex_unlock(&lock);
}

void fake_vfio_fail_call_in(long n, int err)
{
	pthread_mutex_lock(&lock);
	call_fail_countdown = n;
	call_fail_errno = err;
	pthread_mutex_unlock(&lock);
}

unsigned long fake_vfio_calls(void)
{
	return calls;
}

unsigned int fake_vfio_open_fds(void)
{
	unsigned int n = 0;

	pthread_mutex_lock(&lock);
	for (unsigned int i = 0; i < nfds; i++)
		n += fds[i].kind != FD_CLOSED;
	pthread_mutex_unlock(&lock);
	return n;
}

bool fake_iommufd_attached(void)
{
	bool yes = false;

	pthread_mutex_lock(&lock);
	for (unsigned int i = 0; i < nfds; i++)
		yes |= fds[i].kind == FD_DEVICE && fds[i].cdev && fds[i].bound && fds[i].attached;
	pthread_mutex_unlock(&lock);
	return yes;
}

unsigned int fake_vfio_nr_mappings(void)
{
	return nmaps;
}

uint64_t fake_vfio_mapped_bytes(void)
{
	uint64_t n = 0;

	pthread_mutex_lock(&lock);
	for (unsigned int i = 0; i < nmaps; i++)
		n += maps[i].size;
	pthread_mutex_unlock(&lock);
	return n;
}

bool fake_vfio_mapping_at(uint64_t iova, uint64_t *map_iova, uint64_t *vaddr, uint64_t *size)
{
	bool found = false;

	pthread_mutex_lock(&lock);
	for (unsigned int i = 0; i < nmaps && !found; i++) {
		if (iova - maps[i].iova >= maps[i].size)
			continue;
		found = true;
		if (map_iova)
			*map_iova = maps[i].iova;
		if (vaddr)
			*vaddr = maps[i].vaddr;
		if (size)
			*size = maps[i].size;
	}
	pthread_mutex_unlock(&lock);
	return found;
}

bool fake_vfio_mapping_nth(unsigned int i, uint64_t *iova, uint64_t *vaddr, uint64_t *size)
{
	bool found;

	pthread_mutex_lock(&lock);
	found = i < nmaps;
	if (found) {
		if (iova)
			*iova = maps[i].iova;
		if (vaddr)
			*vaddr = maps[i].vaddr;
		if (size)
			*size = maps[i].size;
	}
	pthread_mutex_unlock(&lock);
	return found;
}

void *fake_vfio_bar0(void)
{
	for (unsigned int i = 0; i < MAX_BAR_MAPS; i++)
		if (bars[i].addr)
			return bars[i].addr;
	return NULL;
}

unsigned int fake_vfio_live_bar_maps(void)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < MAX_BAR_MAPS; i++)
		n += bars[i].addr != NULL;
	return n;
}

const uint8_t *fake_vfio_config(void)
{
	return config;
}

const char *fake_vfio_last_readlink(void)
{
	return last_readlink;
}

/* The mapping of an open container holding @iova with @prot, or NULL. */
static const struct fake_map *translate(uint64_t iova, uint32_t prot)
{
	for (unsigned int i = 0; i < nmaps; i++)
		if (iova - maps[i].iova < maps[i].size && (maps[i].prot & prot) == prot)
			return &maps[i];
	return NULL;
}

int fake_dma(uint64_t iova, void *buf, size_t len, bool write)
{
	uint32_t prot = write ? VFIO_DMA_MAP_FLAG_WRITE : VFIO_DMA_MAP_FLAG_READ;
	size_t done;

	pthread_mutex_lock(&lock);
	/* Every byte translates, or nothing moves. */
	for (done = 0; done < len;) {
		const struct fake_map *m = translate(iova + done, prot);
		uint64_t n;

		if (!m || iova + done < iova) {
			fake_counts.dma_faults++;
			pthread_mutex_unlock(&lock);
			return -EFAULT;
		}
		n = m->iova + m->size - (iova + done);
		done += n < len - done ? n : len - done;
	}
	for (done = 0; done < len;) {
		const struct fake_map *m = translate(iova + done, prot);
		uint8_t *va = (uint8_t *)(uintptr_t)(m->vaddr + (iova + done - m->iova));
		uint64_t n = m->iova + m->size - (iova + done);

		if (n > len - done)
			n = len - done;
		if (write)
			memcpy(va, (uint8_t *)buf + done, n);
		else
			memcpy((uint8_t *)buf + done, va, n);
		done += n;
	}
	fake_counts.dma_ok++;
	pthread_mutex_unlock(&lock);
	return 0;
}

bool fake_vfio_clean(char *why, size_t len)
{
	unsigned int fdn = fake_vfio_open_fds();

	if (fdn)
		snprintf(why, len, "%u files left open", fdn);
	else if (nmaps)
		snprintf(why, len, "%u mappings left in the IOMMU (first at IOVA 0x%llx)", nmaps,
			 (unsigned long long)maps[0].iova);
	else if (nlocked)
		snprintf(why, len, "%llu bytes left locked (%u ranges, the first at %#llx)",
			 (unsigned long long)fake_locked_bytes(), nlocked,
			 (unsigned long long)locked[0].start);
	else if (fake_vfio_live_bar_maps())
		snprintf(why, len, "%u BAR mappings left", fake_vfio_live_bar_maps());
	else if (fake_msix_enabled())
		snprintf(why, len, "MSI-X left on with %u vectors", fake_msix_enabled());
	else if (fake_counts.msix_off_at_close)
		snprintf(why, len, "MSI-X was still on when the function's file closed (%lu times)",
			 fake_counts.msix_off_at_close);
	else if (fake_counts.misuse)
		snprintf(why, len, "%lu calls the kernel refuses as misuse, the last: %s",
			 fake_counts.misuse, fake_misuse);
	else
		return true;
	return false;
}

int fake_msix_fire(unsigned int vector)
{
	unsigned long fired;
	int ret = 0;

	pthread_mutex_lock(&lock);
	if (vector >= msix_on) {
		ret = -EINVAL;
	} else if (msix_refs[vector] < 0) {
		ret = -ENOENT;
	} else {
		fired = fake_counts.msix_fired;
		msix_signal(vector);
		if (fake_counts.msix_fired == fired)
			ret = -EIO;
	}
	pthread_mutex_unlock(&lock);
	return ret;
}

unsigned int fake_msix_enabled(void)
{
	unsigned int n;

	pthread_mutex_lock(&lock);
	n = msix_on;
	pthread_mutex_unlock(&lock);
	return n;
}

int fake_msix_fd(unsigned int vector)
{
	int fd;

	pthread_mutex_lock(&lock);
	fd = vector < msix_on ? msix_fds[vector] : -1;
	pthread_mutex_unlock(&lock);
	return fd;
}

unsigned int fake_msix_last_fds(int *out, unsigned int max)
{
	unsigned int n;

	pthread_mutex_lock(&lock);
	n = nlast;
	for (unsigned int i = 0; i < n && i < max; i++)
		out[i] = last_fds[i];
	pthread_mutex_unlock(&lock);
	return n;
}

struct dmamap_platform *fake_platform(const struct fake_vfio_cfg *c, size_t arena, bool check,
				      struct device **dev)
{
	struct dmamap_vfio_options opt = { .arena_size = arena };

	return fake_platform_opt(c, &opt, check, dev);
}

struct dmamap_platform *fake_walk_point(const struct fake_vfio_cfg *c,
					const struct dmamap_vfio_options *opt, long k, bool *fired)
{
	struct dmamap_error err = { 0 };
	unsigned long before = dmamap_fault_injected(NULL);
	struct dmamap_platform *p;

	fake_vfio_install(c);
	dmamap_fault_inject(NULL, DMAMAP_FAULT_ALL, k);
	p = dmamap_platform_vfio(FAKE_BDF, opt, &err);
	*fired = dmamap_fault_injected(NULL) != before;
	dmamap_fault_inject(NULL, 0, 0);
	if (p) {
		quiet(p);
		return p;
	}
	CHECK_MSG(*fired, "point %ld: failed with nothing injected: %d %s", k, err.code, err.msg);
	CHECK_MSG(err.code == -ENOMEM, "point %ld: code %d (%s)", k, err.code, err.msg);
	CHECK_MSG(err.msg[0], "point %ld: no message", k);
	return NULL;
}

struct dmamap_platform *fake_platform_opt(const struct fake_vfio_cfg *c,
					  const struct dmamap_vfio_options *opt, bool check,
					  struct device **dev)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p;

	*dev = NULL;
	fake_vfio_install(c);
	p = dmamap_platform_vfio(FAKE_BDF, opt, &err);
	if (!p) {
		printf("#   dmamap_platform_vfio: %d %s\n", err.code, err.msg);
		return NULL;
	}
	if (check)
		checked(p);
	else
		quiet(p);
	*dev = dmamap_device_lookup(p, FAKE_BDF);
	if (!*dev)
		printf("#   no device %s on the VFIO platform\n", FAKE_BDF);
	return p;
}

/* ---- no IOMMU: what tests ask ------------------------------------------------ */

void fake_pagemap_mode(enum fake_pagemap mode)
{
	pthread_mutex_lock(&lock);
	pm_mode = mode;
	pthread_mutex_unlock(&lock);
}

void fake_pagemap_absent(const void *va)
{
	pthread_mutex_lock(&lock);
	pm_absent = va ? (uintptr_t)va & ~(host_pg() - 1) : ~0ULL;
	pthread_mutex_unlock(&lock);
}

void fake_mlock_errno(int err)
{
	pthread_mutex_lock(&lock);
	mlock_err = err;
	pthread_mutex_unlock(&lock);
}

uint64_t fake_phys_of(const void *va)
{
	uint64_t pfn;

	pthread_mutex_lock(&lock);
	pfn = pfn_of((uintptr_t)va, pm_mode);
	pthread_mutex_unlock(&lock);
	return pfn ? pfn * host_pg() + (uintptr_t)va % host_pg() : 0;
}

uint64_t fake_locked_bytes(void)
{
	uint64_t n = 0;

	pthread_mutex_lock(&lock);
	for (unsigned int i = 0; i < nlocked; i++)
		n += locked[i].end - locked[i].start;
	pthread_mutex_unlock(&lock);
	return n;
}

unsigned int fake_locked_ranges(void)
{
	return nlocked;
}

bool fake_locked_nth(unsigned int i, uint64_t *start, uint64_t *len)
{
	bool found;

	pthread_mutex_lock(&lock);
	found = i < nlocked;
	if (found) {
		*start = locked[i].start;
		*len = locked[i].end - locked[i].start;
	}
	pthread_mutex_unlock(&lock);
	return found;
}

bool fake_is_locked(const void *va, size_t len)
{
	uint64_t s, e;
	bool all = true;

	pthread_mutex_lock(&lock);
	if (!page_range(va, len, &s, &e))
		all = false;
	for (uint64_t a = s; all && a < e; a += host_pg())
		all = page_locked(a);
	pthread_mutex_unlock(&lock);
	return all;
}

/* The address of the byte at physical @pa, when its frame is one the fake gave and its page is locked. */
static uint8_t *phys_to_va(uint64_t pa)
{
	uint64_t va;

	if (!va_of_pfn(pa / host_pg(), &va) || !page_locked(va))
		return NULL;
	return (uint8_t *)(uintptr_t)(va + pa % host_pg());
}

int fake_dma_phys(uint64_t pa, void *buf, size_t len, bool write)
{
	const uint64_t pg = host_pg();
	size_t done, n;

	pthread_mutex_lock(&lock);
	/* Every page reachable, or nothing moves. */
	for (done = 0; done < len; done += n) {
		n = pg - (pa + done) % pg;
		n = n < len - done ? n : len - done;
		if (pa + done < pa || !phys_to_va(pa + done)) {
			fake_counts.phys_dma_faults++;
			pthread_mutex_unlock(&lock);
			return -EFAULT;
		}
	}
	for (done = 0; done < len; done += n) {
		uint8_t *va = phys_to_va(pa + done);

		n = pg - (pa + done) % pg;
		n = n < len - done ? n : len - done;
		if (write)
			memcpy(va, (const uint8_t *)buf + done, n);
		else
			memcpy((uint8_t *)buf + done, va, n);
	}
	fake_counts.phys_dma_ok++;
	pthread_mutex_unlock(&lock);
	return 0;
}

struct dmamap_vfio_stats vstats(struct device *dev)
{
	struct dmamap_vfio_stats st;

	if (dmamap_vfio_stats(dev, &st))
		memset(&st, 0xff, sizeof(st));
	return st;
}

void fake_platform_end(struct dmamap_platform *p)
{
	char why[256];

	dmamap_platform_destroy(p);
	CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "after destroy: %s", why);
	fake_vfio_remove();
}

bool fake_device_reads(uint64_t h, const void *want, size_t len)
{
	uint8_t *seen = malloc(len);
	bool ok = seen && fake_dma(h, seen, len, false) == 0 && !memcmp(seen, want, len);

	free(seen);
	return ok;
}
