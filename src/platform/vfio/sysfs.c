/* SPDX-License-Identifier: MIT */
/*
 * A function with no IOMMU in front of it, on a kernel without VFIO's
 * no-IOMMU mode (Debian builds none): root reaches it through sysfs, as
 * uio_pci_generic users and DPDK's IOVA-as-PA mode do. Its configuration
 * space is the config file, each memory BAR a resourceN file to map, its
 * reset a write to the reset file. Nothing delivers its interrupts this
 * way, so drivers poll; and nothing stops the device reaching any memory,
 * which is why the caller must have asked for unsafe_noiommu.
 *
 * What vfio-pci does for its user is done here too where it matters: the
 * config file is held locked, so a second process does not drive the
 * function as well; and bus mastering is turned off at the end, so a
 * device left running does not write into pages the process gave back.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/mman.h>
#include "../../lib/lib.h"
#include "vfio.h"

#define K dmamap__vfio_kernel

/* The resource file's flags: a memory BAR (0x100 is I/O ports); no address assigned; off. */
#define RESOURCE_MEM 0x200
#define RESOURCE_UNSET 0x20000000
#define RESOURCE_DISABLED 0x10000000
#define PCI_COMMAND 0x04
#define PCI_COMMAND_MASTER 0x4
/* Enough for the six BARs' lines and the others the kernel writes after them. */
#define RESOURCE_TEXT 2048

/*
 * Drivers that leave the function to user space: pci-stub holds it for
 * nobody, uio_pci_generic only forwards its legacy interrupt.
 */
static bool hands_off(const char *driver)
{
	return !driver[0] || !strcmp(driver, "uio_pci_generic") || !strcmp(driver, "pci-stub");
}

static void sysfs_path(char *out, size_t len, const struct dmamap_vfio *v, const char *file)
{
	snprintf(out, len, "/sys/bus/pci/devices/%s/%s", v->bdf, file);
}

/* "0x" and 1 to 16 hex digits at *@s, then @sep: true and *@out, @s past @sep. */
static bool hex_u64(const char **s, char sep, u64 *out)
{
	const char *p = *s;
	unsigned int digits = 0;
	u64 v = 0;

	if (p[0] != '0' || p[1] != 'x')
		return false;
	for (p += 2; digits <= 16; p++, digits++) {
		char c = *p;
		int d = c >= '0' && c <= '9' ? c - '0' :
			c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (d < 0)
			break;
		v = v << 4 | (u64)d;
	}
	if (!digits || digits > 16 || *p != sep)
		return false;
	*s = p + 1;
	*out = v;
	return true;
}

/*
 * The six BARs from the resource file's first six lines, "start end
 * flags" in hex: a BAR the function lacks is all zeros. False for text
 * the kernel does not write.
 */
static bool parse_resources(struct dmamap_vfio *v, const char *text)
{
	for (unsigned int i = 0; i < VFIO_MAX_BARS; i++) {
		struct dmamap_vfio_bar *b = &v->bars[i];
		u64 start, end, flags;

		if (!hex_u64(&text, ' ', &start) || !hex_u64(&text, ' ', &end) ||
		    !hex_u64(&text, '\n', &flags))
			return false;
		/* No BAR; or one the firmware never placed, or that is switched off. */
		if ((!start && !end) || !flags || (flags & (RESOURCE_UNSET | RESOURCE_DISABLED)))
			continue;
		/* A whole 64-bit span has no size a u64 holds. */
		if (end < start || end - start == ~(u64)0)
			return false;
		/* The kernel maps from the page the BAR starts in: a small BAR may start inside it. */
		b->offset = start & (dmamap__host_page_size() - 1);
		b->size = end - start + 1;
		b->mmio = flags & RESOURCE_MEM;
		b->mappable = b->mmio;
	}
	return true;
}

static int read_resources(struct dmamap_vfio *v, struct dmamap_error *err)
{
	char path[96], text[RESOURCE_TEXT];
	ssize_t n;
	int fd, e;

	sysfs_path(path, sizeof(path), v, "resource");
	fd = K->open(path, O_RDONLY);
	if (fd < 0) {
		e = errno ? errno : EIO;
		dmamap__set_error(err, -e, "vfio: %s: %s", path, strerror(e));
		return -e;
	}
	n = K->pread(fd, text, sizeof(text) - 1, 0);
	e = errno ? errno : EIO;
	K->close(fd);
	if (n < 0) {
		dmamap__set_error(err, -e, "vfio: %s: %s", path, strerror(e));
		return -e;
	}
	text[n] = '\0';
	if (!parse_resources(v, text)) {
		dmamap__set_error(err, -EIO, "vfio: %s is not six lines of \"0xstart 0xend 0xflags\"",
				  path);
		return -EIO;
	}
	return 0;
}

/*
 * Whether the kernel is locked down (Secure Boot): it then refuses BAR
 * mappings and configuration writes through sysfs, which would otherwise
 * surface only as a NULL BAR and -EPERM later.
 */
