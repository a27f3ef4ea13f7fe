/* SPDX-License-Identifier: MIT */
/* perf bench numa mem's -C/-M lists against recorded machines: which task gets
 * which CPUs or node, markers in any order, bindings past the last task counted
 * (arithmetically, however many), unusable CPUs and memory-less or missing nodes
 * refused, a CPU-less memory node accepted, and the exact line for every kind of
 * malformed entry. */
#include <limits.h>
#include <stdlib.h>
#include <time.h>

#include "fixtures.h"
#include "plan/numa_bind.h"
#include "test.h"

/* One tree of each machine for the whole file: the harness has room for 256. */
static const char *two_sockets(void)
{
    return fixture_once(fixture_two_socket_smt);
}

static const char *memoryless(void)
{
    return fixture_once(fixture_memoryless_node);
}

static const char *many(void)
{
    return fixture_once(fixture_many_cpus);
}

/* Each task's CPUs, "|"-separated, "-" for an unbound task: "0-3|4|-". */
static const char *cpus_text(const numa_binding *b)
{
    static char buf[1024];
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < b->ntasks && n < sizeof buf; i++) {
        char one[256];
        const cpu_list *l = &b->cpus[i];
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? "|" : "",
                              l->count ? cpu_list_format(l->ids, l->count, one, sizeof one) : "-");
    }
    return buf;
}

/* Each task's node, space-separated, -1 for an unbound task: "1 0 -1". */
static const char *nodes_text(const numa_binding *b)
{
    static char buf[1024];
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < b->ntasks && n < sizeof buf; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%d", i ? " " : "", b->nodes[i]);
    return buf;
}

/* -C LIST for ntasks on t: the tasks' CPUs, or "ERR " and the message. Also
 * checks what holds for every result: bound tasks first, the node array all
 * unbound, a refused list leaves b zeroed. */
static const char *bind_cpus(const topology *t, const char *list, int ntasks, numa_binding *b)
{
    static char out[1024];
    char err[256] = "";
    if (!numa_bind_cpus(t, list, ntasks, b, err, sizeof err)) {
        CHECK(b->cpus == NULL && b->nodes == NULL && b->ntasks == 0 && b->bound == 0 && b->ignored == 0);
        CHECK(strchr(err, '\n') == NULL);
        snprintf(out, sizeof out, "ERR %s", err);
        return out;
    }
    CHECK_INT(b->ntasks, ntasks);
    for (int i = 0; i < ntasks; i++) {
        CHECK_INT(b->nodes[i], -1);
        CHECK_INT(b->cpus[i].count > 0, i < b->bound);
    }
    return cpus_text(b);
}

static const char *bind_nodes(const topology *t, const char *list, int ntasks, numa_binding *b)
{
    static char out[1024];
    char err[256] = "";
    if (!numa_bind_nodes(t, list, ntasks, b, err, sizeof err)) {
        CHECK(b->cpus == NULL && b->nodes == NULL && b->ntasks == 0 && b->bound == 0 && b->ignored == 0);
        CHECK(strchr(err, '\n') == NULL);
        snprintf(out, sizeof out, "ERR %s", err);
        return out;
    }
    CHECK_INT(b->ntasks, ntasks);
    for (int i = 0; i < ntasks; i++) {
        CHECK_INT(b->cpus[i].count, 0);
        CHECK_INT(b->nodes[i] >= 0, i < b->bound);
    }
    return nodes_text(b);
}

/* The -C result's text, freed at once: for tests that only look at the tasks. */
static const char *cpus_of(const topology *t, const char *list, int ntasks)
{
    numa_binding b;
    const char *s = bind_cpus(t, list, ntasks, &b);
    numa_binding_free(&b);
    return s;
}

static const char *nodes_of(const topology *t, const char *list, int ntasks)
{
    numa_binding b;
    const char *s = bind_nodes(t, list, ntasks, &b);
    numa_binding_free(&b);
    return s;
}

