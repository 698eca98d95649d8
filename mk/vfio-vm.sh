#!/bin/sh
# Commands in a Linux guest that owns an emulated NVMe disk through VFIO,
# behind an emulated Intel IOMMU with interrupt remapping: the real kernel
# paths a user-space driver meets (group viability, type1 DMA maps, BAR
# mmap, MSI-X, DMAR faults on stray DMA) with no hardware and no risk to the
# host. Debian's own kernel (linux-image-amd64) boots in qemu-system-x86_64
# with a busybox initramfs this script assembles; the disk is bound to
# vfio-pci before the commands run, and the nvme driver is never loaded.
# usage: vfio-vm.sh [-f FILE]... -- COMMAND-STRING
#   FILE (a program, a library, a directory) is copied to /bin in the guest,
#   with the shared libraries its ELF files need. COMMAND-STRING runs under
#   sh -c from /, with NVME_BDF (e.g. 0000:00:04.0), NVME_GROUP and
#   LD_LIBRARY_PATH=/lib:/bin. The console is kept in build-vm-x86/console.log
#   and the disk in build-vm-x86/nvme.img (16 MiB, zeroed each run).
#   Exits non-zero unless the commands exited 0.
# env: DMAMAP_VFIO_VM_SUITE (Debian suite of the guest kernel, default
#   bookworm: 6.1; trixie: 6.12), DMAMAP_VFIO_VM_ACCEL (auto, kvm, tcg;
#   auto takes KVM where it can boot the guest), DMAMAP_VFIO_VM_TIMEOUT
#   (seconds, 300), DMAMAP_VFIO_VM_NOIOMMU=1 (no IOMMU at all: the disk is
#   left to no driver, for a program to reach through sysfs, with 2 MiB
#   hugepages reserved and compaction of locked pages off; NVME_GROUP empty),
#   DMAMAP_VFIO_VM_KERNEL (a kernel of one's own instead of Debian's, with
#   everything the rig needs built in, as mk/kernel-iommufd.sh makes: no
#   module is loaded; busybox still comes from the suite).
set -u
vm=build-vm-x86
suite=${DMAMAP_VFIO_VM_SUITE:-bookworm}
apt=$PWD/$vm/apt
kdir=$vm/kernel-$suite
strict=${DMAMAP_CROSS_STRICT:-0}
t0=$(date +%s)
skip() {
	echo "vfio-vm.sh: skipped: $*"
	[ "$strict" = 1 ] && exit 1
	exit 0
}
die() {
	echo "vfio-vm.sh: $*" >&2
	exit 2
}
usage() {
	die "usage: vfio-vm.sh [-f FILE]... -- COMMAND-STRING"
}
# Newline-separated: POSIX sh has no arrays, and a FILE may contain spaces.
files=
while [ $# -gt 0 ]; do
	case $1 in
	-f)
		[ $# -ge 2 ] || usage
		[ -e "$2" ] || die "no such file: $2"
		files="$files$2
"
		shift 2
		;;
	--)
		shift
		break
		;;
	*) usage ;;
	esac
