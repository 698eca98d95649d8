#!/bin/sh
# A guest kernel that has iommufd, for the VFIO rig (mk/vfio-vm.sh): no
# Debian kernel builds it (bookworm's 6.1, trixie's 6.12 and the backports
# all say "# CONFIG_IOMMUFD is not set"), so one is built from the source
# of Debian's own linux package (bookworm-backports, 6.12): the upstream
# tarball, checked against the sha256 the archive's signed index gives.
# The configuration is the smallest that boots the rig's q35 guest with
# everything built in (no modules): ACPI, PCI and MSI-X, the Intel IOMMU
# with interrupt remapping, VFIO with both its group/container API and the
# function's own file (CONFIG_VFIO_DEVICE_CDEV), iommufd, and what busybox
# and the NVMe driver's program need (devtmpfs, hugetlbfs, eventfd, epoll,
# pagemap, flock). It boots through PVH, as the rig's Debian kernels do,
# skipping the decompressor that is slow under TCG.
# usage: kernel-iommufd.sh    (prints the kernel's path on its last line)
# The result is kept in build-vm-x86/kernel-iommufd/ and built once; the
# source tarball (150 MB) stays in build-vm-x86/src/. Takes about eight
# minutes of two cores the first time.
set -u
vm=build-vm-x86
out=$vm/kernel-iommufd
src=$vm/src
apt=$PWD/$src/apt
strict=${DMAMAP_CROSS_STRICT:-0}
jobs=$(nproc 2>/dev/null || echo 2)
skip() {
	echo "kernel-iommufd.sh: skipped: $*"
	[ "$strict" = 1 ] && exit 1
	exit 3
}
# Kept with the configuration it was built from: a change to the list below builds again.
config_lines() {
	cat <<'EOF'
CONFIG_64BIT=y
CONFIG_SMP=y
CONFIG_PRINTK=y
CONFIG_BUG=y
CONFIG_MULTIUSER=y
CONFIG_FUTEX=y
CONFIG_EPOLL=y
CONFIG_EVENTFD=y
CONFIG_SIGNALFD=y
CONFIG_TIMERFD=y
CONFIG_POSIX_TIMERS=y
CONFIG_FILE_LOCKING=y
CONFIG_SHMEM=y
CONFIG_ADVISE_SYSCALLS=y
CONFIG_BLK_DEV_INITRD=y
CONFIG_RD_GZIP=y
CONFIG_BINFMT_ELF=y
CONFIG_BINFMT_SCRIPT=y
CONFIG_DEVTMPFS=y
CONFIG_TMPFS=y
CONFIG_HUGETLBFS=y
CONFIG_PROC_FS=y
CONFIG_PROC_SYSCTL=y
CONFIG_PROC_PAGE_MONITOR=y
CONFIG_SYSFS=y
CONFIG_TTY=y
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_HYPERVISOR_GUEST=y
CONFIG_PVH=y
CONFIG_ACPI=y
CONFIG_PCI=y
CONFIG_PCI_MSI=y
CONFIG_X86_X2APIC=y
CONFIG_IOMMU_SUPPORT=y
CONFIG_INTEL_IOMMU=y
CONFIG_INTEL_IOMMU_DEFAULT_ON=y
CONFIG_IRQ_REMAP=y
CONFIG_VFIO=y
CONFIG_VFIO_GROUP=y
CONFIG_VFIO_CONTAINER=y
CONFIG_VFIO_IOMMU_TYPE1=y
CONFIG_VFIO_DEVICE_CDEV=y
CONFIG_IOMMUFD=y
CONFIG_VFIO_PCI=y
CONFIG_VFIO_PCI_CORE=y
EOF
}
if [ -f "$out/vmlinux" ] && [ "$(cat "$out/config.wanted" 2>/dev/null)" = "$(config_lines)" ]; then
	echo "$out/vmlinux"
	exit 0
fi
need() { # COMMAND PACKAGE: installs PACKAGE when root and COMMAND is missing
	command -v "$1" >/dev/null 2>&1 && return 0
	[ "$(id -u)" = 0 ] || return 1
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends \
		"$2" >/dev/null 2>&1 ||
		{ apt-get -o DPkg::Lock::Timeout=600 update >/dev/null 2>&1 &&
			DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y \
				--no-install-recommends "$2" >/dev/null 2>&1; }
	command -v "$1" >/dev/null 2>&1
}
for tool in curl:curl flex:flex bison:bison bc:bc xz:xz-utils make:make gcc:gcc perl:perl \
	sha256sum:coreutils readelf:binutils; do
	need "${tool%%:*}" "${tool#*:}" || skip "no ${tool%%:*} (apt-get install ${tool#*:})"
done
# objtool and the kernel's own tools need libelf's headers.
if [ ! -f /usr/include/libelf.h ] && [ ! -f /usr/include/gelf.h ]; then
	[ "$(id -u)" = 0 ] && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y \
		--no-install-recommends libelf-dev >/dev/null 2>&1
	[ -f /usr/include/gelf.h ] || skip "no libelf headers (apt-get install libelf-dev)"
