/* OMP_PLACES / OMP_PROC_BIND syntax on its own (plan/omp_places.h), on the
 * 2-socket SMT fixture: 16 CPUs, core c of package p is CPUs p*4+c and p*4+c+8. */
#include <stdlib.h>

#include "fixtures.h"
#include "plan/omp_places.h"
#include "test.h"

static topology server(const char *usable_text)
{
    topology t;
    cpu_list usable;
    cpu_list_parse(usable_text ? usable_text : "", &usable);
    topology_load(fixture_two_socket_smt(), usable_text ? &usable : NULL, &t);
    cpu_list_free(&usable);
    return t;
}

/* The places of text as "0,8|1,9|..." ("!" and the message when refused). */
static const char *places_of(const topology *t, const char *text, char *buf, size_t size)
{
    omp_place_list pl;
    char err[256];
    if (!omp_places_parse(t, text, &pl, err, sizeof err)) {
        CHECK(pl.n == 0 && pl.lists == NULL);
        snprintf(buf, size, "!%s", err);
        return buf;
    }
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < pl.n && used < size; i++)
        for (size_t j = 0; j < pl.lists[i].count && used < size; j++)
            used += (size_t)snprintf(buf + used, size - used, "%s%d", j ? "," : i ? "|" : "", pl.lists[i].ids[j]);
    omp_places_free(&pl);
    return buf;
}

TEST(omp_places_abstract_names)
{
    topology t = server(NULL);
    char b[512];
    CHECK_STR(places_of(&t, "threads", b, sizeof b), "0|1|2|3|4|5|6|7|8|9|10|11|12|13|14|15");
    CHECK_STR(places_of(&t, "cores", b, sizeof b), "0,8|1,9|2,10|3,11|4,12|5,13|6,14|7,15");
    CHECK_STR(places_of(&t, "sockets", b, sizeof b), "0,1,2,3,8,9,10,11|4,5,6,7,12,13,14,15");
    CHECK_STR(places_of(&t, "numa_domains", b, sizeof b), "0,1,2,3,8,9,10,11|4,5,6,7,12,13,14,15");
    CHECK_STR(places_of(&t, "ll_caches", b, sizeof b), "0,1,2,3,8,9,10,11|4,5,6,7,12,13,14,15");
    topology_free(&t);
}

TEST(omp_places_count_keeps_the_first_n)
{
    topology t = server(NULL);
    char b[512];
    CHECK_STR(places_of(&t, "cores(3)", b, sizeof b), "0,8|1,9|2,10");
    CHECK_STR(places_of(&t, "threads(1)", b, sizeof b), "0");
    CHECK_STR(places_of(&t, "sockets(1)", b, sizeof b), "0,1,2,3,8,9,10,11");
    CHECK_STR(places_of(&t, "cores(4096)", b, sizeof b), "0,8|1,9|2,10|3,11|4,12|5,13|6,14|7,15");
    topology_free(&t);
}

TEST(omp_places_explicit_intervals)
{
    topology t = server(NULL);
    char b[512];
    CHECK_STR(places_of(&t, "{0,1},{2,3}", b, sizeof b), "0,1|2,3");
    CHECK_STR(places_of(&t, "{2:3}", b, sizeof b), "2,3,4");         /* lo:len */
    CHECK_STR(places_of(&t, "{1:3:3}", b, sizeof b), "1,4,7");       /* lo:len:stride */
    CHECK_STR(places_of(&t, "{9:3:-4}", b, sizeof b), "9,5,1");      /* negative stride */
    CHECK_STR(places_of(&t, "{0,8},{4:2:8}", b, sizeof b), "0,8|4,12");
    CHECK_STR(places_of(&t, "{15:1:1000}", b, sizeof b), "15");      /* one CPU: stride unused */
    CHECK_STR(places_of(&t, "{0,99},{98}", b, sizeof b), "0");       /* CPUs not here are dropped */
    topology_free(&t);
}

TEST(omp_places_only_usable_cpus)
{
    topology t = server("2-3,10");
    char b[512];
    CHECK_STR(places_of(&t, "{0:4},{8:4}", b, sizeof b), "2,3|10");
    CHECK_STR(places_of(&t, "{0},{2}", b, sizeof b), "2");           /* an empty place is dropped */
    CHECK_STR(places_of(&t, "cores", b, sizeof b), "2,10|3");
    CHECK_STR(places_of(&t, "threads(2)", b, sizeof b), "2|3");
    CHECK_STR(places_of(&t, "{0:2}", b, sizeof b),
              "!OMP_PLACES='{0:2}': not a place list this CPU set can use (e.g. {0,1},{2:2})");
    topology_free(&t);
}

