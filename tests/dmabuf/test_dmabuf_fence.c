/* SPDX-License-Identifier: MIT */
/*
 * Fences and reservation objects (<dmamap/dma-fence.h>, <dmamap/dma-resv.h>):
 * a fence's references and its one release, callbacks run once each, in
 * order, under the fence's lock, polled fences, status and errors; waits
 * through the board's yield points, signalled by a ticker's interrupt
 * handler on the waiting thread, timing out in device time and refusing
 * to wait where no handler can run; a reservation object's fences per
 * usage, replaced per timeline, refused without room, waited for in turn,
 * and an allocation failure that leaves the object as it was.
 */
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <dmamap/dma-fence.h>
#include <dmamap/dma-resv.h>
#include <dmamap/dma-heap.h>
#include <dmamap/err.h>
#include <dmamap/interrupt.h>
#include <dmamap/io.h>
#include "../helpers.h"

/* ---- a fence of the test's own, counting what the library does to it ---- */

struct tfence {
	struct dma_fence base; /* first: the ops get back to the rest by a cast */
	spinlock_t lock;
	unsigned int released;
	unsigned int polls;
	bool done;             /* what ops->signaled answers */
};

static struct tfence *to_tf(struct dma_fence *f)
{
	return (struct tfence *)f;
}

static const char *tf_driver(struct dma_fence *f)
{
	(void)f;
	return "test";
}

static const char *tf_timeline(struct dma_fence *f)
{
	(void)f;
	return "timeline";
}

static void tf_release(struct dma_fence *f)
{
	to_tf(f)->released++;
}

static bool tf_signaled(struct dma_fence *f)
{
	to_tf(f)->polls++;
	return to_tf(f)->done;
}

static const struct dma_fence_ops plain_ops = {
	.get_driver_name = tf_driver,
	.get_timeline_name = tf_timeline,
	.release = tf_release,
};

static const struct dma_fence_ops polled_ops = {
	.get_driver_name = tf_driver,
	.get_timeline_name = tf_timeline,
	.signaled = tf_signaled,
	.release = tf_release,
};

static void tf_init(struct tfence *t, const struct dma_fence_ops *ops, u64 context, u64 seqno)
{
	memset(t, 0, sizeof(*t));
	spin_lock_init(&t->lock);
	dma_fence_init(&t->base, ops, &t->lock, context, seqno);
}

static unsigned long invalid_args(void)
{
	return dmamap_report_count(NULL, DMAMAP_DBG_INVALID_ARGUMENT);
}

/* The refusals below are expected: keep their lines off stderr. */
static void quiet_process_log(void)
{
	dmamap_set_log_hook(NULL, drop_log, NULL);
}

/* ---- callbacks that record their calls ---- */

struct call_log {
	unsigned int n;
	int order[8];
	unsigned int lock_free;   /* calls that found the fence's lock not held */
	unsigned int unsignalled; /* calls that found the flag not yet set */
};

struct tcb {
	struct dma_fence_cb cb; /* first: the callback gets back to the rest by a cast */
	struct call_log *log;
	int id;
};

static void record_cb(struct dma_fence *f, struct dma_fence_cb *cb)
{
	struct tcb *t = (struct tcb *)cb;
	struct call_log *l = t->log;

	/* The fence's lock is a plain mutex: held by this thread, a trylock fails. */
	if (pthread_mutex_trylock(&f->lock->mutex) == 0) {
		pthread_mutex_unlock(&f->lock->mutex);
		l->lock_free++;
	}
	if (!(__atomic_load_n(&f->flags, __ATOMIC_ACQUIRE) & (1UL << DMA_FENCE_FLAG_SIGNALED_BIT)))
		l->unsignalled++;
	if (l->n < sizeof(l->order) / sizeof(l->order[0]))
		l->order[l->n] = t->id;
	l->n++;
}

/* ---- 1. references ---- */

TEST(dmabuf_fence_refcount_release_once_at_the_last_put)
{
	struct tfence t;
	unsigned long inv0;

	quiet_process_log();
	tf_init(&t, &plain_ops, dma_fence_context_alloc(1), 1);
	CHECK_EQ(t.base.refcount, 1);
	CHECK(dma_fence_get(&t.base) == &t.base);
	CHECK(dma_fence_get(&t.base) == &t.base);
	CHECK_EQ(t.base.refcount, 3);
	dma_fence_put(&t.base);
	dma_fence_put(&t.base);
	CHECK_EQ(t.released, 0); /* one reference is still out */
	dma_fence_put(&t.base);
	CHECK_EQ(t.released, 1);
	CHECK_EQ(t.base.refcount, 0);

	/* One put too many: refused and said, nothing released twice. */
	inv0 = invalid_args();
	dma_fence_put(&t.base);
	CHECK_EQ(t.released, 1);
	CHECK_EQ(t.base.refcount, 0);
	CHECK_EQ(invalid_args(), inv0 + 1);
}

TEST(dmabuf_fence_null_arguments_are_harmless)
{
	static const struct dma_fence_ops no_release = {
		.get_driver_name = tf_driver,
		.get_timeline_name = tf_timeline,
	};
	struct dma_fence zero, f;
	struct dma_fence_cb cb;
	spinlock_t lock;

	quiet_process_log();
	spin_lock_init(&lock);
	CHECK(dma_fence_get(NULL) == NULL);
	dma_fence_put(NULL);
	dma_fence_init(NULL, &plain_ops, &lock, 1, 1);

	/* An init refused for lack of ops or lock leaves the fence as it was... */
	memset(&zero, 0, sizeof(zero));
	memset(&f, 0, sizeof(f));
	dma_fence_init(&f, NULL, &lock, 1, 1);
	CHECK_MEM(&f, &zero, sizeof(f));
	dma_fence_init(&f, &plain_ops, NULL, 1, 1);
	CHECK_MEM(&f, &zero, sizeof(f));
	/* ...and every call on it answers its error value. */
	CHECK_EQ(dma_fence_signal(&f), -EINVAL);
	CHECK_EQ(dma_fence_get_status(&f), -EINVAL);
	CHECK_EQ(dma_fence_add_callback(&f, &cb, record_cb), -EINVAL);
	CHECK(!dma_fence_remove_callback(&f, &cb));
	CHECK_EQ(dma_fence_wait_timeout(&f, false, 1), -EINVAL);
	CHECK(dma_fence_get(&f) == &f);
	dma_fence_put(&f);
	CHECK_MEM(&f, &zero, sizeof(f));

	CHECK_EQ(dma_fence_signal(NULL), -EINVAL);
	CHECK(dma_fence_is_signaled(NULL)); /* nothing to wait for */
	CHECK_EQ(dma_fence_get_status(NULL), -EINVAL);
	CHECK_EQ(dma_fence_add_callback(NULL, &cb, record_cb), -EINVAL);
	CHECK(!dma_fence_remove_callback(NULL, &cb));
	dma_fence_set_error(NULL, -EIO);

	/* A fence whose ops have no release is the caller's: the last put leaves it alone. */
	dma_fence_init(&f, &no_release, &lock, 1, 1);
	dma_fence_put(&f);
	CHECK_EQ(f.refcount, 0);
}

