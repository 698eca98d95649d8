/* SPDX-License-Identifier: MIT */
/*
 * dmamap demo: run the example memcpy driver on every device of a board,
 * verify every byte, and show what the DMA layer did for each device (ops
 * and why, bytes moved and mapped, cache maintenance, faults, reports).
 * With --bug the driver makes one classic mistake and the demo shows what
 * it costs on each kind of device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../drivers/memcpy_dma.h"
#include "cli.h"

#define ROUNDS 8
#define MAX_LINES 4

static const size_t sizes[] = { 64, 1000, 4096, 65536 - 192, 262144 };

struct capture {
	unsigned int count;
	char lines[MAX_LINES][512];
};

static void capture_log(void *ctx, int level, const char *line)
{
	struct capture *c = ctx;

	(void)level;
	if (c->count < MAX_LINES)
		snprintf(c->lines[c->count], sizeof(c->lines[0]), "%s", line);
	c->count++;
}

struct result {
	unsigned long transfers, failed, verified, wrong;
	struct capture log;
	struct dmamap_device_stats st;
};

static uint64_t rng = 0x243f6a8885a308d3ULL;

static void fill_pattern(uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		b[i] = (uint8_t)rng;
	}
}

static void count_wrong(struct result *r, const uint8_t *want, const uint8_t *got,
			size_t n)
{
	for (size_t i = 0; i < n; i++)
		r->wrong += want[i] != got[i];
	r->verified += n;
}

static void run_single(struct dmamap_platform *p, struct mcdma *m, size_t size,
		       enum mcdma_bug bug, struct result *r)
{
	size_t len = bug == MCDMA_BUG_SHARED_CACHELINE ? size - 8 : size;
	gfp_t align = bug == MCDMA_BUG_SHARED_CACHELINE ? 0 : DMAMAP_GFP_DMA_ALIGN;
	uint8_t *src = dmamap_kmalloc(p, size, DMAMAP_GFP_DMA_ALIGN);
	uint8_t *dst = dmamap_kmalloc(p, size, align | __GFP_ZERO);
	uint8_t *want = malloc(len), *seen = malloc(len);

	if (!src || !dst || !want || !seen) {
		r->failed++;
		goto out;
	}
	fill_pattern(want, len);
	r->transfers++;
	if (mcdma_copy_buf(m, dst, src, len, want, seen, bug))
		r->failed++;
	/* That bug's stamp is what the driver meant the result to hold. */
	if (bug == MCDMA_BUG_CPU_WRITE_WHILE_MAPPED)
		memset(want, MCDMA_STAMP, len < MCDMA_STAMP_LEN ? len : MCDMA_STAMP_LEN);
	count_wrong(r, want, seen, len);
out:
	free(want);
	free(seen);
	dmamap_kfree(p, src);
	dmamap_kfree(p, dst);
}

static void run_sg(struct dmamap_platform *p, struct mcdma *m, struct result *r)
{
	enum { N = 4, SEG = 3000 };
	struct scatterlist ssg[N], dsg[N];
	uint8_t *src[N] = { 0 }, *dst[N] = { 0 }, want[N][SEG];

	sg_init_table(ssg, N);
	sg_init_table(dsg, N);
	for (int i = 0; i < N; i++) {
		src[i] = dmamap_kmalloc(p, SEG, DMAMAP_GFP_DMA_ALIGN);
		dst[i] = dmamap_kmalloc(p, SEG, DMAMAP_GFP_DMA_ALIGN | __GFP_ZERO);
		if (!src[i] || !dst[i]) {
			r->failed++;
			goto out;
		}
		fill_pattern(want[i], SEG);
		memcpy(src[i], want[i], SEG);
		sg_set_buf(&ssg[i], src[i], SEG);
		sg_set_buf(&dsg[i], dst[i], SEG);
	}
	r->transfers++;
	if (mcdma_copy_sg(m, dsg, ssg, N))
		r->failed++;
	for (int i = 0; i < N; i++)
		count_wrong(r, want[i], dst[i], SEG);
out:
	for (int i = 0; i < N; i++) {
		dmamap_kfree(p, src[i]);
		dmamap_kfree(p, dst[i]);
	}
}

static void human(char *out, size_t len, uint64_t v)
{
	if (v >= 10ULL << 20)
		snprintf(out, len, "%.1f MiB", v / 1048576.0);
	else if (v >= 10ULL << 10)
		snprintf(out, len, "%.1f KiB", v / 1024.0);
	else
		snprintf(out, len, "%llu B", (unsigned long long)v);
}

static void print_text(struct device *dev, const struct result *r,
		       enum mcdma_bug bug)
{
	char ops[256], moved[32], mapped[32], bounced[32], cl[32], inv[32];
	const struct dmamap_device_stats *s = &r->st;

