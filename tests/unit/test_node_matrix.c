/* SPDX-License-Identifier: MIT */
/* latency-matrix planning against recorded machines: rows are nodes with usable
 * CPUs, columns nodes with memory (CPU-less ones included), the chaser of each row,
 * --every-cpu's rows and columns, refusals, the buffer size from the LLC and the
 * budget; and the summary of a measured matrix. */
#include <stdlib.h>

#include "fixtures.h"
#include "measure/matrix_summary.h"
#include "plan/node_matrix.h"
#include "test.h"

/* One tree of each machine for the whole file: the harness has room for 64. */
static const char *two_sockets(void)
{
    return fixture_once(fixture_two_socket_smt);
}

static const char *memoryless(void)
{
    return fixture_once(fixture_memoryless_node);
}

static bool plan(const topology *t, node_matrix_request rq, node_matrix *m, char *err)
{
    return node_matrix_plan(t, &rq, m, err, 256);
}

/* "cpu_node:cpu>mem_node ..." for every cell, in measuring order. */
static const char *cells_text(const node_matrix *m)
{
    static char buf[1024];
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < m->ncells && n < sizeof buf; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%d:%d>%d", i ? " " : "", m->cells[i].cpu_node,
                              m->cells[i].cpu, m->cells[i].mem_node);
    return buf;
}

TEST(node_matrix_two_sockets_one_chaser_per_node_every_node_a_column)
{
    topology t;
    node_matrix m;
    char err[256];
    fixture_load(&t, two_sockets(), NULL);
    CHECK(plan(&t, (node_matrix_request){false, -1, -1, NULL, 0}, &m, err));
    CHECK_INT(m.nrows, 2);
    CHECK_INT(m.ncols, 2);
    /* node 1's first CPU is 4 (its list is 4-7,12-15) */
    CHECK_STR(cells_text(&m), "0:0>0 0:0>1 1:4>0 1:4>1");
    CHECK_INT(m.cells[3].row, 1);
    CHECK_INT(m.cells[3].col, 1);
    node_matrix_free(&m);
    topology_free(&t);
}

TEST(node_matrix_memoryless_cpu_node_is_a_row_cpu_less_memory_node_a_column)
{
    topology t;
    node_matrix m;
    char err[256];
    fixture_load(&t, memoryless(), NULL);
    CHECK(plan(&t, (node_matrix_request){false, -1, -1, NULL, 0}, &m, err));
    /* rows: node 0 (CPUs 0-1) and node 1 (CPUs 2-3, no memory); columns: 0 and 2 (no CPUs) */
    CHECK_INT(m.nrows, 2);
    CHECK_INT(m.row_nodes[1], 1);
    CHECK_INT(m.ncols, 2);
    CHECK_INT(m.col_nodes[0], 0);
    CHECK_INT(m.col_nodes[1], 2);
    CHECK_STR(cells_text(&m), "0:0>0 0:0>2 1:2>0 1:2>2");
    node_matrix_free(&m);

    /* --mem-node 2: the CPU-less node alone */
    CHECK(plan(&t, (node_matrix_request){false, -1, 2, NULL, 0}, &m, err));
    CHECK_STR(cells_text(&m), "0:0>2 1:2>2");
    node_matrix_free(&m);
    topology_free(&t);
}

TEST(node_matrix_rows_are_nodes_with_usable_cpus_and_cpu_of_chooses_the_chaser)
{
    topology t;
    node_matrix m;
    char err[256];
    /* taskset -c 5,13: only node 1 has a usable CPU, and it is 5, not 4 */
    fixture_load(&t, two_sockets(), "5,13");
    CHECK(plan(&t, (node_matrix_request){false, -1, -1, NULL, 0}, &m, err));
    CHECK_STR(cells_text(&m), "1:5>0 1:5>1");
    node_matrix_free(&m);
    node_cpu_choice c13 = {1, 13};
    CHECK(plan(&t, (node_matrix_request){false, -1, -1, &c13, 1}, &m, err));
    CHECK_STR(cells_text(&m), "1:13>0 1:13>1");
    node_matrix_free(&m);
    topology_free(&t);
}

TEST(node_matrix_every_cpu_a_row_per_usable_cpu_to_its_own_memory)
{
    topology t;
    node_matrix m;
    char err[256];
    fixture_load(&t, memoryless(), NULL);
    CHECK(plan(&t, (node_matrix_request){true, -1, -1, NULL, 0}, &m, err));
    /* CPUs 2-3 sit on the memory-less node 1: their memory is the nearest, node 2 */
    CHECK_INT(m.nrows, 4);
    CHECK_STR(cells_text(&m), "0:0>0 0:1>0 1:2>2 1:3>2");
    CHECK_INT(m.ncols, 2);
    CHECK_INT(m.cells[3].row, 3);
    CHECK_INT(m.cells[3].col, 1);
    node_matrix_free(&m);
    CHECK(plan(&t, (node_matrix_request){true, -1, 0, NULL, 0}, &m, err));
    CHECK_STR(cells_text(&m), "0:0>0 0:1>0 1:2>0 1:3>0");
    node_matrix_free(&m);
    topology_free(&t);

    fixture_load(&t, two_sockets(), "3,4,12");
    CHECK(plan(&t, (node_matrix_request){true, -1, -1, NULL, 0}, &m, err));
    CHECK_STR(cells_text(&m), "0:3>0 1:4>1 1:12>1");
    node_matrix_free(&m);
    topology_free(&t);
}