/* ---- 2. signalling and callbacks ---- */

TEST(dmabuf_fence_signal_runs_callbacks_once_in_order_under_the_lock)
{
	struct call_log log = { 0 };
	struct tcb cbs[3], late = { .log = &log, .id = 99 };
	struct tfence t;

	tf_init(&t, &plain_ops, dma_fence_context_alloc(1), 1);
	for (int i = 0; i < 3; i++) {
		cbs[i].log = &log;
		cbs[i].id = i;
		CHECK_EQ(dma_fence_add_callback(&t.base, &cbs[i].cb, record_cb), 0);
	}
	CHECK_EQ(log.n, 0); /* nothing runs before the signal */
	CHECK(!dma_fence_is_signaled(&t.base));

	CHECK_EQ(dma_fence_signal(&t.base), 0);
	CHECK_EQ(log.n, 3);
	CHECK_EQ(log.order[0], 0);
	CHECK_EQ(log.order[1], 1);
	CHECK_EQ(log.order[2], 2);
	CHECK_EQ(log.lock_free, 0);
	CHECK_EQ(log.unsignalled, 0); /* the flag is up before anyone is told */
	CHECK(dma_fence_is_signaled(&t.base));
	/* The lock was let go: the owner can take it again. */
	CHECK_EQ(pthread_mutex_trylock(&t.lock.mutex), 0);
	pthread_mutex_unlock(&t.lock.mutex);

	/* A second signal runs nothing again. */
	CHECK_EQ(dma_fence_signal(&t.base), -EINVAL);
	CHECK_EQ(log.n, 3);

	/* Too late to hang anything on it: the caller goes on at once. */
	CHECK_EQ(dma_fence_add_callback(&t.base, &late.cb, record_cb), -ENOENT);
	CHECK_EQ(log.n, 3);
	CHECK(!dma_fence_remove_callback(&t.base, &cbs[0].cb));
	dma_fence_put(&t.base);
	CHECK_EQ(t.released, 1);
}

TEST(dmabuf_fence_remove_callback_before_and_after_the_signal)
{
	struct call_log log = { 0 };
	struct tcb a = { .log = &log, .id = 1 }, b = { .log = &log, .id = 2 },
		   c = { .log = &log, .id = 3 }, never = { .log = &log, .id = 4 };
	struct tfence t;

	tf_init(&t, &plain_ops, dma_fence_context_alloc(1), 1);
	CHECK_EQ(dma_fence_add_callback(&t.base, &a.cb, record_cb), 0);
	CHECK_EQ(dma_fence_add_callback(&t.base, &b.cb, record_cb), 0);
	CHECK_EQ(dma_fence_add_callback(&t.base, &c.cb, record_cb), 0);
	CHECK(!dma_fence_remove_callback(&t.base, &never.cb)); /* never added */
	CHECK(dma_fence_remove_callback(&t.base, &b.cb));
	CHECK(!dma_fence_remove_callback(&t.base, &b.cb)); /* already taken back */

	CHECK_EQ(dma_fence_signal(&t.base), 0);
	CHECK_EQ(log.n, 2);
	CHECK_EQ(log.order[0], 1);
	CHECK_EQ(log.order[1], 3);
	/* It ran: nothing to take back. */
	CHECK(!dma_fence_remove_callback(&t.base, &a.cb));
	CHECK(!dma_fence_remove_callback(&t.base, &c.cb));
	CHECK_EQ(log.n, 2);
	CHECK_EQ(dma_fence_add_callback(&t.base, NULL, record_cb), -EINVAL);
	CHECK_EQ(dma_fence_add_callback(&t.base, &b.cb, NULL), -EINVAL);
	dma_fence_put(&t.base);
}

/* ---- 3. polled fences, status, errors ---- */

TEST(dmabuf_fence_is_signaled_asks_ops_signaled_and_signals)
{
	struct call_log log = { 0 };
	struct tcb cb = { .log = &log, .id = 7 }, late = { .log = &log, .id = 8 };
	struct tfence t;
	unsigned int polls;

	tf_init(&t, &polled_ops, dma_fence_context_alloc(1), 1);
	CHECK_EQ(dma_fence_add_callback(&t.base, &cb.cb, record_cb), 0);
	CHECK(!dma_fence_is_signaled(&t.base));
	CHECK(t.polls >= 1);
	CHECK_EQ(log.n, 0);
	CHECK_EQ(dma_fence_get_status(&t.base), 0);

	/* The work finished with nobody to signal it: the next question signals it. */
	t.done = true;
	CHECK(dma_fence_is_signaled(&t.base));
	CHECK(t.base.flags & (1UL << DMA_FENCE_FLAG_SIGNALED_BIT));
	CHECK_EQ(log.n, 1);
	CHECK_EQ(log.order[0], 7);
	CHECK_EQ(log.lock_free, 0);

	/* Signalled now: the flag answers, the poll is not asked, nothing runs twice. */
	polls = t.polls;
	CHECK(dma_fence_is_signaled(&t.base));
	CHECK_EQ(t.polls, polls);
	CHECK_EQ(log.n, 1);
	CHECK_EQ(dma_fence_signal(&t.base), -EINVAL);
	CHECK_EQ(dma_fence_get_status(&t.base), 1);

	/* An add on a fence the poll says is done is refused as after a signal. */
	{
		struct tfence u;

		tf_init(&u, &polled_ops, dma_fence_context_alloc(1), 1);
		u.done = true;
		CHECK_EQ(dma_fence_add_callback(&u.base, &late.cb, record_cb), -ENOENT);
		CHECK_EQ(log.n, 1);
		CHECK(u.base.flags & (1UL << DMA_FENCE_FLAG_SIGNALED_BIT));
	}
	dma_fence_put(&t.base);
}