static bool locked_down(void)
{
	char text[128];
	ssize_t n;
	int fd = K->open("/sys/kernel/security/lockdown", O_RDONLY);

	if (fd < 0)
		return false; /* no lockdown support, no securityfs: not locked */
	n = K->pread(fd, text, sizeof(text) - 1, 0);
	K->close(fd);
	if (n <= 0)
		return false;
	text[n] = '\0';
	/* "[none] integrity confidentiality": the bracketed word is in force. */
	return !strstr(text, "[none]") && strchr(text, '[');
}

int dmamap__vfio_sysfs_open(struct dmamap_vfio *v, const char *driver, struct dmamap_error *err)
{
	char path[96];
	uint8_t probe;
	ssize_t n;
	int e;

	if (!hands_off(driver)) {
		dmamap__set_error(err, -EBUSY,
				  "vfio: %s (no IOMMU) is driven by %s: unbind it first (docs/vfio.md: without an IOMMU)",
				  v->bdf, driver);
		return -EBUSY;
	}
	if (locked_down()) {
		dmamap__set_error(err, -EPERM,
				  "vfio: %s: the kernel is locked down (Secure Boot): sysfs gives no BARs and takes no configuration writes",
				  v->bdf);
		return -EPERM;
	}
	v->sysfs = true;
	sysfs_path(path, sizeof(path), v, "config");
	v->device = K->open(path, O_RDWR);
	if (v->device < 0) {
		e = errno ? errno : EIO;
		dmamap__set_error(err, -e, "vfio: %s: %s%s", path, strerror(e),
				  e == EACCES || e == EPERM ? " (root only)" : "");
		return -e;
	}
	/* One holder, as a VFIO group has: a lock on the config file (released with it). */
	if (K->flock(v->device, LOCK_EX | LOCK_NB)) {
		e = errno ? errno : EIO;
		if (e == EWOULDBLOCK)
			e = EBUSY;
		dmamap__set_error(err, -e, "vfio: %s: %s%s", path, strerror(e),
				  e == EBUSY ? " (another process holds the function)" : "");
		return -e;
	}
	v->config_offset = 0;
	/* PCI's 256 bytes, or PCIe's 4096 where the file reads past them. */
	n = K->pread(v->device, &probe, 1, 256);
	if (n < 0) {
		e = errno ? errno : EIO;
		dmamap__set_error(err, -e, "vfio: %s: %s", path, strerror(e));
		return -e;
	}
	v->config_size = n == 1 ? 4096 : 256;
	return read_resources(v, err);
}

void dmamap__vfio_sysfs_release(struct dmamap_vfio *v)
{
	uint16_t cmd;

	if (K->pread(v->device, &cmd, 2, PCI_COMMAND) == 2 && (cmd & PCI_COMMAND_MASTER)) {
		cmd &= (uint16_t)~PCI_COMMAND_MASTER;
		K->pwrite(v->device, &cmd, 2, PCI_COMMAND);
	}
}

/* The whole pages the kernel maps for BAR @bar: from the one it starts in. */
static u64 bar_map_len(const struct dmamap_vfio *v, unsigned int bar)
{
	u64 page = dmamap__host_page_size();

	return (v->bars[bar].offset + v->bars[bar].size + page - 1) & ~(page - 1);
}

void *dmamap__vfio_sysfs_bar(struct dmamap_vfio *v, unsigned int bar)
{
	char path[96], file[16];
	void *map;
	int fd;

	if (bar_map_len(v, bar) > SIZE_MAX)
		return NULL;
	snprintf(file, sizeof(file), "resource%u", bar);
	sysfs_path(path, sizeof(path), v, file);
	fd = K->open(path, O_RDWR);
	if (fd < 0)
		return NULL;
	/* The mapping outlives the file. */
	map = K->mmap(NULL, (size_t)bar_map_len(v, bar), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	K->close(fd);
	return map == MAP_FAILED ? NULL : (uint8_t *)map + v->bars[bar].offset;
}

void dmamap__vfio_sysfs_unmap_bar(struct dmamap_vfio *v, unsigned int bar)
{
	K->munmap((uint8_t *)v->bars[bar].map - v->bars[bar].offset, (size_t)bar_map_len(v, bar));
}

int dmamap__vfio_sysfs_reset(struct dmamap_vfio *v)
{
	char path[96];
	ssize_t n;
	int fd, e;

	sysfs_path(path, sizeof(path), v, "reset");
	fd = K->open(path, O_WRONLY);
	if (fd < 0)
		/* The kernel makes the file only for a function it knows a way to reset. */
		return errno == ENOENT ? -ENOTTY : -(errno ? errno : EIO);
	n = K->pwrite(fd, "1", 1, 0);
	e = errno ? errno : EIO;
	K->close(fd);
	return n == 1 ? 0 : -e;
}
