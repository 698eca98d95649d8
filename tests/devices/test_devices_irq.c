/* SPDX-License-Identifier: MIT */
/*
 * Interrupts: numbers for a model's lines, handlers installed and freed,
 * delivery at the next yield point of a thread that takes interrupts, never
 * nested, held while disabled, shared lines, and what is reported.
 */
#include <dmamap/interrupt.h>
#include <dmamap/io.h>
#include <dmamap/sim.h>
#include "../helpers.h"

struct seen {
	unsigned int calls, nested, at_done;
	int irq;
	void __iomem *regs;
	irqreturn_t answer;
	bool in_handler;
};

static irqreturn_t handler(int irq, void *dev_id)
{
	struct seen *s = dev_id;

	s->nested += s->in_handler;
	s->in_handler = true;
	s->calls++;
	s->irq = irq;
	if (s->regs) {
		s->at_done = readl(s->regs + TICK_DONE); /* a yield point: nothing nests */
		writel(1, s->regs + TICK_RAISE);          /* line 1, raised from the handler */
		readl(s->regs + TICK_DONE);
	}
	s->in_handler = false;
	return s->answer;
}

static struct dmamap_platform *setup(struct device **t, void __iomem **r, int *irq)
{
	struct dmamap_platform *p = checked(quiet_board());

	*t = p ? add_ticker(p, "ticker") : NULL;
	*r = *t ? dmamap_device_ioremap(*t) : NULL;
	*irq = *t ? dmamap_device_irq(*t, 0) : -1;
	return p;
}

TEST(irq_numbers_of_a_models_lines)
{
	struct device *t;
	void __iomem *r;
	int irq;
	struct dmamap_platform *p = setup(&t, &r, &irq);

	REQUIRE(p && r);
	CHECK(irq > 0);
	CHECK_EQ(dmamap_device_irq(t, 1), irq + 1);
	CHECK_EQ(dmamap_device_irq(t, 2), -ENXIO);
	CHECK_EQ(dmamap_device_irq(NULL, 0), -EINVAL);
	CHECK_EQ(dmamap_device_irq(lookup(p, "dma-nc"), 0) > 0, true); /* the memcpy engine has one */
	CHECK_EQ(request_irq(0, handler, 0, "x", NULL), -EINVAL);
	CHECK_EQ(request_irq(100000, handler, 0, "x", NULL), -EINVAL);
	CHECK_EQ(request_irq((unsigned int)irq, NULL, 0, "x", NULL), -EINVAL);
	CHECK_EQ(request_irq((unsigned int)irq, handler, IRQF_SHARED, "x", NULL), -EINVAL);
	dmamap_platform_destroy(p);
}

TEST(irq_delivered_once_at_the_next_yield_point_never_nested)
{
	struct device *t;
	void __iomem *r;
	int irq;
	struct dmamap_platform *p = setup(&t, &r, &irq);
	struct seen s = { .answer = IRQ_HANDLED };
	struct dmamap_sched_stats st;

	REQUIRE(p && r);
	s.regs = r;
	CHECK_EQ(request_irq((unsigned int)irq, handler, 0, "ticker", &s), 0);
	CHECK_EQ(request_irq((unsigned int)irq, handler, 0, "again", &s), -EBUSY);
	writel(3, r + TICK_TARGET);
	writel(10, r + TICK_TODO);
	CHECK_EQ(readl(r + TICK_DONE), 1);
	CHECK_EQ(readl(r + TICK_DONE), 2);
	CHECK_EQ(s.calls, 0);
	CHECK_EQ(readl(r + TICK_DONE), 3); /* the third step raised it... */
	CHECK_EQ(s.calls, 1);              /* ...delivered before the read returned */
	CHECK_EQ(s.irq, irq);
	CHECK_EQ(s.nested, 0);
	CHECK_EQ(dmamap_sim_run_devices(p, 0) > 0, true);
	CHECK_EQ(s.calls, 1);
	CHECK_EQ(dmamap_sim_sched_stats(p, &st), 0);
	CHECK_EQ(st.irqs_raised, 2); /* line 0, and line 1 from the handler (no handler there) */
	CHECK_EQ(st.irqs_delivered, 1);
	CHECK(free_irq((unsigned int)irq, &s) != NULL);
	EXPECT_NO_REPORTS();
	dmamap_platform_destroy(p);
}

