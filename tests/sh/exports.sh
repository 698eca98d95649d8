#!/bin/sh
# The shared library exports the kernel's API names and dmamap_* names only:
# no dmamap__* internals, no stray helpers.
# $1: the build directory.
set -eu
build=${1:-build}
lib="$build/libdmamap.so.0"
if [ ! -f "$lib" ]; then
	echo "exports.sh: $lib not found (build it first: make $lib)" >&2
	exit 1
fi
if ! command -v nm >/dev/null 2>&1; then
	echo "exports.sh: nm not found" >&2
	exit 1
fi
syms=$(mktemp)
trap 'rm -f "$syms"' EXIT
# Name is the last field; strip symbol versions (name@VER, name@@VER).
nm -D --defined-only "$lib" | awk 'NF >= 2 { n = $NF; sub(/@.*/, "", n); print n }' |
	sort -u >"$syms"

status=0
bad=$(grep -v -E '^(dma_[A-Za-z0-9_]+|dmam_[A-Za-z0-9_]+|sg_[A-Za-z0-9_]+|dmabounce_[A-Za-z0-9_]+|dmamap_[A-Za-z0-9][A-Za-z0-9_]*|get_dma_ops|set_dma_ops|dev_name|dev_is_dma_coherent|page_to_phys|virt_to_phys)$' "$syms" || true)
if [ -n "$bad" ]; then
	echo "exports.sh: exported names outside the API:" >&2
	echo "$bad" >&2
	status=1
fi
internal=$(grep -E '^dmamap__' "$syms" || true)
if [ -n "$internal" ]; then
	echo "exports.sh: internal dmamap__ names are exported:" >&2
	echo "$internal" >&2
	status=1
fi
# The API is really there (an empty or stripped export list is no pass).
for name in dma_map_page_attrs dma_unmap_page_attrs dma_map_single dma_unmap_single \
	dma_map_sg dma_unmap_sg dma_map_sgtable dma_unmap_sgtable dma_map_resource \
	dma_sync_single_for_cpu dma_sync_single_for_device dma_sync_sg_for_cpu \
	dma_sync_sg_for_device dma_mapping_error dma_alloc_attrs dma_free_attrs \
	dma_alloc_coherent dma_free_coherent dma_mmap_attrs dma_get_sgtable_attrs \
	dma_alloc_noncoherent dma_free_noncoherent dma_set_mask dma_set_coherent_mask \
	dma_set_mask_and_coherent dma_supported dma_get_mask dma_get_required_mask \
	dma_max_mapping_size get_dma_ops set_dma_ops dma_declare_coherent_memory \
	sg_init_table sg_alloc_table sg_free_table page_to_phys virt_to_phys \
	dmamap_direct_ops dmamap_platform_builtin dmamap_platform_host \
	dmamap_device_create dmamap_kmalloc dmamap_device_read; do
	if ! grep -qx "$name" "$syms"; then
		echo "exports.sh: $name is not exported" >&2
		status=1
	fi
done
[ "$status" -eq 0 ] && echo "exports.sh: $(wc -l <"$syms") names, all API"
exit "$status"