done
[ $# -gt 0 ] || usage
command=$*

need() { # COMMAND PACKAGE: installs PACKAGE when root and COMMAND is missing
	command -v "$1" >/dev/null 2>&1 && return 0
	[ "$(id -u)" = 0 ] || return 1
	# A machine whose lists were never fetched installs nothing: one update, then again.
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends \
		"$2" >/dev/null 2>&1 ||
		{ apt-get -o DPkg::Lock::Timeout=600 update >/dev/null 2>&1 &&
			DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y \
				--no-install-recommends "$2" >/dev/null 2>&1; }
	command -v "$1" >/dev/null 2>&1
}
need cpio cpio || skip "no cpio to pack the initramfs (apt-get install cpio)"
need qemu-system-x86_64 qemu-system-x86 || skip "no qemu-system-x86_64 (apt-get install qemu-system-x86)"
need readelf binutils || skip "no readelf to find modules' and programs' dependencies (apt-get install binutils)"

# A private apt per suite (lists, cache, no dpkg state): nothing on the system changes.
fetch() { # SUITE PACKAGE: the .deb's path on stdout
	d=$apt/$1
	# The lists are fetched until one update succeeds: a failed one is tried again next time.
	if [ ! -f "$d/updated" ]; then
		mkdir -p "$d/parts" "$d/lists/partial" "$d/cache/archives/partial"
		printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nArchitectures: amd64\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
			"$1" >"$d/parts/s.sources"
		opts "$d" apt-get update >"$d/log" 2>&1 || return 1
		touch "$d/updated"
	fi
	ls "$d"/"$2"_*.deb >/dev/null 2>&1 || (cd "$d" && opts "$d" apt-get download "$2:amd64" >>"$d/log" 2>&1) ||
		return 1
	ls "$d"/"$2"_*.deb | head -n 1
}
opts() { # DIR TOOL ARGS...
	d=$1 tool=$2
	shift 2
	"$tool" -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$d/parts" \
		-o Dir::State::Lists="$d/lists" -o Dir::Cache="$d/cache" \
		-o Dir::State::status=/dev/null -o APT::Architectures::=amd64 \
		-o Debug::NoLocking=1 -o APT::Sandbox::User="$(id -un)" "$@"
}

# vfio_iommu_type1 is only a soft dependency of vfio (modprobe's, not insmod's), so it is named.
# iommufd (/dev/iommu) is loaded where the kernel has it: Debian's bookworm and trixie kernels
# build none, so there VFIO is the group/container API only.
want="vfio vfio_iommu_type1 vfio_pci"
maybe="iommufd"
# The kernel and its modules, kept uncompressed with their load order: later runs fetch nothing.
# The cache is keyed by the modules asked for, so changing them reuses the .deb.
key="$want $maybe"
own=${DMAMAP_VFIO_VM_KERNEL:-}
if [ -n "$own" ]; then
	[ -f "$own" ] || die "no kernel $own"
	kdir=$vm/kernel-own
	mkdir -p "$kdir/modules"
	: >"$kdir/load"
elif [ ! -f "$kdir/load" ] || [ "$(cat "$kdir/wanted" 2>/dev/null)" != "$key" ]; then
	fetch "$suite" linux-image-amd64 >/dev/null || skip "$suite's package lists could not be fetched (see $apt/$suite/log)"
	image=$(opts "$apt/$suite" apt-cache show --no-all-versions linux-image-amd64 |
		sed -n 's/^Depends: \(linux-image-[^ ,]*-amd64\).*/\1/p' | head -n 1)
	[ -n "$image" ] || skip "linux-image-amd64 in $suite names no kernel"
	deb=$(fetch "$suite" "$image") || skip "$image could not be fetched (see $apt/$suite/log)"
	x=$vm/extract
	rm -rf "$x" "$kdir" && mkdir -p "$x" "$kdir/modules"
	# Debian's x86 kernels and trixie's modules are xz-compressed: without xz, the bzImage boots
	# and only .ko.xz modules fail.
	need xz xz-utils
	# Whole: a module's dependencies may live anywhere in the tree.
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$x" || skip "$deb could not be unpacked"
	cp "$x"/boot/vmlinuz-* "$kdir/vmlinuz" || skip "no kernel in $deb"
	# Under TCG the bzImage's own decompressor takes half the run: the ELF inside it, unpacked
	# here, boots straight through its PVH entry (a Xen note, type 18) where it has one. The
	# magic is found as the kernel's scripts/extract-vmlinux does: tr turns its first byte
	# into a newline, so grep -b gives its offset whatever bytes are in it.
	for z in '\3757zXZ\000 abcde xz -dcq --single-stream' '(\265/\375 xyz zstd -dcq' \
		'\037\213\010 xy gzip -dcq'; do
		set -- $z
		magic=$1 mapped=$2
		shift 2
		for pos in $(tr "$magic
$mapped" "
$mapped=" <"$kdir/vmlinuz" | grep -abo "^$mapped"); do
			tail -c +"${pos%%:*}" "$kdir/vmlinuz" | "$@" >"$kdir/vmlinux" 2>/dev/null
			readelf -n "$kdir/vmlinux" 2>/dev/null | grep -q 'Xen.*(0x00000012)' && break 2
		done
		rm -f "$kdir/vmlinux"
	done
	basename "$(ls -d "$x"/lib/modules/* "$x"/usr/lib/modules/* 2>/dev/null | head -n 1)" >"$kdir/release"
	# The package ships no modules.dep (its postinst runs depmod), and the host may have no kmod:
	# each module's depends= in .modinfo, which modpost wrote and depmod would read, gives the
	# graph, and tsort its order. Names are compared with - as _, as the kernel does.
	find "$x" -name '*.ko' -o -name '*.ko.xz' -o -name '*.ko.zst' -o -name '*.ko.gz' |
		awk '{ n = $0; sub(/.*\//, "", n); sub(/\.ko(\.(xz|zst|gz))?$/, "", n); gsub(/-/, "_", n); print n, $0 }' \
			>"$x/index"
	for m in $maybe; do
		grep -q "^$m " "$x/index" && want="$want $m"
	done
	todo=$want seen=" "
	: >"$x/pairs"
	while [ -n "$todo" ]; do
		set -- $todo
		m=$1
		shift
		todo=$*
		case $seen in *" $m "*) continue ;; esac
		seen="$seen$m "
		f=$(awk -v m="$m" '$1 == m { print $2; exit }' "$x/index")
		[ -n "$f" ] || skip "no module $m in $image"
		# busybox insmod reads a module as it is: compressed ones are unpacked here.
		case $f in
		*.xz) xz -dc "$f" ;;
		*.zst) zstd -dcq "$f" ;;
		*.gz) gzip -dc "$f" ;;
		*) cat "$f" ;;
		esac >"$kdir/modules/$m.ko" || skip "$f could not be decompressed"
		echo "$m $m" >>"$x/pairs"
		for dep in $(readelf -p .modinfo "$kdir/modules/$m.ko" | sed -n 's/.*depends=//p' | tr ',-' ' _'); do
			echo "$dep $m" >>"$x/pairs"
			todo="$todo $dep"
		done
	done
	tsort "$x/pairs" >"$kdir/load" || skip "the module graph of $image has a cycle"
	echo "$key" >"$kdir/wanted"
	rm -rf "$x"