	cli_describe_ops(dev, ops, sizeof(ops));
	human(moved, sizeof(moved), s->dev_bytes_written);
	human(mapped, sizeof(mapped), s->bytes_mapped);
	human(bounced, sizeof(bounced), s->bytes_bounced);
	human(cl, sizeof(cl), s->cache_bytes_cleaned);
	human(inv, sizeof(inv), s->cache_bytes_invalidated);
	printf("%s\n", dev_name(dev));
	printf("  ops:      %s\n", ops);
	printf("  traffic:  %lu transfers, %s moved by the device, %s mapped, %s bounced, %llu IOMMU pages\n",
	       r->transfers, moved, mapped, bounced,
	       (unsigned long long)s->iommu_pages_mapped);
	printf("  cache:    %s cleaned, %s invalidated\n", cl, inv);
	{
		struct dmamap_dmabounce_stats db;

		if (!dmamap_dmabounce_stats(dev, &db))
			printf("  dmabounce: %llu of %llu maps bounced (small pool %llu, large %llu, own %llu), %llu B in, %llu B out, %llu failed\n",
			       (unsigned long long)db.bounced, (unsigned long long)db.map_ops,
			       (unsigned long long)db.small_allocs,
			       (unsigned long long)db.large_allocs,
			       (unsigned long long)db.coherent_allocs,
			       (unsigned long long)db.bytes_to_device,
			       (unsigned long long)db.bytes_from_device,
			       (unsigned long long)db.failures);
	}
	{
		struct dmamap_iommu_stats io;

		if (!dmamap_iommu_stats(dev, &io))
			printf("  iommu:    %llu pages mapped now, %llu map / %llu unmap calls, IOTLB %llu hits %llu misses %llu invalidations, %llu queue flushes, %llu translation + %llu permission faults\n",
			       (unsigned long long)io.pages_mapped,
			       (unsigned long long)io.map_calls,
			       (unsigned long long)io.unmap_calls,
			       (unsigned long long)io.iotlb_hits,
			       (unsigned long long)io.iotlb_misses,
			       (unsigned long long)io.iotlb_invalidations,
			       (unsigned long long)io.queue_flushes,
			       (unsigned long long)io.translation_faults,
			       (unsigned long long)io.permission_faults);
	}
	printf("  faults:   %llu   checker reports: %u   errors: %llu\n",
	       (unsigned long long)s->faults, r->log.count,
	       (unsigned long long)s->errors);
	for (unsigned int i = 0; i < r->log.count && i < MAX_LINES; i++)
		printf("    %s\n", r->log.lines[i]);
	if (r->log.count > MAX_LINES)
		printf("    ... %u more\n", r->log.count - MAX_LINES);
	printf("  data:     %lu bytes verified, %lu wrong%s  [%s]\n", r->verified,
	       r->wrong, r->failed ? ", some transfers failed" : "",
	       r->wrong || r->failed ?
		       (bug ? "CORRUPTED by the bug" : "FAILED") :
		       (bug ? "survived the bug on this device" : "OK"));
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void print_json(struct device *dev, const struct result *r, bool first)
{
	const struct dmamap_device_stats *s = &r->st;
	char ops[256];

	cli_describe_ops(dev, ops, sizeof(ops));
	printf("%s{\"device\":", first ? "" : ",");
	json_str(dev_name(dev));
	printf(",\"ops\":");
	json_str(ops);
	printf(",\"coherent\":%s,\"transfers\":%lu,\"failed\":%lu,"
	       "\"bytes_moved\":%llu,\"bytes_mapped\":%llu,\"bytes_bounced\":%llu,"
	       "\"cache_bytes_cleaned\":%llu,\"cache_bytes_invalidated\":%llu,"
	       "\"iommu_pages\":%llu,\"faults\":%llu,\"errors\":%llu,"
	       "\"verified\":%lu,\"wrong\":%lu,\"reports\":[",
	       dev_is_dma_coherent(dev) ? "true" : "false", r->transfers, r->failed,
	       (unsigned long long)s->dev_bytes_written,
	       (unsigned long long)s->bytes_mapped,
	       (unsigned long long)s->bytes_bounced,
	       (unsigned long long)s->cache_bytes_cleaned,
	       (unsigned long long)s->cache_bytes_invalidated,
	       (unsigned long long)s->iommu_pages_mapped,
	       (unsigned long long)s->faults, (unsigned long long)s->errors,
	       r->verified, r->wrong);
	for (unsigned int i = 0; i < r->log.count && i < MAX_LINES; i++) {
		if (i)
			putchar(',');
		json_str(r->log.lines[i]);
	}
	printf("],\"reports_total\":%u}", r->log.count);
}

int cli_demo(int argc, char **argv)
{
	const char *board = "default", *ram = NULL;
	enum mcdma_bug bug = MCDMA_BUG_NONE;
	uint64_t chaos = 0;
	bool json = false, progress = isatty(2);
	unsigned long bad = 0;
	struct dmamap_platform *p;
	unsigned int n;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--board") && i + 1 < argc) {
			board = argv[++i];
		} else if (!strcmp(argv[i], "--ram") && i + 1 < argc) {
			ram = argv[++i];
		} else if (!strcmp(argv[i], "--bug") && i + 1 < argc) {
			if (mcdma_bug_parse(argv[++i], &bug)) {
				fprintf(stderr, "dmamap demo: unknown bug '%s'\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--chaos") && i + 1 < argc) {
			char *end;

			chaos = strtoull(argv[++i], &end, 0);
			if (*end || !chaos) {
				fprintf(stderr, "dmamap demo: --chaos needs a non-zero number\n");
				return 2;
			}
		} else {
			fprintf(stderr, "dmamap demo: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	p = cli_open_board(board, ram);
	if (!p)
		return 1;
	dmamap_debug_enable(p, true);
	if (chaos)
		dmamap_sim_set_chaos(p, chaos, 0);
	n = dmamap_device_count(p);
	if (json)
		printf("{\"board\":\"%s\",\"bug\":\"%s\",\"chaos\":%llu,\"devices\":[",
		       board, mcdma_bug_name(bug), (unsigned long long)chaos);
	else
		printf("dmamap demo: board %s, %u devices, driver memcpy_dma%s%s%s\n\n",
		       board, n, bug ? ", bug " : "", bug ? mcdma_bug_name(bug) : "",
		       chaos ? ", chaos on" : "");
	for (unsigned int d = 0; d < n; d++) {
		struct device *dev = dmamap_device_at(p, d);
		struct result r = { 0 };
		struct mcdma m;

		if (strcmp(dmamap_device_model_name(dev), "memcpy"))
			continue;
		dmamap_set_log_hook(p, capture_log, &r.log);
		if (mcdma_probe(&m, dev, 64)) {
			r.failed++;
		} else {
			for (unsigned int round = 0; round < ROUNDS; round++) {
				for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
					run_single(p, &m, sizes[s], bug, &r);
				if (!bug)
					run_sg(p, &m, &r);
				if (progress)
					fprintf(stderr, "\r  %s: round %u/%u", dev_name(dev),
						round + 1, ROUNDS);
			}
			mcdma_remove(&m);
		}
		if (progress)
			fprintf(stderr, "\r%40s\r", "");
		dmamap_set_log_hook(p, NULL, NULL);
		dmamap_device_stats(dev, &r.st);
		bad += r.wrong + r.failed;
		if (json)
			print_json(dev, &r, d == 0);
		else
			print_text(dev, &r, bug);
	}
	if (json) {
		struct dmamap_swiotlb_stats sw;

		printf("]");
		if (!dmamap_swiotlb_stats(p, NULL, &sw))
			printf(",\"swiotlb\":{\"slots\":%llu,\"used\":%llu,\"high_water\":%llu,"
			       "\"bounced_maps\":%llu,\"bytes_to_device\":%llu,"
			       "\"bytes_from_device\":%llu,\"failures\":%llu}",
			       (unsigned long long)sw.total_slots, (unsigned long long)sw.used_slots,
			       (unsigned long long)sw.high_water, (unsigned long long)sw.bounced_maps,
			       (unsigned long long)sw.bytes_to_device,
			       (unsigned long long)sw.bytes_from_device,
			       (unsigned long long)sw.failures);
		printf("}\n");
	} else {
		struct dmamap_swiotlb_stats sw;

		if (!dmamap_swiotlb_stats(p, NULL, &sw))
			printf("\nswiotlb: %llu slots of %llu B at 0x%llx, %llu used now, high-water %llu; %llu maps bounced, %llu B copied in, %llu B out, %llu refused\n",
			       (unsigned long long)sw.total_slots, (unsigned long long)sw.slot_size,
			       (unsigned long long)sw.start, (unsigned long long)sw.used_slots,
			       (unsigned long long)sw.high_water,
			       (unsigned long long)sw.bounced_maps,
			       (unsigned long long)sw.bytes_to_device,
			       (unsigned long long)sw.bytes_from_device,
			       (unsigned long long)sw.failures);
		{
			struct dmamap_cma_stats cs;

			if (!dmamap_cma_stats(p, &cs))
				printf("cma: %llu pages at 0x%llx, %llu used now, high-water %llu, %llu allocations, largest free run %llu pages\n",
				       (unsigned long long)cs.total_pages,
				       (unsigned long long)cs.start,
				       (unsigned long long)cs.used_pages,
				       (unsigned long long)cs.high_water,
				       (unsigned long long)cs.allocs,
				       (unsigned long long)cs.largest_free_run);
		}
		if (!bug)
			printf("\n%s\n", bad ? "FAILED: some bytes were wrong" :
					      "all bytes verified on every device");
	}
	dmamap_platform_destroy(p);
	return bad && !bug ? 1 : 0;
}