TEST(dmabuf_fence_get_status_and_set_error)
{
	struct tfence ok, bad, late;

	quiet_process_log();
	tf_init(&ok, &plain_ops, dma_fence_context_alloc(1), 1);
	CHECK_EQ(dma_fence_get_status(&ok.base), 0);
	dma_fence_signal(&ok.base);
	CHECK_EQ(dma_fence_get_status(&ok.base), 1);

	tf_init(&bad, &plain_ops, dma_fence_context_alloc(1), 1);
	dma_fence_set_error(&bad.base, -EIO);
	CHECK_EQ(bad.base.error, -EIO);
	CHECK_EQ(dma_fence_get_status(&bad.base), 0); /* the error shows once it signals */
	/* Not a negative errno: refused, the error left alone. */
	dma_fence_set_error(&bad.base, 0);
	CHECK_EQ(bad.base.error, -EIO);
	dma_fence_set_error(&bad.base, EIO);
	CHECK_EQ(bad.base.error, -EIO);
	dma_fence_set_error(&bad.base, -4096);
	CHECK_EQ(bad.base.error, -EIO);
	dma_fence_set_error(&bad.base, -ETIMEDOUT); /* a later reason replaces it */
	CHECK_EQ(bad.base.error, -ETIMEDOUT);
	dma_fence_signal(&bad.base);
	CHECK_EQ(dma_fence_get_status(&bad.base), -ETIMEDOUT);

	/* After the signal the outcome is settled. */
	tf_init(&late, &plain_ops, dma_fence_context_alloc(1), 1);
	dma_fence_signal(&late.base);
	dma_fence_set_error(&late.base, -EIO);
	CHECK_EQ(late.base.error, 0);
	CHECK_EQ(dma_fence_get_status(&late.base), 1);
}

/* ---- 4. timelines ---- */

TEST(dmabuf_fence_context_alloc_returns_distinct_ranges)
{
	u64 a = dma_fence_context_alloc(3);
	u64 b = dma_fence_context_alloc(1);
	u64 c = dma_fence_context_alloc(2);
	u64 d = dma_fence_context_alloc(1);

	/* Each range starts past the end of the one before: none overlaps. */
	CHECK_MSG(b >= a + 3, "a=%llu b=%llu", (unsigned long long)a, (unsigned long long)b);
	CHECK_MSG(c >= b + 1, "b=%llu c=%llu", (unsigned long long)b, (unsigned long long)c);
	CHECK_MSG(d >= c + 2, "c=%llu d=%llu", (unsigned long long)c, (unsigned long long)d);
}

/* ---- 5. waits on a board whose devices run at yield points ---- */

/* A ticker and its line 0 on a quiet default board. */
struct rig {
	struct device *t;
	void __iomem *r;
	int irq;
};

static bool rig_add(struct rig *g, struct dmamap_platform *p, const char *name)
{
	g->t = p ? add_ticker(p, name) : NULL;
	g->r = g->t ? dmamap_device_ioremap(g->t) : NULL;
	g->irq = g->t ? dmamap_device_irq(g->t, 0) : -1;
	if (!g->r || g->irq <= 0)
		printf("#   ticker %s: no registers or no line\n", name);
	return g->r && g->irq > 0;
}

/* Line 0 rises at the @steps-th step from now. */
static void rig_arm(struct rig *g, uint32_t steps)
{
	writel(steps, g->r + TICK_TARGET);
	writel(steps, g->r + TICK_TODO);
}

/* What the handler saw: it signals its fence. */
struct irq_signal {
	struct dma_fence *fence;
	pthread_t thread;
	unsigned int calls;
	int ret;
	bool waiting;     /* the test is inside its wait */
	bool during_wait; /* the handler ran while it was */
	long nested_wait; /* what a wait inside the handler answered, if asked */
	struct dma_fence *wait_on;
};

static irqreturn_t signal_fence(int irq, void *dev_id)
{
	struct irq_signal *s = dev_id;

	(void)irq;
	s->calls++;
	s->thread = pthread_self();
	s->during_wait = s->waiting;
	if (s->wait_on)
		s->nested_wait = dma_fence_wait_timeout(s->wait_on, false, 5);
	s->ret = dma_fence_signal(s->fence);
	return IRQ_HANDLED;
}

TEST(dmabuf_fence_wait_timeout_signalled_by_an_interrupt_on_this_thread)
{
	struct dmamap_platform *p = quiet_board();
	struct irq_signal s = { 0 };
	struct tfence t;
	struct rig g;
	long ret;

	REQUIRE(p && rig_add(&g, p, "ticker"));
	tf_init(&t, &plain_ops, dma_fence_context_alloc(1), 1);
	s.fence = &t.base;
	CHECK_EQ(request_irq((unsigned int)g.irq, signal_fence, 0, "fence", &s), 0);
	rig_arm(&g, 50);
	CHECK_EQ(s.calls, 0); /* the interrupt is still ahead: only the wait can take it */

	s.waiting = true;
	ret = dma_fence_wait_timeout(&t.base, false, 100);
	s.waiting = false;
	CHECK_MSG(ret > 0 && ret <= 100, "ret %ld", ret);
	CHECK_EQ(s.calls, 1);
	CHECK(s.during_wait);
	CHECK(pthread_equal(s.thread, pthread_self()));
	CHECK_EQ(s.ret, 0);
	CHECK(dma_fence_is_signaled(&t.base));
	free_irq((unsigned int)g.irq, &s);
	dma_fence_put(&t.base);
	dmamap_platform_destroy(p);
}

TEST(dmabuf_fence_wait_timeout_nobody_signals_times_out_in_device_time)
{
	struct dmamap_platform *p = quiet_board();
	struct tfence t;
	struct rig g;
	uint32_t before, after;
	long ret;

	REQUIRE(p && rig_add(&g, p, "ticker"));
	tf_init(&t, &plain_ops, dma_fence_context_alloc(1), 1);
	/* A ticker that always has work counts one step per microsecond of device time. */
	writel(1, g.r + TICK_FOREVER);
	before = readl(g.r + TICK_DONE);
	ret = dma_fence_wait_timeout(&t.base, false, 5);
	after = readl(g.r + TICK_DONE);
	CHECK_EQ(ret, 0);
	CHECK_MSG(after - before >= 5000 && after - before <= 5000 + 16,
		  "waited %u us of device time for 5 jiffies", after - before);
	CHECK(!dma_fence_is_signaled(&t.base));
	CHECK_EQ(dma_fence_get_status(&t.base), 0);

	/* A zero timeout only looks. */
	before = readl(g.r + TICK_DONE);
	CHECK_EQ(dma_fence_wait_timeout(&t.base, false, 0), 0);
	after = readl(g.r + TICK_DONE);
	CHECK_MSG(after - before <= 2, "%u us for a zero timeout", after - before);
	writel(0, g.r + TICK_FOREVER);
	dma_fence_put(&t.base);
	dmamap_platform_destroy(p);
}

