/* SPDX-License-Identifier: MIT */
/*
 * Device time. A board's models make progress in steps, run at the CPU's
 * yield points (or on a device thread), so a driver sees its devices work
 * while it runs, as on hardware. The fixed schedule gives every busy device
 * one step per yield point, in creation order: a run replays exactly. A
 * seed varies the order and how far each device gets, so that the races
 * between a driver and its devices show under some seeds, and replays them.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sched.h>
#include "../lib/lib.h"
#include "../platform/port.h"
#include "hw.h"
#include "../lib/mem.h"

/* Boards with a scheduler, for the yield points that name no device (barriers, delays). */
static pthread_rwlock_t live_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct dmamap_sched **live;
static unsigned int nr_live, live_cap;
/* Of those, the boards whose devices step at yield points (not threaded): their time is device time. */
static unsigned int nr_stepped;
/* This thread is inside dmamap__sched_yield_all(): a nested one walks without the lock. */
static __thread bool walking_live;

/* A step budget that means "until idle" (bounded, so a device that never idles cannot hang a yield). */
#define UNTIL_IDLE 100000UL

static uint64_t next_rand(struct dmamap_sched *s)
{
	uint64_t x = s->rng;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	s->rng = x;
	return x;
}

static struct dmamap_sched *sched_create(struct dmamap_platform *p)
{
	struct dmamap_sched *s;

	if (dmamap__fault(&p->fault, DMAMAP_FAULT_ALLOC) || !(s = dmamap__calloc(1, sizeof(*s))))
		return NULL;
	pthread_rwlock_wrlock(&live_lock);
	if (nr_live == live_cap) {
		unsigned int cap = live_cap ? 2 * live_cap : 16;
		struct dmamap_sched **grown = dmamap__realloc(live, cap * sizeof(*live));

		if (!grown) {
			pthread_rwlock_unlock(&live_lock);
			free(s);
			return NULL;
		}
		live = grown;
		live_cap = cap;
	}
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->wake, NULL);
	s->plat = p;
	live[nr_live++] = s;
	__atomic_fetch_add(&nr_stepped, 1, __ATOMIC_RELAXED);
	pthread_rwlock_unlock(&live_lock);
	return s;
}

int dmamap__sched_add(struct device *dev)
{
	struct dmamap_platform *p = dev->plat;
	struct dmamap_sched *s = p->sched;

	if (!s) {
		s = sched_create(p);
		if (!s)
			return -ENOMEM;
		p->sched = s;
	}
	pthread_mutex_lock(&s->lock);
	if (s->n == s->cap) {
		unsigned int cap = s->cap ? 2 * s->cap : 16;
		struct device **grown = dmamap__fault(&p->fault, DMAMAP_FAULT_ALLOC) ? NULL :
					dmamap__realloc(s->devs, cap * sizeof(*s->devs));

		if (!grown) {
			pthread_mutex_unlock(&s->lock);
			return -ENOMEM;
		}
		s->devs = grown;
		s->cap = cap;
	}
	s->devs[s->n++] = dev;
	pthread_mutex_unlock(&s->lock);
	return 0;
}

void dmamap__sched_remove(struct device *dev)
{
	struct dmamap_sched *s = dev->plat->sched;

	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	for (unsigned int i = 0; i < s->n; i++) {
		if (s->devs[i] == dev) {
			memmove(&s->devs[i], &s->devs[i + 1], (s->n - i - 1) * sizeof(s->devs[0]));
			s->n--;
			break;
		}
	}
	dev->model_busy = false;
	dmamap__sched_rearm_locked(s);
	pthread_mutex_unlock(&s->lock);
}

static int stop_thread(struct dmamap_sched *s)
{
	pthread_mutex_lock(&s->lock);
	if (!s->threaded) {
		pthread_mutex_unlock(&s->lock);
		return 0;
	}
	/* From a handler on the device thread: it cannot wait for itself. */
	if (pthread_equal(pthread_self(), s->thread)) {
		pthread_mutex_unlock(&s->lock);
		return -EDEADLK;
	}
	s->stop = true;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	pthread_mutex_lock(&s->lock);
	s->threaded = false;
	s->stop = false;
	__atomic_fetch_add(&nr_stepped, 1, __ATOMIC_RELAXED);
	dmamap__sched_rearm_locked(s);
	pthread_mutex_unlock(&s->lock);
	return 0;
}

