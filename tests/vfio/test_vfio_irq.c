/* SPDX-License-Identifier: MIT */
/*
 * A PCI function's MSI-X interrupts on the VFIO platform, against the
 * fake kernel (fake_kernel.h): its first 32 vectors are interrupt lines,
 * each an eventfd the kernel signals (fake_msix_fire()); the platform's
 * own thread runs the handlers drivers installed with request_irq(),
 * never the test's thread. Counted in dmamap_vfio_stats(); held while
 * disabled; free_irq(), synchronize_irq() and disable_irq() wait for a
 * running handler; shared lines; a function without MSI-X is polled; a
 * refusal of the kernel fails the platform and leaves nothing behind;
 * destruction turns MSI-X off and closes every eventfd, reporting a
 * handler left installed. Two walks: every failure point of the library,
 * then every refusal of the kernel, over a platform with MSI-X.
 *
 * Every test whose handler runs on the platform's interrupt thread has
 * "thread" in its name, so that the TSan run (`dmamap-tests thread`)
 * takes it. Waits are condition variables or polls with a deadline; a
 * check that something did NOT happen comes after a fence: a message on
 * the highest vector, whose handler runs only after the thread has dealt
 * with every earlier message.
 *
 * Some tests started as vfio_bug_* and keep a note of the bug they caught.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <linux/vfio.h>
#include <dmamap/interrupt.h>
#include <dmamap/io.h>
#include "../helpers.h"
#include "../../src/lib/mem.h"
#include "../../src/platform/vfio/vfio.h"
#include "fake_kernel.h"

#define ARENA (1ULL << 20)
#define LINES 32        /* the vectors that are lines */
#define FENCE (LINES - 1)
#define WAIT_MS 10000   /* a generous deadline: TSan and a loaded machine */

static pthread_t test_thread;
/* A wait reached its deadline: the next ones do not wait again (a broken thread fails fast). */
static bool stalled;
static unsigned int eventfds0; /* the process's eventfds before the platform */

/* ---- a handler that says what it saw ----------------------------------------- */

struct probe {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	const char *name;
	irqreturn_t answer;
	unsigned int sleep_ms;   /* sleep so long before returning */
	bool hold;               /* wait for release first (then sleep_ms) */
	bool release;
	unsigned int calls, running, finished;
	int irq;                 /* of the last call */
	void *dev_id;            /* of the last call */
	bool on_test_thread;     /* some call ran on the test's thread */
	bool not_in_interrupt;   /* some call saw in_interrupt() false */
	bool irqs_on;            /* some call saw irqs_disabled() false */
	bool disable_own;        /* disable_irq() its own line (once) */
};

static void probe_init(struct probe *pr, const char *name, irqreturn_t answer)
{
	*pr = (struct probe){ .name = name, .answer = answer };
	pthread_mutex_init(&pr->lock, NULL);
	pthread_cond_init(&pr->cond, NULL);
}

static void probe_fini(struct probe *pr)
{
	pthread_mutex_destroy(&pr->lock);
	pthread_cond_destroy(&pr->cond);
}

static void deadline(struct timespec *ts, unsigned int ms)
{
	clock_gettime(CLOCK_REALTIME, ts);
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

static irqreturn_t probe_handler(int irq, void *dev_id)
{
	struct probe *pr = dev_id;
	irqreturn_t answer;
	bool disable;

	pthread_mutex_lock(&pr->lock);
	pr->calls++;
	pr->running++;
	pr->irq = irq;
	pr->dev_id = dev_id;
	pr->on_test_thread |= pthread_equal(pthread_self(), test_thread) != 0;
	pr->not_in_interrupt |= !in_interrupt();
	pr->irqs_on |= !irqs_disabled();
	disable = pr->disable_own;
	pr->disable_own = false;
	pthread_cond_broadcast(&pr->cond);
	if (pr->hold) {
		struct timespec ts;

		deadline(&ts, WAIT_MS);
		while (!pr->release && pthread_cond_timedwait(&pr->cond, &pr->lock, &ts) == 0)
			;
	}
	pthread_mutex_unlock(&pr->lock);
	/* A handler may disable its own line: disable_irq() does not wait for itself. */
	if (disable)
		disable_irq((unsigned int)irq);
	if (pr->sleep_ms)
		sleep_ms(pr->sleep_ms);
	pthread_mutex_lock(&pr->lock);
	pr->running--;
	pr->finished++;
	answer = pr->answer;
	pthread_cond_broadcast(&pr->cond);
	pthread_mutex_unlock(&pr->lock);
	return answer;
}

/* Wait until *@field (of @pr, under its lock) reaches @n: true, or false at the deadline. */
static bool probe_wait(struct probe *pr, const unsigned int *field, unsigned int n)
{
	struct timespec ts;
	bool ok;

	deadline(&ts, stalled ? 0 : WAIT_MS);
	pthread_mutex_lock(&pr->lock);
	while (*field < n && pthread_cond_timedwait(&pr->cond, &pr->lock, &ts) == 0)
		;
	ok = *field >= n;
	pthread_mutex_unlock(&pr->lock);
	stalled |= !ok;
	return ok;
}

static unsigned int probe_get(struct probe *pr, const unsigned int *field)
{
	unsigned int v;

	pthread_mutex_lock(&pr->lock);
	v = *field;
	pthread_mutex_unlock(&pr->lock);
	return v;
}

static void probe_set_answer(struct probe *pr, irqreturn_t answer)
{
	pthread_mutex_lock(&pr->lock);
	pr->answer = answer;
	pthread_mutex_unlock(&pr->lock);
}

static void probe_release(struct probe *pr)
{
	pthread_mutex_lock(&pr->lock);
	pr->release = true;
	pthread_cond_broadcast(&pr->cond);
	pthread_mutex_unlock(&pr->lock);
}

#define CALLS(pr) probe_get(pr, &(pr)->calls)
#define WAIT_CALLS(pr, n) probe_wait(pr, &(pr)->calls, n)
#define WAIT_FINISHED(pr, n) probe_wait(pr, &(pr)->finished, n)

/* Every call of @pr ran where a handler of the msi thread runs: not here, in interrupt context. */
#define CHECK_ON_IRQ_THREAD(pr)                                                          \
	do {                                                                             \
		CHECK_MSG(!(pr)->on_test_thread, "%s ran on the test's thread", (pr)->name); \
		CHECK_MSG(!(pr)->not_in_interrupt, "%s: in_interrupt() false", (pr)->name);  \
		CHECK_MSG(!(pr)->irqs_on, "%s: irqs_disabled() false", (pr)->name);          \
	} while (0)

/* ---- the platform ----------------------------------------------------------------- */

static struct dmamap_platform *start(const struct fake_vfio_cfg *cfg, struct device **dev)
{
	test_thread = pthread_self();
	eventfds0 = fake_eventfds_open();
	return fake_platform(cfg, ARENA, true, dev);
}

/* dmamap_vfio_stats() until it shows @signalled and @delivered at least; false at the deadline. */
static bool wait_stats(struct device *dev, uint64_t signalled, uint64_t delivered)
{
	for (unsigned int ms = 0;; ms++) {
		struct dmamap_vfio_stats st = vstats(dev);

		if (st.irqs_signalled >= signalled && st.irqs_delivered >= delivered)
			return true;
		if (stalled || ms >= WAIT_MS)
			break;
		sleep_ms(1);
	}
	stalled = true;
	return false;
}

/*
 * A message on the highest line, whose handler @f counts: once it ran, the
 * thread has dealt with every message sent before it (the lines are taken
 * in order, the fence last).
 */
static bool fence(struct probe *f)
{
	unsigned int n = CALLS(f) + 1;

	return fake_msix_fire(FENCE) == 0 && WAIT_CALLS(f, n);
}

/* The platform destroyed: nothing open, mapped or on in the fake, every eventfd closed. */
static void end(struct dmamap_platform *p)
{
	char why[256];

	cur_p = NULL;
	rec_reset();
	dmamap_platform_destroy(p);
	EXPECT_NO_REPORTS();
	CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "after destroy: %s", why);
	CHECK_EQ(fake_eventfds_open(), eventfds0);
	fake_vfio_remove();
}

