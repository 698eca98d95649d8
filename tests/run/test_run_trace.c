/* SPDX-License-Identifier: MIT */
/*
 * --trace and --trace-text: every run's events, the JSON one document
 * Python reads, with a process per run, a track per buffer showing who
 * owned it, the bounce on a 24-bit device and the report where it came.
 */
#include <signal.h>
#include <unistd.h>
#include "../../drivers/memcpy_dma.h"
#include "run_helpers.h"

ENGINE_DRIVER(trace_drv, "run-trace");

/* A round trip through a bounced mapping, then an unmap of the wrong size. */
DMAMAP_DRIVER_TEST(trace_drv, bounce_then_wrong_size)
{
	struct dmamap_platform *p = dmamap_device_platform(&pdev->dev);
	uint8_t *buf = dmamap_kmalloc(p, 1024, DMAMAP_GFP_DMA_ALIGN);
	dma_addr_t h = dma_map_single(&pdev->dev, buf, 1024, DMA_FROM_DEVICE);

	DMAMAP_ASSERT(!dma_mapping_error(&pdev->dev, h));
	dma_sync_single_for_cpu(&pdev->dev, h, 1024, DMA_FROM_DEVICE);
	dma_sync_single_for_device(&pdev->dev, h, 1024, DMA_FROM_DEVICE);
	dma_unmap_single(&pdev->dev, h, 512, DMA_FROM_DEVICE);
}

TEST(run_trace_writes_a_chrome_trace_and_ftrace_lines)
{
	char json[] = "/tmp/dmamap-trace-XXXXXX", text[] = "/tmp/dmamap-ftrace-XXXXXX";
	struct dmamap_run_options o = { .device = "dma-24", .first_seed = 1, .last_seed = 2,
					.jobs = 2, .trace = json, .trace_text = text };
	struct dmamap_run_summary sum;
	char cmd[2048], *out;
	int a, b;

	need_fdt();
	if (system("python3 -c 'import json' 2>/dev/null"))
		SKIP("python3 is not installed");
	a = mkstemp(json);
	b = mkstemp(text);
	CHECK(a >= 0 && b >= 0);
	close(a);
	close(b);
	CHECK(platform_driver_register(&trace_drv) == 0);
	CHECK(run_into(&o, &sum, &out) == 2);
	CHECK_MSG(strstr(out, "replay: dmamap run --board default --device dma-24 --seeds 1 --trace dma-24-1.json\n"),
		  "%s", out);
	snprintf(cmd, sizeof(cmd),
		 "python3 - '%s' '%s' <<'PY'\n"
		 "import json, sys\n"
		 "ev = json.load(open(sys.argv[1]))['traceEvents']\n"
		 "procs = sorted(e['args']['name'] for e in ev if e['name'] == 'process_name' and e['pid'])\n"
		 "assert procs == ['dma-24 seed 1', 'dma-24 seed 2'], procs\n"
		 "for pid in (1, 2):\n"
		 "    mine = [e for e in ev if e.get('pid') == pid]\n"
		 "    names = [e['name'] for e in mine]\n"
		 "    for want in ('dma_map_phys', 'swiotlb_bounced', 'dma_sync_single_for_cpu',\n"
		 "                 'dma_sync_single_for_device', 'dma_unmap_phys', 'report: wrong-size'):\n"
		 "        assert want in names, (pid, want)\n"
		 "    bufs = [e for e in mine if e['ph'] == 'M' and e['name'] == 'thread_name' and 'buffer' in e['args']['name']]\n"
		 "    tid = [e['tid'] for e in bufs if '+1024 FROM_DEVICE' in e['args']['name']]\n"
		 "    assert len(tid) == 1, [e['args']['name'] for e in bufs]\n"
		 "    spans = [e['name'] for e in mine if e.get('tid') == tid[0] and e['ph'] == 'X']\n"
		 "    assert spans == ['device owns', 'CPU owns', 'device owns'], spans\n"
		 "    marks = [e['name'] for e in mine if e.get('tid') == tid[0] and e['ph'] == 'i']\n"
		 "    assert 'bounced (swiotlb)' in marks and 'report: wrong-size' in marks, marks\n"
		 "    assert 'dmamap_cache_invalidate' in marks, marks\n"
		 "lines = open(sys.argv[2]).read().splitlines()\n"
		 "assert lines.count('# dma-24 seed 1') == 1 and lines.count('# dma-24 seed 2') == 1, lines[:3]\n"
		 "assert any(': dma_map_phys: dma-24 dir=FROM_DEVICE ' in l and ' size=1024 ' in l for l in lines)\n"
		 "assert any(': dmamap_report: dma-24 kind=wrong-size ' in l for l in lines)\n"
		 "PY",
		 json, text);
	CHECK(system(cmd) == 0);
	/* The parts are gone: only the two files are left. */
	snprintf(cmd, sizeof(cmd), "ls %s.part* %s.part* 2>/dev/null | grep -q .", json, text);
	CHECK(system(cmd) != 0);
	unlink(json);
	unlink(text);
	free(out);
}

