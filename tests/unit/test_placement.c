/* SPDX-License-Identifier: MIT */
#include <stdlib.h>

#include "fixtures.h"
#include "plan/placement.h"
#include "test.h"

static topology server(void)
{
    topology t;
    topology_load(fixture_two_socket_smt(), NULL, &t);
    return t;
}

static bool build(const topology *t, int threads, const char *bind, const char *places, placement *p, char *err)
{
    placement_request rq = {threads, NULL, bind, places, false};
    return placement_build(t, &rq, p, err, 256);
}

TEST(placement_spread_alternates_nodes_then_cores_then_siblings)
{
    topology t = server();
    int order[16];
    CHECK_INT(placement_spread_order(&t, order, 16), 16);
    int expect[16] = {0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15};
    for (int i = 0; i < 16; i++)
        CHECK_INT(order[i], expect[i]);
    placement p;
    char err[256];
    CHECK(build(&t, 4, NULL, NULL, &p, err));
    CHECK(p.pinned);
    CHECK_INT(p.places[0].cpu, 0);
    CHECK_INT(p.places[1].cpu, 4);
    CHECK_INT(p.places[1].node, 1);
    CHECK_INT(p.places[3].cpus.count, 1);
    char *desc = placement_cpus_text(&p);
    CHECK_STR(desc, "0,4,1,5");
    free(desc);
    placement_free(&p);
    topology_free(&t);
}

TEST(placement_restricted_cpuset_uses_only_allowed_cpus)
{
    topology t;
    cpu_list usable;
    cpu_list_parse("2-3,10", &usable);
    topology_load(fixture_two_socket_smt(), &usable, &t);
    placement p;
    char err[256];
    CHECK(build(&t, 3, NULL, NULL, &p, err));
    CHECK_INT(p.places[0].cpu, 2);
    CHECK_INT(p.places[1].cpu, 3);
    CHECK_INT(p.places[2].cpu, 10); /* the SMT sibling comes last */
    placement_free(&p);
    CHECK(!build(&t, 4, NULL, NULL, &p, err));
    CHECK_CONTAINS(err, "4 threads but only 3 CPUs usable");
    CHECK_CONTAINS(err, "--oversubscribe");
    cpu_list_free(&usable);
    topology_free(&t);
}

TEST(placement_oversubscribe_wraps_around)
{
    topology t = server();
    placement p;
    char err[256];
    placement_request rq = {20, NULL, NULL, NULL, true};
    CHECK(placement_build(&t, &rq, &p, err, sizeof err));
    CHECK_INT(p.n, 20);
    CHECK_INT(p.places[16].cpu, 0);
    placement_free(&p);
    topology_free(&t);
}

TEST(placement_omp_close_and_master)
{
    topology t = server();
    placement p;
    char err[256];
    CHECK(build(&t, 3, "close", NULL, &p, err));
    CHECK_INT(p.places[0].cpu, 0);
    CHECK_INT(p.places[1].cpu, 1);
    CHECK_INT(p.places[2].cpu, 2);
    placement_free(&p);
    CHECK(build(&t, 3, "master", NULL, &p, err));
    CHECK_INT(p.places[2].cpu, 0);
    placement_free(&p);
    CHECK(build(&t, 2, "false", NULL, &p, err));
    CHECK(!p.pinned);
    CHECK_INT(p.places[0].cpus.count, 16);
    placement_free(&p);
    CHECK(build(&t, 2, "SPREAD,close", NULL, &p, err)); /* nested list: outer level, any case */
    CHECK_INT(p.places[1].cpu, 4);
    placement_free(&p);
    topology_free(&t);
}

TEST(placement_omp_places_cores_and_sockets)
{
    topology t = server();
    placement p;
    char err[256];
    /* cores: 8 places {0,8},{1,9},...; spread 2 threads -> places 0 and 4 */
    CHECK(build(&t, 2, "spread", "cores", &p, err));
    CHECK_INT(p.places[0].cpus.count, 2);
    CHECK_INT(p.places[0].cpus.ids[1], 8);
    CHECK_INT(p.places[1].cpu, 4);
    placement_free(&p);
    CHECK(build(&t, 4, "close", "sockets", &p, err));
    CHECK_INT(p.places[0].cpus.count, 8);
    CHECK_INT(p.places[1].cpu, 0); /* 4 threads on 2 places: two per socket */
    CHECK_INT(p.places[2].cpu, 4);
    placement_free(&p);
    CHECK(build(&t, 2, NULL, "threads(2)", &p, err));
    CHECK_INT(p.places[1].cpu, 1);
    placement_free(&p);
    CHECK(build(&t, 2, NULL, "numa_domains", &p, err));
    CHECK_INT(p.places[1].node, 1);
    placement_free(&p);
    CHECK(build(&t, 2, NULL, "ll_caches", &p, err));
    CHECK_INT(p.places[1].cpu, 4);
    placement_free(&p);
    topology_free(&t);
}

