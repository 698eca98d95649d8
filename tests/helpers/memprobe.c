/* SPDX-License-Identifier: MIT */
/*
 * The "memprobe" model, for tests of the memory-order model: a bus master
 * the test drives through registers. MP_ADDR and MP_LEN say where; a write
 * to MP_READ reads there at once, into MP_DATA; MP_WRITE writes MP_DATA
 * there, MP_WRITE_DESC too but as a descriptor whose ownership word (4
 * bytes) is at the offset written. MP_POLL_DESC arms a poll: at each step
 * the device fetches the descriptor (ownership word at the offset written,
 * owned when its bit 31 is set) until it owns one; MP_POLL_FIRST polls
 * until the first byte is not zero. MP_OWNED says what the last fetch saw.
 */
#include <stdlib.h>
#include <string.h>
#include <dmamap/model.h>
#include "../helpers.h"

struct memprobe {
	uint32_t addr, len, owned, polls;
	int poll_own;   /* -1: not polling descriptors */
	bool poll_first;
	uint8_t data[MP_DATA_MAX];
};

static int mp_probe(struct device *dev, void **priv)
{
	struct memprobe *m = calloc(1, sizeof(*m));

	(void)dev;
	if (!m)
		return -ENOMEM;
	m->poll_own = -1;
	*priv = m;
	return 0;
}

static void mp_remove(struct device *dev, void *priv)
{
	(void)dev;
	free(priv);
}

static bool mp_step(struct device *dev, void *priv)
{
	struct memprobe *m = priv;

	if (m->poll_own >= 0) {
		int owned = dmamap_device_read_desc(dev, m->addr, m->data, m->len,
						    (size_t)m->poll_own, 1u << 31, 1u << 31);

		m->polls++;
		m->owned = owned > 0;
		if (owned)
			m->poll_own = -1;
		return true;
	}
	if (m->poll_first) {
		m->polls++;
		if (!dmamap_device_read(dev, m->addr, m->data, m->len) && m->data[0])
			m->poll_first = false;
		return true;
	}
	return false;
}

static int mp_write(struct device *dev, void *priv, uint32_t reg, uint32_t val)
{
	struct memprobe *m = priv;

	if (reg >= MP_DATA && reg < MP_DATA + MP_DATA_MAX) {
		memcpy(m->data + (reg - MP_DATA), &val, 4);
		return 0;
	}
	switch (reg) {
	case MP_ADDR: m->addr = val; return 0;
	case MP_LEN: m->len = val <= MP_DATA_MAX ? val : MP_DATA_MAX; return 0;
	case MP_READ: return dmamap_device_read(dev, m->addr, m->data, m->len);
	case MP_WRITE: return dmamap_device_write(dev, m->addr, m->data, m->len);
	case MP_WRITE_DESC: return dmamap_device_write_desc(dev, m->addr, m->data, m->len, val, 4);
	case MP_POLL_DESC: m->poll_own = (int)val; m->polls = 0; return 0;
	case MP_POLL_FIRST: m->poll_first = true; m->polls = 0; return 0;
	}
	return -EINVAL;
}

static int mp_read(struct device *dev, void *priv, uint32_t reg, uint32_t *val)
{
	struct memprobe *m = priv;

	(void)dev;
	if (reg >= MP_DATA && reg < MP_DATA + MP_DATA_MAX) {
		memcpy(val, m->data + (reg - MP_DATA), 4);
		return 0;
	}
	switch (reg) {
	case MP_OWNED: *val = m->owned; return 0;
	case MP_POLLS: *val = m->polls; return 0;
	}
	return -EINVAL;
}

static const struct dmamap_device_model memprobe = {
	.name = "memprobe",
	.probe = mp_probe,
	.remove = mp_remove,
	.mmio_read = mp_read,
	.mmio_write = mp_write,
	.step = mp_step,
};

struct device *add_memprobe_on(struct dmamap_platform *p, const char *name, bool coherent,
				const char *iommu)
{
	struct dmamap_device_desc d = { .name = name, .model = "memprobe",
					.dma_mask = DMA_BIT_MASK(32), .coherent = coherent,
					.iommu = iommu };
	int ret = dmamap_model_register(&memprobe);

	if (ret && ret != -EEXIST)
		return NULL;
	return new_device(p, &d);
}

struct device *add_memprobe(struct dmamap_platform *p, const char *name, bool coherent)
{
	return add_memprobe_on(p, name, coherent, NULL);
}