TEST(irq_waits_while_disabled_and_while_a_thread_has_interrupts_off)
{
	struct device *t;
	void __iomem *r;
	int irq;
	struct dmamap_platform *p = setup(&t, &r, &irq);
	struct seen s = { .answer = IRQ_HANDLED };
	unsigned long flags;

	REQUIRE(p && r);
	CHECK_EQ(request_irq((unsigned int)irq, handler, 0, "ticker", &s), 0);
	disable_irq((unsigned int)irq);
	disable_irq((unsigned int)irq);
	writel(0, r + TICK_RAISE);
	readl(r + TICK_DONE);
	enable_irq((unsigned int)irq);
	readl(r + TICK_DONE);
	CHECK_EQ(s.calls, 0);
	enable_irq((unsigned int)irq);
	readl(r + TICK_DONE);
	CHECK_EQ(s.calls, 1);
	local_irq_save(flags);
	CHECK(irqs_disabled());
	writel(0, r + TICK_RAISE);
	readl(r + TICK_DONE);
	CHECK_EQ(s.calls, 1);
	local_irq_restore(flags);
	CHECK(!irqs_disabled());
	cpu_relax();
	CHECK_EQ(s.calls, 2);
	/* Raised before anyone listened: held until a handler comes. */
	free_irq((unsigned int)irq, &s);
	writel(0, r + TICK_RAISE);
	readl(r + TICK_DONE);
	CHECK_EQ(request_irq((unsigned int)irq, handler, 0, "ticker", &s), 0);
	readl(r + TICK_DONE);
	CHECK_EQ(s.calls, 3);
	free_irq((unsigned int)irq, &s);
	EXPECT_NO_REPORTS();
	dmamap_platform_destroy(p);
}

TEST(irq_shared_line_calls_handlers_until_one_handles_it)
{
	struct device *t;
	void __iomem *r;
	int irq;
	struct dmamap_platform *p = setup(&t, &r, &irq);
	struct seen a = { .answer = IRQ_NONE }, b = { .answer = IRQ_HANDLED };
	struct dmamap_sched_stats st;

	REQUIRE(p && r);
	CHECK_EQ(request_irq((unsigned int)irq, handler, IRQF_SHARED, "a", &a), 0);
	CHECK_EQ(request_irq((unsigned int)irq, handler, 0, "b", &b), -EBUSY);
	CHECK_EQ(request_irq((unsigned int)irq, handler, IRQF_SHARED, "b", &b), 0);
	writel(0, r + TICK_RAISE);
	readl(r + TICK_DONE);
	CHECK_EQ(a.calls, 1);
	CHECK_EQ(b.calls, 1);
	CHECK(!strcmp(free_irq((unsigned int)irq, &b), "b"));
	writel(0, r + TICK_RAISE);
	readl(r + TICK_DONE);
	CHECK_EQ(a.calls, 2);
	CHECK_EQ(b.calls, 1);
	CHECK_EQ(dmamap_sim_sched_stats(p, &st), 0);
	CHECK_EQ(st.irqs_unhandled, 1);
	CHECK(!strcmp(free_irq((unsigned int)irq, &a), "a"));
	EXPECT_NO_REPORTS();
	dmamap_platform_destroy(p);
}

TEST(irq_misuse_is_reported)
{
	struct device *t;
	void __iomem *r;
	int irq;
	struct dmamap_platform *p = setup(&t, &r, &irq);
	struct seen s = { .answer = IRQ_HANDLED };

	REQUIRE(p && r);
	rec_reset();
	CHECK(free_irq((unsigned int)irq, &s) == NULL);
	EXPECT_KINDS(DMAMAP_DBG_IRQ_MISUSE);
	EXPECT_ONLY(DMAMAP_DBG_IRQ_MISUSE, enable_irq((unsigned int)irq));
	CHECK_EQ(request_irq((unsigned int)irq, handler, 0, "forgotten", &s), 0);
	EXPECT_ONLY(DMAMAP_DBG_IRQ_MISUSE, dmamap_device_destroy(t));
	CHECK_EQ(request_irq((unsigned int)irq, handler, 0, "x", &s), -EINVAL); /* gone with it */
	disable_irq(100000);
	enable_irq(100000);
	synchronize_irq(100000);
	CHECK(free_irq(100000, &s) == NULL);
	dmamap_platform_destroy(p);
}

struct nest {
	void __iomem *regs;
	int irq;
	unsigned int calls;
};

/* A handler may synchronize or disable its own line without waiting for itself. */
static irqreturn_t self_sync(int irq, void *dev_id)
{
	struct nest *n = dev_id;

	n->calls++;
	synchronize_irq((unsigned int)irq);
	disable_irq_nosync((unsigned int)irq);
	enable_irq((unsigned int)irq);
	return IRQ_HANDLED;
}