TEST(dmabuf_fence_wait_with_interrupts_off_is_edeadlk)
{
	struct dmamap_platform *p = quiet_board();
	struct tfence t, done;
	struct rig g;
	uint32_t before, after;
	long ret;

	REQUIRE(p && rig_add(&g, p, "ticker"));
	tf_init(&t, &plain_ops, dma_fence_context_alloc(1), 1);
	tf_init(&done, &plain_ops, dma_fence_context_alloc(1), 1);
	dma_fence_signal(&done.base);
	writel(1, g.r + TICK_FOREVER);

	local_irq_disable();
	before = readl(g.r + TICK_DONE);
	ret = dma_fence_wait_timeout(&t.base, false, 5);
	after = readl(g.r + TICK_DONE);
	/* Nothing to wait for: no false alarm. */
	CHECK(dma_fence_wait_timeout(&done.base, false, 5) > 0);
	local_irq_enable();
	CHECK_EQ(ret, -EDEADLK);
	/* Said at once, not after spinning through the timeout. */
	CHECK_MSG(after - before < 5000, "%u us spent before -EDEADLK", after - before);
	CHECK(!dma_fence_is_signaled(&t.base));
	writel(0, g.r + TICK_FOREVER);
	dmamap_platform_destroy(p);
}

TEST(dmabuf_fence_wait_inside_a_handler_is_edeadlk)
{
	struct dmamap_platform *p = quiet_board();
	struct irq_signal s = { 0 };
	struct tfence t, other;
	struct rig g;

	REQUIRE(p && rig_add(&g, p, "ticker"));
	tf_init(&t, &plain_ops, dma_fence_context_alloc(1), 1);
	tf_init(&other, &plain_ops, dma_fence_context_alloc(1), 1);
	s.fence = &t.base;
	s.wait_on = &other.base; /* signalled by nobody: a handler cannot wait for it */
	s.nested_wait = 12345;
	CHECK_EQ(request_irq((unsigned int)g.irq, signal_fence, 0, "fence", &s), 0);
	rig_arm(&g, 10);
	CHECK(dma_fence_wait_timeout(&t.base, false, 100) > 0);
	CHECK_EQ(s.calls, 1);
	CHECK_EQ(s.nested_wait, -EDEADLK);
	free_irq((unsigned int)g.irq, &s);
	dmamap_platform_destroy(p);
}

TEST(dmabuf_fence_wait_bad_arguments_are_einval)
{
	struct tfence t;

	tf_init(&t, &plain_ops, dma_fence_context_alloc(1), 1);
	CHECK_EQ(dma_fence_wait_timeout(NULL, false, 10), -EINVAL);
	CHECK_EQ(dma_fence_wait_timeout(&t.base, false, -1), -EINVAL);
	CHECK_EQ(dma_fence_wait(NULL, false), -EINVAL);
	/* Refused before looking: even a signalled fence. */
	dma_fence_signal(&t.base);
	CHECK_EQ(dma_fence_wait_timeout(&t.base, true, -5), -EINVAL);
}

TEST(dmabuf_fence_wait_returns_zero_once_signalled)
{
	struct dmamap_platform *p = quiet_board();
	struct irq_signal s = { 0 };
	struct tfence t, done;
	struct rig g;

	REQUIRE(p && rig_add(&g, p, "ticker"));
	tf_init(&done, &plain_ops, dma_fence_context_alloc(1), 1);
	dma_fence_signal(&done.base);
	CHECK_EQ(dma_fence_wait(&done.base, false), 0);
	CHECK_EQ(dma_fence_wait_timeout(&done.base, false, MAX_SCHEDULE_TIMEOUT),
		 MAX_SCHEDULE_TIMEOUT);

	/* Without a time limit, until the interrupt comes. */
	tf_init(&t, &plain_ops, dma_fence_context_alloc(1), 1);
	s.fence = &t.base;
	CHECK_EQ(request_irq((unsigned int)g.irq, signal_fence, 0, "fence", &s), 0);
	rig_arm(&g, 30);
	CHECK_EQ(dma_fence_wait(&t.base, true), 0);
	CHECK_EQ(s.calls, 1);
	CHECK(dma_fence_is_signaled(&t.base));
	free_irq((unsigned int)g.irq, &s);
	dmamap_platform_destroy(p);
}

/*
 * A timeout far beyond any real wait is still a timeout that long: it
 * must not wrap to a short one when turned into microseconds.
 */
TEST(dmabuf_fence_wait_timeout_huge_timeout_does_not_wrap)
{
	struct dmamap_platform *p = quiet_board();
	struct irq_signal s = { 0 };
	struct tfence t;
	struct rig g;
	long huge, ret;

	if (sizeof(long) < 8)
		SKIP("a 32-bit long cannot hold the timeout");
	/* 2^61 + 1 jiffies: times 1000, 1000 modulo 2^64, one jiffy if it wraps. */
	huge = (long)((1ULL << 61) + 1);
	REQUIRE(p && rig_add(&g, p, "ticker"));
	tf_init(&t, &plain_ops, dma_fence_context_alloc(1), 1);
	s.fence = &t.base;
	CHECK_EQ(request_irq((unsigned int)g.irq, signal_fence, 0, "fence", &s), 0);
	rig_arm(&g, 3000); /* 3 ms of device time */
	ret = dma_fence_wait_timeout(&t.base, false, huge);
	CHECK_MSG(ret > 0 && ret <= huge, "ret %ld after %u handler calls", ret, s.calls);
	CHECK_EQ(s.calls, 1);
	free_irq((unsigned int)g.irq, &s);
	dmamap_platform_destroy(p);
}

/* What a callback and a handler sharing the fence's lock saw of each other. */
struct kick {
	struct rig *g;
	spinlock_t *lock;
	bool in_cb;
	bool cb_irqs_off;        /* the callback found delivery disabled */
	unsigned int calls;      /* handler calls */
	bool handler_in_cb;      /* the handler ran inside the callback */
	bool handler_lock_busy;  /* ...with the lock it needs held by its own thread */
};

static irqreturn_t timeline_irq(int irq, void *dev_id)
{
	struct kick *k = dev_id;

	(void)irq;
	k->calls++;
	k->handler_in_cb |= k->in_cb;
	/* dma_fence_signal() of the next fence would take this lock: never block on it here. */
	if (pthread_mutex_trylock(&k->lock->mutex) == 0)
		pthread_mutex_unlock(&k->lock->mutex);
	else
		k->handler_lock_busy = true;
	return IRQ_HANDLED;
}

/* The next job is started from the callback: a doorbell, then a register read. */
static struct kick *the_kick;

