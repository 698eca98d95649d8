/* SPDX-License-Identifier: MIT */
/*
 * The VFIO port's one call into the real kernel that the fake kernel
 * cannot stand in for with meaning: listing a directory, which is how the
 * function's own file is found (/sys/bus/pci/devices/BDF/vfio-dev/vfioN).
 * Run on a directory of the test's own.
 */
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../../src/platform/vfio/vfio.h"
#include "../helpers.h"

TEST(vfio_dir_entry_of_the_real_kernel)
{
	char dir[] = "/tmp/dmamap-vfio-dev-XXXXXX", path[96], name[32], tiny[4];
	const struct dmamap_vfio_kernel *k = dmamap__vfio_kernel;

	REQUIRE(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/vfio12", dir);
	REQUIRE(mkdir(path, 0700) == 0);

	/* The entry with the prefix, whole and terminated. */
	memset(name, 'x', sizeof(name));
	CHECK_EQ(k->dir_entry(dir, "vfio", name, sizeof(name)), 0);
	CHECK_MSG(!strcmp(name, "vfio12"), "'%s'", name);
	/* None with that prefix ("." and ".." are not entries of it either): ENOENT. */
	errno = 0;
	CHECK_EQ(k->dir_entry(dir, "iommu", name, sizeof(name)), -1);
	CHECK_EQ(errno, ENOENT);
	/* Too long for the room: ENAMETOOLONG, not a cut name that would open another file. */
	errno = 0;
	CHECK_EQ(k->dir_entry(dir, "vfio", tiny, sizeof(tiny)), -1);
	CHECK_EQ(errno, ENAMETOOLONG);
	/* No such directory (a kernel before 6.6, or without the function's file): ENOENT. */
	snprintf(path, sizeof(path), "%s/none", dir);
	errno = 0;
	CHECK_EQ(k->dir_entry(path, "vfio", name, sizeof(name)), -1);
	CHECK_EQ(errno, ENOENT);

	snprintf(path, sizeof(path), "%s/vfio12", dir);
	rmdir(path);
	rmdir(dir);
}