TEST(numa_bind_cpus_tasks_take_bindings_in_list_order)
{
    topology t;
    numa_binding b;
    fixture_load(&t, two_sockets(), NULL);
    /* xMUL: consecutive tasks share a binding; the rest stay unbound */
    CHECK_STR(bind_cpus(&t, "0x2", 3, &b), "0|0|-");
    CHECK_INT(b.bound, 2);
    CHECK_INT(b.ignored, 0);
    numa_binding_free(&b);
    /* order as written, not sorted */
    CHECK_STR(cpus_of(&t, "1,0", 2), "1|0");
    CHECK_STR(cpus_of(&t, "5", 3), "5|-|-"); /* END defaults to START */
    CHECK_STR(cpus_of(&t, "0-1x2", 4), "0|0|1|1");
    /* #STEP: END is a bound, not a value: 0-3#2 stops at 2, 0-4#2 reaches 4 */
    CHECK_STR(cpus_of(&t, "0-3#2", 3), "0|2|-");
    CHECK_STR(cpus_of(&t, "0-4#2", 3), "0|2|4");
    /* _LEN: each binding is LEN consecutive CPUs from the value */
    CHECK_STR(cpus_of(&t, "0_4-8#4", 3), "0-3|4-7|8-11");
    CHECK_STR(cpus_of(&t, "14_2", 1), "14-15");
    /* entries continue where the previous one stopped */
    CHECK_STR(cpus_of(&t, "0x2,5,6-7", 5), "0|0|5|6|7");
    CHECK_STR(cpus_of(&t, "3_2x2,0", 4), "3-4|3-4|0|-");
    topology_free(&t);

    fixture_load(&t, many(), NULL);
    CHECK_STR(cpus_of(&t, "8_4-16#4", 3), "8-11|12-15|16-19");
    CHECK_STR(cpus_of(&t, "255,128_128", 2), "255|128-255");
    topology_free(&t);
}

TEST(numa_bind_markers_come_in_any_order_after_start)
{
    topology t;
    fixture_load(&t, many(), NULL);
    const char *same[] = {"8_4-16#4", "8-16#4_4", "8#4_4-16", "8#4-16_4"};
    for (size_t i = 0; i < sizeof same / sizeof *same; i++)
        CHECK_STR(cpus_of(&t, same[i], 3), "8-11|12-15|16-19");
    CHECK_STR(cpus_of(&t, "0x2-1", 4), "0|0|1|1");
    CHECK_STR(cpus_of(&t, "0x2#2-4", 6), "0|0|2|2|4|4");
    CHECK_STR(cpus_of(&t, "007-08", 2), "7|8"); /* leading zeros are still decimal */
    topology_free(&t);
}

TEST(numa_bind_bindings_past_the_last_task_are_counted_not_used)
{
    topology t;
    numa_binding b;
    fixture_load(&t, two_sockets(), NULL);
    CHECK_STR(bind_cpus(&t, "0-3", 2, &b), "0|1");
    CHECK_INT(b.bound, 2);
    CHECK_INT(b.ignored, 2);
    numa_binding_free(&b);
    /* 0-1x3 is six bindings: two used, four ignored; then 4 is ignored too */
    CHECK_STR(bind_cpus(&t, "0-1x3,4", 2, &b), "0|0");
    CHECK_INT(b.ignored, 5);
    numa_binding_free(&b);
    /* a binding cut by the last task counts only the tasks it could not give */
    CHECK_STR(bind_cpus(&t, "2,3x4", 3, &b), "2|3|3");
    CHECK_INT(b.bound, 3);
    CHECK_INT(b.ignored, 2);
    numa_binding_free(&b);
    CHECK_STR(bind_cpus(&t, "0-15", 0, &b), "");
    CHECK_INT(b.bound, 0);
    CHECK_INT(b.ignored, 16);
    numa_binding_free(&b);
    topology_free(&t);
}