static int line(struct device *dev, unsigned int v)
{
	return dmamap_device_irq(dev, v);
}

/* ---- the fake kernel's MSI-X itself ------------------------------------------------ */

#define K dmamap__vfio_kernel

/* VFIO_DEVICE_SET_IRQS of MSI-X through the table: 0 or -errno. */
static int set_irqs(int dev_fd, uint32_t flags, uint32_t start, uint32_t count, const void *data,
		    size_t len)
{
	uint8_t buf[sizeof(struct vfio_irq_set) + 64 * sizeof(int32_t)] = { 0 };
	struct vfio_irq_set *set = (struct vfio_irq_set *)buf;

	set->argsz = (uint32_t)(sizeof(*set) + len);
	set->flags = flags;
	set->index = VFIO_PCI_MSIX_IRQ_INDEX;
	set->start = start;
	set->count = count;
	if (len)
		memcpy(set->data, data, len);
	return K->ioctl(dev_fd, VFIO_DEVICE_SET_IRQS, set) ? -errno : 0;
}

/*
 * The rules the other tests rely on, each the real kernel's
 * (vfio_pci_core.c, vfio_pci_intrs.c): what GET_IRQ_INFO says, what
 * SET_IRQS refuses, what a message does, and the function's close
 * turning MSI-X off.
 */
TEST(vfio_irq_fake_kernel_msix_rules)
{
	const uint32_t trig = VFIO_IRQ_SET_ACTION_TRIGGER;
	struct vfio_irq_info info = { .argsz = sizeof(info), .index = VFIO_PCI_MSIX_IRQ_INDEX };
	struct fake_vfio_cfg cfg = { .msix_vectors = 8 };
	int c, g, d, efd[3], notev, closed;
	uint64_t v;

	fake_vfio_install(&cfg);
	c = K->open("/dev/vfio/vfio", O_RDWR);
	g = K->open("/dev/vfio/12", O_RDWR);
	REQUIRE(c >= 0 && g >= 0 && K->ioctl(g, VFIO_GROUP_SET_CONTAINER, &c) == 0 &&
		K->ioctl(c, VFIO_SET_IOMMU, (void *)(uintptr_t)VFIO_TYPE1v2_IOMMU) == 0);
	d = K->ioctl(g, VFIO_GROUP_GET_DEVICE_FD, (void *)FAKE_BDF);
	REQUIRE(d >= 0);

	/* GET_IRQ_INFO: eventfds, the count; a short argsz or an index past the last refused. */
	CHECK_EQ(K->ioctl(d, VFIO_DEVICE_GET_IRQ_INFO, &info), 0);
	CHECK_EQ(info.count, 8);
	CHECK(info.flags & VFIO_IRQ_INFO_EVENTFD);
	info.argsz = 8;
	CHECK(K->ioctl(d, VFIO_DEVICE_GET_IRQ_INFO, &info) < 0 && errno == EINVAL);
	info = (struct vfio_irq_info){ .argsz = sizeof(info), .index = VFIO_PCI_NUM_IRQS };
	CHECK(K->ioctl(d, VFIO_DEVICE_GET_IRQ_INFO, &info) < 0 && errno == EINVAL);
	info = (struct vfio_irq_info){ .argsz = sizeof(info), .index = VFIO_PCI_MSIX_IRQ_INDEX };
	CHECK(K->ioctl(c, VFIO_DEVICE_GET_IRQ_INFO, &info) < 0); /* the container's file */

	for (unsigned int i = 0; i < 3; i++)
		efd[i] = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	notev = open("/dev/null", O_RDONLY | O_CLOEXEC);
	closed = open("/dev/null", O_RDONLY | O_CLOEXEC);
	REQUIRE(efd[0] >= 0 && efd[1] >= 0 && efd[2] >= 0 && notev >= 0 && closed >= 0);
	close(closed);

	/* Off: turning it off, or signalling, is refused. */
	CHECK_EQ(set_irqs(d, VFIO_IRQ_SET_DATA_NONE | trig, 0, 0, NULL, 0), -EINVAL);
	CHECK_EQ(set_irqs(d, VFIO_IRQ_SET_DATA_NONE | trig, 0, 1, NULL, 0), -EINVAL);
	CHECK_EQ(fake_msix_fire(0), -EINVAL);
	/* Past the vectors, data shorter than the count, two data types, mask: refused. */
	CHECK_EQ(set_irqs(d, VFIO_IRQ_SET_DATA_EVENTFD | trig, 7, 2, efd, 2 * sizeof(int)), -EINVAL);
	CHECK_EQ(set_irqs(d, VFIO_IRQ_SET_DATA_EVENTFD | trig, 0, 3, efd, 2 * sizeof(int)), -EINVAL);
	CHECK_EQ(set_irqs(d, VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_DATA_BOOL | trig, 0, 1, efd,
			  sizeof(int)), -EINVAL);
	CHECK_EQ(set_irqs(d, VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_MASK, 0, 1, efd,
			  sizeof(int)), -ENOTTY);
	/* A file that is no eventfd, or none at all: refused, nothing left on. */
	{
		int bad[2] = { efd[0], notev }, gone[2] = { efd[0], closed };

		CHECK_EQ(set_irqs(d, VFIO_IRQ_SET_DATA_EVENTFD | trig, 0, 2, bad, sizeof(bad)), -EINVAL);
		CHECK_EQ(set_irqs(d, VFIO_IRQ_SET_DATA_EVENTFD | trig, 0, 2, gone, sizeof(gone)), -EBADF);
	}
	CHECK_EQ(fake_msix_enabled(), 0);
	CHECK_EQ(fake_counts.msix_enables, 0);

	/* On with three vectors, the middle one without an eventfd. */
	{
		int fds[3] = { efd[0], -1, efd[2] };

		CHECK_EQ(set_irqs(d, VFIO_IRQ_SET_DATA_EVENTFD | trig, 0, 3, fds, sizeof(fds)), 0);
	}
	CHECK_EQ(fake_msix_enabled(), 3);
	CHECK_EQ(fake_msix_fd(0), efd[0]);
	CHECK_EQ(fake_msix_fd(1), -1);
	CHECK_EQ(fake_msix_fire(1), -ENOENT);
	CHECK_EQ(fake_msix_fire(3), -EINVAL);
	/* A message is 1 on the vector's eventfd; two add up. */
	CHECK_EQ(fake_msix_fire(2), 0);
	CHECK_EQ(fake_msix_fire(2), 0);
	CHECK(read(efd[2], &v, sizeof(v)) == sizeof(v) && v == 2);
	CHECK(read(efd[0], &v, sizeof(v)) < 0 && errno == EAGAIN);
	/* The kernel holds the eventfd: the library's close does not stop the message. */
	{
		int dup0 = dup(efd[0]);

		REQUIRE(dup0 >= 0);
		close(efd[0]);
		CHECK_EQ(fake_msix_fire(0), 0);
		CHECK(read(dup0, &v, sizeof(v)) == sizeof(v) && v == 1);
		efd[0] = dup0;
	}
	/* Loopback: DATA_NONE with a count signals those vectors. */
	CHECK_EQ(set_irqs(d, VFIO_IRQ_SET_DATA_NONE | trig, 2, 1, NULL, 0), 0);
	CHECK(read(efd[2], &v, sizeof(v)) == sizeof(v) && v == 1);
	/* A second enable on vectors already on swaps their eventfds. */
	CHECK_EQ(set_irqs(d, VFIO_IRQ_SET_DATA_EVENTFD | trig, 1, 1, &efd[1], sizeof(int)), 0);
	CHECK_EQ(fake_msix_fd(1), efd[1]);
	CHECK_EQ(fake_counts.msix_enables, 1);
	/* Off: every vector's eventfd let go, messages refused. */
	CHECK_EQ(set_irqs(d, VFIO_IRQ_SET_DATA_NONE | trig, 0, 0, NULL, 0), 0);
	CHECK_EQ(fake_msix_enabled(), 0);
	CHECK_EQ(fake_counts.msix_disables, 1);
	CHECK_EQ(fake_msix_fire(0), -EINVAL);

	/* On again, then the function's file closed: that turns MSI-X off. */
	CHECK_EQ(set_irqs(d, VFIO_IRQ_SET_DATA_EVENTFD | trig, 0, 1, efd, sizeof(int)), 0);
	K->close(d);
	CHECK_EQ(fake_counts.msix_off_at_close, 1);
	CHECK_EQ(fake_msix_enabled(), 0);
	K->close(g);
	K->close(c);
	{
		char why[256];

		CHECK_MSG(!fake_vfio_clean(why, sizeof(why)) && strstr(why, "MSI-X"),
			  "MSI-X left for the close to turn off is not clean: '%s'", why);
	}
	for (unsigned int i = 0; i < 3; i++)
		close(efd[i]);
	close(notev);
	fake_vfio_remove();

	/* The kernel's refusal, as configured. */
	cfg = (struct fake_vfio_cfg){ .msix_errno = ENOSPC };
	fake_vfio_install(&cfg);
	c = K->open("/dev/vfio/vfio", O_RDWR);
	g = K->open("/dev/vfio/12", O_RDWR);
	REQUIRE(K->ioctl(g, VFIO_GROUP_SET_CONTAINER, &c) == 0 &&
		K->ioctl(c, VFIO_SET_IOMMU, (void *)(uintptr_t)VFIO_TYPE1v2_IOMMU) == 0);
	d = K->ioctl(g, VFIO_GROUP_GET_DEVICE_FD, (void *)FAKE_BDF);
	REQUIRE(d >= 0);
	efd[0] = eventfd(0, EFD_CLOEXEC);
	CHECK_EQ(set_irqs(d, VFIO_IRQ_SET_DATA_EVENTFD | trig, 0, 1, efd, sizeof(int)), -ENOSPC);
	CHECK_EQ(fake_msix_enabled(), 0);
	close(efd[0]);
	fake_vfio_remove();

	/* No MSI-X capability: count 0, and nothing to turn off. */
	cfg = (struct fake_vfio_cfg){ .no_msix = true };
	fake_vfio_install(&cfg);
	c = K->open("/dev/vfio/vfio", O_RDWR);
	g = K->open("/dev/vfio/12", O_RDWR);
	REQUIRE(K->ioctl(g, VFIO_GROUP_SET_CONTAINER, &c) == 0 &&
		K->ioctl(c, VFIO_SET_IOMMU, (void *)(uintptr_t)VFIO_TYPE1v2_IOMMU) == 0);
	d = K->ioctl(g, VFIO_GROUP_GET_DEVICE_FD, (void *)FAKE_BDF);
	REQUIRE(d >= 0);
	info = (struct vfio_irq_info){ .argsz = sizeof(info), .index = VFIO_PCI_MSIX_IRQ_INDEX };
	CHECK_EQ(K->ioctl(d, VFIO_DEVICE_GET_IRQ_INFO, &info), 0);
	CHECK_EQ(info.count, 0);
	CHECK_EQ(set_irqs(d, VFIO_IRQ_SET_DATA_NONE | trig, 0, 0, NULL, 0), -EINVAL);
	fake_vfio_remove();
}