void dmamap__sched_destroy(struct dmamap_platform *p)
{
	struct dmamap_sched *s = p->sched;

	if (!s)
		return;
	stop_thread(s);
	pthread_rwlock_wrlock(&live_lock);
	for (unsigned int i = 0; i < nr_live; i++) {
		if (live[i] == s) {
			live[i] = live[--nr_live];
			__atomic_fetch_sub(&nr_stepped, 1, __ATOMIC_RELAXED);
			break;
		}
	}
	pthread_rwlock_unlock(&live_lock);
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->lock);
	free(s->devs);
	free(s);
	p->sched = NULL;
	p->yield_on = false;
}

bool dmamap__sched_any(void)
{
	return __atomic_load_n(&nr_live, __ATOMIC_RELAXED) != 0;
}

bool dmamap__device_time(void)
{
	return __atomic_load_n(&nr_stepped, __ATOMIC_RELAXED) != 0;
}

void dmamap__sched_rearm_locked(struct dmamap_sched *s)
{
	/* Device writes the CPU's loads have not caught up with need yield points to get there. */
	bool busy = s->pending != 0 || dmamap__port_order_busy(s->plat);

	for (unsigned int i = 0; i < s->n && !busy; i++)
		busy = s->devs[i]->model_busy;
	__atomic_store_n(&s->plat->yield_on, busy && !s->threaded, __ATOMIC_RELAXED);
}

void dmamap__sched_busy_locked(struct device *dev)
{
	struct dmamap_sched *s = dev->plat->sched;

	if (!dev->model || !dev->model->step || !s)
		return;
	dev->model_busy = true;
	__atomic_store_n(&s->plat->yield_on, !s->threaded, __ATOMIC_RELAXED);
	if (s->threaded)
		pthread_cond_signal(&s->wake);
}

/*
 * How many steps @dev gets at this yield point under a seed: mostly a few,
 * now and then none for a while (the device stalls: the CPU races ahead),
 * now and then all it has (the device races ahead of the CPU).
 */
static unsigned long seeded_budget(struct dmamap_sched *s, struct device *dev,
				   unsigned long budget)
{
	uint64_t r;

	if (dev->model_stall) {
		dev->model_stall--;
		return 0;
	}
	r = next_rand(s);
	switch (r % 16) {
	case 0:
		dev->model_stall = (unsigned int)(r >> 8) % 24;
		return 0;
	case 1:
		return UNTIL_IDLE;
	default:
		return budget > 1 ? budget : (r >> 8) % 5;
	}
}

__thread struct dmamap_sched *dmamap__model_ctx;

static void step_device(struct dmamap_sched *s, struct device *dev, unsigned long budget)
{
	dmamap__model_set_ctx(s);
	while (budget-- && dev->model_busy) {
		bool did;

		dev->model_again = false;
		did = dev->model->step(dev, dev->model_priv);
		s->now++;
		s->stats.steps++;
		if (!did) {
			/* A device that polls woke itself: nothing more this time, but the next yield point. */
			dev->model_busy = dev->model_again;
			if (dev->model_again)
				break;
		}
	}
	dmamap__model_set_ctx(NULL);
}

void dmamap__sched_run_locked(struct dmamap_sched *s, unsigned long budget)
{
	unsigned int n = s->n, first = 0;

	if (!n)
		return;
	s->stats.yields++;
	if (s->seed)
		first = (unsigned int)(next_rand(s) % n);
	for (unsigned int k = 0; k < n; k++) {
		struct device *dev = s->devs[(first + k) % n];

		if (!dev->model_busy)
			continue;
		step_device(s, dev, s->seed ? seeded_budget(s, dev, budget) : budget);
	}
	dmamap__sched_rearm_locked(s);
}

/*
 * A yield point of the CPU that is also @ev for the memory order: the
 * devices step (if any is busy), then @ev takes effect, then interrupts.
 */