TEST(numa_bind_absurd_expansions_are_counted_without_looping)
{
    topology t;
    numa_binding b;
    fixture_load(&t, two_sockets(), NULL);
    clock_t t0 = clock();
    CHECK_STR(bind_cpus(&t, "0x2147483647", 2, &b), "0|0");
    CHECK_INT(b.ignored, INT_MAX - 2);
    numa_binding_free(&b);
    /* 16 x 2e9 bindings: the count saturates instead of wrapping negative */
    CHECK_STR(bind_cpus(&t, "0-15x2000000000", 2, &b), "0|0");
    CHECK_INT(b.ignored, INT_MAX);
    numa_binding_free(&b);
    CHECK_STR(bind_cpus(&t, "0x2147483647,1x2147483647", 1, &b), "0");
    CHECK_INT(b.ignored, INT_MAX);
    numa_binding_free(&b);
    CHECK_STR(nodes_of(&t, "0-1x2147483647", 3), "0 0 0");
    /* an END far beyond any CPU is refused at once, not walked to */
    CHECK_STR(cpus_of(&t, "0-2000000000", 2),
              "ERR -C '0-2000000000': '0-2000000000': CPU 2000000000 is above 65535, the largest CPU id");
    /* the largest step: one value, and v += STEP must not overflow */
    CHECK_STR(cpus_of(&t, "1-65535#2147483647", 2), "1|-");
    CHECK(clock() - t0 < CLOCKS_PER_SEC);
    topology_free(&t);
}

TEST(numa_bind_cpus_must_be_usable_by_this_process)
{
    topology t;
    fixture_load(&t, two_sockets(), "3,4,12");
    CHECK_STR(cpus_of(&t, "4,12,3", 3), "4|12|3");
    CHECK_STR(cpus_of(&t, "3_2", 1), "3-4");
    /* online but outside the affinity mask */
    CHECK_STR(cpus_of(&t, "3,5", 2), "ERR -C '3,5': CPU 5 is not available to this process (usable: 3-4,12)");
    CHECK_STR(cpus_of(&t, "0", 1), "ERR -C '0': CPU 0 is not available to this process (usable: 3-4,12)");
    /* every CPU of a _LEN set, not only the first */
    CHECK_STR(cpus_of(&t, "3_3", 1), "ERR -C '3_3': CPU 5 is not available to this process (usable: 3-4,12)");
    CHECK_STR(cpus_of(&t, "12_2", 1), "ERR -C '12_2': CPU 13 is not available to this process (usable: 3-4,12)");
    /* stepped-over CPUs are not checked, reached ones are */
    CHECK_STR(cpus_of(&t, "4-12#8", 2), "4|12");
    CHECK_STR(cpus_of(&t, "4-12#4", 3), "ERR -C '4-12#4': CPU 8 is not available to this process (usable: 3-4,12)");
    /* a binding past the last task is checked too: the list is wrong either way */
    CHECK_STR(cpus_of(&t, "4,5", 1), "ERR -C '4,5': CPU 5 is not available to this process (usable: 3-4,12)");
    topology_free(&t);

    /* a CPU this machine does not have */
    fixture_load(&t, two_sockets(), NULL);
    CHECK_STR(cpus_of(&t, "0,16", 2), "ERR -C '0,16': CPU 16 is not available to this process (usable: 0-15)");
    CHECK_STR(cpus_of(&t, "8_4-16#4", 3), "ERR -C '8_4-16#4': CPU 16 is not available to this process (usable: 0-15)");
    topology_free(&t);
}

TEST(numa_bind_nodes_need_memory_not_cpus)
{
    topology t;
    numa_binding b;
    fixture_load(&t, two_sockets(), NULL);
    CHECK_STR(bind_nodes(&t, "1,0", 3, &b), "1 0 -1");
    CHECK_INT(b.bound, 2);
    CHECK_INT(b.ignored, 0);
    numa_binding_free(&b);
    CHECK_STR(nodes_of(&t, "0-1x2", 4), "0 0 1 1");
    CHECK_STR(bind_nodes(&t, "1x3,0", 2, &b), "1 1");
    CHECK_INT(b.ignored, 2);
    numa_binding_free(&b);
    CHECK_STR(nodes_of(&t, "7", 1), "ERR -M '7': no NUMA node 7 here (nodes: 0-1)");
    CHECK_STR(nodes_of(&t, "0,2", 1), "ERR -M '0,2': no NUMA node 2 here (nodes: 0-1)");
    topology_free(&t);

    /* node 0: CPUs 0-1 and memory; node 1: CPUs 2-3, no memory; node 2: memory only */
    fixture_load(&t, memoryless(), NULL);
    CHECK_STR(nodes_of(&t, "2", 2), "2 -1");
    CHECK_STR(nodes_of(&t, "0,2x2", 3), "0 2 2");
    CHECK_STR(nodes_of(&t, "0-2#2", 2), "0 2");
    CHECK_STR(nodes_of(&t, "1", 1), "ERR -M '1': NUMA node 1 has no memory");
    CHECK_STR(nodes_of(&t, "0-2", 3), "ERR -M '0-2': NUMA node 1 has no memory");
    CHECK_STR(nodes_of(&t, "0,1", 1), "ERR -M '0,1': NUMA node 1 has no memory"); /* ignored, still checked */
    CHECK_STR(nodes_of(&t, "3", 1), "ERR -M '3': no NUMA node 3 here (nodes: 0-2)");
    /* the memory-less node's CPUs are still CPUs for -C */
    CHECK_STR(cpus_of(&t, "2_2", 1), "2-3");
    topology_free(&t);
}