/* ---- numbers -------------------------------------------------------------------- */

/*
 * min(vectors, 32) lines, each its own number and its own eventfd, given
 * to the kernel in one SET_IRQS; -ENXIO past them; the stats say how many.
 */
TEST(vfio_irq_lines_are_the_first_32_vectors)
{
	const unsigned int counts[] = { 0 /* the default, 65 */, 1, 5, 31, 32, 33, 2048 };

	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		struct fake_vfio_cfg cfg = { .msix_vectors = counts[c] };
		unsigned int want = counts[c] ? (counts[c] < LINES ? counts[c] : LINES) : LINES;
		int irqs[LINES], fds[LINES];
		struct dmamap_vfio_stats st;
		struct dmamap_platform *p;
		struct device *dev;

		p = start(&cfg, &dev);
		REQUIRE(p && dev);
		st = vstats(dev);
		CHECK_MSG(st.msix_vectors == want, "%u vectors: %u lines, want %u", counts[c],
			  st.msix_vectors, want);
		CHECK_EQ(st.irqs_signalled + st.irqs_delivered + st.irqs_unhandled, 0);
		CHECK_EQ(fake_counts.ioctl[FAKE_SET_IRQS], 1);
		CHECK_EQ(fake_counts.msix_enables, 1);
		CHECK_EQ(fake_msix_enabled(), want);
		for (unsigned int v = 0; v < want; v++) {
			irqs[v] = line(dev, v);
			fds[v] = fake_msix_fd(v);
			CHECK_MSG(irqs[v] > 0, "vector %u: %d", v, irqs[v]);
			CHECK_MSG(fake_is_eventfd(fds[v]), "vector %u: fd %d is not an eventfd", v,
				  fds[v]);
			for (unsigned int u = 0; u < v; u++) {
				CHECK_MSG(irqs[u] != irqs[v], "vectors %u and %u: both irq %d", u, v,
					  irqs[v]);
				CHECK_MSG(fds[u] != fds[v], "vectors %u and %u: both fd %d", u, v, fds[v]);
			}
		}
		CHECK_EQ(line(dev, want), -ENXIO);
		CHECK_EQ(line(dev, LINES), -ENXIO);
		CHECK_EQ(line(dev, 64), -ENXIO);
		CHECK_EQ(line(dev, 65), -ENXIO);
		CHECK_EQ(line(dev, ~0u), -ENXIO);
		/* Each line's eventfd, and the kernel's reference to it, at least. */
		CHECK(fake_eventfds_open() >= eventfds0 + 2 * want);
		EXPECT_NO_REPORTS();
		end(p);
		CHECK_EQ(fake_counts.msix_disables, 1);
		if (tap_failures)
			return;
	}
	CHECK_EQ(dmamap_device_irq(NULL, 0), -EINVAL);
}

/* ---- delivery on the platform's thread ------------------------------------------------ */