static void yield_ev(struct dmamap_platform *p, unsigned long budget, enum dmamap_order_event ev)
{
	struct dmamap_sched *s = p->sched;
	bool step = __atomic_load_n(&p->yield_on, __ATOMIC_RELAXED);

	/*
	 * Nothing steps from inside a model callback (a report hook the
	 * model's access set off may call the DMA API): the lock is held.
	 */
	if (!s || s->threaded || dmamap__model_ctx)
		return;
	/* A barrier matters to an idle board only if it follows memory's order. */
	if (!step && (ev == ORDER_TICK || !dmamap__port_order_on(p)))
		return;
	pthread_mutex_lock(&s->lock);
	if (!s->threaded) {
		if (step)
			dmamap__sched_run_locked(s, budget);
		dmamap__port_order_event(p, ev);
		dmamap__sched_rearm_locked(s);
	}
	pthread_mutex_unlock(&s->lock);
	dmamap__port_order_flush(p);
	if (__atomic_load_n(&s->pending, __ATOMIC_RELAXED))
		dmamap__irq_deliver(s);
}

void dmamap__sched_yield(struct dmamap_platform *p, unsigned long budget)
{
	/* Time passed for the memory too: the CPU's loads catch up a little. */
	yield_ev(p, budget, ORDER_TICK);
}

/*
 * A yield point (ORDER_TICK) or a barrier on every board with devices.
 * From a model callback (a report hook) nothing steps: nor is the list's
 * lock taken under the scheduler's.
 */
static void walk_live(unsigned long budget, enum dmamap_order_event ev)
{
	bool outer = !walking_live;

	if (!dmamap__sched_any() || dmamap__model_ctx)
		return;
	if (outer) {
		pthread_rwlock_rdlock(&live_lock);
		walking_live = true;
	}
	for (unsigned int i = 0; i < nr_live; i++)
		yield_ev(live[i]->plat, budget, ev);
	if (outer) {
		walking_live = false;
		pthread_rwlock_unlock(&live_lock);
	}
}

void dmamap__sched_yield_all(unsigned long budget)
{
	walk_live(budget, ORDER_TICK);
}

void dmamap__sched_barrier_all(int ev)
{
	walk_live(1, (enum dmamap_order_event)ev);
}

/* ---- the device thread ----------------------------------------------------- */

static void *device_thread(void *arg)
{
	struct dmamap_sched *s = arg;

	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		bool busy = false;

		for (unsigned int i = 0; i < s->n; i++)
			busy |= s->devs[i]->model_busy;
		if (!busy && !s->pending) {
			struct timespec ts;

			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 2000000;
			if (ts.tv_nsec >= 1000000000) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000;
			}
			pthread_cond_timedwait(&s->wake, &s->lock, &ts);
			continue;
		}
		dmamap__sched_run_locked(s, 1);
		pthread_mutex_unlock(&s->lock);
		if (__atomic_load_n(&s->pending, __ATOMIC_RELAXED))
			dmamap__irq_deliver(s);
		sched_yield(); /* let the CPU threads in between steps */
		pthread_mutex_lock(&s->lock);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/* ---- public controls ----------------------------------------------------------- */

static struct dmamap_sched *sched_of(struct dmamap_platform *p)
{
	if (!p->sched)
		p->sched = sched_create(p);
	return p->sched;
}

int dmamap_sim_set_schedule(struct dmamap_platform *p, uint64_t seed)
{
	struct dmamap_sched *s;

	if (!p)
		return -EINVAL;
	if (!(s = sched_of(p)))
		return -ENOMEM;
	pthread_mutex_lock(&s->lock);
	s->seed = seed;
	s->rng = seed ? seed * 0x9e3779b97f4a7c15ULL | 1 : 0;
	dmamap__port_order_seed(p, seed);
	for (unsigned int i = 0; i < s->n; i++)
		s->devs[i]->model_stall = 0;
	pthread_mutex_unlock(&s->lock);
	return 0;
}

bool dmamap_sim_threaded(const struct dmamap_platform *p)
{
	return p && p->sched && __atomic_load_n(&p->sched->threaded, __ATOMIC_ACQUIRE);
}

