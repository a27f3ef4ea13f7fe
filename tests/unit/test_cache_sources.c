/* SPDX-License-Identifier: MIT */
/* The topology's cache sources side by side (topology/cache_views.c,
 * cpuid_source.c): a guest without cache sysfs takes CPUID's sizes, the legacy
 * L3 field stays a package's total, CCX groups follow the sharing count, sources
 * that disagree are said, and what DRAM buffers are sized from (plan/dram_size.h). */
#include <string.h>

#include "fixtures.h"
#include "plan/dram_size.h"
#include "test.h"
#include "topology/cpuid_source.h"

static size_t warnings_with(const topology *t, const char *part)
{
    size_t n = 0;
    for (size_t i = 0; i < t->nwarnings; i++)
        n += strstr(t->warnings[i], part) != NULL;
    return n;
}

static const char *warning_with(const topology *t, const char *part)
{
    for (size_t i = 0; i < t->nwarnings; i++)
        if (strstr(t->warnings[i], part))
            return t->warnings[i];
    return "";
}

static size_t instances(const topology *t, int level)
{
    size_t n = 0;
    for (size_t i = 0; i < t->ncaches; i++)
        n += t->caches[i].level == level;
    return n;
}

/* The CPUs of the instance of level that holds cpu, as text. */
static const char *shared_by(const topology *t, int level, int cpu)
{
    static char text[256];
    text[0] = '\0';
    for (size_t i = 0; i < t->ncaches; i++)
        if (t->caches[i].level == level && cpu_list_contains(&t->caches[i].shared, cpu))
            cpu_list_format(t->caches[i].shared.ids, t->caches[i].shared.count, text, sizeof text);
    return text;
}

static bool load_with_cpuid(topology *t, const char *root, const char *dump)
{
    cpuid_dump d = {NULL, 0};
    fixture_load(t, root, NULL);
    if (!fixture_cpuid(dump, &d))
        return false;
    topology_add_cpuid(t, &d);
    cpuid_dump_free(&d);
    return true;
}

TEST(cache_sources_none_at_all_say_the_defaults_once)
{
    topology t;
    fixture_load(&t, fixture_microvm_no_caches(), NULL);
    CHECK_INT(warnings_with(&t, "cache sizes:"), 1);
    CHECK_STR(warning_with(&t, "cache sizes:"),
              "cache sizes: no source reports L1, L2, L3 per instance (sysfs, CPUID, device tree): using L1 32 KiB "
              "(default), L2 256 KiB (default), L3 8 MiB (default)");
    CHECK(topology_llc_unknown(&t));
    /* No source: the DRAM rule is the 1 GiB floor, never 4x a default */
    dram_basis b = dram_basis_for(&t, NULL, 0);
    CHECK(dram_basis_none(&b));
    CHECK_INT(b.bytes, 0);
    CHECK_INT(dram_rule_bytes(&b), 1ULL << 30);
    CHECK_STR(dram_basis_key(&b), "floor");
    CHECK(dram_may_fit_cache(&b, (1ULL << 30) - 4096));
    CHECK(!dram_may_fit_cache(&b, 1ULL << 30));
    char text[160];
    CHECK_STR(dram_rule_text(&b, text, sizeof text), "no source describes L3: the 1 GiB floor");
    topology_free(&t);
}

/* The Zen 5 microVM: the legacy leaves give L1d and L2 per core, and L3 only as the
 * package's 508 MiB, which never becomes an instance. */
