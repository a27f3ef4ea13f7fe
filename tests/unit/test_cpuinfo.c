/* SPDX-License-Identifier: MIT */
/* The CPU model and the s390x cache lines from /proc/cpuinfo as each architecture
 * writes it (texts shortened from real machines: the key layout is what counts). */
#include "platform/cpuinfo.h"
#include "fixtures.h"
#include "test.h"

static const char *model(const char *info)
{
    static char buf[256];
    cpuinfo_model(info, buf, sizeof buf);
    return buf;
}

TEST(cpuinfo_model_x86)
{
    CHECK_STR(model("processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\n"
                    "model name\t: AMD EPYC 7763 64-Core Processor\nstepping\t: 1\n"),
              "AMD EPYC 7763 64-Core Processor");
}

TEST(cpuinfo_model_arm64_from_implementer_and_part)
{
    /* Graviton2: no model name line at all */
    CHECK_STR(model("processor\t: 0\nBogoMIPS\t: 243.75\nFeatures\t: fp asimd evtstrm aes pmull\n"
                    "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x3\nCPU part\t: 0xd0c\n"
                    "CPU revision\t: 1\n"),
              "arm64 CPU implementer 0x41 part 0xd0c (Neoverse N1)");
    CHECK_STR(model("CPU implementer\t: 0x61\nCPU part\t: 0x022\n"), "arm64 CPU implementer 0x61 part 0x022");
    /* a Raspberry Pi's board "Model" is not the CPU */
    CHECK_STR(model("CPU implementer\t: 0x41\nCPU part\t: 0xd08\n\nModel\t\t: Raspberry Pi 4 Model B Rev 1.4\n"),
              "arm64 CPU implementer 0x41 part 0xd08 (Cortex-A72)");
}

TEST(cpuinfo_model_power)
{
    const char *p9 = "processor\t: 0\ncpu\t\t: POWER9 (architected), altivec supported\n"
                     "clock\t\t: 2750.000000MHz\nrevision\t: 2.2 (pvr 004e 0202)\n\n"
                     "timebase\t: 512000000\nplatform\t: pSeries\nmodel\t\t: IBM,9009-42A\n"
                     "machine\t\t: CHRP IBM,9009-42A\nMMU\t\t: Hash\n";
    CHECK_STR(model(p9), "POWER9 (architected), altivec supported; IBM,9009-42A");
    CHECK_STR(model("processor\t: 0\ncpu\t\t: POWER10 (raw), altivec supported\n"), "POWER10 (raw), altivec supported");
}

TEST(cpuinfo_model_s390x)
{
    /* newer kernels: a summary, then one block per CPU starting "cpu number : 0";
     * "cpu" must not match "cpu number" (the model was once "0") */
    const char *z15 = "vendor_id       : IBM/S390\n# processors    : 4\nbogomips per cpu: 3241.00\n"
                      "max thread id   : 1\nfeatures\t: esan3 zarch stfle msa ldisp eimm dfp edat etf3eh highgprs te vx\n"
                      "cache0          : level=1 type=Data scope=Private size=128K line_size=256 associativity=8\n"
                      "processor 0: version = 00,  identification = 1B2C28,  machine = 8561\n\n"
                      "cpu number      : 0\nphysical id     : 1\ncore id         : 0\nbook id         : 1\n"
                      "drawer id       : 1\ndedicated       : 0\naddress         : 0\nsiblings        : 4\n"
                      "cpu cores       : 2\nversion         : 00\nidentification  : 1B2C28\nmachine         : 8561\n"
                      "cpu MHz dynamic : 5200\ncpu MHz static  : 5200\n";
    CHECK_STR(model(z15), "IBM/S390 machine 8561 (z15 T01)");
    /* older kernels: only the "processor N:" lines */
    CHECK_STR(model("vendor_id       : IBM/S390\n# processors    : 2\n"
                    "processor 0: version = FF,  identification = 0133E8,  machine = 3931\n"
                    "processor 1: version = FF,  identification = 0133E8,  machine = 3931\n"),
              "IBM/S390 machine 3931 (z16 A01)");
    char v[32];
    CHECK(!cpuinfo_value("cpu number      : 0\ncpu MHz dynamic : 5200\n", "cpu", v, sizeof v));
    CHECK(cpuinfo_value("cpu number      : 0\n", "cpu number", v, sizeof v));
    CHECK_STR(v, "0");
}

TEST(cpuinfo_model_riscv)
{
    CHECK_STR(model("processor\t: 0\nhart\t\t: 2\nisa\t\t: rv64imafdc_zicntr_zicsr_zifencei_zihpm\n"
                    "mmu\t\t: sv39\nuarch\t\t: sifive,u74-mc\nmvendorid\t: 0x489\nmarchid\t\t: 0x8000000000000007\n"),
              "sifive,u74-mc");
    CHECK_STR(model("processor\t: 0\nhart\t\t: 0\nisa\t\t: rv64imafdch_zicsr_zifencei\nmmu\t\t: sv48\n"),
              "RISC-V rv64imafdch_zicsr_zifencei");
}

TEST(cpuinfo_model_unknown)
{
    CHECK_STR(model(""), "unknown");
    CHECK_STR(model(NULL), "unknown");
    CHECK_STR(model("processor : 0\nBogoMIPS : 100\n"), "unknown");
}

TEST(cpuinfo_caches_s390x)
{
    const char *z15 = fixture_s390x_z15_cpuinfo; /* the z15 LPAR's, with its shared L3 and L4 */
    cpuinfo_cache c[8];
    CHECK_INT(cpuinfo_caches(z15, c, 8), 6);
    CHECK_INT(c[1].data, 0);
    CHECK_INT(c[4].level, 3);
    CHECK(c[4].data && c[4].shared);
    CHECK_INT(c[4].size, 256ULL << 20);
    CHECK_INT(c[4].line_size, 256);
    CHECK_INT(c[5].level, 4);
    CHECK_INT(c[5].size, 960ULL << 20);
    CHECK(!c[2].shared);
    CHECK_INT(cpuinfo_caches(z15, c, 2), 2);
    CHECK_INT(cpuinfo_caches("model name : x\ncache size : 512 KB\n", c, 8), 0); /* x86's line is another thing */
}
