#!/bin/sh
# The arm64 test binary on a real 16 KiB-page kernel: Debian's
# linux-image-arm64-16k (trixie; bookworm packages none) booted by
# qemu-system-aarch64 (TCG) with a busybox initramfs this script assembles.
# Unlike qemu-user's -p, mmap, mprotect, /proc and fault addresses are the
# kernel's own. Needs mk/cross.sh aarch64-linux-gnu first.
# usage: pagesize-vm.sh [TEST-PREFIX...]  (default: the tests whose subject is
#        the host page: mappings, remaps, guards, aliases, allocation; "_"
#        runs every test: those needing dtc or python3 skip, the initramfs
#        has neither)
set -u
build=build-x-aarch64-linux-gnu
vm=build-vm-arm64-16k
apt=$PWD/$vm/apt
strict=${DMAMAP_CROSS_STRICT:-0}
skip() {
	echo "pagesize-vm.sh: skipped: $*"
	[ "$strict" = 1 ] && exit 1
	exit 0
}
[ -x "$build/dmamap-tests" ] || skip "no arm64 build (run mk/cross.sh aarch64-linux-gnu first)"
if ! command -v cpio >/dev/null 2>&1; then
	[ "$(id -u)" = 0 ] && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
		install -y cpio >/dev/null 2>&1
	command -v cpio >/dev/null 2>&1 || skip "no cpio to pack the initramfs (apt-get install cpio)"
fi
if ! command -v qemu-system-aarch64 >/dev/null 2>&1; then
	[ "$(id -u)" = 0 ] && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
		install -y qemu-system-arm >/dev/null 2>&1
	command -v qemu-system-aarch64 >/dev/null 2>&1 || skip "no qemu-system-aarch64 (apt-get install qemu-system-arm)"
fi
# A private apt per suite (lists, cache, no dpkg state): nothing on the system changes.
fetch() { # SUITE PACKAGE: the .deb's path on stdout
	d=$apt/$1
	# The lists are fetched until one update succeeds: a failed one is tried again next time.
	if [ ! -f "$d/updated" ]; then
		mkdir -p "$d/parts" "$d/lists/partial" "$d/cache/archives/partial"
		printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nArchitectures: arm64\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
			"$1" >"$d/parts/s.sources"
		opts "$d" apt-get update >"$d/log" 2>&1 || return 1
		touch "$d/updated"
	fi
	ls "$d"/"$2"_*.deb >/dev/null 2>&1 || (cd "$d" && opts "$d" apt-get download "$2:arm64" >>"$d/log" 2>&1) ||
		return 1
	ls "$d"/"$2"_*.deb | head -n 1
}
opts() { # DIR TOOL ARGS...
	d=$1 tool=$2
	shift 2
	"$tool" -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$d/parts" \
		-o Dir::State::Lists="$d/lists" -o Dir::Cache="$d/cache" \
		-o Dir::State::status=/dev/null -o APT::Architectures::=arm64 \
		-o Debug::NoLocking=1 -o APT::Sandbox::User="$(id -un)" "$@"
}
if [ ! -f "$vm/Image" ]; then
	fetch trixie linux-image-arm64-16k >/dev/null || skip "trixie's package lists could not be fetched (see $apt/trixie/log)"
	image=$(opts "$apt/trixie" apt-cache show linux-image-arm64-16k |
		sed -n 's/^Depends: \(linux-image-[^ ,]*-arm64-16k\).*/\1/p' | head -n 1)
	deb=$(fetch trixie "$image") || skip "$image could not be fetched (see $apt/trixie/log)"
	rm -rf "$vm/kernel" && mkdir -p "$vm/kernel" && dpkg-deb --fsys-tarfile "$deb" |
		tar -x -C "$vm/kernel" --wildcards './boot/vmlinuz-*' || skip "no kernel in $deb"
	# Debian's arm64 vmlinuz is a gzip'd Image; qemu 7.2 boots the Image.
	zcat "$vm"/kernel/boot/vmlinuz-* >"$vm/Image" 2>/dev/null || cp "$vm"/kernel/boot/vmlinuz-* "$vm/Image"
