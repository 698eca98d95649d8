/* SPDX-License-Identifier: MIT */
/*
 * Workloads for the example drivers, with every byte checked: what `dmamap
 * demo` runs on each device and what the tests and the seed sweep run.
 * Each one probes its driver on the device, moves data both ways, verifies
 * what arrived against what was sent, and removes the driver.
 */
#ifndef DMAMAP_DRIVERS_EXERCISE_H
#define DMAMAP_DRIVERS_EXERCISE_H

#include "blk_drv.h"
#include "memcpy_dma.h"
#include "nic_drv.h"

struct exercise_result {
	int probe_error;          /* the driver's probe failed with this */
	unsigned long units;      /* frames sent or requests/transfers made */
	unsigned long ok;         /* arrived with every byte right */
	unsigned long corrupted;  /* arrived with bytes wrong */
	unsigned long lost;       /* never arrived, or failed */
	unsigned long long bytes; /* payload bytes checked */
	unsigned long long wrong_bytes;
	unsigned long irqs;
};

/*
 * @frames frames of 60 to 1500 bytes in 1 to 3 fragments through the NIC
 * in loopback, each checked as it comes back. The RX consumer rewrites
 * the MAC addresses in place, as an XDP reflector does. 0, or the probe's
 * error.
 */
int exercise_nic(struct device *dev, unsigned int frames, enum nicdrv_bug bug,
		 uint64_t seed, struct exercise_result *r);

/*
 * @requests writes of 1 to 4 segments (512 B to 4 KiB each), each read
 * back into fresh buffers; the disk image and the buffers are checked.
 */
int exercise_blk(struct device *dev, unsigned int requests, enum blkdrv_bug bug,
		 uint64_t seed, struct exercise_result *r);

/* @transfers copies of 64 B to 64 KiB through the memcpy engine, single and sg. */
int exercise_memcpy(struct device *dev, unsigned int transfers, enum mcdma_bug bug,
		    uint64_t seed, struct exercise_result *r);

#endif
