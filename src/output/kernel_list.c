#include "output/kernel_list.h"

#include "kernels/kernel.h"

void kernel_list_write(FILE *f)
{
    size_t n;
    const kernel *k = kernel_table(&n);
    fprintf(f, "%-10s %-8s %-13s %s\n", "operation", "isa", "stores", "runs here");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%-10s %-8s %-13s %s\n", op_name(k[i].op), k[i].isa, k[i].store,
                kernel_isa_supported(k[i].isa) ? "yes" : "no");
}