fi

# The source index of a private apt (nothing on the system changes), then the
# newest 6.12 upstream tarball of Debian's linux that the mirror serves.
mkdir -p "$apt/parts" "$apt/lists/partial" "$apt/cache"
printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
	>"$apt/parts/src.sources"
aptq() {
	"$@" -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$apt/parts" \
		-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" \
		-o Dir::State::status=/dev/null -o Debug::NoLocking=1 -o APT::Sandbox::User="$(id -un)"
}
# The newest tarball the index lists that the mirror serves and that matches the index's
# sha256 and size; the index fetched again once when none does (the pool moves on).
pick() {
	# "SHA256 SIZE NAME" of each 6.12 upstream tarball in the index, newest first.
	aptq apt-cache showsrc linux 2>/dev/null |
		awk '/^Checksums-Sha256:/ { s = 1; next } /^[^ ]/ { s = 0 } s && $3 ~ /^linux_6\.12\.[0-9]+\.orig\.tar\.xz$/ { print $1, $2, $3 }' |
		sort -u -k3,3 | sort -t. -k3,3nr >"$apt/tarballs"
	tarball=
	while read -r sum size name; do
		if [ ! -f "$src/$name" ]; then
			# A stalled download must not hold CI: under 10 kB/s for a minute gives up.
			curl -sf --connect-timeout 30 --speed-limit 10000 --speed-time 60 \
				-o "$src/$name.part" "http://deb.debian.org/debian/pool/main/l/linux/$name" || continue
			mv "$src/$name.part" "$src/$name"
		fi
		if [ "$(sha256sum "$src/$name" | cut -d ' ' -f 1)" = "$sum" ] &&
			[ "$(wc -c <"$src/$name")" = "$size" ]; then
			tarball=$name
			break
		fi
		echo "kernel-iommufd.sh: $name does not match the index's sha256: not used"
		rm -f "$src/$name"
	done <"$apt/tarballs"
	rm -f "$src"/*.part
}
update() {
	aptq apt-get update >"$apt/log" 2>&1 || skip "bookworm-backports' source index could not be fetched (see $apt/log)"
	touch "$apt/updated"
}
[ -f "$apt/updated" ] || update
pick
if [ -z "$tarball" ]; then
	update
	pick
fi
[ -n "$tarball" ] || skip "no linux 6.12 tarball in bookworm-backports' index could be fetched from the mirror"
version=${tarball#linux_}
version=${version%.orig.tar.xz}
tree=$src/linux-$version
t0=$(date +%s)
# Unpacked beside, then renamed: an interrupted unpack leaves no tree that looks whole.
if [ ! -f "$tree/Makefile" ]; then
	echo "kernel-iommufd.sh: unpacking $tarball"
	rm -rf "$tree" "$src/unpack"
	mkdir -p "$src/unpack"
	xz -dc "$src/$tarball" | tar -x -C "$src/unpack" &&
		mv "$src/unpack/linux-$version" "$tree" || skip "$tarball could not be unpacked"
	rm -rf "$src/unpack"
fi
obj=$PWD/$out/obj
mkdir -p "$obj"
config_lines >"$obj/wanted.config"
echo "kernel-iommufd.sh: configuring Linux $version (tinyconfig and the rig's options)"
make -s -C "$tree" O="$obj" ARCH=x86_64 tinyconfig >/dev/null || skip "tinyconfig failed"
sh "$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$obj/wanted.config" \
	>"$obj/merge.log" 2>&1 || skip "the options could not be merged (see $obj/merge.log)"
make -s -C "$tree" O="$obj" ARCH=x86_64 olddefconfig >/dev/null || skip "olddefconfig failed"
# Each option asked must have survived the dependencies: one that did not is named.
missing=
for line in $(config_lines); do
	grep -qx "$line" "$obj/.config" || missing="$missing ${line%%=*}"
done
[ -z "$missing" ] || skip "the configuration lost:$missing"
echo "kernel-iommufd.sh: building (make -j$jobs vmlinux)"
make -s -C "$tree" O="$obj" ARCH=x86_64 -j"$jobs" vmlinux >"$obj/build.log" 2>&1 ||
	{ tail -n 30 "$obj/build.log"; skip "the build failed (see $obj/build.log)"; }
readelf -n "$obj/vmlinux" | grep -q 'Xen.*(0x00000012)' || skip "the kernel has no PVH entry"
cp "$obj/vmlinux" "$out/vmlinux.new" && mv "$out/vmlinux.new" "$out/vmlinux"
cp "$obj/.config" "$out/config"
echo "$version" >"$out/release"
config_lines >"$out/config.wanted"
echo "kernel-iommufd.sh: Linux $version built in $(($(date +%s) - t0)) s"
echo "$out/vmlinux"
