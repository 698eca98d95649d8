#!/bin/sh
# make test-vm: the example NVMe driver on a real (emulated) NVMe disk in a
# KVM guest, through VFIO and an emulated Intel IOMMU (mk/vfio-vm.sh), and
# what must hold afterwards:
#  - the driver runs twice, its I/O queue polled, then completing by MSI-X
#    interrupt (a handler per completion);
#  - Identify gives QEMU's model and the serial the rig set;
#  - every range written reads back identically in the guest, and is in the
#    disk image on the host after the guest is gone (same cksum);
#  - the read into an IOVA nobody mapped is refused, and the guest kernel
#    logged the IOMMU's fault for the disk;
#  - the bench lines (map+unmap: registered, unregistered, host identity);
#  - then a second guest with no IOMMU at all: the driver reaches the disk
#    through sysfs (unsafe_noiommu), DMA addresses physical, polled; its
#    ranges read back and are in that guest's image, and a map of memory
#    it did not register is refused;
#  - then a third guest whose kernel has iommufd (Debian's have none: one is
#    built from Debian's linux source by mk/kernel-iommufd.sh, once): the
#    driver takes the function's own file and an iommufd instead of the
#    group and a container, and all of the first guest's checks hold again
#    (DMAMAP_VFIO_VM_IOMMUFD=0 leaves this guest out, as make bench does).
# usage: test-vm.sh [BUILD]   (default: build; its dmamap must exist)
set -u
build=${1:-build}
vm=build-vm-x86
[ -x "$build/dmamap" ] || { echo "test-vm.sh: no $build/dmamap (make first)" >&2; exit 2; }
out=$vm/test-vm.log
mkdir -p "$vm"
sh mk/vfio-vm.sh -f "$build/dmamap" -- \
	'dmamap nvme $NVME_BDF --poll --no-stray && dmamap nvme $NVME_BDF --bench' >"$out" 2>&1
st=$?
cat "$out"
grep -q '^vfio-vm.sh: skipped' "$out" && exit "$st"
fail=0
check() { # WHAT COMMAND...: say WHAT failed unless COMMAND succeeds
	what=$1
	shift
	if "$@"; then echo "test-vm: ok - $what"; else echo "test-vm: FAILED - $what"; fail=1; fi
}
# Each range as the guest wrote it must be in the image: LBA, blocks, cksum. PREFIX names the guest.
ranges_in_image() { # PREFIX
	grep 'written and read back: identical (cksum' "$out" |
		sed -n 's/.*: \([0-9]*\) blocks at \([0-9]*\) written.*(cksum \([0-9]*\) \([0-9]*\)).*/\1 \2 \3 \4/p' >"$vm/ranges"
	while read -r n lba sum len; do
		bs=$((len / n))
		got=$(dd if="$vm/nvme.img" bs="$bs" skip="$lba" count="$n" 2>/dev/null | cksum)
		check "${1}blocks $lba..$((lba + n - 1)) are in the disk image on the host" [ "$got" = "$sum $len" ]
	done <"$vm/ranges"
}
# What a guest with an IOMMU must show of its two runs ($out, $st): the first polled, the
# second by interrupt, with the stray read and the bench. PREFIX names the guest.
iommu_guest() { # PREFIX
	p=$1
	check "${p}the guest ran the driver to its end" [ "$st" = 0 ]
	check "${p}Identify: QEMU's model and the rig's serial" \
		grep -q 'model "QEMU NVMe Ctrl", serial "dmamap-vfio"' "$out"
	ranges=$(grep -c 'written and read back: identical (cksum' "$out")
	check "${p}four ranges written and read back identical, twice ($ranges)" [ "$ranges" = 8 ]
	check "${p}the first run polled its I/O queue" grep -q 'nvme: I/O completions polled' "$out"
	irqs=$(sed -n 's/.*I\/O completions by interrupt: .*: \([0-9]*\) messages, \([0-9]*\) handler runs.*/\1 \2/p' "$out")
	# shellcheck disable=SC2086
	set -- $irqs
	check "${p}the second: an MSI-X message for each of its 8 reads and writes (${1:-none}), its handler run (${2:-none})" \
		test "${1:-0}" -ge 8 -a "${2:-0}" -ge 1
	ranges_in_image "$p"
	# The IOMMU's refusal: the guest kernel's fault line for the disk, at the very IOVA.
	stray=$(sed -n 's/.*a read into IOVA \(0x[0-9a-f]*\), which nobody mapped.*/\1/p' "$out")
	check "${p}the driver aimed a read at an IOVA nobody mapped (${stray:-none})" [ -n "$stray" ]
	check "${p}the IOMMU refused it: the guest kernel logged the fault at $stray" \
		grep -qE "DMAR: \[DMA Write.*Request device \[00:0?4\.0\] fault addr ${stray:-none} " "$out"
	check "${p}the bench lines" grep -q '^bench: ratio registered / identity' "$out"
}
iommu_guest ""
grep '^bench:' "$out"

