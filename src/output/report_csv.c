/* SPDX-License-Identifier: MIT */
#include "output/report_csv.h"

#include "core/report_fleet.h"
#include "output/file_target.h"

/* Text from a document as one quoted cell: a '"' doubled, a line break or other
 * control character a space (one row per line), and a lead that a spreadsheet
 * would take for a formula (= + - @, or a tab or CR before one) behind a '. */
static void csv_text(FILE *f, const char *s)
{
    fputc('"', f);
    if (*s == '=' || *s == '+' || *s == '-' || *s == '@' || *s == '\t' || *s == '\r')
        fputc('\'', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"')
            fputs("\"\"", f);
        else
            fputc(c < 0x20 || c == 0x7f ? ' ' : c, f);
    }
    fputc('"', f);
}

static void csv_number(FILE *f, double v, fleet_unit unit)
{
    switch (unit) {
    case FLEET_MB_S: fprintf(f, "%.4f", v / 1000); break; /* GB/s to 0.1 MB/s */
    case FLEET_NS: fprintf(f, "%.3f", v); break;
    case FLEET_PCT: fprintf(f, "%.3f", v); break;
    default: fprintf(f, "%.0f", v); break;
    }
}

void report_csv_write(FILE *f, const report_model *m)
{
    for (int k = 0; k < FLEET_COLUMNS; k++)
        fprintf(f, "%s%s", k ? "," : "", fleet_columns[k].csv);
    fputc('\n', f);
    char buf[32];
    for (size_t i = 0; i < m->nruns; i++) {
        fleet_row row;
        report_fleet_row_of(&m->runs[i], m->names[i], &row);
        for (int k = 0; k < FLEET_COLUMNS; k++) {
            fleet_cell c = report_fleet_cell(&row, k, buf, sizeof buf);
            if (k)
                fputc(',', f);
            if (c.missing)
                continue;
            if (fleet_columns[k].unit == FLEET_TEXT)
                csv_text(f, c.text);
            else
                csv_number(f, c.value, fleet_columns[k].unit);
        }
        fputc('\n', f);
    }
}

static void write_csv(FILE *f, const void *ctx)
{
    report_csv_write(f, ctx);
}

bool report_write_csv(const char *path, const report_model *m, char *err, size_t errlen)
{
    return file_target_write_path("--csv", path, write_csv, m, err, errlen);
}