fi
deb=$(fetch bookworm busybox-static) || skip "busybox-static:arm64 could not be fetched (see $apt/bookworm/log)"
[ $# -gt 0 ] || set -- mmap remap iommu guard ownership sparse_ram alloc noncontig portability host_
# The initramfs: busybox, the test binary with the libraries it needs, an /init that runs it.
root=$vm/root
rm -rf "$root" && mkdir -p "$root/bin" "$root/lib" "$root/proc" "$root/sys" "$root/dev" "$root/tmp"
dpkg-deb --fsys-tarfile "$deb" | tar -x -O ./bin/busybox >"$root/bin/busybox" && chmod +x "$root/bin/busybox"
cp "$build/dmamap-tests" "$root/bin/"
# The tests run from the top of the tree: the fuzz corpus they replay.
mkdir -p "$root/fuzz" && cp -r fuzz/corpus "$root/fuzz/"
for so in $(aarch64-linux-gnu-readelf -d "$build/dmamap-tests" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p') \
	ld-linux-aarch64.so.1; do
	cp -L "/usr/aarch64-linux-gnu/lib/$so" "$root/lib/" || skip "no $so for arm64"
done
cat >"$root/init" <<EOF
#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sys /sys
/bin/busybox mount -t devtmpfs dev /dev
/bin/busybox mount -t tmpfs tmp /tmp
/bin/busybox --install -s /bin
export PATH=/bin
cd /
echo "pagesize-vm: kernel \$(/bin/busybox uname -r), page size \$(/bin/busybox awk '/KernelPageSize/ { print \$2 * 1024; exit }' /proc/self/smaps)"
p=0 f=0 s=0
for prefix in $*; do
	LD_LIBRARY_PATH=/lib /lib/ld-linux-aarch64.so.1 /bin/dmamap-tests "\$prefix" >/tmp/out 2>&1
	rc=\$?
	/bin/busybox grep -v '^ok [0-9]* - [^#]*$' /tmp/out
	last=\$(/bin/busybox tail -n 1 /tmp/out)
	# A crash, a prefix that names no test, or a failure without a failed test: one more failure.
	ok=0
	if echo "\$last" | /bin/busybox grep -qE '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped\$'; then
		set -- \$last
		p=\$((p + \$1)) f=\$((f + \$3)) s=\$((s + \$5))
		if [ \$((\$1 + \$3 + \$5)) != 0 ] && { [ "\$rc" = 0 ] || [ "\$3" != 0 ]; }; then ok=1; fi
	fi
	[ \$ok = 1 ] && continue
	echo "pagesize-vm: \$prefix: exit status \$rc, last line: \$last"
	f=\$((f + 1))
done
echo "pagesize-vm: \$p passed, \$f failed, \$s skipped"
/bin/busybox poweroff -f
EOF
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc 2>/dev/null | gzip -1) >"$vm/initrd.gz"
log=$vm/console.log
t0=$(date +%s)
timeout 900 qemu-system-aarch64 -M virt -cpu max -smp 2 -m 2048 -nographic -no-reboot \
	-kernel "$vm/Image" -initrd "$vm/initrd.gz" \
	-append "console=ttyAMA0 panic=-1 quiet rdinit=/init" >"$log" 2>&1
grep 'pagesize-vm' "$log"
grep -q 'pagesize-vm: kernel .*page size 16384' "$log" || { cat "$log"; exit 1; }
grep -q 'pagesize-vm: [0-9]* passed, 0 failed' "$log" || { grep -v '^ok' "$log"; exit 1; }
# Last, as a CI line shows it: the count, on which kernel, and the time.
echo "pagesize-vm.sh: $(sed -n 's/.*pagesize-vm: \([0-9]* passed.*\)/\1/p' "$log" | tail -n 1 | tr -d '\r')" \
	"on $(sed -n 's/.*pagesize-vm: kernel \([^,]*\),.*/\1/p' "$log" | head -n 1), 16 KiB pages," \
	"$(( $(date +%s) - t0 )) s"
