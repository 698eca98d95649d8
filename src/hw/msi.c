/* SPDX-License-Identifier: MIT */
/*
 * A real function's MSI-X interrupts: the kernel signals one eventfd per
 * vector, a thread of the device's own waits on them all and runs the
 * handlers drivers installed with request_irq(), as a CPU takes the
 * interrupt in Linux. Handlers therefore never run on the driver's own
 * thread; synchronize_irq() and free_irq() wait for them as everywhere.
 * One more eventfd wakes the thread for what an enable_irq() or a new
 * handler let through, and to stop.
 */
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include "../lib/lib.h"
#include "../lib/mem.h"
#include "../platform/port.h"
#include "hw.h"

#define MSI_MAX 32

struct dmamap_msi {
	struct device *dev;
	unsigned int n;
	int fd[MSI_MAX];
	int kick;
	bool stop;
	pthread_t thread;
	uint64_t delivered, unhandled, signalled;
};

/* What an eventfd counted since it was last read: signals that came together are one interrupt. */
static uint64_t drain(int fd)
{
	uint64_t v, sum = 0;

	/* Non-blocking: a spurious wake reads nothing. */
	while (read(fd, &v, sizeof(v)) == (ssize_t)sizeof(v))
		sum += v;
	return sum;
}

static void *msi_thread(void *arg)
{
	struct dmamap_msi *m = arg;
	struct pollfd pfd[MSI_MAX + 1];

	for (unsigned int i = 0; i < m->n; i++)
		pfd[i] = (struct pollfd){ .fd = m->fd[i], .events = POLLIN };
	pfd[m->n] = (struct pollfd){ .fd = m->kick, .events = POLLIN };
	while (!__atomic_load_n(&m->stop, __ATOMIC_ACQUIRE)) {
		if (poll(pfd, m->n + 1, -1) < 0)
			continue;
		for (unsigned int i = 0; i < m->n; i++) {
			if (!(pfd[i].revents & POLLIN))
				continue;
			__atomic_fetch_add(&m->signalled, drain(m->fd[i]), __ATOMIC_RELAXED);
			dmamap__irq_fire(m->dev, i, &m->delivered, &m->unhandled);
		}
		if (pfd[m->n].revents & POLLIN) {
			drain(m->kick);
			/* No line fired: deliver only what was already pending. */
			dmamap__irq_fire(m->dev, m->n, &m->delivered, &m->unhandled);
		}
	}
	return NULL;
}

static void msi_free(struct dmamap_msi *m)
{
	for (unsigned int i = 0; i < m->n; i++)
		if (m->fd[i] >= 0)
			close(m->fd[i]);
	if (m->kick >= 0)
		close(m->kick);
	free(m);
}

int dmamap__msi_start(struct device *dev, unsigned int max)
{
	unsigned int n = dmamap__port_msix_count(dev->plat);
	struct dmamap_msi *m;
	int ret;

	/* Asked once (MIN evaluates its arguments twice): the kernel's answer is one number. */
	n = MIN(MIN(n, max), (unsigned int)MSI_MAX);
	if (!n)
		return 0; /* no MSI-X: a function its driver polls */
	m = dmamap__calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->dev = dev;
	m->kick = -1;
	for (unsigned int i = 0; i < MSI_MAX; i++)
		m->fd[i] = -1;
	for (m->n = 0; m->n < n; m->n++) {
		m->fd[m->n] = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (m->fd[m->n] < 0) {
			msi_free(m);
			return -ENOMEM;
		}
	}
	m->kick = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (m->kick < 0) {
		msi_free(m);
		return -ENOMEM;
	}
	dev->nr_msi = n;
	ret = dmamap__irq_alloc(dev);
	if (!ret) {
		ret = dmamap__port_msix_set(dev->plat, n, m->fd);
		if (!ret) {
			/* Set before the first interrupt can come: the scheduler never counts these lines. */
			dev->msi = m;
			ret = -pthread_create(&m->thread, NULL, msi_thread, m);
			if (ret) {
				dev->msi = NULL;
				dmamap__port_msix_set(dev->plat, 0, NULL);
			}
		}
		if (ret)
			dmamap__irq_release(dev);
	}
	if (ret) {
		dev->nr_msi = 0;
		msi_free(m);
		return ret;
	}
	return 0;
}

/* Wake the thread. A write fails only at the counter's limit, with the thread awake already. */
static void kick(struct dmamap_msi *m)
{
	uint64_t one = 1;

	if (write(m->kick, &one, sizeof(one)) < 0)
		return;
}

void dmamap__msi_stop(struct device *dev)
{
	struct dmamap_msi *m = dev->msi;

	if (!m)
		return;
	__atomic_store_n(&m->stop, true, __ATOMIC_RELEASE);
	kick(m);
	pthread_join(m->thread, NULL);
	dmamap__port_msix_set(dev->plat, 0, NULL);
	/* The numbers go after the thread: it may have been running a handler. */
	dmamap__irq_release(dev);
	dev->msi = NULL;
	dev->nr_msi = 0;
	msi_free(m);
}

void dmamap__msi_kick(struct device *dev)
{
	if (dev->msi)
		kick(dev->msi);
}

void dmamap__msi_stats(const struct device *dev, struct dmamap_msi_stats *st)
{
	const struct dmamap_msi *m = dev->msi;

	/* Delivered first: the unhandled it counts were added before it (irq.c). */
	st->delivered = m ? __atomic_load_n(&m->delivered, __ATOMIC_ACQUIRE) : 0;
	st->unhandled = m ? __atomic_load_n(&m->unhandled, __ATOMIC_RELAXED) : 0;
	st->signalled = m ? __atomic_load_n(&m->signalled, __ATOMIC_RELAXED) : 0;
}