fi
if [ ! -x "$kdir/busybox" ]; then
	deb=$(fetch "$suite" busybox-static) || skip "busybox-static could not be fetched (see $apt/$suite/log)"
	# /bin before the /usr merge (bookworm), /usr/bin after it (trixie).
	dpkg-deb --fsys-tarfile "$deb" | tar -x -O --wildcards '*bin/busybox' >"$kdir/busybox.new" &&
		chmod +x "$kdir/busybox.new" && mv "$kdir/busybox.new" "$kdir/busybox" || skip "no busybox in $deb"
fi

# The initramfs: busybox, the modules, the caller's files and their libraries, an /init.
root=$vm/root
rm -rf "$root" && mkdir -p "$root/bin" "$root/lib/modules" "$root/lib64" "$root/proc" "$root/sys" \
	"$root/dev" "$root/tmp"
cp "$kdir/busybox" "$root/bin/" && cp "$kdir/load" "$root/lib/modules/" || die "could not fill $root"
for ko in "$kdir"/modules/*.ko; do
	[ -f "$ko" ] || continue
	cp "$ko" "$root/lib/modules/" || die "could not fill $root"
done
printf '%s\n' "$command" >"$root/command"
noiommu=${DMAMAP_VFIO_VM_NOIOMMU:-0}
if [ "$noiommu" = 1 ]; then
	echo noiommu >"$root/mode"
else
	echo iommu >"$root/mode"
fi
needed() { # FILE: the DT_NEEDED names of an ELF file, nothing for any other file
	readelf -d "$1" 2>/dev/null | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'
}
libs=
IFS='
'
for f in $files; do
	cp -RL "$f" "$root/bin/" || die "could not copy $f"
	libs="$libs$(find -L "$f" -type f | while IFS= read -r e; do needed "$e"; done)
"
done
unset IFS
# The libraries' own needs too (libm needs libc, and so on), until nothing new comes.
seen=" "
while [ -n "$libs" ]; do
	next=
	for so in $libs; do
		case $seen in *" $so "*) continue ;; esac
		seen="$seen$so "
		# A library the caller passed is found in /bin through LD_LIBRARY_PATH.
		[ -e "$root/bin/$so" ] && continue
		src=
		for d in /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu /lib64 /usr/local/lib; do
			[ -e "$d/$so" ] && src=$d/$so && break
		done
		[ -n "$src" ] || die "no $so on the host for the guest (pass it with -f)"
		cp -L "$src" "$root/lib/" || die "could not copy $src"
		next="$next $(needed "$src")"
	done
	libs=$next
done
# Programs name /lib64/ld-linux-x86-64.so.2 as their interpreter; busybox is static and needs none.
[ -e "$root/lib/ld-linux-x86-64.so.2" ] && ln -s ../lib/ld-linux-x86-64.so.2 "$root/lib64/"

cat >"$root/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sys /sys
/bin/busybox mount -t devtmpfs dev /dev
/bin/busybox mount -t tmpfs tmp /tmp
/bin/busybox --install -s /bin
export PATH=/bin
cd /
# The firmware's last screen-clearing escape has no newline after it: a line of our own first.
echo
echo "vfio-vm: kernel $(uname -r)"
run() {
	for m in $(cat /lib/modules/load); do
		insmod /lib/modules/$m.ko $(cat /lib/modules/$m.params 2>/dev/null) ||
			{ echo "vfio-vm: insmod $m failed"; return 125; }
	done
	echo "vfio-vm: modules" $(cat /lib/modules/load)
	if [ -c /dev/iommu ]; then echo "vfio-vm: iommufd /dev/iommu"; else echo "vfio-vm: iommufd none"; fi
	# The NVMe function by its class (mass storage, NVM, NVMe), wherever qemu put it.
	bdf=
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat $d/class)" = 0x010802 ] && bdf=${d##*/} && break
	done
	[ -n "$bdf" ] || { echo "vfio-vm: no NVMe function"; return 125; }
	d=/sys/bus/pci/devices/$bdf
	# No IOMMU: no group, no VFIO (Debian's kernels have no no-IOMMU mode); sysfs is the way in.
	if [ "$(cat /mode)" = noiommu ]; then
		[ -e $d/iommu_group ] && { echo "vfio-vm: $bdf is in an IOMMU group: the IOMMU is on"; return 125; }
		[ -e $d/driver ] && echo $bdf >$d/driver/unbind
		# Physically contiguous buffers, and locked 4 KiB pages that stay where they are.
		echo 8 >/proc/sys/vm/nr_hugepages
		echo 0 >/proc/sys/vm/compact_unevictable_allowed
		echo "vfio-vm: nvme $bdf, no IOMMU, no driver; $(cat /proc/sys/vm/nr_hugepages) hugepages of 2 MiB"
		dmesg -n 1
		NVME_BDF=$bdf NVME_GROUP= LD_LIBRARY_PATH=/lib:/bin sh -c "$(cat /command)"
		return
	fi
	[ -e $d/iommu_group ] || { echo "vfio-vm: $bdf is in no IOMMU group: is the IOMMU on?"; return 125; }
	[ -e $d/driver ] && echo $bdf >$d/driver/unbind
	# driver_override makes vfio-pci take this device without a new_id for every NVMe it has.
	echo vfio-pci >$d/driver_override
	echo $bdf >/sys/bus/pci/drivers_probe
	group=$(readlink $d/iommu_group); group=${group##*/}
	file=/dev/vfio/$group
	[ "$(readlink $d/driver | sed "s,.*/,,")" = vfio-pci ] && [ -c $file ] ||
		{ echo "vfio-vm: $bdf could not be bound to vfio-pci"; return 125; }
	echo "vfio-vm: nvme $bdf group $group ($file)"
	# Kernel messages (DMAR faults above all) would cut into the commands' output: they are
	# printed after, from the log.
	dmesg -n 1
	NVME_BDF=$bdf NVME_GROUP=$group LD_LIBRARY_PATH=/lib:/bin sh -c "$(cat /command)"
}
run
echo "vfio-vm: exit status $?"
echo "vfio-vm: uptime $(cut -d ' ' -f 1 /proc/uptime) s"
echo "vfio-vm: kernel log:"
# A warning or an oops the commands provoked belongs with the faults they caused.
dmesg | grep -i -E 'DMAR|vfio|iommu|^\[[ 0-9.]*\] (BUG|WARNING|Oops|RIP)'
poweroff -f
EOF
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc 2>/dev/null | gzip -1) >"$vm/initrd.gz" || die "could not pack the initramfs"

