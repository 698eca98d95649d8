/* SPDX-License-Identifier: MIT */
/* dmamap info: each device's DMA configuration, as the kernel would derive it. */
#include <stdio.h>
#include <string.h>
#include "cli.h"

int cli_info(int argc, char **argv)
{
	const char *board = "default";
	bool json = false;
	struct dmamap_platform *p;
	unsigned int n;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (argv[i][0] != '-')
			board = argv[i];
		else {
			fprintf(stderr, "dmamap info: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	p = cli_open_board(board);
	if (!p)
		return 1;
	n = dmamap_device_count(p);
	if (json)
		printf("{\"board\":\"%s\",\"cache_line\":%u,\"devices\":[", board,
		       dmamap_cache_line_size(p));
	else
		printf("board %s: cache line %u bytes, %u devices\n", board,
		       dmamap_cache_line_size(p), n);
	for (unsigned int i = 0; i < n; i++) {
		struct device *dev = dmamap_device_at(p, i);
		char ops[256];

		cli_describe_ops(dev, ops, sizeof(ops));
		if (json)
			printf("%s{\"name\":\"%s\",\"model\":\"%s\",\"coherent\":%s,"
			       "\"dma_mask\":\"0x%llx\",\"bus_dma_limit\":\"0x%llx\","
			       "\"required_mask\":\"0x%llx\",\"ops\":\"%s\"}",
			       i ? "," : "", dev_name(dev), dmamap_device_model_name(dev),
			       dev_is_dma_coherent(dev) ? "true" : "false",
			       (unsigned long long)dma_get_mask(dev),
			       (unsigned long long)dmamap_bus_dma_limit(dev),
			       (unsigned long long)dma_get_required_mask(dev),
			       get_dma_ops(dev)->name);
		else
			printf("  %-10s model %-8s %s\n", dev_name(dev),
			       dmamap_device_model_name(dev), ops);
	}
	if (json)
		printf("]}\n");
	dmamap_platform_destroy(p);
	return 0;
}
