#include "output/stream_writer.h"

void stream_write_table(FILE *f, const stream_result *r)
{
    fprintf(f, "Function    Best Rate MB/s  Avg time     Min time     Max time\n");
    for (int j = 0; j < STREAM_NFUNCS; j++)
        fprintf(f, "%s%12.1f  %11.6f  %11.6f  %11.6f\n", stream_labels[j], r->best_mb_s[j], r->avg_s[j], r->min_s[j],
                r->max_s[j]);
    fprintf(f, STREAM_RULE "%s\n" STREAM_RULE, r->validation);
}

void stream_write_side_by_side(FILE *f, const stream_result *regular, const stream_result *nt, double peak_gbs)
{
    fprintf(f, "Function    %14s %14s %8s", "regular MB/s", "nt MB/s", "nt/reg");
    if (peak_gbs > 0)
        fprintf(f, " %10s %10s", "reg %peak", "nt %peak");
    fprintf(f, "\n");
    for (int j = 0; j < STREAM_NFUNCS; j++) {
        double r = regular ? regular->best_mb_s[j] : 0, n = nt ? nt->best_mb_s[j] : 0;
        fprintf(f, "%s %14.1f %14.1f %8.2f", stream_labels[j], r, n, r > 0 ? n / r : 0);
        if (peak_gbs > 0)
            fprintf(f, " %9.1f%% %9.1f%%", 100 * r / (peak_gbs * 1000), 100 * n / (peak_gbs * 1000));
        fprintf(f, "\n");
    }
}
