/* SPDX-License-Identifier: MIT */
/* mlc's CPU and node options read the way MLC's users wrote them: -m's hexadecimal
 * mask from its lowest bit (bit i = CPU i, the rightmost digit holding CPUs 0-3),
 * -k's list in its order, -c and -j as given. */
#include <string.h>

#include "cli/mlc_options.h"
#include "modes/mlc_mode.h"
#include "test.h"
#include "test_parse.h"

#define PARSE_MLC(...) test_parse_mode(&mlc_mode, &o, err, __VA_ARGS__, (char *)NULL)

/* The CPUs o holds, as "0,4,32". */
static const char *cpus_text(const mlc_options *o)
{
    static char text[256];
    size_t used = 0;
    text[0] = '\0';
    for (size_t i = 0; i < o->common.cpus.count && used < sizeof text; i++)
        used += (size_t)snprintf(text + used, sizeof text - used, "%s%d", i ? "," : "", o->common.cpus.ids[i]);
    return text;
}

TEST(mlc_mask_reads_from_the_lowest_bit)
{
    char err[256];
    mlc_options o = {0};
    static const struct {
        const char *mask, *cpus;
    } cases[] = {
        {"0x1", "0"},           {"0x2", "1"},     {"0x10", "4"},          {"0xf0", "4,5,6,7"},
        {"0x100000001", "0,32"}, {"8000", "15"},   {"0X30", "4,5"},        {"0x0000000000000001", "0"},
        {"0x12", "1,4"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK_INT(PARSE_MLC("--peak_injection_bandwidth", "-m", cases[i].mask), PARSE_OK);
        CHECK_STR(cpus_text(&o), cases[i].cpus);
        options_free(&o);
    }
}

TEST(mlc_cpu_list_and_latency_cpu_as_given)
{
    char err[256];
    mlc_options o = {0};
    CHECK_INT(PARSE_MLC("--loaded_latency", "-k", "3,1-2", "-c", "5"), PARSE_OK);
    CHECK_STR(cpus_text(&o), "3,1,2");
    CHECK_INT(o.latency_cpu, 5);
    CHECK(o.latency_cpu_given);
    options_free(&o);
}