/* Each vector's message runs its own line's handler, with its dev_id, on the platform's thread. */
TEST(vfio_irq_thread_handler_runs_per_vector)
{
	const unsigned int vec[] = { 0, 1, 7, 30 };
	const char *names[] = { "v0", "v1", "v7", "v30" };
	enum { N = 4 };
	struct probe pr[N];
	struct dmamap_vfio_stats st;
	struct dmamap_platform *p;
	struct device *dev;

	p = start(NULL, &dev);
	REQUIRE(p && dev);
	for (unsigned int i = 0; i < N; i++) {
		probe_init(&pr[i], names[i], IRQ_HANDLED);
		REQUIRE(request_irq((unsigned int)line(dev, vec[i]), probe_handler, 0, names[i],
				    &pr[i]) == 0);
	}
	CHECK(!in_interrupt());
	for (unsigned int i = 0; i < N; i++) {
		REQUIRE(fake_msix_fire(vec[i]) == 0);
		REQUIRE_MSG(WAIT_CALLS(&pr[i], 1), "vector %u: no handler ran", vec[i]);
		CHECK_EQ(pr[i].irq, line(dev, vec[i]));
		CHECK(pr[i].dev_id == &pr[i]);
		CHECK_ON_IRQ_THREAD(&pr[i]);
		/* No other line's handler ran for it. */
		for (unsigned int j = 0; j < N; j++)
			CHECK_MSG(CALLS(&pr[j]) == (j <= i), "vector %u's message: %s ran %u times",
				  vec[i], names[j], CALLS(&pr[j]));
	}
	CHECK(wait_stats(dev, N, N));
	st = vstats(dev);
	CHECK_EQ(st.irqs_signalled, N);
	CHECK_EQ(st.irqs_delivered, N);
	CHECK_EQ(st.irqs_unhandled, 0);
	CHECK_EQ(fake_counts.msix_fired, N);
	for (unsigned int i = 0; i < N; i++) {
		const char *name = free_irq((unsigned int)line(dev, vec[i]), &pr[i]);

		CHECK_MSG(name && !strcmp(name, names[i]), "free_irq gave '%s'",
			  name ? name : "(null)");
	}
	end(p);
	for (unsigned int i = 0; i < N; i++)
		probe_fini(&pr[i]);
}

/*
 * Every message is counted as signalled, exactly; messages that came
 * together before the thread read them may run the handler once.
 */
TEST(vfio_irq_thread_signals_counted_exactly)
{
	struct probe a, f;
	struct dmamap_vfio_stats st;
	struct dmamap_platform *p;
	struct device *dev;
	unsigned int calls;

	p = start(NULL, &dev);
	REQUIRE(p && dev);
	probe_init(&a, "a", IRQ_HANDLED);
	probe_init(&f, "fence", IRQ_HANDLED);
	REQUIRE(request_irq((unsigned int)line(dev, 2), probe_handler, 0, "a", &a) == 0);
	REQUIRE(request_irq((unsigned int)line(dev, FENCE), probe_handler, 0, "fence", &f) == 0);
	REQUIRE(fake_msix_fire(2) == 0);
	REQUIRE(fake_msix_fire(2) == 0);
	CHECK(WAIT_CALLS(&a, 1));
	CHECK(fence(&f));
	calls = CALLS(&a);
	CHECK_MSG(calls >= 1 && calls <= 2, "two messages ran the handler %u times", calls);
	CHECK(wait_stats(dev, 3, calls + 1));
	st = vstats(dev);
	CHECK_EQ(st.irqs_signalled, 3);
	CHECK_EQ(st.irqs_delivered, calls + 1);

	/* A burst: every message counted, the handler run at least once and at most per message. */
	for (unsigned int i = 0; i < 200; i++)
		REQUIRE(fake_msix_fire(2) == 0);
	CHECK(wait_stats(dev, 203, 0));
	CHECK(fence(&f));
	CHECK(wait_stats(dev, 204, CALLS(&a) + 2));
	st = vstats(dev);
	CHECK_EQ(st.irqs_signalled, 204);
	CHECK_MSG(CALLS(&a) > calls && CALLS(&a) <= calls + 200, "%u runs for 200 messages",
		  CALLS(&a) - calls);
	CHECK_EQ(st.irqs_delivered, CALLS(&a) + 2);
	CHECK_EQ(st.irqs_unhandled, 0);
	CHECK_ON_IRQ_THREAD(&a);
	CHECK(free_irq((unsigned int)line(dev, 2), &a) != NULL);
	CHECK(free_irq((unsigned int)line(dev, FENCE), &f) != NULL);
	end(p);
	probe_fini(&a);
	probe_fini(&f);
}

/* A handler that says IRQ_NONE: delivered, and counted unhandled. */
TEST(vfio_irq_thread_none_counts_unhandled)
{
	struct probe a;
	struct dmamap_vfio_stats st;
	struct dmamap_platform *p;
	struct device *dev;

	p = start(NULL, &dev);
	REQUIRE(p && dev);
	probe_init(&a, "a", IRQ_NONE);
	REQUIRE(request_irq((unsigned int)line(dev, 3), probe_handler, 0, "a", &a) == 0);
	REQUIRE(fake_msix_fire(3) == 0);
	CHECK(WAIT_CALLS(&a, 1));
	CHECK(wait_stats(dev, 1, 1));
	st = vstats(dev);
	CHECK_EQ(st.irqs_delivered, 1);
	CHECK_EQ(st.irqs_unhandled, 1);
	/* Handled now: the count of unhandled stays. IRQ_WAKE_THREAD is handled too. */
	probe_set_answer(&a, IRQ_HANDLED);
	REQUIRE(fake_msix_fire(3) == 0);
	CHECK(WAIT_CALLS(&a, 2));
	probe_set_answer(&a, IRQ_WAKE_THREAD);
	REQUIRE(fake_msix_fire(3) == 0);
	CHECK(WAIT_CALLS(&a, 3));
	CHECK(wait_stats(dev, 3, 3));
	st = vstats(dev);
	CHECK_EQ(st.irqs_signalled, 3);
	CHECK_EQ(st.irqs_delivered, 3);
	CHECK_EQ(st.irqs_unhandled, 1);
	CHECK_ON_IRQ_THREAD(&a);
	CHECK(free_irq((unsigned int)line(dev, 3), &a) != NULL);
	end(p);
	probe_fini(&a);
}

/*
 * disable_irq(): a message meanwhile stays pending (two of them: one
 * interrupt), through nested disables; the last enable_irq() delivers it,
 * on the platform's thread. An enable without a disable is reported.
 */