TEST(node_matrix_one_cpu_is_that_cpus_row_alone)
{
    topology t;
    node_matrix m;
    char err[256];
    fixture_load(&t, memoryless(), NULL);
    /* CPU 3 of the memory-less node 1: its memory is node 2's, or the one asked for */
    CHECK(plan(&t, (node_matrix_request){false, 3, -1, NULL, 0}, &m, err));
    CHECK_INT(m.nrows, 1);
    CHECK_STR(cells_text(&m), "1:3>2");
    node_matrix_free(&m);
    CHECK(plan(&t, (node_matrix_request){false, 3, 0, NULL, 0}, &m, err));
    CHECK_STR(cells_text(&m), "1:3>0");
    node_matrix_free(&m);
    topology_free(&t);

    fixture_load(&t, two_sockets(), "3,4,12");
    CHECK(!plan(&t, (node_matrix_request){false, 5, -1, NULL, 0}, &m, err));
    CHECK_STR(err, "--cpu 5: that CPU is not available to this process");
    CHECK(!plan(&t, (node_matrix_request){false, 9999, -1, NULL, 0}, &m, err));
    CHECK_STR(err, "--cpu 9999: that CPU is not available to this process");
    topology_free(&t);
}

TEST(node_matrix_refuses_nodes_and_cpus_that_are_not_there)
{
    topology t;
    node_matrix m;
    char err[256];
    fixture_load(&t, memoryless(), "0-2");
    CHECK(!plan(&t, (node_matrix_request){false, -1, 1, NULL, 0}, &m, err));
    CHECK_STR(err, "--mem-node 1: that NUMA node has no memory");
    CHECK(!plan(&t, (node_matrix_request){true, -1, 7, NULL, 0}, &m, err));
    CHECK_STR(err, "--mem-node 7: no such NUMA node here");
    node_cpu_choice wrong_node = {0, 2}, unusable = {1, 3}, no_node = {5, 0};
    CHECK(!plan(&t, (node_matrix_request){false, -1, -1, &wrong_node, 1}, &m, err));
    CHECK_STR(err, "--cpu-of 0=2: that CPU is not on that node");
    CHECK(!plan(&t, (node_matrix_request){false, -1, -1, &unusable, 1}, &m, err));
    CHECK_STR(err, "--cpu-of 1=3: that CPU is not available to this process");
    CHECK(!plan(&t, (node_matrix_request){false, -1, -1, &no_node, 1}, &m, err));
    CHECK_STR(err, "--cpu-of 5=0: no such NUMA node here");
    topology_free(&t);
}

/* The buffer: the DRAM rule for the row CPU whose rule is largest (one chaser a
 * cell), at least 64 MiB, within the budget. */
TEST(node_matrix_buffer_is_the_dram_rule_at_least_64m_within_the_budget)
{
    topology t;
    node_matrix m;
    char why[160], err[256];
    dram_basis b;
    bool capped = true;
    fixture_load(&t, two_sockets(), NULL);
    CHECK(node_matrix_plan(&t, &(node_matrix_request){false, -1, -1, NULL, 0}, &m, err, sizeof err));
    CHECK_INT(node_matrix_buffer_bytes(&t, &m, 4ULL << 30, &b, &capped, why, sizeof why), 128ULL << 20);
    CHECK(!capped);
    CHECK_STR(why, "4x L3 32 MiB (sysfs) = 128 MiB");
    CHECK_INT(node_matrix_buffer_bytes(&t, &m, (100ULL << 20) + 123, &b, &capped, why, sizeof why), 100ULL << 20);
    CHECK(capped);
    CHECK_STR(why, "4x L3 32 MiB (sysfs) = 128 MiB, capped by the memory budget");
    node_matrix_free(&m);
    topology_free(&t);
    /* No L3 reported: no source describes the last level, the 1 GiB floor */
    fixture_load(&t, fixture_arm_no_l3(), NULL);
    CHECK(node_matrix_plan(&t, &(node_matrix_request){false, -1, -1, NULL, 0}, &m, err, sizeof err));
    CHECK_INT(node_matrix_buffer_bytes(&t, &m, 4ULL << 30, &b, &capped, why, sizeof why), 1ULL << 30);
    CHECK_STR(why, "no source describes L3: the 1 GiB floor");
    node_matrix_free(&m);
    topology_free(&t);
}

TEST(matrix_summary_local_and_remote_extremes_and_the_slowest_cpu)
{
    matrix_point p[] = {{0, 0, 0, 80}, {0, 1, 0, 130}, {1, 0, 4, 140}, {1, 1, 4, 85}, {1, 2, 4, 300}};
    matrix_summary s = matrix_summarise(p, 5);
    CHECK_INT(s.nlocal, 2);
    CHECK_INT(s.nremote, 3);
    CHECK_NEAR(s.local_min.ns, 80, 0);
    CHECK_NEAR(s.local_max.ns, 85, 0);
    CHECK_INT(s.local_max.cpu_node, 1);
    CHECK_NEAR(s.remote_min.ns, 130, 0);
    CHECK_INT(s.remote_min.mem_node, 1);
    CHECK_NEAR(s.remote_max.ns, 300, 0);
    CHECK_INT(s.remote_max.mem_node, 2);
    CHECK_INT(s.slowest.cpu, 4);
    CHECK_NEAR(s.slowest.ns, 300, 0);
    CHECK_INT(s.fastest.cpu, 0);
    s = matrix_summarise(p, 0);
    CHECK_INT(s.n, 0);
}
