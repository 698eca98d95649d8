/* SPDX-License-Identifier: MIT */
/* Scatter-gather tables, as Linux keeps them in lib/: CPU bookkeeping, in host memory. */
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <dmamap/scatterlist.h>
#include "mem.h"

void sg_init_table(struct scatterlist *sgl, unsigned int nents)
{
	if (!sgl || !nents)
		return;
	memset(sgl, 0, sizeof(*sgl) * nents);
	sg_mark_end(&sgl[nents - 1]);
}

void sg_init_one(struct scatterlist *sg, const void *buf, unsigned int buflen)
{
	sg_init_table(sg, 1);
	if (sg)
		sg_set_buf(sg, buf, buflen);
}

int sg_nents(struct scatterlist *sg)
{
	int n = 0;

	for (; sg; sg = sg_next(sg))
		n++;
	return n;
}

int sg_alloc_table(struct sg_table *table, unsigned int nents, gfp_t gfp_mask)
{
	(void)gfp_mask;
	if (!table)
		return -EINVAL;
	memset(table, 0, sizeof(*table));
	if (!nents || nents > (unsigned int)(SIZE_MAX / sizeof(struct scatterlist)))
		return -EINVAL;
	table->sgl = dmamap__malloc(sizeof(struct scatterlist) * nents);
	if (!table->sgl)
		return -ENOMEM;
	sg_init_table(table->sgl, nents);
	table->orig_nents = table->nents = nents;
	return 0;
}

void sg_free_table(struct sg_table *table)
{
	if (!table)
		return;
	free(table->sgl);
	memset(table, 0, sizeof(*table));
}