TEST(vfio_irq_thread_disable_holds_enable_delivers)
{
	struct probe a, f;
	struct dmamap_vfio_stats st;
	struct dmamap_platform *p;
	struct device *dev;
	unsigned int irq;

	p = start(NULL, &dev);
	REQUIRE(p && dev);
	probe_init(&a, "a", IRQ_HANDLED);
	probe_init(&f, "fence", IRQ_HANDLED);
	irq = (unsigned int)line(dev, 4);
	REQUIRE(request_irq(irq, probe_handler, 0, "a", &a) == 0);
	REQUIRE(request_irq((unsigned int)line(dev, FENCE), probe_handler, 0, "fence", &f) == 0);
	disable_irq(irq);
	REQUIRE(fake_msix_fire(4) == 0);
	REQUIRE(fake_msix_fire(4) == 0);
	CHECK(wait_stats(dev, 2, 0));
	CHECK(fence(&f));
	CHECK_MSG(CALLS(&a) == 0, "a disabled line's handler ran %u times", CALLS(&a));
	/* Nested: one enable of two disables still holds it. */
	disable_irq(irq);
	enable_irq(irq);
	CHECK(fence(&f));
	CHECK_MSG(CALLS(&a) == 0, "a line disabled twice, enabled once: its handler ran");
	CHECK(wait_stats(dev, 4, 2));
	st = vstats(dev);
	CHECK_EQ(st.irqs_signalled, 4);
	CHECK_EQ(st.irqs_delivered, 2);
	enable_irq(irq);
	CHECK_MSG(WAIT_CALLS(&a, 1), "enable_irq() did not deliver the pending interrupt");
	CHECK_ON_IRQ_THREAD(&a);
	CHECK_EQ(a.irq, (int)irq);
	/* Once: the two messages were one interrupt. */
	CHECK(fence(&f));
	CHECK_EQ(CALLS(&a), 1);
	CHECK(wait_stats(dev, 5, 4));
	st = vstats(dev);
	CHECK_EQ(st.irqs_signalled, 5);
	CHECK_EQ(st.irqs_delivered, 4);
	CHECK_EQ(st.irqs_unhandled, 0);
	/* Enabled again, a message runs it at once. */
	REQUIRE(fake_msix_fire(4) == 0);
	CHECK(WAIT_CALLS(&a, 2));
	EXPECT_NO_REPORTS();
	EXPECT_ONLY(DMAMAP_DBG_IRQ_MISUSE, enable_irq(irq));
	rec_reset();
	CHECK(free_irq(irq, &a) != NULL);
	CHECK(free_irq((unsigned int)line(dev, FENCE), &f) != NULL);
	end(p);
	probe_fini(&a);
	probe_fini(&f);
}

/*
 * A message that came before any handler waits: request_irq() delivers
 * it, on the platform's thread (interrupt.h: "A pending interrupt of the
 * line is delivered at the next yield point").
 */
TEST(vfio_irq_thread_message_before_request_is_delivered_at_request)
{
	struct probe a, f;
	struct dmamap_platform *p;
	struct device *dev;

	p = start(NULL, &dev);
	REQUIRE(p && dev);
	probe_init(&a, "a", IRQ_HANDLED);
	probe_init(&f, "fence", IRQ_HANDLED);
	REQUIRE(request_irq((unsigned int)line(dev, FENCE), probe_handler, 0, "fence", &f) == 0);
	REQUIRE(fake_msix_fire(9) == 0);
	CHECK(wait_stats(dev, 1, 0));
	CHECK(fence(&f));
	CHECK(wait_stats(dev, 2, 1));
	CHECK_EQ(vstats(dev).irqs_delivered, 1);
	REQUIRE(request_irq((unsigned int)line(dev, 9), probe_handler, 0, "a", &a) == 0);
	CHECK_MSG(WAIT_CALLS(&a, 1), "the pending interrupt was not delivered at request_irq()");
	CHECK_ON_IRQ_THREAD(&a);
	CHECK(wait_stats(dev, 2, 2));
	CHECK(free_irq((unsigned int)line(dev, 9), &a) != NULL);
	CHECK(free_irq((unsigned int)line(dev, FENCE), &f) != NULL);
	end(p);
	probe_fini(&a);
	probe_fini(&f);
}

/*
 * free_irq(), synchronize_irq() and disable_irq() from the test's thread
 * while the handler runs on the platform's: each returns only after the
 * handler finished. The handler is held until the call is about to be
 * made, then sleeps: the call starts while it runs.
 */
TEST(vfio_irq_thread_free_irq_waits_for_running_handler)
{
	enum { FREE, SYNC, DISABLE, N };
	const char *names[N] = { "free", "sync", "disable" };
	struct probe pr[N], f;
	struct dmamap_platform *p;
	struct device *dev;

	p = start(NULL, &dev);
	REQUIRE(p && dev);
	probe_init(&f, "fence", IRQ_HANDLED);
	REQUIRE(request_irq((unsigned int)line(dev, FENCE), probe_handler, 0, "fence", &f) == 0);
	for (unsigned int i = 0; i < N; i++) {
		unsigned int irq = (unsigned int)line(dev, 10 + i);
		unsigned int running;

		probe_init(&pr[i], names[i], IRQ_HANDLED);
		pr[i].hold = true;
		pr[i].sleep_ms = 100;
		REQUIRE(request_irq(irq, probe_handler, 0, names[i], &pr[i]) == 0);
		REQUIRE(fake_msix_fire(10 + i) == 0);
		REQUIRE_MSG(WAIT_CALLS(&pr[i], 1), "%s: the handler never ran", names[i]);
		running = probe_get(&pr[i], &pr[i].running);
		CHECK_EQ(running, 1);
		probe_release(&pr[i]);
		switch (i) {
		case FREE: {
			const char *name = free_irq(irq, &pr[i]);

			CHECK(name && !strcmp(name, "free"));
			break;
		}
		case SYNC:
			synchronize_irq(irq);
			break;
		case DISABLE:
			disable_irq(irq);
			break;
		}
		CHECK_MSG(probe_get(&pr[i], &pr[i].finished) == 1,
			  "%s returned while the handler was still running", names[i]);
		CHECK_ON_IRQ_THREAD(&pr[i]);
	}
	/* Freed: a message no longer runs it. Disabled: nor there. */
	REQUIRE(fake_msix_fire(10 + FREE) == 0);
	REQUIRE(fake_msix_fire(10 + DISABLE) == 0);
	CHECK(fence(&f));
	CHECK_EQ(CALLS(&pr[FREE]), 1);
	CHECK_EQ(CALLS(&pr[DISABLE]), 1);
	enable_irq((unsigned int)line(dev, 10 + DISABLE));
	CHECK(WAIT_CALLS(&pr[DISABLE], 2));
	CHECK(WAIT_FINISHED(&pr[DISABLE], 2));
	CHECK(free_irq((unsigned int)line(dev, 10 + SYNC), &pr[SYNC]) != NULL);
	CHECK(free_irq((unsigned int)line(dev, 10 + DISABLE), &pr[DISABLE]) != NULL);
	CHECK(free_irq((unsigned int)line(dev, FENCE), &f) != NULL);
	end(p);
	for (unsigned int i = 0; i < N; i++)
		probe_fini(&pr[i]);
	probe_fini(&f);
}

/* A handler may disable its own line without waiting for itself; the test's enable_irq() lets the next in. */
TEST(vfio_irq_thread_handler_may_disable_its_own_line)
{
	struct probe a, f;
	struct dmamap_platform *p;
	struct device *dev;
	unsigned int irq;

	p = start(NULL, &dev);
	REQUIRE(p && dev);
	probe_init(&a, "a", IRQ_HANDLED);
	probe_init(&f, "fence", IRQ_HANDLED);
	a.disable_own = true;
	irq = (unsigned int)line(dev, 5);
	REQUIRE(request_irq(irq, probe_handler, 0, "a", &a) == 0);
	REQUIRE(request_irq((unsigned int)line(dev, FENCE), probe_handler, 0, "fence", &f) == 0);
	REQUIRE(fake_msix_fire(5) == 0);
	REQUIRE_MSG(WAIT_FINISHED(&a, 1), "a handler disabling its own line did not return");
	REQUIRE(fake_msix_fire(5) == 0);
	CHECK(fence(&f));
	CHECK_EQ(CALLS(&a), 1);
	enable_irq(irq);
	CHECK(WAIT_CALLS(&a, 2));
	CHECK_ON_IRQ_THREAD(&a);
	EXPECT_NO_REPORTS();
	CHECK(free_irq(irq, &a) != NULL);
	CHECK(free_irq((unsigned int)line(dev, FENCE), &f) != NULL);
	end(p);
	probe_fini(&a);
	probe_fini(&f);
}