static void kick_next_job(struct dma_fence *f, struct dma_fence_cb *cb)
{
	struct kick *k = the_kick;

	(void)f;
	(void)cb;
	k->in_cb = true;
	k->cb_irqs_off = irqs_disabled();
	writel(0, k->g->r + TICK_RAISE);
	readl(k->g->r + TICK_DONE);
	k->in_cb = false;
}

/*
 * The fence's lock is the timeline's, which its interrupt handler takes to
 * signal the next fence. Signalled from thread context, the callbacks run
 * with that lock held: an interrupt taken at a yield point inside one
 * would run a handler that waits for its own thread. Linux signals with
 * spin_lock_irqsave(); the handler must come after the lock is let go.
 */
TEST(dmabuf_fence_signal_keeps_interrupts_off_while_callbacks_run)
{
	struct dmamap_platform *p = quiet_board();
	struct kick k = { 0 };
	struct dma_fence_cb cb;
	struct tfence t;
	struct rig g;

	REQUIRE(p && rig_add(&g, p, "ticker"));
	tf_init(&t, &plain_ops, dma_fence_context_alloc(1), 1);
	k.g = &g;
	k.lock = &t.lock;
	the_kick = &k;
	CHECK_EQ(request_irq((unsigned int)g.irq, timeline_irq, 0, "timeline", &k), 0);
	CHECK_EQ(dma_fence_add_callback(&t.base, &cb, kick_next_job), 0);
	CHECK_EQ(dma_fence_signal(&t.base), 0);
	readl(g.r + TICK_DONE); /* a yield point with nothing held: the interrupt is taken by now */
	CHECK_EQ(k.calls, 1);
	CHECK(k.cb_irqs_off);
	CHECK(!k.handler_in_cb);
	CHECK(!k.handler_lock_busy);
	CHECK(!irqs_disabled()); /* and delivery is back on afterwards */
	free_irq((unsigned int)g.irq, &k);
	dmamap_platform_destroy(p);
}

/* Slow to answer once, then done: the wait's clock runs past its budget meanwhile. */
static bool slow_then_done(struct dma_fence *f)
{
	struct tfence *t = to_tf(f);

	if (++t->polls == 2) {
		struct timespec ts = { 0, 5 * 1000 * 1000 };

		nanosleep(&ts, NULL);
		return false;
	}
	return t->polls >= 3;
}

/*
 * Real time (no board: nothing steps at yield points), where the waiter
 * may be descheduled past its deadline while the fence signals: the time
 * left can be 0 or 1, never more than was given.
 */
TEST(dmabuf_fence_wait_timeout_never_returns_more_than_the_timeout)
{
	static const struct dma_fence_ops slow_ops = {
		.get_driver_name = tf_driver,
		.get_timeline_name = tf_timeline,
		.signaled = slow_then_done,
	};
	struct tfence t;
	uint64_t probe = 0;
	long ret;

	if (dmamap_poll_elapsed(&probe, 1) != 0)
		SKIP("device time: this needs real time");
	tf_init(&t, &slow_ops, dma_fence_context_alloc(1), 1);
	ret = dma_fence_wait_timeout(&t.base, false, 1);
	CHECK(dma_fence_is_signaled(&t.base));
	CHECK_MSG(ret >= 0 && ret <= 1, "1 jiffy given, %ld left", ret);
}

/* ---- 6. reservation objects ---- */

/* A page from the board's system heap: the smallest thing that has a dma_resv. */
static struct dma_buf *heap_buf(struct dmamap_platform *p)
{
	struct dma_heap *h = p ? dmamap_heap_find(p, "system") : NULL;
	struct dma_buf *b = h ? dma_heap_buffer_alloc(h, 4096, 0, 0) : NULL;

	if (IS_ERR_OR_NULL(b)) {
		printf("#   no system heap buffer: %ld\n", b ? PTR_ERR(b) : 0L);
		return NULL;
	}
	if (!b->resv)
		printf("#   the buffer has no reservation object\n");
	return b->resv ? b : NULL;
}

/* As a driver adds its job's fence: lock, room for one, add, unlock. */
static void add_one(struct dma_resv *obj, struct dma_fence *f, enum dma_resv_usage usage)
{
	CHECK_EQ(dma_resv_lock(obj, NULL), 0);
	CHECK_EQ(dma_resv_reserve_fences(obj, 1), 0);
	dma_resv_add_fence(obj, f, usage);
	dma_resv_unlock(obj);
}

TEST(dmabuf_resv_test_signaled_follows_the_usage_order)
{
	struct dmamap_platform *p = quiet_board();
	struct dma_buf *buf = heap_buf(p);
	struct tfence k, w, r, bk;
	struct dma_resv *obj;

	REQUIRE(buf);
	obj = buf->resv;
	tf_init(&k, &plain_ops, dma_fence_context_alloc(1), 1);
	tf_init(&w, &plain_ops, dma_fence_context_alloc(1), 1);
	tf_init(&r, &plain_ops, dma_fence_context_alloc(1), 1);
	tf_init(&bk, &plain_ops, dma_fence_context_alloc(1), 1);
	CHECK(dma_resv_test_signaled(obj, DMA_RESV_USAGE_BOOKKEEP)); /* empty */

	/* A reader in flight does not hold up another reader, only a writer. */
	add_one(obj, &r.base, DMA_RESV_USAGE_READ);
	CHECK(dma_resv_test_signaled(obj, DMA_RESV_USAGE_KERNEL));
	CHECK(dma_resv_test_signaled(obj, DMA_RESV_USAGE_WRITE));
	CHECK(!dma_resv_test_signaled(obj, DMA_RESV_USAGE_READ));
	CHECK(!dma_resv_test_signaled(obj, DMA_RESV_USAGE_BOOKKEEP));
	CHECK(dma_resv_test_signaled(obj, dma_resv_usage_rw(false)));
	CHECK(!dma_resv_test_signaled(obj, dma_resv_usage_rw(true)));

	add_one(obj, &w.base, DMA_RESV_USAGE_WRITE);
	CHECK(dma_resv_test_signaled(obj, DMA_RESV_USAGE_KERNEL));
	CHECK(!dma_resv_test_signaled(obj, DMA_RESV_USAGE_WRITE));

	add_one(obj, &k.base, DMA_RESV_USAGE_KERNEL);
	CHECK(!dma_resv_test_signaled(obj, DMA_RESV_USAGE_KERNEL));

	/* Each signal clears its usage and the ones before it, if nothing else holds them. */
	dma_fence_signal(&k.base);
	CHECK(dma_resv_test_signaled(obj, DMA_RESV_USAGE_KERNEL));
	CHECK(!dma_resv_test_signaled(obj, DMA_RESV_USAGE_WRITE));
	dma_fence_signal(&w.base);
	CHECK(dma_resv_test_signaled(obj, DMA_RESV_USAGE_WRITE));
	CHECK(!dma_resv_test_signaled(obj, DMA_RESV_USAGE_READ));

	/* Bookkeeping fences hold up only those who ask for them. */
	add_one(obj, &bk.base, DMA_RESV_USAGE_BOOKKEEP);
	dma_fence_signal(&r.base);
	CHECK(dma_resv_test_signaled(obj, DMA_RESV_USAGE_READ));
	CHECK(!dma_resv_test_signaled(obj, DMA_RESV_USAGE_BOOKKEEP));
	dma_fence_signal(&bk.base);
	CHECK(dma_resv_test_signaled(obj, DMA_RESV_USAGE_BOOKKEEP));
	CHECK(dma_resv_test_signaled(NULL, DMA_RESV_USAGE_BOOKKEEP));
	dma_buf_put(buf);
	dmamap_platform_destroy(p);
}