TEST(cache_sources_legacy_leaves_only_on_a_microvm)
{
    topology t;
    CHECK(load_with_cpuid(&t, fixture_microvm_no_caches(), "zen5-microvm.txt"));
    cache_level l1 = topology_cache_level(&t, 1), l2 = topology_cache_level(&t, 2), l3 = topology_cache_level(&t, 3);
    CHECK_INT(l1.size, 48 << 10);
    CHECK_INT(l1.source, CACHE_FROM_CPUID_AMD_LEGACY);
    CHECK(!l1.defaulted);
    CHECK_INT(l2.size, 1 << 20);
    CHECK_INT(l2.source, CACHE_FROM_CPUID_AMD_LEGACY);
    CHECK_INT(instances(&t, 1), 2); /* per core: the legacy fields are */
    CHECK_STR(shared_by(&t, 2, 1), "1");
    CHECK_INT(instances(&t, 3), 0);
    CHECK_INT(l3.size, 508ULL << 20);
    CHECK(l3.per_package);
    CHECK(!l3.defaulted);
    CHECK_INT(l3.source, CACHE_FROM_CPUID_AMD_LEGACY);
    CHECK(topology_llc_unknown(&t)); /* the probe runs by itself here */
    CHECK_STR(t.cpu_vendor, "AuthenticAMD");
    CHECK_STR(t.hypervisor, "KVMKVMKVM");
    CHECK_INT(warnings_with(&t, "cache sizes:"), 1);
    CHECK_STR(warning_with(&t, "cache sizes:"),
              "cache sizes: no source reports L3 per instance (sysfs, CPUID, device tree): using L3 508 MiB for a "
              "whole package (CPUID 0x80000005/6), not one instance's");
    /* The package's total is the basis: 4x it, all threads together, on any CPUs */
    int cpu0 = 0;
    dram_basis b = dram_basis_for(&t, &cpu0, 1), all = dram_basis_for(&t, NULL, 0);
    CHECK(b.per_package);
    CHECK_INT(b.bytes, 508ULL << 20);
    CHECK_INT(b.package_bytes, 508ULL << 20);
    CHECK_INT(b.packages, 1);
    CHECK_INT(dram_rule_bytes(&b), 2032ULL << 20);
    CHECK_INT(dram_rule_bytes(&all), 2032ULL << 20);
    CHECK_STR(dram_basis_key(&b), "cpuid_amd_legacy");
    char text[160];
    CHECK_STR(dram_basis_text(&b, text, sizeof text), "L3 508 MiB per package (CPUID 0x80000005/6)");
    CHECK_STR(dram_rule_text(&b, text, sizeof text), "4x L3 508 MiB per package (CPUID 0x80000005/6) = 2032 MiB");
    CHECK(dram_may_fit_cache(&b, (2032ULL << 20) - 1));
    CHECK(!dram_may_fit_cache(&b, 2032ULL << 20));
    /* Whatever the probe finds, smaller or larger, it sizes nothing */
    cache_measurement probes[] = {
        {.ran = true, .edge_found = true, .dram_found = true, .sure = true, .llc_bytes = 2ULL << 20,
         .dram_from_bytes = 8ULL << 20},
        {.ran = true, .edge_found = true, .dram_found = true, .sure = true, .llc_bytes = 1ULL << 30,
         .dram_from_bytes = 4ULL << 30},
        {.ran = true, .max_bytes = 3ULL << 30},
    };
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        topology_set_measured(&t, &probes[i]);
        l3 = topology_cache_level(&t, 3);
        CHECK_INT(l3.size, 508ULL << 20);
        CHECK_INT(l3.source, CACHE_FROM_CPUID_AMD_LEGACY);
        b = dram_basis_for(&t, &cpu0, 1);
        CHECK_INT(b.source, CACHE_FROM_CPUID_AMD_LEGACY);
        CHECK_INT(dram_rule_bytes(&b), 2032ULL << 20);
        CHECK_STR(warning_with(&t, "cache sizes:"),
                  "cache sizes: no source reports L3 per instance (sysfs, CPUID, device tree): using L3 508 MiB for a "
                  "whole package (CPUID 0x80000005/6), not one instance's");
    }
    topology_free(&t);
}

/* A Zen 4 host without cache sysfs: 0x8000001D's L3 is shared by 16 threads, one
 * CCX of 8 cores, whose threads Linux numbers n and n+16. */
TEST(cache_sources_topoext_groups_ccx_by_core)
{
    topology t;
    CHECK(load_with_cpuid(&t, fixture_zen4_no_caches(), "zen4-host.txt"));
    CHECK_INT(instances(&t, 3), 2);
    CHECK_STR(shared_by(&t, 3, 0), "0-7,16-23");
    CHECK_STR(shared_by(&t, 3, 31), "8-15,24-31");
    CHECK_INT(instances(&t, 1), 16); /* shared by the core's 2 threads */
    CHECK_STR(shared_by(&t, 1, 5), "5,21");
    cache_level l3 = topology_cache_level(&t, 3);
    CHECK_INT(l3.size, 32ULL << 20);
    CHECK_INT(l3.source, CACHE_FROM_CPUID_TOPOEXT);
    CHECK(!topology_llc_unknown(&t));
    CHECK_INT(warnings_with(&t, "cache sizes:"), 0);
    CHECK_INT(warnings_with(&t, "sources disagree"), 0); /* the legacy package total is no instance's */
    /* Every CPU reaches both CCX's L3s (2 x 32 MiB), against one package's legacy
     * total (256 MiB): the larger wins; one CPU reaches one L3, still below it */
    dram_basis b = dram_basis_for(&t, NULL, 0);
    CHECK_INT(b.instances, 2);
    CHECK_INT(b.instance_bytes, 32ULL << 20);
    CHECK_INT(b.package_bytes, 256ULL << 20);
    CHECK(b.per_package);
    CHECK_INT(dram_rule_bytes(&b), 1024ULL << 20);
    int ccx0[] = {0, 1, 2}, both[] = {0, 8};
    b = dram_basis_for(&t, ccx0, 3);
    CHECK_INT(b.instances, 1);
    CHECK_INT(dram_rule_bytes(&b), 1024ULL << 20);
    b = dram_basis_for(&t, both, 2);
    CHECK_INT(b.instances, 2);
    CHECK_INT(dram_rule_bytes(&b), 1024ULL << 20);
    /* every view is kept, the package's total among them */
    cache_source src;
    CHECK_INT(topology_cache_report_max(&t, 3, &src), 32ULL << 20);
    bool legacy_l3 = false;
    for (size_t i = 0; i < t.ncache_reports; i++)
        legacy_l3 |= t.cache_reports[i].level == 3 && t.cache_reports[i].per_package &&
                     t.cache_reports[i].size == 256ULL << 20;
    CHECK(legacy_l3);
    topology_free(&t);
}