/*
 * IRQF_SHARED: both handlers on one line, called in turn until one says
 * IRQ_HANDLED (interrupt.h); unhandled when none does; each freed by its
 * dev_id; a handler that is not shared is refused beside them.
 */
TEST(vfio_irq_thread_shared_line_two_handlers)
{
	struct probe a, b, c, f;
	struct dmamap_vfio_stats st;
	struct dmamap_platform *p;
	struct device *dev;
	unsigned int irq;
	const char *name;

	p = start(NULL, &dev);
	REQUIRE(p && dev);
	probe_init(&a, "a", IRQ_NONE);
	probe_init(&b, "b", IRQ_HANDLED);
	probe_init(&c, "c", IRQ_HANDLED);
	probe_init(&f, "fence", IRQ_HANDLED);
	irq = (unsigned int)line(dev, 8);
	REQUIRE(request_irq((unsigned int)line(dev, FENCE), probe_handler, 0, "fence", &f) == 0);
	REQUIRE(request_irq(irq, probe_handler, IRQF_SHARED, "a", &a) == 0);
	REQUIRE(request_irq(irq, probe_handler, IRQF_SHARED, "b", &b) == 0);
	CHECK_EQ(request_irq(irq, probe_handler, 0, "c", &c), -EBUSY);
	CHECK_EQ(request_irq(irq, probe_handler, IRQF_SHARED, "c", NULL), -EINVAL);
	CHECK_EQ(request_irq(irq, NULL, IRQF_SHARED, "c", &c), -EINVAL);

	/* a says no, b yes: both ran, once. */
	REQUIRE(fake_msix_fire(8) == 0);
	CHECK(WAIT_CALLS(&b, 1));
	CHECK_EQ(CALLS(&a), 1);
	CHECK(b.dev_id == &b && a.dev_id == &a);
	CHECK_EQ(a.irq, (int)irq);
	CHECK_EQ(b.irq, (int)irq);
	CHECK(wait_stats(dev, 1, 1));
	CHECK_EQ(vstats(dev).irqs_unhandled, 0);

	/* a says yes: b is not asked. */
	probe_set_answer(&a, IRQ_HANDLED);
	REQUIRE(fake_msix_fire(8) == 0);
	CHECK(WAIT_CALLS(&a, 2));
	CHECK(fence(&f));
	CHECK_EQ(CALLS(&b), 1);

	/* Neither: unhandled. */
	probe_set_answer(&a, IRQ_NONE);
	probe_set_answer(&b, IRQ_NONE);
	REQUIRE(fake_msix_fire(8) == 0);
	CHECK(WAIT_CALLS(&b, 2));
	CHECK(wait_stats(dev, 4, 4));
	st = vstats(dev);
	CHECK_EQ(st.irqs_signalled, 4);
	CHECK_EQ(st.irqs_delivered, 4);
	CHECK_EQ(st.irqs_unhandled, 1);
	CHECK_ON_IRQ_THREAD(&a);
	CHECK_ON_IRQ_THREAD(&b);

	/* a freed by its dev_id: b alone answers; a second free of a is a mistake. */
	name = free_irq(irq, &a);
	CHECK(name && !strcmp(name, "a"));
	EXPECT_NO_REPORTS();
	EXPECT_ONLY(DMAMAP_DBG_IRQ_MISUSE, CHECK(free_irq(irq, &a) == NULL));
	rec_reset();
	probe_set_answer(&b, IRQ_HANDLED);
	REQUIRE(fake_msix_fire(8) == 0);
	CHECK(WAIT_CALLS(&b, 3));
	CHECK(fence(&f));
	CHECK_EQ(CALLS(&a), 3);
	name = free_irq(irq, &b);
	CHECK(name && !strcmp(name, "b"));
	/* Free again: a handler that is not shared may come. */
	CHECK_EQ(request_irq(irq, probe_handler, 0, "c", &c), 0);
	REQUIRE(fake_msix_fire(8) == 0);
	CHECK(WAIT_CALLS(&c, 1));
	CHECK(free_irq(irq, &c) != NULL);
	CHECK(free_irq((unsigned int)line(dev, FENCE), &f) != NULL);
	EXPECT_NO_REPORTS();
	end(p);
	probe_fini(&a);
	probe_fini(&b);
	probe_fini(&c);
	probe_fini(&f);
}

/* ---- without MSI-X, and when the kernel refuses it ------------------------------------------ */

/*
 * A function with no MSI-X vector: a platform with no interrupt line, no
 * eventfd and no SET_IRQS; the driver polls, and that works: the
 * device's write into a mapped buffer and its register are both seen.
 */
TEST(vfio_irq_no_vectors_is_polled)
{
	struct fake_vfio_cfg cfg = { .no_msix = true };
	const uint32_t done = 0xc0ffee01;
	struct dmamap_vfio_stats st;
	struct dmamap_platform *p;
	struct device *dev;
	void __iomem *bar;
	uint32_t *cq;
	dma_addr_t h;

	p = start(&cfg, &dev);
	REQUIRE(p && dev);
	st = vstats(dev);
	CHECK_EQ(st.msix_vectors, 0);
	CHECK_EQ(st.irqs_signalled + st.irqs_delivered + st.irqs_unhandled, 0);
	CHECK_EQ(dmamap_device_irq(dev, 0), -ENXIO);
	CHECK_EQ(dmamap_device_irq(dev, 1), -ENXIO);
	CHECK(fake_counts.ioctl[FAKE_GET_IRQ_INFO] >= 1);
	CHECK_EQ(fake_counts.ioctl[FAKE_SET_IRQS], 0);
	CHECK_EQ(fake_msix_enabled(), 0);
	CHECK_EQ(fake_msix_fire(0), -EINVAL);
	CHECK_EQ(fake_eventfds_open(), eventfds0);

	/* Polling: a completion the device writes, and a doorbell it rings. */
	cq = (uint32_t *)(void *)host_pages(4096);
	REQUIRE(cq);
	memset(cq, 0, 4096);
	h = dma_map_single(dev, cq, 4096, DMA_FROM_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	bar = dmamap_vfio_bar(dev, 0, NULL);
	REQUIRE(bar);
	CHECK_EQ(fake_dma(h + 64, (void *)&done, sizeof(done), true), 0);
	((volatile uint32_t *)fake_vfio_bar0())[0x1c / 4] = 1;
	for (unsigned int i = 0; i < 1000 && !readl((uint8_t __iomem *)bar + 0x1c); i++)
		;
	CHECK_EQ(readl((uint8_t __iomem *)bar + 0x1c), 1);
	dma_sync_single_for_cpu(dev, h, 4096, DMA_FROM_DEVICE);
	CHECK_EQ(((volatile uint32_t *)cq)[16], done);
	dma_unmap_single(dev, h, 4096, DMA_FROM_DEVICE);
	free(cq);
	EXPECT_NO_REPORTS();
	end(p);
	CHECK_EQ(fake_counts.ioctl[FAKE_SET_IRQS], 0);
}

static bool ledger_same(const struct dmamap__ledger *a)
{
	struct dmamap__ledger b;

	dmamap__ledger_read(&b);
	return a->mapped_bytes == b.mapped_bytes && a->memfds == b.memfds;
}

/* dmamap_platform_vfio() with the kernel refusing MSI-X with @e: NULL, -@e, nothing left. */
static void msix_refused(int e)
{
	struct fake_vfio_cfg cfg = { .msix_errno = e };
	struct dmamap_error err = { 0 };
	struct dmamap__ledger l0;
	struct dmamap_platform *p;
	unsigned int ev0 = fake_eventfds_open();
	char why[256];

	dmamap__ledger_read(&l0);
	fake_vfio_install(&cfg);
	p = dmamap_platform_vfio(FAKE_BDF, NULL, &err);
	CHECK_MSG(!p, "SET_IRQS refused with %s: a platform was made (%u lines)", strerror(e),
		  p ? vstats(dmamap_device_lookup(p, FAKE_BDF)).msix_vectors : 0);
	if (p) {
		quiet(p);
		dmamap_platform_destroy(p);
		fake_vfio_remove();
		return;
	}
	CHECK_MSG(err.code == -e, "%s: code %d (%s)", strerror(e), err.code, err.msg);
	CHECK_MSG(strstr(err.msg, "MSI-X") && !strncmp(err.msg, "vfio: ", 6), "%s: message '%s'",
		  strerror(e), err.msg);
	CHECK_EQ(fake_counts.ioctl_failed[FAKE_SET_IRQS], 1);
	CHECK_EQ(fake_counts.msix_enables, 0);
	CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "%s: %s", strerror(e), why);
	CHECK_MSG(fake_vfio_open_fds() == 0, "%s: %u files open", strerror(e), fake_vfio_open_fds());
	CHECK_MSG(fake_eventfds_open() == ev0, "%s: %u eventfds left open", strerror(e),
		  fake_eventfds_open() - ev0);
	CHECK_MSG(ledger_same(&l0), "%s: the ledger changed", strerror(e));
	fake_vfio_remove();
}

