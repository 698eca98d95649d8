/* SPDX-License-Identifier: MIT */
/*
 * Ownership mode: a CPU access to memory a device owns traps. Mapping a
 * buffer for a device that does not snoop takes the CPU's access to its
 * whole pages (the platform's guarded pages); handing it back (sync for
 * the CPU, unmap) returns it. A trapped access is reported against the
 * mapping, with the place it was mapped and whether the CPU read or
 * wrote, and then goes on: the page is the CPU's again until the next
 * time the device is given the buffer. A strict platform aborts instead.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <ucontext.h>
#include "../lib/lib.h"
#include "../base/report.h"
#include "../platform/port.h"
#include "checker.h"

static struct sigaction earlier;
static pthread_once_t handler_once = PTHREAD_ONCE_INIT;

/* Not one of ours: whoever handled SIGSEGV before us, or the default (the access faults again). */
static void pass_on(int sig, siginfo_t *si, void *uc)
{
	if ((earlier.sa_flags & SA_SIGINFO) && earlier.sa_sigaction) {
		earlier.sa_sigaction(sig, si, uc);
		return;
	}
	if (earlier.sa_handler != SIG_DFL && earlier.sa_handler != SIG_IGN) {
		earlier.sa_handler(sig);
		return;
	}
	signal(SIGSEGV, SIG_DFL);
}

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	struct dmamap_platform *p = dmamap__port_guard_fault(si->si_addr);

	if (!p) {
		pass_on(sig, si, uc);
		return;
	}
	dmamap__dbg_cpu_access_trapped(p, si->si_addr, dmamap__fault_was_write(uc));
}

static void install_handler(void)
{
	struct sigaction sa = { 0 };

	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &earlier);
}

void dmamap__dbg_cpu_access_trapped(struct dmamap_platform *p, const void *addr, int write)
{
	const char *what = write > 0 ? "wrote" : write == 0 ? "read" : "touched";
	struct dbg_entry e;

	if (!dmamap__dbg_entry_of_cpu(p, addr, &e)) {
		/* The guard outlived its mapping (a free while mapped): still a CPU access to say. */
		dmamap__report(p, NULL, DMAMAP_DBG_CPU_ACCESS_WHILE_DEVICE_OWNS,
			       "CPU %s %p in a page a device owned", what, addr);
		return;
	}
	dmamap__report_at(p, e.dev, DMAMAP_DBG_CPU_ACCESS_WHILE_DEVICE_OWNS, e.addr, e.size, e.dir,
			  e.caller,
			  "CPU %s %p (+%llu into the buffer) while the device owns it, before dma_sync_*_for_cpu() or the unmap [device address=0x%llx] [size=%llu bytes] [%s]",
			  what, addr, (unsigned long long)((uintptr_t)addr - (uintptr_t)e.cpu),
			  (unsigned long long)e.addr, (unsigned long long)e.size,
			  dmamap__dir_name(e.dir));
}

int dmamap_debug_set_ownership(struct dmamap_platform *p, bool on)
{
	if (!p)
		return -EINVAL;
	/* On the host a device reads the CPU's own memory: there is nothing to take away. */
	if (dmamap__port_coherent(p))
		return -EOPNOTSUPP;
	if (on) {
		pthread_once(&handler_once, install_handler);
		if (!__atomic_load_n(&p->debug, __ATOMIC_RELAXED))
			dmamap_debug_enable(p, true);
	}
	/* Mappings made before keep their pages; the ones from now on are guarded. */
	__atomic_store_n(&p->ownership, on, __ATOMIC_RELAXED);
	return 0;
}