/* sysfs that understates the caches (as some hypervisors write it) keeps its
 * instances, the disagreement is said, and DRAM buffers follow the larger view. */
TEST(cache_sources_disagreeing_sysfs_is_said_and_dram_takes_the_larger)
{
    topology t;
    CHECK(load_with_cpuid(&t, fixture_wrong_sysfs(), "spr-guest.txt"));
    CHECK_INT(topology_cache_level(&t, 3).size, 8 << 20);
    CHECK_INT(topology_cache_level(&t, 3).source, CACHE_FROM_SYSFS);
    CHECK_STR(warning_with(&t, "on L3"), "sources disagree on L3's size (sysfs 8 MiB, CPUID leaf 4 105 MiB): DRAM "
                                         "buffers are sized from the largest");
    CHECK_INT(warnings_with(&t, "sources disagree on L1"), 1);
    CHECK_INT(warnings_with(&t, "sources disagree on L2"), 1);
    int cpu0 = 0;
    dram_basis b = dram_basis_for(&t, &cpu0, 1);
    CHECK_INT(b.instance_bytes, 105ULL << 20);
    CHECK_INT(b.bytes, 105ULL << 20);
    CHECK_INT(b.source, CACHE_FROM_CPUID_LEAF4);
    CHECK_STR(dram_basis_key(&b), "cpuid_leaf4");
    CHECK_INT(dram_rule_bytes(&b), 420ULL << 20);
    topology_free(&t);
}

/* sysfs and CPUID agreeing say nothing. */
TEST(cache_sources_agreeing_sources_say_nothing)
{
    topology t;
    CHECK(load_with_cpuid(&t, fixture_small_caches(), "zen4-host.txt"));
    size_t before = t.nwarnings;
    topology_say_disagreements(&t); /* idempotent: said once, replaced, not added */
    CHECK_INT(t.nwarnings, before);
    topology_free(&t);
}

/* The probe's view is kept (topology --json shows it) but is never a size: not the
 * last level's, not the DRAM rule's, whether it saw a plateau or not. */
TEST(cache_sources_probe_never_sizes)
{
    topology t;
    fixture_load(&t, fixture_microvm_no_caches(), NULL);
    cache_measurement all_cache = {.ran = true, .max_bytes = 768ULL << 20};
    topology_set_measured(&t, &all_cache);
    CHECK_INT(topology_cache_level(&t, 3).source, CACHE_FROM_DEFAULT);
    cache_source src;
    CHECK_INT(topology_cache_report_max(&t, 3, &src), 768ULL << 20); /* no plateau: at least its top size */
    dram_basis b = dram_basis_for(&t, NULL, 0);
    CHECK(dram_basis_none(&b));
    CHECK_INT(dram_rule_bytes(&b), 1ULL << 30);
    cache_measurement m = {.ran = true, .edge_found = true, .dram_found = true, .llc_bytes = 768ULL << 10,
                           .served_bytes = 4ULL << 20, .dram_from_bytes = 6ULL << 20, .max_bytes = 96ULL << 20};
    topology_set_measured(&t, &m);
    b = dram_basis_for(&t, NULL, 0);
    CHECK_INT(dram_rule_bytes(&b), 1ULL << 30);
    CHECK_INT(topology_cache_report_max(&t, 3, &src), 4ULL << 20); /* the view is there, for the diagnostic */
    CHECK_INT(src, CACHE_FROM_MEASURED);
    topology_free(&t);
}
