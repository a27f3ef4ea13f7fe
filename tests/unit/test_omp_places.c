/* SPDX-License-Identifier: MIT */
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
    CHECK_STR(places_of(&t, "{0:2}", b, sizeof b), "!OMP_PLACES='{0:2}': none of its CPUs is usable here (usable: 2-3,10)");
    topology_free(&t);
}

/* What gcc 12's libgomp accepts, with the meaning it gives (each checked with
 * omp_get_place_proc_ids): names in any case, blanks around every token, '+' on
 * numbers, counts beyond the places there are, intervals of places ({0}:4 is
 * {0},{1},{2},{3}), strides of 0, and exclusions: "!n" takes CPU n out of its place
 * after every inclusion, "!{..}" removes the first earlier place equal to it. */
TEST(omp_places_spellings_libgomp_accepts)
{
    topology t = server(NULL);
    char b[512];
    static const char *const cases[][2] = {
        {"THREADS", "0|1|2|3|4|5|6|7|8|9|10|11|12|13|14|15"},
        {"Cores", "0,8|1,9|2,10|3,11|4,12|5,13|6,14|7,15"},
        {" sockets ", "0,1,2,3,8,9,10,11|4,5,6,7,12,13,14,15"},
        {"NUMA_Domains(1)", "0,1,2,3,8,9,10,11"},
        {"cores (2)", "0,8|1,9"},
        {"cores( 2 ) ", "0,8|1,9"},
        {"threads(+1)", "0"},
        {"threads(01)", "0"},
        {"cores(5000)", "0,8|1,9|2,10|3,11|4,12|5,13|6,14|7,15"},
        {"{0}:4", "0|1|2|3"},
        {"{0}:4:2", "0|2|4|6"},
        {"{0:4}:2:4", "0,1,2,3|4,5,6,7"},
        {"{0,8}:2", "0,8|1,9"},
        {"{3}:2:-1", "3|2"},
        {"{0}:2:0", "0|0"},
        {"{0} : 2 : 4", "0|4"},
        {"{1},{0}:2", "1|0|1"},
        {"{15}:3", "15"}, /* places of CPUs not here are dropped */
        {" { 0 , 1 } , { 2 : 2 } ", "0,1|2,3"},
        {"{0 : 2}", "0,1"},
        {"{+1}", "1"},
        {"{0:+2}", "0,1"},
        {"{0:2:+1}", "0,1"},
        {"{0:2:0}", "0"},
        {"{0,0,0}", "0"},
        {"{1:2:-1}", "1,0"},
        {"{0:4,!2}", "0,1,3"},
        {"{0,!1,1}", "0"}, /* exclusions come after every inclusion */
        {"{0,1,! 1}", "0"},
        {"{0,99,!99}", "0"},
        {"{0:20,!5}", "0,1,2,3,4,6,7,8,9,10,11,12,13,14,15"},
        {"{0},{1},!{0}", "1"},
        {"{0},{1}, ! {0}", "1"},
        {"{0},{1},{0},!{0}", "1|0"}, /* the first equal place goes */
        {"{0,1},{1,0},!{1,0}", "1,0"}, /* a place is a set (libgomp lists it sorted); its CPUs keep the order given */
        {"{0},!{0},{1}", "1"},
        {"{0}:4,!{2}", "0|1|3"},
        {"{0},{99},!{99}", "0"},
        {"{0,!0},{1}", "1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        places_of(&t, cases[i][0], b, sizeof b);
        if (strcmp(b, cases[i][1]) != 0)
            test_fail(__FILE__, __LINE__, "OMP_PLACES='%s' gave \"%s\", expected \"%s\"", cases[i][0], b, cases[i][1]);
    }
    topology_free(&t);
}

/* What libgomp rejects is refused, in one line naming the value and why. */
TEST(omp_places_refuses_what_libgomp_rejects)
{
    topology t = server(NULL);
    char b[512];
    static const char *const cases[][2] = {
        {"", "unknown (use threads, cores, sockets, numa_domains, ll_caches or {..})"},
        {"bogus", "unknown (use threads"},
        {"core", "unknown (use threads"},
        {"thread", "unknown (use threads"},
        {"threads,cores", "not a name with a count at ',cores'"},
        {"threads(1),{0}", "not a name with a count at ',{0}'"},
        {"cores(0)", "the count of places must be 1 or more"},
        {"cores(", "not a name with a count (it ends too soon"},
        {"cores()", "not a name with a count at ')'"},
        {"cores(2", "not a name with a count (it ends too soon"},
        {"cores(2)x", "not a name with a count at 'x'"},
        {"cores(-1)", "not a name with a count at '-1)'"},
        {"cores(1.5)", "not a name with a count at '.5)'"},
        {"cores(99999999999999999999)", "99999999999999999999 is out of range"},
        {"{", "not a place list (it ends too soon"},
        {"{}", "not a place list at '}'"},
        {"{a}", "not a place list at 'a}'"},
        {"{0", "not a place list (it ends too soon"},
        {"{0,}", "not a place list at '}'"},
        {"{0,,1}", "not a place list at ',1}'"},
        {"{0},", "not a place list (it ends too soon"},
        {"{0}x", "not a place list at 'x'"},
        {"{0}{1}", "not a place list at '{1}'"},
        {"{0},threads", "not a place list at 'threads'"},
        {"{0:}", "not a place list at '}'"},
        {"{0::1}", "not a place list at ':1}'"},
        {"{0:2:}", "not a place list at '}'"},
        {"{0}:", "not a place list (it ends too soon"},
        {"{0}::1", "not a place list at ':1'"},
        {"{0}:2:", "not a place list (it ends too soon"},
        {"{-1}", "not a place list at '-1}'"},
        {"{0:-1}", "not a place list at '-1}'"},
        {"{0:0}", "0 is out of range (1 to 65536)"},
        {"{0}:0", "0 is out of range (1 to 65536)"},
        {"{0}:-1", "not a place list at '-1'"},
        {"{0:65537}", "65537 is out of range (1 to 65536)"},
        {"{99999}", "99999 is out of range (0 to 65535)"},
        {"{0:2:65536}", "65536 is out of range (-65535 to 65535)"},
        {"{2:2:9223372036854775807}", "9223372036854775807 is out of range"},
        {"{65535:2}", "CPU 65536 is out of range (0 to 65535)"},
        {"{1:3:-1}", "CPU -1 is out of range (0 to 65535)"},
        {"{1}:3:-1", "CPU -1 is out of range (0 to 65535)"},
        {"{0:2}:2:-1", "CPU -1 is out of range (0 to 65535)"},
        {"{99}", "none of its CPUs is usable here (usable: 0-15)"},
        {"{0:2,!0,!1}", "none of its CPUs is usable here"},
        {"{!0,1}", "CPU 0 to exclude is not in its place"},
        {"{0,1,!1,!1}", "CPU 1 to exclude is not in its place"},
        {"{0,1,!5}", "CPU 5 to exclude is not in its place"},
        {"{0,1,!0:2}", "not a place list at ':2}'"},
        {"{0,1,!1:1}", "not a place list at ':1}'"},
        {"{!0:2}", "not a place list at ':2}'"},
        {"!{0}", "a place to exclude is not among the places before it"},
        {"!{0},{1}", "a place to exclude is not among the places before it"},
        {"{0},{1},!{1,0}", "a place to exclude is not among the places before it"},
        {"{0},{1,5},!{1}", "a place to exclude is not among the places before it"},
        {"{0,1},!{1,0}", "every place was excluded"},
        {"{0},!{0}:2", "not a place list at ':2'"},
        {"threads,!{0}", "not a name with a count at ',!{0}'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        places_of(&t, cases[i][0], b, sizeof b);
        char want[128];
        snprintf(want, sizeof want, "!OMP_PLACES='%s': ", cases[i][0]);
        if (strncmp(b, want, strlen(want)) != 0 || !strstr(b, cases[i][1]))
            test_fail(__FILE__, __LINE__, "OMP_PLACES='%s' gave \"%s\", expected a refusal saying \"%s\"", cases[i][0],
                      b, cases[i][1]);
    }
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
    /* as gcc 12's libgomp: any case, blanks around each word, a list (one word per
     * nesting level, the first ours), but true and false only alone */
    static const struct {
        const char *text;
        omp_bind kind;
    } good[] = {{"spread", OMP_BIND_SPREAD},       {"true", OMP_BIND_SPREAD},        {"close", OMP_BIND_CLOSE},
                {"master", OMP_BIND_PRIMARY},      {"primary", OMP_BIND_PRIMARY},    {"false", OMP_BIND_FALSE},
                {"SPREAD", OMP_BIND_SPREAD},       {"Close", OMP_BIND_CLOSE},        {"TRUE", OMP_BIND_SPREAD},
                {"PrImArY", OMP_BIND_PRIMARY},     {"close,spread", OMP_BIND_CLOSE}, {" spread ", OMP_BIND_SPREAD},
                {"spread , close", OMP_BIND_SPREAD}, {"Master,close", OMP_BIND_PRIMARY}, {"FALSE", OMP_BIND_FALSE},
                {"\tclose", OMP_BIND_CLOSE},       {"spread,close,primary", OMP_BIND_SPREAD}};
    char err[256];
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        omp_bind k = (omp_bind)-1;
        CHECK(omp_proc_bind_parse(good[i].text, &k, err, sizeof err));
        if (k != good[i].kind)
            test_fail(__FILE__, __LINE__, "OMP_PROC_BIND=%s gave kind %d, expected %d", good[i].text, (int)k,
                      (int)good[i].kind);
    }
    const char *bad[] = {"",           " ",           ",spread",     "spread,",    "spreadx",    "sideways",
                         "1",          "spread close", "false,close", "true,close", "close,false", "close,true",
                         "spread,,close", "spreadspreadspreadspreadspreadspread"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        omp_bind k;
        CHECK(!omp_proc_bind_parse(bad[i], &k, err, sizeof err));
        char want[160];
        snprintf(want, sizeof want,
                 "OMP_PROC_BIND='%s': unknown (use spread, close, master, true, false, or a list such as spread,close)",
                 bad[i]);
        CHECK_STR(err, want);
    }
}