/* The message numa_bind_syntax gives for list, or "ok". */
static const char *syntax(const char *flag, const char *list, bool cpus)
{
    static char err[256];
    if (numa_bind_syntax(flag, list, cpus, err, sizeof err))
        return "ok";
    CHECK(strchr(err, '\n') == NULL);
    return err;
}

#define CPU_GRAMMAR "(entries are START[_LEN][-END][#STEP][xMUL])"
#define NODE_GRAMMAR "(entries are START[-END][#STEP][xMUL])"

TEST(numa_bind_syntax_refuses_what_is_not_the_grammar)
{
    CHECK_STR(syntax("-C", "0", true), "ok");
    CHECK_STR(syntax("-C", "8_4-16#4,0x2,65534_2,0-65535#2_2", true), "ok");
    CHECK_STR(syntax("-M", "0-3#2x4,1", false), "ok");
    /* empty lists and entries */
    CHECK_STR(syntax("-C", "", true), "-C '': empty entry");
    CHECK_STR(syntax("-C", "0,,1", true), "-C '0,,1': empty entry");
    CHECK_STR(syntax("-C", "0,", true), "-C '0,': empty entry");
    CHECK_STR(syntax("-M", ",0", false), "-M ',0': empty entry");
    /* START first */
    CHECK_STR(syntax("-C", "abc", true), "-C 'abc': 'abc' does not start with a number " CPU_GRAMMAR);
    CHECK_STR(syntax("-C", "-1", true), "-C '-1': '-1' does not start with a number " CPU_GRAMMAR);
    CHECK_STR(syntax("-M", "0,x2", false), "-M '0,x2': 'x2' does not start with a number " NODE_GRAMMAR);
    CHECK_STR(syntax("-C", "+1", true), "-C '+1': '+1' does not start with a number " CPU_GRAMMAR);
    /* each marker with a number */
    CHECK_STR(syntax("-C", "0x", true), "-C '0x': '0x': 'x' needs a number after it");
    CHECK_STR(syntax("-C", "1-", true), "-C '1-': '1-': '-' needs a number after it");
    CHECK_STR(syntax("-C", "0_,1", true), "-C '0_,1': '0_': '_' needs a number after it");
    CHECK_STR(syntax("-M", "0#-1", false), "-M '0#-1': '0#-1': '#' needs a number after it");
    /* each marker once */
    CHECK_STR(syntax("-C", "0-1-2", true), "-C '0-1-2': '0-1-2': '-' is given twice");
    CHECK_STR(syntax("-C", "0x2#1x3", true), "-C '0x2#1x3': '0x2#1x3': 'x' is given twice");
    CHECK_STR(syntax("-C", "0_2_2", true), "-C '0_2_2': '0_2_2': '_' is given twice");
    /* _LEN only for CPUs */
    CHECK_STR(syntax("-M", "0_2", false), "-M '0_2': '0_2': _LEN is only for CPU lists (-C)");
    /* anything else */
    CHECK_STR(syntax("-C", "0y1", true), "-C '0y1': '0y1': unexpected 'y' " CPU_GRAMMAR);
    CHECK_STR(syntax("-C", "0X2", true), "-C '0X2': '0X2': unexpected 'X' " CPU_GRAMMAR);
    CHECK_STR(syntax("-C", "0 ,1", true), "-C '0 ,1': '0 ': unexpected ' ' " CPU_GRAMMAR);
    /* a byte that is not printable is shown escaped: the message stays one line */
    CHECK_STR(syntax("-M", "1\n", false), "-M '1\\x0a': '1\\x0a': unexpected byte 0x0a " NODE_GRAMMAR);
}