TEST(irq_handler_may_synchronize_its_own_line)
{
	struct device *t;
	void __iomem *r;
	int irq;
	struct dmamap_platform *p = setup(&t, &r, &irq);
	struct nest n = { 0 };

	REQUIRE(p && r);
	CHECK_EQ(request_irq((unsigned int)irq, self_sync, 0, "self", &n), 0);
	writel(0, r + TICK_RAISE);
	readl(r + TICK_DONE);
	CHECK_EQ(n.calls, 1);
	free_irq((unsigned int)irq, &n);
	EXPECT_NO_REPORTS();
	dmamap_platform_destroy(p);
}

struct counter {
	unsigned int calls;
};

static irqreturn_t count_it(int irq, void *dev_id)
{
	struct counter *c = dev_id;

	(void)irq;
	__atomic_fetch_add(&c->calls, 1, __ATOMIC_RELAXED);
	return IRQ_HANDLED;
}

static unsigned int calls_of(struct counter *c)
{
	return __atomic_load_n(&c->calls, __ATOMIC_RELAXED);
}

TEST(irq_thread_delivers_on_the_device_thread)
{
	struct device *t;
	void __iomem *r;
	int irq;
	struct dmamap_platform *p = setup(&t, &r, &irq);
	struct counter c = { 0 };
	unsigned int v;

	REQUIRE(p && r);
	CHECK_EQ(request_irq((unsigned int)irq, count_it, 0, "threaded", &c), 0);
	CHECK_EQ(dmamap_sim_set_threaded(p, true), 0);
	local_irq_disable(); /* this thread takes none: the device thread must */
	writel(50, r + TICK_TARGET);
	writel(100, r + TICK_TODO);
	CHECK_EQ(readx_poll_timeout(calls_of, &c, v, v == 1, 10, 100000000), 0);
	local_irq_enable();
	synchronize_irq((unsigned int)irq);
	free_irq((unsigned int)irq, &c);
	dmamap_platform_destroy(p);
}

struct doomed {
	struct device *dev;
	int irq;
	unsigned int calls;
};

/* A handler that unbinds its own device (as a driver's remove on a fatal error would). */
static irqreturn_t destroy_self(int irq, void *dev_id)
{
	struct doomed *d = dev_id;

	(void)irq;
	d->calls++;
	dmamap_device_destroy(d->dev);
	return IRQ_HANDLED;
}

TEST(irq_a_handler_may_destroy_its_own_device)
{
	struct device *t;
	void __iomem *r;
	int irq;
	struct dmamap_platform *p = setup(&t, &r, &irq);
	struct doomed d = { t, irq, 0 };
	struct device *t2;
	int irq2;

	REQUIRE(p && r);
	CHECK_EQ(request_irq((unsigned int)irq, destroy_self, 0, "doomed", &d), 0);
	writel(0, r + TICK_RAISE);
	cpu_relax();
	CHECK_EQ(d.calls, 1);
	/* The number is free again and nothing waits for a handler that is gone. */
	synchronize_irq((unsigned int)irq);
	CHECK(free_irq((unsigned int)irq, &d) == NULL);
	t2 = add_ticker(p, "ticker2");
	REQUIRE(t2);
	irq2 = dmamap_device_irq(t2, 0);
	CHECK_EQ(irq2, irq); /* the same number, for the next device */
	synchronize_irq((unsigned int)irq2);
	dmamap_platform_destroy(p);
}

static int stop_ret;

static int load_stop(int *v)
{
	return __atomic_load_n(v, __ATOMIC_RELAXED);
}

static irqreturn_t stop_thread_from_handler(int irq, void *dev_id)
{
	struct dmamap_platform *p = dev_id;

	(void)irq;
	__atomic_store_n(&stop_ret, dmamap_sim_set_threaded(p, false), __ATOMIC_RELAXED);
	return IRQ_HANDLED;
}

TEST(irq_thread_cannot_stop_itself_from_a_handler)
{
	struct device *t;
	void __iomem *r;
	int irq, v;
	struct dmamap_platform *p = setup(&t, &r, &irq);

	REQUIRE(p && r);
	stop_ret = 1;
	CHECK_EQ(request_irq((unsigned int)irq, stop_thread_from_handler, 0, "stop", p), 0);
	CHECK_EQ(dmamap_sim_set_threaded(p, true), 0);
	local_irq_disable();
	writel(0, r + TICK_RAISE);
	CHECK_EQ(readx_poll_timeout(load_stop, &stop_ret, v, v != 1, 10, 10000000), 0);
	local_irq_enable();
	CHECK_EQ(v, -EDEADLK);
	CHECK_EQ(dmamap_sim_set_threaded(p, false), 0);
	free_irq((unsigned int)irq, p);
	dmamap_platform_destroy(p);
}