ENGINE_DRIVER(trace_more_drv, "run-trace-more");

/*
 * A bounced list, then a map on a coherent device that bounces nothing;
 * memory from dma_alloc_noncontiguous(); then the worker dies.
 */
DMAMAP_DRIVER_TEST(trace_more_drv, lists_tables_and_a_crash)
{
	struct dmamap_platform *p = dmamap_device_platform(&pdev->dev);
	struct device *coh = dmamap_device_lookup(p, "dma-coh");
	uint8_t *a = dmamap_kmalloc(p, 512, DMAMAP_GFP_DMA_ALIGN);
	uint8_t *b = dmamap_kmalloc(p, 768, DMAMAP_GFP_DMA_ALIGN);
	uint8_t *c = dmamap_kmalloc(p, 256, DMAMAP_GFP_DMA_ALIGN);
	struct scatterlist sg[2];
	struct sg_table *sgt;
	dma_addr_t h;

	DMAMAP_ASSERT(coh && a && b && c);
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], a, 512);
	sg_set_buf(&sg[1], b, 768);
	DMAMAP_ASSERT_EQ(dma_map_sg(&pdev->dev, sg, 2, DMA_TO_DEVICE), 2);
	dma_sync_sg_for_device(&pdev->dev, sg, 2, DMA_TO_DEVICE);
	h = dma_map_single(coh, c, 256, DMA_TO_DEVICE);
	DMAMAP_ASSERT(!dma_mapping_error(coh, h));
	sgt = dma_alloc_noncontiguous(&pdev->dev, 8192, DMA_BIDIRECTIONAL, GFP_KERNEL, 0);
	DMAMAP_ASSERT(sgt);
	dma_sync_sgtable_for_device(&pdev->dev, sgt, DMA_BIDIRECTIONAL);
	raise(SIGSEGV);
}