TEST(placement_omp_places_explicit_lists)
{
    topology t = server();
    placement p;
    char err[256];
    CHECK(build(&t, 2, "close", "{0,8},{4:2:8}", &p, err));
    CHECK_INT(p.places[0].cpus.count, 2);
    CHECK_INT(p.places[1].cpus.ids[0], 4);
    CHECK_INT(p.places[1].cpus.ids[1], 12);
    placement_free(&p);
    const char *bad[] = {"{", "{a}", "{0,}", "{0}x", "cores(0)", "cores(", "bogus", "{99}",
                         "{2:2:9223372036854775807}", "{2:2:-9223372036854775807}", "{0:2:65536}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(!build(&t, 1, NULL, bad[i], &p, err));
        CHECK_CONTAINS(err, "OMP_PLACES");
    }
    CHECK(!build(&t, 1, "sideways", NULL, &p, err));
    CHECK_CONTAINS(err, "OMP_PROC_BIND='sideways'");
    topology_free(&t);
}

TEST(placement_explicit_cpus)
{
    topology t = server();
    placement p;
    char err[256];
    cpu_list cpus;
    cpu_list_parse("7,3", &cpus);
    placement_request rq = {2, &cpus, "close", "cores", false};
    CHECK(placement_build(&t, &rq, &p, err, sizeof err));
    CHECK_INT(p.places[0].cpu, 7);
    CHECK_INT(p.places[1].cpu, 3);
    CHECK_INT(p.places[0].node, 1);
    placement_free(&p);
    rq.threads = 3;
    CHECK(!placement_build(&t, &rq, &p, err, sizeof err));
    CHECK_CONTAINS(err, "only 2 CPUs given in --cpus");
    cpu_list_free(&cpus);
    cpu_list_parse("1,99", &cpus);
    rq.cpus = &cpus;
    rq.threads = 2;
    CHECK(!placement_build(&t, &rq, &p, err, sizeof err));
    CHECK_CONTAINS(err, "CPU 99 is not available");
    cpu_list_free(&cpus);
    topology_free(&t);
}

TEST(placement_memoryless_node_threads_get_the_nearest_memory)
{
    topology t;
    CHECK(topology_load(fixture_memoryless_node(), NULL, &t));
    placement p;
    char err[256];
    CHECK(build(&t, 2, NULL, NULL, &p, err)); /* spread: one thread per node with CPUs */
    CHECK_INT(p.places[0].node, 0);
    CHECK_INT(p.places[0].mem_node, 0);
    CHECK_INT(p.places[1].node, 1);
    CHECK_INT(p.places[1].mem_node, 2);
    placement_free(&p);
    topology_free(&t);
}

/* A 256-thread spread placement's CPU text is whole: "0,128,1,129,...,127,255"
 * (JSON and -v once cut such lists at a fixed buffer, silently). */
TEST(placement_cpus_text_is_whole_on_many_cpus)
{
    topology t;
    topology_load(fixture_many_cpus(), NULL, &t);
    placement p;
    char err[256];
    CHECK(build(&t, 256, NULL, NULL, &p, err));
    char *text = placement_cpus_text(&p);
    char expect[2048];
    size_t used = 0;
    for (int i = 0; i < 128; i++)
        used += (size_t)snprintf(expect + used, sizeof expect - used, "%s%d,%d", i ? "," : "", i, i + 128);
    CHECK(text != NULL);
    CHECK_STR(text, expect);
    free(text);
    placement_free(&p);
    topology_free(&t);
}

TEST(placement_one_per_cpu_keeps_the_order_and_each_cpus_memory_node)
{
    topology t;
    CHECK(topology_load(fixture_memoryless_node(), NULL, &t)); /* node 1: CPUs 2-3, no memory */
    placement p;
    const int cpus[] = {2, 0};
    CHECK(placement_one_per_cpu(&t, cpus, 2, &p));
    CHECK_INT(p.n, 2);
    CHECK(p.pinned);
    CHECK_INT(p.places[0].cpu, 2);
    CHECK_INT(p.places[0].cpus.count, 1);
    CHECK_INT(p.places[0].cpus.ids[0], 2);
    CHECK_INT(p.places[0].node, 1);
    CHECK_INT(p.places[0].mem_node, topology_memory_node(&t, 1));
    CHECK(p.places[0].mem_node != 1);
    CHECK_INT(p.places[1].cpu, 0);
    CHECK_INT(p.places[1].mem_node, 0);
    placement_free(&p);
    topology_free(&t);
}
