/* SPDX-License-Identifier: MIT */
/* Inputs named on the command line (compare/report runs, mlc -g, topology --cpuid)
 * are read only when they are regular files: a FIFO without a writer or an endless
 * device is refused at once, before a byte is read, and a file over the limit too. */
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <time.h>

#include "test.h"
#include "util/read_file.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* read_file_limited(path) in a child: its exit status 0 when refused with "not a
 * regular file", 1 otherwise; -1 when it has not returned within 2 s (killed). */
static int refused_in_child(const char *path)
{
    pid_t pid = fork();
    if (pid == 0) {
        char err[128] = "", *data;
        size_t len;
        bool read = read_file_limited(path, 1 << 20, &data, &len, err, sizeof err);
        _exit(!read && strcmp(err, "not a regular file") == 0 ? 0 : 1);
    }
    int status = 0;
    for (int i = 0; i < 200 && waitpid(pid, &status, WNOHANG) == 0; i++)
        usleep(10000);
    if (waitpid(pid, &status, WNOHANG) == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        return -1;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

TEST(read_file_refuses_a_fifo_at_once)
{
    char path[512];
    snprintf(path, sizeof path, "%s/fifo", test_tempdir());
    CHECK(mkfifo(path, 0600) == 0);
    CHECK_INT(refused_in_child(path), 0); /* without O_NONBLOCK the open waits for a writer for ever */
}

TEST(read_file_refuses_devices_and_directories_before_reading)
{
    char err[128], *data;
    size_t len;
    double t0 = now(); /* /dev/zero read up to a 256 MiB limit takes a while and the memory */
    CHECK(!read_file_limited("/dev/zero", (size_t)256 << 20, &data, &len, err, sizeof err));
    CHECK(now() - t0 < 0.5);
    CHECK_STR(err, "not a regular file");
    CHECK(!read_file_limited(test_tempdir(), 1 << 20, &data, &len, err, sizeof err));
    CHECK_STR(err, "not a regular file");
    CHECK(!read_file_limited("/nonexistent/run.json", 1 << 20, &data, &len, err, sizeof err));
    CHECK_STR(err, "cannot open: No such file or directory");
}

/* /proc/kmsg is "regular" to stat and waits for (and consumes) the kernel log: no
 * file of /proc or /sys is an input, while the machine's own reads (open_regular)
 * still open them. */
TEST(read_file_refuses_kernel_file_systems_as_inputs)
{
    char err[200], *data;
    size_t len;
    CHECK(!read_file_limited("/proc/self/status", 1 << 20, &data, &len, err, sizeof err));
    CHECK(strstr(err, "not a regular file (a file of procfs, a kernel file system") == err);
    unsigned long long size;
    int fd = open_regular("/proc/self/status", &size);
    CHECK(fd >= 0);
    if (fd >= 0)
        close(fd);
}

TEST(read_file_reads_a_regular_file_within_the_limit_only)
{
    const char *dir = test_tempdir();
    char path[512], err[128], *data = NULL;
    size_t len = 0;
    test_write_file(dir, "delays", "0 2 8\n");
    snprintf(path, sizeof path, "%s/delays", dir);
    CHECK(read_file_limited(path, 6, &data, &len, err, sizeof err));
    CHECK_STR(data, "0 2 8\n");
    CHECK_INT(len, 6);
    free(data);
    CHECK(!read_file_limited(path, 5, &data, &len, err, sizeof err));
    CHECK_STR(err, "too big: 6 bytes (the limit is 5)");
}