# The disk a driver under test writes: fresh each run, kept after it for the host to read.
img=$vm/nvme.img
rm -f "$img" && dd if=/dev/zero of="$img" bs=1048576 count=16 2>/dev/null || die "could not create $img"
log=$vm/console.log
# qemu's own messages (the vIOMMU's translation failures among them) come at any moment: in
# the console they would split the guest's lines.
qlog=$vm/qemu.log
booted() {
	tr -d '\r' <"$log" | grep -q '^vfio-vm: kernel [0-9]'
}
kernel=$kdir/vmlinuz
[ -f "$kdir/vmlinux" ] && kernel=$kdir/vmlinux
[ -n "$own" ] && kernel=$own
# The vIOMMU first: it must exist before the devices behind it. Interrupt remapping
# (intremap, which needs the split irqchip under KVM) is what lets vfio_iommu_type1 accept the
# group without allow_unsafe_interrupts; caching-mode makes the guest report every mapping it
# makes, as an assigned device would need. No NIC, no VGA: fewer devices, no iPXE ROM to load.
# The disk's slot is fixed, so its address (0000:00:04.0) and the DMAR lines naming it are too.
iommu_dev="-device intel-iommu,intremap=on,caching-mode=on" iommu_arg=intel_iommu=on
[ "$noiommu" = 1 ] && iommu_dev= iommu_arg=intel_iommu=off
# shellcheck disable=SC2086
set -- -machine q35,kernel-irqchip=split $iommu_dev \
	-smp 2 -m 1024 -nographic -vga none -nic none -no-reboot \
	-drive file="$img",if=none,id=nv0,format=raw -device nvme,drive=nv0,serial=dmamap-vfio,addr=04.0 \
	-kernel "$kernel" -initrd "$vm/initrd.gz" \
	-append "console=ttyS0 $iommu_arg panic=-1 rdinit=/init quiet"