TEST(omp_places_refuses_bad_syntax)
{
    topology t = server(NULL);
    char b[512];
    const char *bad_lists[] = {"{", "{}", "{a}", "{0", "{0,}", "{0}x", "{0}{1}", "{0:}", "{0:0}", "{0::1}",
                               "{0:2:}", "{0:2:0}", "{-1}", "{ 0}", "{0:-1}", "{0:1025}",
                               "{99}", "{0:2:65536}", "{2:2:9223372036854775807}", "{2:2:-9223372036854775807}"};
    for (size_t i = 0; i < sizeof bad_lists / sizeof bad_lists[0]; i++) {
        places_of(&t, bad_lists[i], b, sizeof b);
        CHECK_CONTAINS(b, "': not a place list this CPU set can use (e.g. {0,1},{2:2})");
        CHECK(b[0] == '!');
    }
    const char *bad_names[] = {"", "bogus", "Cores", "core", "cores(0)", "cores(", "cores()", "cores(2",
                               "cores(2)x", "cores (2)", "cores(-1)", "cores(4097)", "cores(1.5)", "threads,cores"};
    for (size_t i = 0; i < sizeof bad_names / sizeof bad_names[0]; i++) {
        places_of(&t, bad_names[i], b, sizeof b);
        CHECK_CONTAINS(b, "': unknown (use threads, cores, sockets, numa_domains, ll_caches or {..})");
        CHECK(b[0] == '!');
    }
    CHECK_STR(places_of(&t, "cores(0)", b, sizeof b),
              "!OMP_PLACES='cores(0)': unknown (use threads, cores, sockets, numa_domains, ll_caches or {..})");
    topology_free(&t);
}

TEST(omp_places_add_drops_empty_and_caps_the_count)
{
    omp_place_list pl = {NULL, 0};
    int ids[] = {3, 1};
    CHECK(omp_places_add(&pl, ids, 0));
    CHECK_INT(pl.n, 0);
    CHECK(omp_places_add(&pl, ids, 2));
    CHECK_INT(pl.n, 1);
    CHECK_INT(pl.lists[0].ids[1], 1);
    bool ok = true;
    while (ok && pl.n < OMP_MAX_PLACES)
        ok = omp_places_add(&pl, ids, 1);
    CHECK(ok);
    CHECK(!omp_places_add(&pl, ids, 1));
    CHECK_INT(pl.n, OMP_MAX_PLACES);
    omp_places_free(&pl);
    CHECK(pl.n == 0 && pl.lists == NULL);
}

TEST(omp_proc_bind_kinds)
{
    static const struct {
        const char *text;
        omp_bind kind;
    } good[] = {{"spread", OMP_BIND_SPREAD}, {"true", OMP_BIND_SPREAD},   {"close", OMP_BIND_CLOSE},
                {"master", OMP_BIND_PRIMARY}, {"primary", OMP_BIND_PRIMARY}, {"false", OMP_BIND_FALSE},
                {"SPREAD", OMP_BIND_SPREAD}, {"Close", OMP_BIND_CLOSE},    {"TRUE", OMP_BIND_SPREAD},
                {"PrImArY", OMP_BIND_PRIMARY}, {"close,spread", OMP_BIND_CLOSE}, {"False,close", OMP_BIND_FALSE},
                {"spread,", OMP_BIND_SPREAD}};
    char err[256];
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        omp_bind k = (omp_bind)-1;
        CHECK(omp_proc_bind_parse(good[i].text, &k, err, sizeof err));
        if (k != good[i].kind)
            test_fail(__FILE__, __LINE__, "OMP_PROC_BIND=%s gave kind %d, expected %d", good[i].text, (int)k,
                      (int)good[i].kind);
    }
    const char *bad[] = {"", ",spread", "spreadx", " spread", "sideways", "1", "spread close",
                         "spreadspreadspreadspreadspreadspread"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        omp_bind k;
        CHECK(!omp_proc_bind_parse(bad[i], &k, err, sizeof err));
        CHECK_CONTAINS(err, "': unknown (use spread, close, master, true or false)");
    }
    CHECK(!omp_proc_bind_parse("diagonal,close", &(omp_bind){0}, err, sizeof err));
    CHECK_STR(err, "OMP_PROC_BIND='diagonal,close': unknown (use spread, close, master, true or false)");
}
