/* SPDX-License-Identifier: MIT */
/* The clock tests measure real time by (CLOCK_MONOTONIC: never set back). */
#include <time.h>
#include "../helpers.h"

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
