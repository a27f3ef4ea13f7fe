/* SPDX-License-Identifier: MIT */
/* --list-kernels: one line per descriptor row of the kernel table, then the ISA
 * table with what this CPU runs and which ISA the chooser prefers beyond the LLC.
 * Everything printed comes from the two tables. */
#include "output/kernel_list.h"

#include "kernels/isa.h"
#include "kernels/kernel.h"

void kernel_list_write(FILE *f)
{
    size_t n;
    const kernel *k = kernel_table(&n);
    fprintf(f, "%-7s %-9s %-7s %-13s %5s %6s %13s %-14s %s\n", "family", "operation", "isa", "stores", "reads",
            "writes", "bytes/element", "verified by", "runs here");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%-7s %-9s %-7s %-13s %5u %6u %13u %-14s %s\n", kernel_family_name(k[i].family), k[i].name,
                k[i].isa, k[i].store, k[i].reads, k[i].writes, k[i].counted_bytes, kernel_verify_name(k[i].verify),
                isa_supported(k[i].isa) ? "yes" : "no");
    size_t ni;
    const isa_info *isas = isa_table(&ni);
    fprintf(f, "\nISAs, best first (--kernel takes the forcible ones):\n");
    for (size_t i = 0; i < ni; i++) {
        fprintf(f, "  %-7s %-3s %s%s", isas[i].name, isa_supported(isas[i].name) ? "yes" : "no",
                isas[i].description, isas[i].forcible ? "" : " (not forcible)");
        if (isas[i].beyond_llc) {
            fprintf(f, "; beyond the LLC share: %s", isas[i].beyond_llc);
            if (isas[i].beyond_llc_cpus)
                fprintf(f, " for non-temporal stores, and for every kernel on %s (%s)", isas[i].beyond_llc_cpus,
                        isa_beyond_llc(&isas[i], false) ? "this CPU" : "not this CPU");
        }
        fputc('\n', f);
    }
}
