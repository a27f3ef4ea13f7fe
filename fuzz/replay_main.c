/* SPDX-License-Identifier: MIT */
/* Replays a fuzz target's corpus without libFuzzer: linked with one fuzz/fuzz_*.c
 * and the normal build (gcc, or make check-asan's sanitizers), it calls
 * LLVMFuzzerTestOneInput once on every file named (directories: every file in
 * them, in name order). A broken invariant aborts; a crash names the input it
 * happened on. Prints the number of inputs replayed. */
#include <dirent.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

static const char *current = "(none)";

static void say(const char *s)
{
    ssize_t ignored = write(STDERR_FILENO, s, strlen(s));
    (void)ignored;
}

static void name_input(void)
{
    say("replay: died on input ");
    say(current);
    say("\n");
}

/* Under make check-asan AddressSanitizer reports first and then exits without a
 * signal: it calls this back (weak: absent from a normal build). gcc's UBSan
 * runtime does not; fuzz/replay_corpora.sh then finds the input itself. */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
static struct sigaction previous[sizeof fatal_signals / sizeof fatal_signals[0]];

/* Names the input, then lets the handler that was there (a sanitizer's) or the
 * default action have the signal. */
static void on_fatal(int sig, siginfo_t *info, void *context)
{
    name_input();
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++) {
        if (fatal_signals[i] != sig)
            continue;
        if ((previous[i].sa_flags & SA_SIGINFO) && previous[i].sa_sigaction) {
            previous[i].sa_sigaction(sig, info, context);
            return;
        }
        if (previous[i].sa_handler != SIG_DFL && previous[i].sa_handler != SIG_IGN) {
            previous[i].sa_handler(sig);
            return;
        }
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* The whole file in a buffer of exactly its size (so a sanitizer sees any read
 * past the input's end). */
static unsigned char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    unsigned char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            unsigned char *nb = realloc(buf, cap *= 2);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    fclose(f);
    unsigned char *exact = buf ? malloc(n ? n : 1) : NULL;
    if (exact)
        memcpy(exact, buf, n);
    free(buf);
    *size = n;
    return exact;
}

static bool replay_file(const char *path)
{
    size_t size;
    unsigned char *data = read_all(path, &size);
    if (!data) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        return false;
    }
    current = path;
    LLVMFuzzerTestOneInput(data, size);
    current = "(none)";
    free(data);
    return true;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file in dir; returns how many, or -1 on an error. */
static long replay_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "replay: cannot open %s\n", dir);
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 256;
            char **nn = realloc(names, cap * sizeof *nn);
            if (!nn)
                break;
            names = nn;
        }
        names[n] = strdup(e->d_name);
        if (names[n])
            n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, compare_names);
    long count = 0;
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            if (!replay_file(path))
                count = -1;
            else if (count >= 0)
                count++;
        }
        free(names[i]);
    }
    free(names);
    return count;
}

int main(int argc, char **argv)
{
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_fatal;
        sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
        sigemptyset(&sa.sa_mask);
        sigaction(fatal_signals[i], &sa, &previous[i]);
    }
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(name_input);
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
        return 2;
    }
    long total = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        long n = stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode) ? replay_dir(argv[i]) : replay_file(argv[i]) ? 1 : -1;
        if (n < 0)
            return 1;
        total += n;
    }
    printf("%ld inputs replayed\n", total);
    return 0;
}