/*
 * SET_IRQS refused: the platform fails with the kernel's errno, and
 * nothing is left open or allocated. (Was a bug, ENODEV: src/hw/msi.c
 * said -ENODEV for "no vector" and src/core/vfio.c took every -ENODEV
 * for that, so a kernel refusing with ENODEV made a platform without
 * lines, saying nothing.)
 */
TEST(vfio_irq_set_irqs_refused_fails_the_platform)
{
	const int errs[] = { ENOSPC, EINVAL, EPERM, EIO, EBUSY, ENODEV };

	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		msix_refused(errs[i]);
}

/* ---- the platform's end ----------------------------------------------------------------------- */

/*
 * Destroyed with a handler still installed, while it runs: destruction
 * waits for it, reports the missing free_irq(), turns MSI-X off in the
 * kernel (SET_IRQS with count 0, before the function's file closes) and
 * closes every eventfd.
 */
TEST(vfio_irq_thread_destroy_with_handler_reports_and_turns_msix_off)
{
	struct probe a;
	struct dmamap_platform *p;
	struct device *dev;
	int fds[LINES];
	unsigned int n;
	char why[256];

	p = start(NULL, &dev);
	REQUIRE(p && dev);
	probe_init(&a, "forgotten", IRQ_HANDLED);
	a.sleep_ms = 100;
	REQUIRE(request_irq((unsigned int)line(dev, 6), probe_handler, 0, "forgotten", &a) == 0);
	REQUIRE(fake_msix_fire(6) == 0);
	REQUIRE(WAIT_CALLS(&a, 1));
	n = fake_msix_last_fds(fds, LINES);
	CHECK_EQ(n, LINES);
	cur_p = NULL;
	rec_reset();
	dmamap_platform_destroy(p);
	CHECK_MSG(probe_get(&a, &a.finished) == 1, "destroy returned while the handler ran");
	EXPECT_KINDS(DMAMAP_DBG_IRQ_MISUSE);
	CHECK_MSG(rec.n && strstr(rec.r[0].text, "forgotten"), "the report does not name the handler");
	CHECK_EQ(fake_counts.msix_disables, 1);
	CHECK_EQ(fake_msix_enabled(), 0);
	CHECK_EQ(fake_counts.msix_off_at_close, 0);
	for (unsigned int i = 0; i < n && i < LINES; i++)
		CHECK_MSG(!fake_is_eventfd(fds[i]), "vector %u's eventfd %d is still open", i, fds[i]);
	CHECK_EQ(fake_eventfds_open(), eventfds0);
	CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "after destroy: %s", why);
	CHECK_ON_IRQ_THREAD(&a);
	fake_vfio_remove();
	probe_fini(&a);
}

/* ---- walks ------------------------------------------------------------------------------------ */

/*
 * Every failure point of the library in dmamap_platform_vfio() with
 * MSI-X present: each failure is -ENOMEM, said, with MSI-X off, every
 * file and eventfd closed and the ledger as before; a platform made
 * takes an interrupt on its thread.
 */
TEST_TIMEOUT(vfio_irq_thread_failure_point_walk, 120)
{
	struct dmamap__ledger l0;
	long k, failed = 0;
	char why[256];

	test_thread = pthread_self();
	eventfds0 = fake_eventfds_open();
	dmamap__ledger_read(&l0);
	for (k = 1; k < 500; k += tap_sample()) {
		struct dmamap_vfio_options opt = { .arena_size = 1 << 20 };
		bool fired;
		struct dmamap_platform *p = fake_walk_point(NULL, &opt, k, &fired);

		if (!p) {
			failed++;
		} else {
			struct device *dev = dmamap_device_lookup(p, FAKE_BDF);
			struct probe a;

			REQUIRE_MSG(dev, "point %ld: a platform without its device", k);
			CHECK_MSG(vstats(dev).msix_vectors == LINES, "point %ld: %u lines", k,
				  vstats(dev).msix_vectors);
			probe_init(&a, "a", IRQ_HANDLED);
			CHECK_MSG(request_irq((unsigned int)line(dev, 0), probe_handler, 0, "a", &a) == 0,
				  "point %ld: request_irq", k);
			CHECK_MSG(fake_msix_fire(0) == 0 && WAIT_CALLS(&a, 1),
				  "point %ld: no interrupt delivered", k);
			CHECK_ON_IRQ_THREAD(&a);
			free_irq((unsigned int)line(dev, 0), &a);
			dmamap_platform_destroy(p);
			probe_fini(&a);
		}
		CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "point %ld: %s", k, why);
		CHECK_MSG(fake_eventfds_open() == eventfds0, "point %ld: %u eventfds left open", k,
			  fake_eventfds_open() - eventfds0);
		CHECK_MSG(ledger_same(&l0), "point %ld: the ledger changed", k);
		fake_vfio_remove();
		if (tap_failures)
			return;
		if (!fired)
			break;
	}
	CHECK_MSG(k < 500, "more than 500 failure points");
	/* A sampled run (an emulator) walks one point in DMAMAP_TEST_SAMPLE. */
	CHECK_MSG(failed >= (tap_sample() > 1 ? 1 : 5), "only %ld failure points failed the call",
		  failed);
	printf("# %ld failure points, %ld failed the call\n", k - 1, failed);
}

/*
 * Every call into the kernel refused in turn (EIO): a GET_IRQ_INFO
 * refused leaves a platform without lines (polled); a SET_IRQS refused
 * fails the platform, saying so; either way nothing is left on or open,
 * no eventfd either.
 */
