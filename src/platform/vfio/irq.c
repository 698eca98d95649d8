/* SPDX-License-Identifier: MIT */
/*
 * The function's MSI-X vectors as eventfds: the kernel signals one per
 * interrupt; hw/ waits on them and runs the handlers drivers installed.
 */
#include <sys/ioctl.h>
#include <linux/vfio.h>
#include "../../lib/lib.h"
#include "../../lib/mem.h"
#include "vfio.h"

#define K dmamap__vfio_kernel

unsigned int dmamap__vfio_msix_count(struct dmamap_vfio *v)
{
	struct vfio_irq_info info = { .argsz = sizeof(info), .index = VFIO_PCI_MSIX_IRQ_INDEX };

	/* sysfs delivers no interrupt: the driver polls. */
	if (v->sysfs || K->ioctl(v->device, VFIO_DEVICE_GET_IRQ_INFO, &info) < 0 ||
	    !(info.flags & VFIO_IRQ_INFO_EVENTFD))
		return 0;
	return info.count;
}

int dmamap__vfio_msix_set(struct dmamap_vfio *v, unsigned int n, const int *fds)
{
	size_t len = sizeof(struct vfio_irq_set) + (size_t)n * sizeof(int32_t);
	struct vfio_irq_set *set;
	int ret = 0;

	if (v->sysfs)
		return n ? -EOPNOTSUPP : 0;
	set = dmamap__calloc(1, len);
	if (!set)
		return -ENOMEM;
	set->argsz = (uint32_t)len;
	set->index = VFIO_PCI_MSIX_IRQ_INDEX;
	set->start = 0;
	set->count = n;
	/* No count and no data: every vector torn down, MSI-X off. */
	set->flags = n ? VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER :
			 VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_TRIGGER;
	if (n)
		memcpy(set->data, fds, (size_t)n * sizeof(int32_t));
	if (K->ioctl(v->device, VFIO_DEVICE_SET_IRQS, set) < 0)
		ret = -(errno ? errno : EIO);
	free(set);
	return ret;
}