TEST(run_trace_follows_lists_and_tables_and_ends_a_crashed_run_with_why)
{
	char json[] = "/tmp/dmamap-trace-XXXXXX", text[] = "/tmp/dmamap-ftrace-XXXXXX";
	struct dmamap_run_options o = { .device = "dma-24", .first_seed = 1, .last_seed = 1,
					.jobs = 1, .trace = json, .trace_text = text };
	struct dmamap_run_summary sum;
	char cmd[2048], *out;
	int fd, fd2;

	need_fdt();
	if (system("python3 -c 'import json' 2>/dev/null"))
		SKIP("python3 is not installed");
	fd = mkstemp(json);
	fd2 = mkstemp(text);
	CHECK(fd >= 0 && fd2 >= 0);
	close(fd);
	close(fd2);
	CHECK(platform_driver_register(&trace_more_drv) == 0);
	CHECK(run_into(&o, &sum, &out) == 1);
	CHECK(sum.failed == 1);
	snprintf(cmd, sizeof(cmd),
		 "python3 - '%s' <<'PY'\n"
		 "import json, sys\n"
		 "ev = json.load(open(sys.argv[1]))['traceEvents']\n"
		 "names = {e['tid']: e['args']['name'] for e in ev if e['ph'] == 'M' and e['name'] == 'thread_name'}\n"
		 "def track(dev, part):\n"
		 "    t = [tid for tid, n in names.items() if n.startswith(dev + ' buffer ') and part in n]\n"
		 "    assert len(t) == 1, (part, names)\n"
		 "    return [e['name'] for e in ev if e.get('tid') == t[0] and e['ph'] in 'iX']\n"
		 "for seg in ('+512 TO_DEVICE', '+768 TO_DEVICE'):\n"
		 "    marks = track('dma-24', seg)\n"
		 "    assert 'bounced (swiotlb)' in marks and 'dmamap_cache_clean' in marks, (seg, marks)\n"
		 "assert 'bounced (swiotlb)' not in track('dma-coh', '+256'), track('dma-coh', '+256')\n"
		 "sgt = track('dma-24', '+8192 BIDIRECTIONAL')\n"
		 "assert 'dma_sync_sg_for_device' in sgt, sgt\n"
		 "assert 'CPU owns' in sgt, sgt\n"
		 "end = [e for e in ev if e['name'] == 'run crashed']\n"
		 "assert len(end) == 1 and 'crashed in test lists_tables_and_a_crash' in end[0]['args']['event'], end\n"
		 "assert end[0]['ts'] >= max(e.get('ts', 0) for e in ev if e.get('pid') == 1), end\n"
		 "PY",
		 json);
	CHECK(system(cmd) == 0);
	/* The text trace ends the crashed run with the same words, as a comment. */
	snprintf(cmd, sizeof(cmd), "tail -n 1 %s | grep -q '^# crashed in test lists_tables_and_a_crash: '", text);
	CHECK(system(cmd) == 0);
	unlink(json);
	unlink(text);
	free(out);
}

ENGINE_DRIVER(trace_life_drv, "run-trace-life");

/*
 * A run that ends normally after every kind of buffer lived and died:
 * the engine's coherent ring and a copy it makes (its reads and writes),
 * a list mapped, synced both ways and unmapped, pages from
 * dma_alloc_pages(), a table from dma_alloc_noncontiguous().
 */
DMAMAP_DRIVER_TEST(trace_life_drv, every_kind_of_buffer_begins_and_ends)
{
	struct dmamap_platform *p = dmamap_device_platform(&pdev->dev);
	struct device *dev = &pdev->dev;
	uint8_t *a = dmamap_kmalloc(p, 512, DMAMAP_GFP_DMA_ALIGN);
	uint8_t *b = dmamap_kmalloc(p, 768, DMAMAP_GFP_DMA_ALIGN);
	uint8_t *src = dmamap_kmalloc(p, 256, DMAMAP_GFP_DMA_ALIGN);
	uint8_t *dst = dmamap_kmalloc(p, 256, DMAMAP_GFP_DMA_ALIGN);
	struct scatterlist sg[2];
	struct sg_table *sgt;
	struct mcdma m;
	struct page *pg;
	dma_addr_t h;

	DMAMAP_ASSERT(a && b && src && dst);
	DMAMAP_ASSERT_EQ(mcdma_probe(&m, dev, 4), 0);
	memset(src, 0x6b, 256);
	DMAMAP_ASSERT_EQ(mcdma_copy_buf(&m, dst, src, 256, NULL, NULL, MCDMA_BUG_NONE), 0);
	DMAMAP_ASSERT(dst[0] == 0x6b && dst[255] == 0x6b);
	mcdma_remove(&m);

	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], a, 512);
	sg_set_buf(&sg[1], b, 768);
	DMAMAP_ASSERT_EQ(dma_map_sg(dev, sg, 2, DMA_BIDIRECTIONAL), 2);
	dma_sync_sg_for_cpu(dev, sg, 2, DMA_BIDIRECTIONAL);
	dma_sync_sg_for_device(dev, sg, 2, DMA_BIDIRECTIONAL);
	dma_unmap_sg(dev, sg, 2, DMA_BIDIRECTIONAL);

	pg = dma_alloc_pages(dev, 4096, &h, DMA_FROM_DEVICE, GFP_KERNEL);
	DMAMAP_ASSERT(pg);
	dma_free_pages(dev, 4096, pg, h, DMA_FROM_DEVICE);

	sgt = dma_alloc_noncontiguous(dev, 8192, DMA_BIDIRECTIONAL, GFP_KERNEL, 0);
	DMAMAP_ASSERT(sgt);
	dma_free_noncontiguous(dev, 8192, sgt, DMA_BIDIRECTIONAL);
	dmamap_kfree(p, a);
	dmamap_kfree(p, b);
	dmamap_kfree(p, src);
	dmamap_kfree(p, dst);
}

