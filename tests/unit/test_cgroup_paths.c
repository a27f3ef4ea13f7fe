/* SPDX-License-Identifier: MIT */
/* Where the memory limits are: /proc/self/cgroup and /proc/self/mountinfo texts of
 * a systemd host (v2), a hybrid v1 host, a guest with cgroup2 mounted elsewhere, a
 * container whose mount root is a sub-cgroup, and a system with no cgroups. */
#include "platform/cgroup_paths.h"
#include "test.h"

#define MI_V2 "30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate\n"

TEST(cgroup_v2_walks_from_own_group_to_root)
{
    cgroup_dir d[8];
    size_t n = cgroup_memory_dirs("0::/user.slice/user-0.slice/session-1.scope\n",
                                  "22 1 8:1 / / rw - ext4 /dev/sda1 rw\n" MI_V2, d, 8);
    CHECK_INT(n, 4);
    CHECK_STR(d[0].dir, "/sys/fs/cgroup/user.slice/user-0.slice/session-1.scope");
    CHECK_STR(d[1].dir, "/sys/fs/cgroup/user.slice/user-0.slice");
    CHECK_STR(d[2].dir, "/sys/fs/cgroup/user.slice");
    CHECK_STR(d[3].dir, "/sys/fs/cgroup");
    CHECK_STR(d[0].limit_file, "memory.max");
    CHECK_STR(d[0].usage_file, "memory.current");
}

TEST(cgroup_v2_mounted_elsewhere_is_found_in_mountinfo)
{
    cgroup_dir d[8];
    size_t n = cgroup_memory_dirs("0::/small\n", "5 1 0:5 / /cg rw,relatime - cgroup2 none rw\n", d, 8);
    CHECK_INT(n, 2);
    CHECK_STR(d[0].dir, "/cg/small");
    CHECK_STR(d[1].dir, "/cg");
}

TEST(cgroup_v1_memory_hierarchy_only)
{
    const char *cg = "12:pids:/user.slice\n"
                     "4:memory:/user.slice/job\n"
                     "3:cpu,cpuacct:/user.slice\n"
                     "0::/user.slice/job\n";
    const char *mi = "40 30 0:35 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
                     "41 30 0:36 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
                     "31 30 0:27 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n";
    cgroup_dir d[16];
    size_t n = cgroup_memory_dirs(cg, mi, d, 16);
    CHECK_INT(n, 6); /* three v1 memory levels, three v2 levels (no memory files there: ignored later) */
    CHECK_STR(d[0].dir, "/sys/fs/cgroup/memory/user.slice/job");
    CHECK_STR(d[0].limit_file, "memory.limit_in_bytes");
    CHECK_STR(d[2].dir, "/sys/fs/cgroup/memory");
    CHECK_STR(d[3].dir, "/sys/fs/cgroup/unified/user.slice/job");
    CHECK_STR(d[3].limit_file, "memory.max");
}

TEST(cgroup_container_mount_root_is_a_sub_group)
{
    /* The container's /sys/fs/cgroup is the host's /docker/abc; /proc/self/cgroup
     * names the full path or, with a cgroup namespace, just "/". */
    const char *mi = "600 500 0:26 /docker/abc /sys/fs/cgroup ro - cgroup2 cgroup rw\n";
    cgroup_dir d[8];
    CHECK_INT(cgroup_memory_dirs("0::/docker/abc/app\n", mi, d, 8), 2);
    CHECK_STR(d[0].dir, "/sys/fs/cgroup/app");
    CHECK_STR(d[1].dir, "/sys/fs/cgroup");
    CHECK_INT(cgroup_memory_dirs("0::/\n", mi, d, 8), 1);
    CHECK_STR(d[0].dir, "/sys/fs/cgroup");
    CHECK_INT(cgroup_memory_dirs("0::/elsewhere/x\n", mi, d, 8), 1); /* not below the root: the mount is ours */
    CHECK_STR(d[0].dir, "/sys/fs/cgroup");
}

TEST(cgroup_none_or_garbage_gives_nothing)
{
    cgroup_dir d[4];
    CHECK_INT(cgroup_memory_dirs("", "", d, 4), 0);
    CHECK_INT(cgroup_memory_dirs("garbage\n1:cpu:/x\n::\n0::relative\n", MI_V2, d, 4), 0);
    /* No mountinfo: the conventional mount point. */
    CHECK_INT(cgroup_memory_dirs("0::/a\n", "", d, 4), 2);
    CHECK_STR(d[0].dir, "/sys/fs/cgroup/a");
    /* Never more than asked for. */
    CHECK_INT(cgroup_memory_dirs("0::/a/b/c/d/e\n", MI_V2, d, 3), 3);
}