TEST(dmabuf_resv_test_signaled_asks_polled_fences)
{
	struct dmamap_platform *p = quiet_board();
	struct dma_buf *buf = heap_buf(p);
	struct tfence t;

	REQUIRE(buf);
	tf_init(&t, &polled_ops, dma_fence_context_alloc(1), 1);
	add_one(buf->resv, &t.base, DMA_RESV_USAGE_WRITE);
	CHECK(!dma_resv_test_signaled(buf->resv, DMA_RESV_USAGE_WRITE));
	t.done = true; /* finished, but nobody signalled it */
	CHECK(dma_resv_test_signaled(buf->resv, DMA_RESV_USAGE_WRITE));
	CHECK(t.base.flags & (1UL << DMA_FENCE_FLAG_SIGNALED_BIT));
	dma_buf_put(buf);
	dmamap_platform_destroy(p);
}

TEST(dmabuf_resv_add_fence_replaces_the_same_timeline_and_usage)
{
	struct dmamap_platform *p = quiet_board();
	struct dma_buf *buf = heap_buf(p);
	struct tfence older, newer, reader;
	struct dma_resv *obj;
	u64 ctx = dma_fence_context_alloc(1);

	REQUIRE(buf);
	obj = buf->resv;
	tf_init(&older, &plain_ops, ctx, 1);
	tf_init(&newer, &plain_ops, ctx, 2);
	tf_init(&reader, &plain_ops, ctx, 3);

	add_one(obj, &older.base, DMA_RESV_USAGE_WRITE);
	CHECK_EQ(older.base.refcount, 2); /* the object took one */
	dma_fence_put(&older.base);       /* the object's is the last one now */
	CHECK_EQ(older.released, 0);

	/* The same timeline, another usage: both stay. */
	add_one(obj, &reader.base, DMA_RESV_USAGE_READ);
	CHECK_EQ(older.released, 0);

	/* The same timeline and usage: the later job stands for both, the older is let go. */
	add_one(obj, &newer.base, DMA_RESV_USAGE_WRITE);
	CHECK_EQ(older.released, 1);
	CHECK_EQ(newer.base.refcount, 2);
	CHECK_EQ(newer.released, 0);
	CHECK(!dma_resv_test_signaled(obj, DMA_RESV_USAGE_WRITE));
	dma_fence_signal(&newer.base);
	CHECK(dma_resv_test_signaled(obj, DMA_RESV_USAGE_WRITE)); /* the older is not waited for */
	CHECK(!dma_resv_test_signaled(obj, DMA_RESV_USAGE_READ)); /* the reader still is */

	/* The buffer's last put lets go of what the object still holds. */
	dma_fence_put(&newer.base);
	dma_fence_put(&reader.base);
	CHECK_EQ(newer.released, 0);
	CHECK_EQ(reader.released, 0);
	dma_buf_put(buf);
	CHECK_EQ(newer.released, 1);
	CHECK_EQ(reader.released, 1);
	CHECK_EQ(older.released, 1);
	dmamap_platform_destroy(p);
}

/* An earlier job of a timeline added after a later one stands beside it: the later is still waited for. */
TEST(dmabuf_resv_an_earlier_fence_does_not_replace_a_later_one)
{
	struct dmamap_platform *p = quiet_board();
	struct dma_buf *buf = heap_buf(p);
	struct tfence later, earlier;
	u64 ctx = dma_fence_context_alloc(1);

	REQUIRE(buf);
	tf_init(&later, &plain_ops, ctx, 5);
	tf_init(&earlier, &plain_ops, ctx, 4);
	add_one(buf->resv, &later.base, DMA_RESV_USAGE_WRITE);
	add_one(buf->resv, &earlier.base, DMA_RESV_USAGE_WRITE);
	CHECK_EQ(later.released, 0);
	dma_fence_signal(&earlier.base);
	CHECK(!dma_resv_test_signaled(buf->resv, DMA_RESV_USAGE_WRITE));
	dma_fence_signal(&later.base);
	CHECK(dma_resv_test_signaled(buf->resv, DMA_RESV_USAGE_WRITE));
	dma_fence_put(&later.base);
	dma_fence_put(&earlier.base);
	dma_buf_put(buf);
	CHECK_EQ(later.released, 1);
	CHECK_EQ(earlier.released, 1);
	dmamap_platform_destroy(p);
}

TEST(dmabuf_resv_signalled_fences_are_dropped_at_the_next_add)
{
	struct dmamap_platform *p = quiet_board();
	struct dma_buf *buf = heap_buf(p);
	struct tfence a, b;

	REQUIRE(buf);
	tf_init(&a, &plain_ops, dma_fence_context_alloc(1), 1);
	tf_init(&b, &plain_ops, dma_fence_context_alloc(1), 1);
	add_one(buf->resv, &a.base, DMA_RESV_USAGE_WRITE);
	dma_fence_put(&a.base);
	dma_fence_signal(&a.base);
	CHECK_EQ(a.released, 0);
	add_one(buf->resv, &b.base, DMA_RESV_USAGE_READ); /* another timeline: no replacement */
	CHECK_EQ(a.released, 1);
	CHECK_EQ(b.released, 0);
	dma_buf_put(buf);
	dma_fence_put(&b.base);
	CHECK_EQ(b.released, 1);
	dmamap_platform_destroy(p);
}