TEST(numa_bind_syntax_refuses_bad_numbers)
{
    CHECK_STR(syntax("-C", "3-1", true), "-C '3-1': '3-1': START 3 is above END 1");
    CHECK_STR(syntax("-C", "0#0", true), "-C '0#0': '0#0': #STEP must be at least 1");
    CHECK_STR(syntax("-C", "0_0", true), "-C '0_0': '0_0': _LEN must be at least 1");
    CHECK_STR(syntax("-M", "0x0", false), "-M '0x0': '0x0': xMUL must be at least 1");
    /* beyond an int: refused, never wrapped to a small id */
    CHECK_STR(syntax("-C", "4294967296", true), "-C '4294967296': '4294967296': 4294967296 is too large");
    CHECK_STR(syntax("-C", "2147483648", true), "-C '2147483648': '2147483648': 2147483648 is too large");
    CHECK_STR(syntax("-C", "0x99999999999999999999", true),
              "-C '0x99999999999999999999': '0x99999999999999999999': 99999999999999999999 is too large");
    /* 2^64: a parser that let the digits wrap would read 0 */
    CHECK_STR(syntax("-M", "18446744073709551616", false),
              "-M '18446744073709551616': '18446744073709551616': 18446744073709551616 is too large");
    CHECK_STR(syntax("-C", "0x2147483647", true), "ok");
    /* ids within CPU_LIST_MAX_ID, the last CPU of a _LEN set included */
    CHECK_STR(syntax("-C", "65535", true), "ok");
    CHECK_STR(syntax("-C", "65536", true), "-C '65536': '65536': CPU 65536 is above 65535, the largest CPU id");
    CHECK_STR(syntax("-M", "0-65536", false), "-M '0-65536': '0-65536': node 65536 is above 65535, the largest node id");
    CHECK_STR(syntax("-C", "65535_2", true), "-C '65535_2': '65535_2': CPU 65536 is above 65535, the largest CPU id");
    CHECK_STR(syntax("-C", "0-65535#65535_2", true),
              "-C '0-65535#65535_2': '0-65535#65535_2': CPU 65536 is above 65535, the largest CPU id");
}

TEST(numa_bind_planners_give_the_syntax_messages_first)
{
    topology t;
    numa_binding b;
    char err[256];
    fixture_load(&t, two_sockets(), NULL);
    CHECK_STR(cpus_of(&t, "0-1-2", 2), "ERR -C '0-1-2': '0-1-2': '-' is given twice");
    CHECK_STR(nodes_of(&t, "0_2", 2), "ERR -M '0_2': '0_2': _LEN is only for CPU lists (-C)");
    CHECK_STR(nodes_of(&t, "", 2), "ERR -M '': empty entry");
    /* a malformed later entry is named before an earlier entry's missing CPU */
    CHECK_STR(cpus_of(&t, "99,abc", 2), "ERR -C '99,abc': 'abc' does not start with a number " CPU_GRAMMAR);
    /* a refused list after a good one leaves nothing behind; free is safe twice */
    CHECK(numa_bind_cpus(&t, "0-3", 4, &b, err, sizeof err));
    numa_binding_free(&b);
    numa_binding_free(&b);
    CHECK(b.cpus == NULL && b.nodes == NULL && b.ntasks == 0);
    topology_free(&t);
}

TEST(numa_bind_a_long_list_is_cut_in_the_message_not_the_error)
{
    char list[400], err[512];
    size_t n = 0;
    while (n < 300)
        n += (size_t)snprintf(list + n, sizeof list - n, "0,");
    snprintf(list + n, sizeof list - n, "abc");
    CHECK(!numa_bind_syntax("-C", list, true, err, sizeof err));
    /* the list shown is cut and says so; the bad entry is still named whole */
    CHECK_CONTAINS(err, "-C '0,0,0,");
    CHECK_CONTAINS(err, "...': 'abc' does not start with a number");
    /* 159 bytes for the list as shown: 156 of it and "..." */
    CHECK(strstr(err, "...'") != NULL);
    CHECK_INT(strstr(err, "...'") - err, strlen("-C '") + 156);
    /* a small buffer gets a cut, terminated line */
    CHECK(!numa_bind_syntax("-C", "0,abc", true, err, 12));
    CHECK_STR(err, "-C '0,abc':");
}
