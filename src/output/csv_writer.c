#include "output/csv_writer.h"

void csv_write_header(FILE *f)
{
    fputs(CSV_HEADER "\n", f);
}

void csv_write_record(FILE *f, const result_record *r)
{
    unsigned long long kb = (unsigned long long)(r->size_bytes / 1024);
    if (r->op == OP_LATENCY)
        fprintf(f, "%llu,%s,0,%.2f,%.2f,%d,%d,%llu,%.6f\n", kb, op_name(r->op), r->latency_ns,
                r->latency_stddev_ns, r->latency_samples, r->threads, (unsigned long long)r->iterations,
                r->elapsed_s);
    else
        fprintf(f, "%llu,%s,%.2f,0,0,0,%d,%llu,%.6f\n", kb, op_name(r->op), r->bandwidth_mb_s, r->threads,
                (unsigned long long)r->iterations, r->elapsed_s);
}