limit=${DMAMAP_VFIO_VM_TIMEOUT:-300}
accel=${DMAMAP_VFIO_VM_ACCEL:-auto} why="DMAMAP_VFIO_VM_ACCEL=tcg"
if [ "$accel" = auto ]; then
	accel=tcg why="no usable /dev/kvm"
	if [ -c /dev/kvm ] && (: <>/dev/kvm) 2>/dev/null; then
		# PVM (kvm_pvm), the KVM of some nested sandboxes, runs only kernels built as its
		# guests: Debian's hangs as it enters long mode, and qemu's -cpu host aborts on an MSR.
		if [ -d /sys/module/kvm_pvm ] && [ ! -d /sys/module/kvm_intel ] && [ ! -d /sys/module/kvm_amd ]; then
			why="/dev/kvm is PVM (kvm_pvm), which boots no stock kernel"
		else
			accel=kvm
		fi
	fi
fi
rm -f "$vm/console-kvm.log"
t1=$(date +%s)
rc=
if [ "$accel" = kvm ]; then
	echo "vfio-vm.sh: KVM"
	timeout "$limit" qemu-system-x86_64 -enable-kvm -cpu host "$@" </dev/null >"$log" 2>"$qlog" &
	pid=$!
	# Any other KVM that cannot run this kernel aborts or hangs before /init, which KVM
	# reaches in a few seconds: TCG then, rather than the whole timeout.
	n=0
	while [ $n -lt 30 ] && kill -0 $pid 2>/dev/null && ! booted; do
		sleep 1
		n=$((n + 1))
	done
	if booted; then
		wait $pid
		rc=$?
	else
		kill $pid 2>/dev/null
		wait $pid
		cat "$log" "$qlog" >"$vm/console-kvm.log"
		accel=tcg why="KVM did not boot the guest (see $vm/console-kvm.log)"
	fi
fi
if [ "$accel" = tcg ]; then
	echo "vfio-vm.sh: TCG ($why): slower"
	t1=$(date +%s)
	timeout "$limit" qemu-system-x86_64 -accel tcg -cpu max "$@" </dev/null >"$log" 2>"$qlog"
	rc=$?
fi
[ -n "$rc" ] || die "DMAMAP_VFIO_VM_ACCEL is auto, kvm or tcg, not $accel"
t2=$(date +%s)
[ "$rc" = 124 ] && echo "vfio-vm.sh: qemu timed out after $limit s"
# From the guest's first line on: the firmware's and the kernel's boot are in the log.
tr -d '\r' <"$log" | sed -n '/^vfio-vm: kernel [0-9]/,$p'
cat "$qlog"
echo "vfio-vm.sh: qemu $((t2 - t1)) s, in all $((t2 - t0)) s"
tr -d '\r' <"$log" | grep -q '^vfio-vm: exit status 0$' && exit 0
booted || tr -d '\r' <"$log" | tail -n 40
exit 1
