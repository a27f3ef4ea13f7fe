#include "output/latency_writer.h"

#include "measure/ref_counter.h"
#include "output/json_report.h"
#include "util/format_bytes.h"

void latency_write_header(FILE *f, bool csv, double counter_hz)
{
    if (csv) {
        fputs(LATENCY_CSV_HEADER "\n", f);
        return;
    }
    if (counter_hz > 0)
        fprintf(f, "# cycles: %s reference counter at %.3f GHz (not the core clock)\n", ref_counter_name(), counter_hz / 1e9);
    fprintf(f, "%-12s %10s %10s %9s %8s %6s  %s\n", "Size", "Latency", "Cycles", "Stddev", "Samples", "CV<5%",
            "Pages (huge share)");
}

void latency_write_row(FILE *f, bool csv, const result_record *r)
{
    if (csv) {
        fprintf(f, "%llu,%.3f,", (unsigned long long)(r->size_bytes / 1024), r->latency_ns);
        if (r->latency_cycles >= 0)
            fprintf(f, "%.2f", r->latency_cycles);
        fprintf(f, ",%.3f,%d,%d,%s,", r->latency_stddev_ns, r->latency_samples, r->cv_target_met ? 1 : 0,
                r->page_method ? r->page_method : "");
        if (r->huge_coverage >= 0)
            fprintf(f, "%.3f", r->huge_coverage);
        fputc('\n', f);
        return;
    }
    char size[32], cycles[32] = "-", pages[48];
    format_bytes(r->size_bytes, size, sizeof size);
    if (r->latency_cycles >= 0)
        snprintf(cycles, sizeof cycles, "%.1f", r->latency_cycles);
    if (r->huge_coverage >= 0)
        snprintf(pages, sizeof pages, "%s (%.0f%%)", r->page_method, r->huge_coverage * 100);
    else
        snprintf(pages, sizeof pages, "%s", r->page_method);
    fprintf(f, "%-12s %7.2f ns %10s %9.2f %8d %6s  %s\n", size, r->latency_ns, cycles, r->latency_stddev_ns,
            r->latency_samples, r->cv_target_met ? "yes" : "NO", pages);
}

void latency_write_estimates(FILE *f, const latency_step *steps, size_t nsteps, const level_check *checks,
                             size_t nchecks, bool huge_pages)
{
    char a[32], b[32];
    fprintf(f, "\nLatency steps (where the curve leaves a plateau):\n");
    if (nsteps == 0)
        fprintf(f, "  none found in this range\n");
    for (size_t i = 0; i < nsteps; i++) {
        format_bytes(steps[i].last_size_before, a, sizeof a);
        format_bytes(steps[i].first_size_after, b, sizeof b);
        fprintf(f, "  after %-9s %.1f ns -> %.1f ns (climb ends at %s)\n", a, steps[i].latency_before_ns,
                steps[i].latency_after_ns, b);
    }
    fprintf(f, "Cache sizes, reported vs measured:\n");
    for (size_t i = 0; i < nchecks; i++) {
        const level_check *c = &checks[i];
        format_bytes(c->reported, a, sizeof a);
        if (!c->checkable) {
            fprintf(f, "  L%d reported %-9s not checked: the curve does not reach %gx that size\n", c->level, a,
                    CACHE_LEVEL_FACTOR);
        } else if (!c->step) {
            fprintf(f, "  L%d reported %-9s no latency step found\n", c->level, a);
        } else {
            format_bytes(c->step->last_size_before, b, sizeof b);
            char off[32] = "";
            if (c->disagrees)
                snprintf(off, sizeof off, "   <- more than %gx off", CACHE_LEVEL_FACTOR);
            fprintf(f, "  L%d reported %-9s %s after %s%s\n", c->level, a,
                    i + 1 == nchecks ? "largest latency step" : "latency steps up", b, off);
        }
    }
    if (nchecks > 0 && checks[nchecks - 1].step) {
        const level_check *llc = &checks[nchecks - 1];
        format_bytes(llc->step->last_size_before, a, sizeof a);
        format_bytes(llc->reported, b, sizeof b);
        fprintf(f, "Effective last-level cache for this CPU: %s, where latency climbs to %.0f ns (reported: %s)\n", a,
                llc->step->latency_after_ns, b);
    }
    for (size_t i = 0; i < nchecks; i++)
        if (checks[i].checkable && checks[i].disagrees) {
            format_bytes(checks[i].reported, a, sizeof a);
            if (checks[i].step) {
                format_bytes(checks[i].step->last_size_before, b, sizeof b);
                fprintf(f, "warning: L%d is reported as %s but latency says %s: the cache this CPU really gets "
                           "differs from the one it is told about\n",
                        checks[i].level, a, b);
            } else {
                fprintf(f, "warning: L%d is reported as %s but the latency curve shows no step near it\n",
                        checks[i].level, a);
            }
        }
    if (!huge_pages)
        fprintf(f, "note: without huge pages, TLB misses add steps of their own; --pages 2m separates them\n");
}

void latency_write_json(FILE *f, const void *ctx)
{
    const latency_doc *d = ctx;
    json_writer j;
    json_init(&j, f);
    json_object_begin(&j, NULL);
    json_write_header(&j, d->info, "latency");
    json_string(&j, "method", d->description);
    if (d->counter_hz > 0)
        json_number(&j, "counter_hz", d->counter_hz);
    else
        json_null(&j, "counter_hz");
    if (ref_counter_name())
        json_string(&j, "counter", ref_counter_name());
    else
        json_null(&j, "counter");
    json_array_begin(&j, "results");
    for (size_t i = 0; i < d->n; i++)
        json_write_record(&j, &d->records[i]);
    json_array_end(&j);
    json_array_begin(&j, "steps");
    for (size_t i = 0; i < d->nsteps; i++) {
        json_object_begin(&j, NULL);
        json_uint(&j, "last_size_before_bytes", d->steps[i].last_size_before);
        json_uint(&j, "first_size_after_bytes", d->steps[i].first_size_after);
        json_number(&j, "latency_before_ns", d->steps[i].latency_before_ns);
        json_number(&j, "latency_after_ns", d->steps[i].latency_after_ns);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_array_begin(&j, "cache_checks");
    for (size_t i = 0; i < d->nchecks; i++) {
        const level_check *c = &d->checks[i];
        json_object_begin(&j, NULL);
        json_int(&j, "level", c->level);
        json_uint(&j, "reported_bytes", c->reported);
        if (c->step)
            json_uint(&j, "measured_bytes", c->step->last_size_before);
        else
            json_null(&j, "measured_bytes");
        json_bool(&j, "checkable", c->checkable);
        json_bool(&j, "disagrees", c->disagrees);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_object_end(&j);
}
