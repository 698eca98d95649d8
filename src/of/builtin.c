/* SPDX-License-Identifier: MIT */
/* Built-in boards by name: the embedded boards/NAME.dts first, then the same in C. */
#include <pthread.h>
#include <string.h>
#include "../lib/log.h"
#include "of.h"

struct dmamap_platform *dmamap_platform_builtin(const char *name,
						struct dmamap_error *err)
{
	const struct dmamap_board *b = name ? dmamap__builtin_board(name) : NULL;
	struct dmamap_platform *p;
	struct dmamap_error e = { 0 };

	/* The boards/NAME.dts files first; the same boards in C serve builds without libfdt. */
	if (name && (p = dmamap__dt_builtin(name, &e)))
		return p;
	if (name && e.code) {
		if (err)
			*err = e;
		return NULL;
	}
	if (b)
		return dmamap_platform_create(b, err);
	dmamap__set_error(err, -ENOENT, "no built-in board named '%s'", name ? name : "(null)");
	return NULL;
}

static const char *builtin_names[32];
static pthread_once_t builtin_names_once = PTHREAD_ONCE_INIT;

/* The boards embedded from boards/NAME.dts, then the ones only written in C. */
static void builtin_names_init(void)
{
	unsigned int n = 0;

	for (unsigned int i = 0; n < 31 && dmamap__dt_builtin_name(i); i++)
		builtin_names[n++] = dmamap__dt_builtin_name(i);
	for (const char *const *c = dmamap__builtin_board_names; *c && n < 31; c++) {
		bool dup = false;

		for (unsigned int k = 0; k < n; k++)
			dup |= !strcmp(builtin_names[k], *c);
		if (!dup)
			builtin_names[n++] = *c;
	}
	builtin_names[n] = NULL;
}

const char *const *dmamap_platform_builtin_names(void)
{
	pthread_once(&builtin_names_once, builtin_names_init);
	return builtin_names;
}