TEST(dmabuf_resv_add_fence_without_room_is_refused)
{
	struct dmamap_platform *p = quiet_board();
	struct dma_buf *buf = heap_buf(p);
	struct tfence a, b;
	struct dma_resv *obj;
	unsigned long inv0;

	REQUIRE(buf);
	quiet_process_log();
	obj = buf->resv;
	tf_init(&a, &plain_ops, dma_fence_context_alloc(1), 1);
	tf_init(&b, &plain_ops, dma_fence_context_alloc(1), 1);

	/* Nothing reserved yet. */
	inv0 = invalid_args();
	CHECK_EQ(dma_resv_lock(obj, NULL), 0);
	dma_resv_add_fence(obj, &a.base, DMA_RESV_USAGE_WRITE);
	dma_resv_unlock(obj);
	CHECK_EQ(invalid_args(), inv0 + 1);
	CHECK_EQ(a.base.refcount, 1); /* no reference kept */
	CHECK(dma_resv_test_signaled(obj, DMA_RESV_USAGE_BOOKKEEP)); /* not added */

	/* Room for one is room for one: the second add needs its own. */
	CHECK_EQ(dma_resv_lock(obj, NULL), 0);
	CHECK_EQ(dma_resv_reserve_fences(obj, 1), 0);
	dma_resv_add_fence(obj, &a.base, DMA_RESV_USAGE_WRITE);
	CHECK_EQ(invalid_args(), inv0 + 1);
	dma_resv_add_fence(obj, &b.base, DMA_RESV_USAGE_READ);
	dma_resv_unlock(obj);
	CHECK_EQ(invalid_args(), inv0 + 2);
	CHECK_EQ(a.base.refcount, 2);
	CHECK_EQ(b.base.refcount, 1);
	dma_fence_signal(&a.base);
	CHECK(dma_resv_test_signaled(obj, DMA_RESV_USAGE_BOOKKEEP)); /* b was never in */

	/* Out of range or missing: refused the same way. */
	CHECK_EQ(dma_resv_lock(obj, NULL), 0);
	CHECK_EQ(dma_resv_reserve_fences(obj, 1), 0);
	dma_resv_add_fence(obj, &b.base, (enum dma_resv_usage)(DMA_RESV_USAGE_BOOKKEEP + 1));
	dma_resv_add_fence(obj, NULL, DMA_RESV_USAGE_READ);
	dma_resv_add_fence(NULL, &b.base, DMA_RESV_USAGE_READ);
	dma_resv_unlock(obj);
	CHECK_EQ(invalid_args(), inv0 + 5);
	CHECK_EQ(b.base.refcount, 1);
	CHECK_EQ(dma_resv_reserve_fences(NULL, 1), -EINVAL);

	dma_fence_put(&b.base);
	CHECK_EQ(b.released, 1);
	dma_buf_put(buf);
	dma_fence_put(&a.base);
	CHECK_EQ(a.released, 1);
	dmamap_platform_destroy(p);
}

TEST(dmabuf_resv_wait_timeout_waits_for_each_fence_up_to_the_usage)
{
	struct dmamap_platform *p = quiet_board();
	struct dma_buf *buf = heap_buf(p);
	struct irq_signal s1 = { 0 }, s2 = { 0 };
	struct tfence w, r;
	struct rig g1, g2;
	long ret;

	REQUIRE(buf && rig_add(&g1, p, "ticker1") && rig_add(&g2, p, "ticker2"));
	tf_init(&w, &plain_ops, dma_fence_context_alloc(1), 1);
	tf_init(&r, &plain_ops, dma_fence_context_alloc(1), 1);
	s1.fence = &w.base;
	s2.fence = &r.base;
	CHECK_EQ(request_irq((unsigned int)g1.irq, signal_fence, 0, "write", &s1), 0);
	CHECK_EQ(request_irq((unsigned int)g2.irq, signal_fence, 0, "read", &s2), 0);
	add_one(buf->resv, &w.base, DMA_RESV_USAGE_WRITE);
	add_one(buf->resv, &r.base, DMA_RESV_USAGE_READ);
	/* The writer finishes first, the reader well after: a wait must outlast both. */
	rig_arm(&g1, 40);
	rig_arm(&g2, 120);
	CHECK_EQ(s1.calls + s2.calls, 0);

	s1.waiting = s2.waiting = true;
	ret = dma_resv_wait_timeout(buf->resv, DMA_RESV_USAGE_READ, false, 100);
	s1.waiting = s2.waiting = false;
	CHECK_MSG(ret > 0 && ret <= 100, "ret %ld", ret);
	CHECK_EQ(s1.calls, 1);
	CHECK_EQ(s2.calls, 1);
	CHECK(s1.during_wait && s2.during_wait);
	CHECK(dma_fence_is_signaled(&w.base));
	CHECK(dma_fence_is_signaled(&r.base));
	CHECK(dma_resv_test_signaled(buf->resv, DMA_RESV_USAGE_BOOKKEEP));
	free_irq((unsigned int)g1.irq, &s1);
	free_irq((unsigned int)g2.irq, &s2);
	dma_buf_put(buf);
	dmamap_platform_destroy(p);
}

TEST(dmabuf_resv_wait_timeout_ignores_usages_after_the_one_asked)
{
	struct dmamap_platform *p = quiet_board();
	struct dma_buf *buf = heap_buf(p);
	struct irq_signal s = { 0 };
	struct tfence w, r;
	struct rig g;

	REQUIRE(buf && rig_add(&g, p, "ticker"));
	tf_init(&w, &plain_ops, dma_fence_context_alloc(1), 1);
	tf_init(&r, &plain_ops, dma_fence_context_alloc(1), 1); /* nobody signals it */
	s.fence = &w.base;
	CHECK_EQ(request_irq((unsigned int)g.irq, signal_fence, 0, "write", &s), 0);
	add_one(buf->resv, &r.base, DMA_RESV_USAGE_READ);
	add_one(buf->resv, &w.base, DMA_RESV_USAGE_WRITE);
	rig_arm(&g, 60);

	/* A reader waits for the writer only. */
	CHECK(dma_resv_wait_timeout(buf->resv, dma_resv_usage_rw(false), false, 100) > 0);
	CHECK_EQ(s.calls, 1);
	CHECK(!dma_fence_is_signaled(&r.base));
	/* A writer waits for the reader too, which never ends. */
	CHECK_EQ(dma_resv_wait_timeout(buf->resv, dma_resv_usage_rw(true), false, 2), 0);
	CHECK_EQ(dma_resv_wait_timeout(NULL, DMA_RESV_USAGE_READ, false, 2), -EINVAL);
	free_irq((unsigned int)g.irq, &s);
	dma_buf_put(buf);
	dmamap_platform_destroy(p);
}

