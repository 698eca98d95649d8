/* SPDX-License-Identifier: MIT */
/*
 * A function with no IOMMU in front of it, on a kernel without VFIO's
 * no-IOMMU mode (Debian builds none): root reaches it through sysfs, as
 * uio_pci_generic users and DPDK's IOVA-as-PA mode do. Its configuration
 * space is the config file, each memory BAR a resourceN file to map, its
 * reset a write to the reset file. Nothing delivers its interrupts this
 * way, so drivers poll; and nothing stops the device reaching any memory,
 * which is why the caller must have asked for unsafe_noiommu.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include "../../lib/lib.h"
#include "vfio.h"

#define K dmamap__vfio_kernel

/* IORESOURCE_MEM in the resource file's flags: a memory BAR (0x100 is I/O ports). */
#define RESOURCE_MEM 0x200
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
		if (!start && !end)
			continue;
		/* A whole 64-bit span has no size a u64 holds. */
		if (end < start || end - start == ~(u64)0)
			return false;
		b->offset = 0;
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

int dmamap__vfio_sysfs_open(struct dmamap_vfio *v, const char *driver, struct dmamap_error *err)
{
	char path[96];
	uint8_t probe;
	int e;

	if (!hands_off(driver)) {
		dmamap__set_error(err, -EBUSY,
				  "vfio: %s (no IOMMU) is driven by %s: unbind it first (docs/vfio.md: without an IOMMU)",
				  v->bdf, driver);
		return -EBUSY;
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
	v->config_offset = 0;
	/* PCI's 256 bytes, or PCIe's 4096 where the kernel reads past them. */
	v->config_size = K->pread(v->device, &probe, 1, 256) == 1 ? 4096 : 256;
	return read_resources(v, err);
}

void *dmamap__vfio_sysfs_bar(struct dmamap_vfio *v, unsigned int bar)
{
	char path[96], file[16];
	void *map;
	int fd;

	snprintf(file, sizeof(file), "resource%u", bar);
	sysfs_path(path, sizeof(path), v, file);
	fd = K->open(path, O_RDWR);
	if (fd < 0)
		return NULL;
	/* The mapping outlives the file. */
	map = K->mmap(NULL, (size_t)v->bars[bar].size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	K->close(fd);
	return map == MAP_FAILED ? NULL : map;
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