# No IOMMU: the same disk, left to no driver, reached through sysfs.
out=$vm/test-vm-noiommu.log
DMAMAP_VFIO_VM_NOIOMMU=1 sh mk/vfio-vm.sh -f "$build/dmamap" -- \
	'dmamap nvme $NVME_BDF --unsafe-noiommu' >"$out" 2>&1
st=$?
cat "$out"
check "no IOMMU: the guest ran the driver to its end" [ "$st" = 0 ]
check "no IOMMU: the function reached through sysfs" grep -q 'reached through sysfs' "$out"
check "no IOMMU: Identify" grep -q 'model "QEMU NVMe Ctrl", serial "dmamap-vfio"' "$out"
ranges=$(grep -c 'written and read back: identical (cksum' "$out")
check "no IOMMU: four ranges written and read back identical ($ranges)" [ "$ranges" = 4 ]
check "no IOMMU: completions polled" grep -q 'nvme: I/O completions polled' "$out"
check "no IOMMU: unregistered memory is refused a device address" \
	grep -q 'unregistered memory without an IOMMU: refused' "$out"
ranges_in_image "no IOMMU: "

# iommufd: a kernel that has it, the function's own file bound to it.
kout=$vm/kernel-iommufd.log
kst=
if [ "${DMAMAP_VFIO_VM_IOMMUFD:-1}" != 0 ]; then
	# Shown as it goes: the first build takes minutes.
	{ sh mk/kernel-iommufd.sh; echo $? >"$kout.rc"; } 2>&1 | tee "$kout"
	kst=$(cat "$kout.rc")
fi
if [ -z "$kst" ]; then
	:
elif [ "$kst" = 0 ]; then
	out=$vm/test-vm-iommufd.log
	DMAMAP_VFIO_VM_KERNEL=$(tail -n 1 "$kout") sh mk/vfio-vm.sh -f "$build/dmamap" -- \
		'dmamap nvme $NVME_BDF --poll --no-stray && dmamap nvme $NVME_BDF --bench' >"$out" 2>&1
	st=$?
	cat "$out"
	if grep -q '^vfio-vm.sh: skipped' "$out"; then
		echo "test-vm: iommufd guest skipped"
		[ "$st" = 0 ] || fail=1
		[ "$fail" = 0 ] && echo "test-vm: passed" || echo "test-vm: FAILED"
		exit "$fail"
	fi
	iommu_guest "iommufd: "
	check "iommufd: the kernel has /dev/iommu" grep -q '^vfio-vm: iommufd /dev/iommu' "$out"
	check "iommufd: the function reached through iommufd, not its group" \
		grep -q 'reached through VFIO and the IOMMU, through iommufd' "$out"
	grep '^bench:' "$out" | sed 's/^bench:/bench (iommufd):/'
elif grep -q '^kernel-iommufd.sh: skipped' "$kout"; then
	echo "test-vm: iommufd guest skipped: $(sed -n 's/^kernel-iommufd.sh: skipped: //p' "$kout")"
	[ "${DMAMAP_CROSS_STRICT:-0}" = 1 ] && fail=1
else
	check "iommufd: a kernel with iommufd was built" false
fi
[ "$fail" = 0 ] && echo "test-vm: passed" || echo "test-vm: FAILED"
exit "$fail"