int dmamap_sim_set_threaded(struct dmamap_platform *p, bool on)
{
	struct dmamap_sched *s;
	int ret = 0;

	if (!p)
		return -EINVAL;
	if (!(s = sched_of(p)))
		return -ENOMEM;
	if (!on) {
		ret = stop_thread(s);
		if (!ret)
			dmamap__port_order_pause(p, false);
		return ret;
	}
	pthread_mutex_lock(&s->lock);
	if (!s->threaded) {
		/* The device thread sees the host's own memory order: the model steps aside. */
		dmamap__port_order_pause(p, true);
		s->threaded = true;
		if (pthread_create(&s->thread, NULL, device_thread, s)) {
			s->threaded = false;
			dmamap__port_order_pause(p, false);
			ret = -EAGAIN;
		} else {
			__atomic_fetch_sub(&nr_stepped, 1, __ATOMIC_RELAXED);
		}
		dmamap__sched_rearm_locked(s);
	}
	pthread_mutex_unlock(&s->lock);
	dmamap__port_order_flush(p);
	return ret;
}

long dmamap_sim_run_devices(struct dmamap_platform *p, unsigned long max_steps)
{
	struct dmamap_sched *s;
	uint64_t start;
	long ret;

	if (!p)
		return -EINVAL;
	s = p->sched;
	if (!s)
		return 0;
	if (!max_steps)
		max_steps = 1000000;
	if (__atomic_load_n(&s->pending, __ATOMIC_RELAXED))
		dmamap__irq_deliver(s);
	pthread_mutex_lock(&s->lock);
	start = s->now;
	for (;;) {
		bool busy = false;

		for (unsigned int i = 0; i < s->n; i++)
			busy |= s->devs[i]->model_busy;
		/* Interrupts nobody takes (no handler, disabled) stay pending: they do not keep it going. */
		if (!busy || s->now - start >= max_steps || s->threaded)
			break;
		/* Each device to idle, in order: the fixed schedule's result, whatever the seed. */
		for (unsigned int i = 0; i < s->n; i++)
			step_device(s, s->devs[i], max_steps - (s->now - start));
		dmamap__sched_rearm_locked(s);
		pthread_mutex_unlock(&s->lock);
		dmamap__port_order_flush(p);
		if (__atomic_load_n(&s->pending, __ATOMIC_RELAXED))
			dmamap__irq_deliver(s);
		pthread_mutex_lock(&s->lock);
	}
	ret = (long)(s->now - start);
	for (unsigned int i = 0; i < s->n; i++)
		if (s->devs[i]->model_busy && !s->threaded)
			ret = -EBUSY;
	/* Settled: what the devices wrote is the CPU's to read, as after a full barrier. */
	dmamap__port_order_event(p, ORDER_MB);
	dmamap__sched_rearm_locked(s);
	pthread_mutex_unlock(&s->lock);
	dmamap__port_order_flush(p);
	return ret;
}

int dmamap_sim_sched_stats(struct dmamap_platform *p, struct dmamap_sched_stats *st)
{
	if (!p || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	if (!p->sched)
		return 0;
	pthread_mutex_lock(&p->sched->lock);
	*st = p->sched->stats;
	pthread_mutex_unlock(&p->sched->lock);
	return 0;
}

uint64_t dmamap_model_now(struct device *dev)
{
	if (!dev || !dev->plat->sched)
		return 0;
	return __atomic_load_n(&dev->plat->sched->now, __ATOMIC_RELAXED);
}

bool dmamap__sched_enter(struct dmamap_sched *s)
{
	if (dmamap__model_ctx == s)
		return false;
	pthread_mutex_lock(&s->lock);
	return true;
}

void dmamap__sched_leave(struct dmamap_sched *s, bool taken)
{
	if (taken)
		pthread_mutex_unlock(&s->lock);
}

void dmamap_model_wake(struct device *dev)
{
	struct dmamap_sched *s;
	bool taken;

	if (!dev || !(s = dev->plat->sched))
		return;
	taken = dmamap__sched_enter(s);
	dev->model_again = true;
	dmamap__sched_busy_locked(dev);
	dmamap__sched_leave(s, taken);
}