/*
 * Two fences due at 2.5 and 5 ms, 3 jiffies for both: with the time left
 * carried from the first to the second the wait gives up, where a fresh
 * budget per fence would find both.
 */
TEST(dmabuf_resv_wait_timeout_carries_the_time_left)
{
	struct dmamap_platform *p = quiet_board();
	struct dma_buf *buf = heap_buf(p);
	struct irq_signal s1 = { 0 }, s2 = { 0 };
	struct tfence a, b;
	struct rig g1, g2;

	REQUIRE(buf && rig_add(&g1, p, "ticker1") && rig_add(&g2, p, "ticker2"));
	tf_init(&a, &plain_ops, dma_fence_context_alloc(1), 1);
	tf_init(&b, &plain_ops, dma_fence_context_alloc(1), 1);
	s1.fence = &a.base;
	s2.fence = &b.base;
	CHECK_EQ(request_irq((unsigned int)g1.irq, signal_fence, 0, "a", &s1), 0);
	CHECK_EQ(request_irq((unsigned int)g2.irq, signal_fence, 0, "b", &s2), 0);
	add_one(buf->resv, &a.base, DMA_RESV_USAGE_WRITE);
	add_one(buf->resv, &b.base, DMA_RESV_USAGE_WRITE);
	rig_arm(&g1, 2500);
	rig_arm(&g2, 5000);
	CHECK_EQ(dma_resv_wait_timeout(buf->resv, DMA_RESV_USAGE_WRITE, false, 3), 0);
	CHECK_EQ(s1.calls, 1);
	CHECK_EQ(s2.calls, 0);
	/* The rest of the time finds it. */
	CHECK(dma_resv_wait_timeout(buf->resv, DMA_RESV_USAGE_WRITE, false, 10) > 0);
	CHECK_EQ(s2.calls, 1);
	free_irq((unsigned int)g1.irq, &s1);
	free_irq((unsigned int)g2.irq, &s2);
	dma_buf_put(buf);
	dmamap_platform_destroy(p);
}

struct locker {
	struct dma_resv *obj;
	int ret;
	bool done;
};

static void *lock_from_another_thread(void *arg)
{
	struct locker *l = arg;

	l->ret = dma_resv_lock(l->obj, NULL);
	if (!l->ret)
		dma_resv_unlock(l->obj);
	__atomic_store_n(&l->done, true, __ATOMIC_RELEASE);
	return NULL;
}

TEST(dmabuf_resv_lock_refuses_an_acquire_context)
{
	struct dmamap_platform *p = quiet_board();
	struct dma_buf *buf = heap_buf(p);
	struct locker l = { 0 };
	pthread_t th;
	int ctx = 0;

	REQUIRE(buf);
	CHECK_EQ(dma_resv_lock(buf->resv, &ctx), -EINVAL);
	CHECK_EQ(dma_resv_lock(NULL, NULL), -EINVAL);
	dma_resv_unlock(NULL);

	/* The refused call did not take the lock: another thread gets it. */
	l.obj = buf->resv;
	REQUIRE(pthread_create(&th, NULL, lock_from_another_thread, &l) == 0);
	for (int i = 0; i < 2000 && !__atomic_load_n(&l.done, __ATOMIC_ACQUIRE); i++)
		usleep(1000);
	REQUIRE_MSG(__atomic_load_n(&l.done, __ATOMIC_ACQUIRE),
		    "the lock stayed held after a refused dma_resv_lock()");
	pthread_join(th, NULL);
	CHECK_EQ(l.ret, 0);
	CHECK_EQ(dma_resv_lock(buf->resv, NULL), 0);
	dma_resv_unlock(buf->resv);
	dma_buf_put(buf);
	dmamap_platform_destroy(p);
}

/* ---- 7. out of memory ---- */

TEST(dmabuf_resv_reserve_fences_enomem_leaves_the_object_unchanged)
{
	struct dmamap_platform *p = quiet_board();
	struct dma_buf *buf = heap_buf(p);
	struct tfence a, b, c;
	struct dma_resv *obj;
	unsigned long fired0, inv0;

	REQUIRE(buf);
	quiet_process_log();
	obj = buf->resv;
	tf_init(&a, &plain_ops, dma_fence_context_alloc(1), 1);
	tf_init(&b, &plain_ops, dma_fence_context_alloc(1), 1);
	tf_init(&c, &plain_ops, dma_fence_context_alloc(1), 1);
	add_one(obj, &a.base, DMA_RESV_USAGE_WRITE); /* the array is full now */

	/* The array must grow, and the library's one allocation point fails. */
	fired0 = dmamap_fault_injected(NULL);
	CHECK_EQ(dma_resv_lock(obj, NULL), 0);
	dmamap_fault_inject(NULL, DMAMAP_FAULT_ALLOC, 1);
	CHECK_EQ(dma_resv_reserve_fences(obj, 4), -ENOMEM);
	dmamap_fault_inject(NULL, 0, 0);
	CHECK_EQ(dmamap_fault_injected(NULL), fired0 + 1);

	/* No room was granted... */
	inv0 = invalid_args();
	dma_resv_add_fence(obj, &b.base, DMA_RESV_USAGE_WRITE);
	dma_resv_unlock(obj);
	CHECK_EQ(invalid_args(), inv0 + 1);
	CHECK_EQ(b.base.refcount, 1);
	/* ...and the fence it held is still there, still waited for. */
	CHECK_EQ(a.base.refcount, 2);
	CHECK(!dma_resv_test_signaled(obj, DMA_RESV_USAGE_WRITE));
	dma_fence_signal(&a.base);
	CHECK(dma_resv_test_signaled(obj, DMA_RESV_USAGE_WRITE));

	/* Memory back: the same call works. */
	add_one(obj, &b.base, DMA_RESV_USAGE_WRITE);
	CHECK_EQ(b.base.refcount, 2);
	/* The failed call granted nothing either: that room was used up by b. */
	CHECK_EQ(dma_resv_lock(obj, NULL), 0);
	dma_resv_add_fence(obj, &c.base, DMA_RESV_USAGE_WRITE);
	dma_resv_unlock(obj);
	CHECK_EQ(invalid_args(), inv0 + 2);
	CHECK_EQ(c.base.refcount, 1);
	CHECK(!dma_resv_test_signaled(obj, DMA_RESV_USAGE_WRITE));
	dma_fence_signal(&b.base);
	CHECK(dma_resv_test_signaled(obj, DMA_RESV_USAGE_WRITE));
	dma_buf_put(buf);
	CHECK_EQ(a.base.refcount, 1);
	CHECK_EQ(b.base.refcount, 1);
	dmamap_platform_destroy(p);
}