TEST(run_trace_gives_every_buffer_a_track_that_ends_when_it_is_freed)
{
	char json[] = "/tmp/dmamap-trace-XXXXXX";
	struct dmamap_run_options o = { .device = "dma-nc", .first_seed = 1, .last_seed = 1,
					.jobs = 1, .trace = json };
	struct dmamap_run_summary sum;
	char cmd[2048], *out;
	int fd;

	need_fdt();
	if (system("python3 -c 'import json' 2>/dev/null"))
		SKIP("python3 is not installed");
	fd = mkstemp(json);
	CHECK(fd >= 0);
	close(fd);
	CHECK(platform_driver_register(&trace_life_drv) == 0);
	CHECK_MSG(run_into(&o, &sum, &out) == 0, "%s", out);
	CHECK(sum.failed == 0);
	snprintf(cmd, sizeof(cmd),
		 "python3 - '%s' <<'PY'\n"
		 "import json, sys\n"
		 "ev = json.load(open(sys.argv[1]))['traceEvents']\n"
		 "names = {e['tid']: e['args']['name'] for e in ev if e['ph'] == 'M' and e['name'] == 'thread_name'}\n"
		 "def track(part):\n"
		 "    t = [tid for tid, n in names.items() if n.startswith('dma-nc buffer ') and part in n]\n"
		 "    assert len(t) == 1, (part, names)\n"
		 "    return [e['name'] for e in ev if e.get('tid') == t[0] and e['ph'] in 'iX']\n"
		 "ring = track('+128 ')\n"
		 "assert 'dmamap_device_read' in ring and 'dmamap_device_write' in ring, ring\n"
		 "assert ring.count('coherent: both') == 1 and 'device owns' not in ring, ring\n"
		 "src = track('+256 TO_DEVICE')\n"
		 "assert 'dmamap_device_read' in src and 'dmamap_device_write' not in src, src\n"
		 "dst = track('+256 FROM_DEVICE')\n"
		 "assert 'dmamap_device_write' in dst, dst\n"
		 "for seg in ('+512 BIDIRECTIONAL', '+768 BIDIRECTIONAL'):\n"
		 "    marks = track(seg)\n"
		 "    assert 'dma_sync_sg_for_cpu' in marks and 'dma_unmap_sg' in marks, (seg, marks)\n"
		 "    assert [m for m in marks if m.endswith(' owns')] == ['device owns', 'CPU owns', 'device owns'], marks\n"
		 "pages = track('+4096 ')\n"
		 "assert 'CPU owns' in pages and 'device owns' not in pages and 'dma_free_pages' in pages, pages\n"
		 "table = track('+8192 ')\n"
		 "assert 'dma_free_sgt' in table and 'CPU owns' in table, table\n"
		 "PY",
		 json);
	CHECK(system(cmd) == 0);
	unlink(json);
	free(out);
}