TEST_TIMEOUT(vfio_irq_kernel_refusal_walk, 60)
{
	struct dmamap__ledger l0;
	long k, failed = 0, info_refused = 0, set_irqs_refused = 0;
	char why[256];

	eventfds0 = fake_eventfds_open();
	dmamap__ledger_read(&l0);
	for (k = 1; k < 200; k++) {
		struct dmamap_error err = { 0 };
		struct dmamap_vfio_options opt = { .arena_size = 1 << 20 };
		struct dmamap_platform *p;
		bool fired;

		fake_vfio_install(NULL);
		fake_vfio_fail_call_in(k, EIO);
		p = dmamap_platform_vfio(FAKE_BDF, &opt, &err);
		fired = fake_counts.injected != 0;
		fake_vfio_fail_call_in(0, 0);
		if (!p) {
			failed++;
			CHECK_MSG(fired, "call %ld: failed with nothing refused: %d %s", k, err.code,
				  err.msg);
			CHECK_MSG(err.code < 0, "call %ld: code %d", k, err.code);
			if (fake_counts.ioctl_failed[FAKE_SET_IRQS]) {
				set_irqs_refused++;
				CHECK_MSG(err.code == -EIO && strstr(err.msg, "MSI-X"),
					  "call %ld: SET_IRQS refused: %d %s", k, err.code, err.msg);
			}
		} else {
			struct device *dev = dmamap_device_lookup(p, FAKE_BDF);
			unsigned int lines;

			quiet(p);
			REQUIRE_MSG(dev, "call %ld: no device", k);
			lines = vstats(dev).msix_vectors;
			CHECK_MSG(lines == fake_msix_enabled(), "call %ld: %u lines, %u vectors on", k,
				  lines, fake_msix_enabled());
			if (fake_counts.ioctl_failed[FAKE_GET_IRQ_INFO]) {
				info_refused++;
				CHECK_MSG(!lines, "call %ld: GET_IRQ_INFO refused, yet %u lines", k,
					  lines);
			}
			CHECK_MSG(dmamap_device_irq(dev, lines) == -ENXIO &&
					  (!lines || dmamap_device_irq(dev, lines - 1) > 0),
				  "call %ld: the numbers do not match %u lines", k, lines);
			dmamap_platform_destroy(p);
		}
		CHECK_MSG(fake_vfio_clean(why, sizeof(why)), "call %ld: %s", k, why);
		CHECK_MSG(fake_eventfds_open() == eventfds0, "call %ld: %u eventfds left open", k,
			  fake_eventfds_open() - eventfds0);
		CHECK_MSG(ledger_same(&l0), "call %ld: the ledger changed", k);
		fake_vfio_remove();
		if (tap_failures)
			return;
		if (!fired)
			break;
	}
	CHECK_MSG(k < 200, "more than 200 calls");
	CHECK_EQ(info_refused, 1);
	CHECK_EQ(set_irqs_refused, 1);
	printf("# %ld kernel calls, %ld refusals failed the call\n", k - 1, failed);
}

/*
 * The kernel is asked for the vector count once, and a refusal is "no
 * vectors" (src/platform/vfio/vfio.h). (Was a bug: src/hw/msi.c took
 * `MIN(MIN(dmamap__port_msix_count(dev->plat), max), MSI_MAX)`, and MIN()
 * evaluates its arguments twice: GET_IRQ_INFO went out four times for a
 * function with fewer than 32 vectors, and a refused first one was
 * overridden by the second's answer, 32 lines.)
 */
TEST(vfio_irq_msix_count_asked_once)
{
	struct fake_vfio_cfg cfg = { .msix_vectors = 5 };
	struct dmamap_platform *p;
	struct device *dev;
	unsigned int lines;
	long k;

	p = start(&cfg, &dev);
	REQUIRE(p && dev);
	CHECK_EQ(vstats(dev).msix_vectors, 5);
	CHECK_MSG(fake_counts.ioctl[FAKE_GET_IRQ_INFO] == 1, "GET_IRQ_INFO asked %lu times",
		  fake_counts.ioctl[FAKE_GET_IRQ_INFO]);
	end(p);

	/* The first GET_IRQ_INFO refused: no lines, not what a second ask says. */
	for (k = 1; k < 200; k++) {
		struct dmamap_error err = { 0 };

		fake_vfio_install(NULL);
		fake_vfio_fail_call_in(k, EIO);
		p = dmamap_platform_vfio(FAKE_BDF, NULL, &err);
		fake_vfio_fail_call_in(0, 0);
		if (fake_counts.ioctl_failed[FAKE_GET_IRQ_INFO])
			break;
		if (p) {
			quiet(p);
			dmamap_platform_destroy(p);
		}
		fake_vfio_remove();
	}
	REQUIRE_MSG(k < 200 && p, "GET_IRQ_INFO was never refused");
	quiet(p);
	dev = dmamap_device_lookup(p, FAKE_BDF);
	REQUIRE(dev);
	lines = vstats(dev).msix_vectors;
	CHECK_MSG(lines == 0, "GET_IRQ_INFO refused, yet %u lines (asked %lu times)", lines,
		  fake_counts.ioctl[FAKE_GET_IRQ_INFO]);
	end(p);
}

/*
 * A simulated device beside the function (a model, so a board
 * scheduler): the function's interrupts still run on the platform's
 * thread only, never at a yield point of the driver's. Here the msi
 * thread is busy in one handler; request_irq() of a line whose message
 * came earlier makes it deliverable, and the test thread then makes
 * register accesses, yield points. (Was a bug: src/hw/irq.c's
 * claim_pending(), called with no device at every yield point, took the
 * function's lines too, and recount() counted them in the scheduler's
 * pending, which dmamap__irq_fire() never incremented and the claim
 * decremented: it wrapped after any message.)
 */
TEST(vfio_irq_thread_never_runs_on_the_drivers_thread_beside_a_model)
{
	struct probe busy, late, f;
	struct dmamap_platform *p;
	struct device *dev, *t;
	void __iomem *regs;

	p = start(NULL, &dev);
	REQUIRE(p && dev);
	t = add_ticker(p, "ticker");
	REQUIRE_MSG(t, "no model device beside the function");
	regs = dmamap_device_ioremap(t);
	REQUIRE(regs);
	probe_init(&busy, "busy", IRQ_HANDLED);
	probe_init(&late, "late", IRQ_HANDLED);
	probe_init(&f, "fence", IRQ_HANDLED);
	busy.hold = true;
	REQUIRE(request_irq((unsigned int)line(dev, FENCE), probe_handler, 0, "fence", &f) == 0);
	REQUIRE(request_irq((unsigned int)line(dev, 1), probe_handler, 0, "busy", &busy) == 0);
	/* A message on line 2, no handler yet: pending. */
	REQUIRE(fake_msix_fire(2) == 0);
	CHECK(wait_stats(dev, 1, 0));
	CHECK(fence(&f));
	/* The msi thread held in line 1's handler. */
	REQUIRE(fake_msix_fire(1) == 0);
	REQUIRE(WAIT_CALLS(&busy, 1));
	REQUIRE(request_irq((unsigned int)line(dev, 2), probe_handler, 0, "late", &late) == 0);
	/* Yield points of the test's thread. */
	for (unsigned int i = 0; i < 100; i++)
		readl((uint8_t __iomem *)regs + TICK_DONE);
	CHECK_MSG(!probe_get(&late, &late.calls) || !late.on_test_thread,
		  "an MSI-X handler ran on the driver's thread");
	probe_release(&busy);
	CHECK(WAIT_CALLS(&late, 1));
	CHECK_ON_IRQ_THREAD(&late);
	CHECK(free_irq((unsigned int)line(dev, 1), &busy) != NULL);
	CHECK(free_irq((unsigned int)line(dev, 2), &late) != NULL);
	CHECK(free_irq((unsigned int)line(dev, FENCE), &f) != NULL);
	end(p);
	probe_fini(&busy);
	probe_fini(&late);
	probe_fini(&f);
}
