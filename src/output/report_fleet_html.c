/* SPDX-License-Identifier: MIT */
#include "output/report_fleet_html.h"

#include "core/report_fleet.h"
#include "output/markup.h"

/* Sorts the table by the clicked column (again: the other way). Numbers by
 * data-value, text by its words; an empty cell (a figure the run lacks) sorts last
 * either way. */
static const char sort_script[] =
    "(function(){var t=document.getElementById('fleet');if(!t)return;var hs=t.tHead.rows[0].cells;"
    "function key(c,num){if(num)return c.hasAttribute('data-value')?parseFloat(c.getAttribute('data-value')):null;"
    "return c.textContent===''?null:c.textContent;}"
    "function by(i){var h=hs[i],num=h.getAttribute('data-type')==='number',"
    "dir=h.getAttribute('aria-sort')==='ascending'?-1:1;"
    "for(var k=0;k<hs.length;k++)hs[k].removeAttribute('aria-sort');"
    "h.setAttribute('aria-sort',dir>0?'ascending':'descending');"
    "var b=t.tBodies[0],rows=Array.prototype.slice.call(b.rows);"
    "rows.sort(function(x,y){var a=key(x.cells[i],num),z=key(y.cells[i],num);"
    "if(a===null||z===null)return(a===null)-(z===null);"
    "return dir*(num?a-z:a.localeCompare(z,undefined,{numeric:true}));});"
    "var f=document.createDocumentFragment();rows.forEach(function(r){f.appendChild(r);});b.appendChild(f);}"
    "for(var i=0;i<hs.length;i++)hs[i].addEventListener('click',by.bind(null,i));})();";

static void number_shown(FILE *f, const fleet_cell *c, fleet_unit unit)
{
    switch (unit) {
    case FLEET_MB_S: fprintf(f, "%.2f", c->value / 1000); break;
    case FLEET_NS: fprintf(f, "%.1f", c->value); break;
    case FLEET_PCT: fprintf(f, "%.2f", c->value); break;
    case FLEET_BYTES: markup_text(f, c->text); break;
    default: fprintf(f, "%.0f", c->value); break;
    }
}

static void cell(FILE *f, const fleet_row *row, int k)
{
    char buf[32];
    const fleet_column *col = &fleet_columns[k];
    fleet_cell c = report_fleet_cell(row, k, buf, sizeof buf);
    bool num = col->unit != FLEET_TEXT;
    fprintf(f, "<td class=\"%s%s\" data-col=\"%s\"", num ? "num" : "text", c.missing ? " missing" : "", col->key);
    if (num && !c.missing) {
        fputs(" data-value=\"", f);
        markup_number(f, c.value);
        fputc('"', f);
    }
    if (c.why) {
        fputs(" title=\"", f);
        markup_text(f, c.why);
        fputc('"', f);
    }
    fputc('>', f);
    if (!c.missing && num)
        number_shown(f, &c, col->unit);
    else if (!c.missing)
        markup_text(f, c.text);
    fputs("</td>", f);
}

void report_fleet_html(FILE *f, const report_model *m)
{
    fprintf(f, "<h2>Fleet: %zu runs side by side</h2>\n<p class=\"fleet-help\">One row per run. Click a column's header "
               "to sort by it, again for the other way; an empty cell is a figure the run did not measure (hover it for "
               "why) and sorts last. Bandwidth in GB/s (10<sup>9</sup> B/s); DRAM read per thread: the DRAM read figure "
               "over the threads that measured it. <code>--csv FILE</code> writes this table for spreadsheets.</p>\n"
               "<div class=\"fleet-wrap\">\n<table class=\"fleet\" id=\"fleet\">\n<thead><tr>",
            m->nruns);
    for (int k = 0; k < FLEET_COLUMNS; k++)
        fprintf(f, "<th data-col=\"%s\" data-type=\"%s\">%s</th>", fleet_columns[k].key,
                fleet_columns[k].unit == FLEET_TEXT ? "text" : "number", fleet_columns[k].title);
    fputs("</tr></thead>\n<tbody>\n", f);
    for (size_t i = 0; i < m->nruns; i++) {
        fleet_row row;
        report_fleet_row_of(&m->runs[i], m->names[i], &row);
        fputs("<tr class=\"fleet-run\" data-run=\"", f);
        markup_text(f, m->names[i]);
        fputs("\">", f);
        for (int k = 0; k < FLEET_COLUMNS; k++)
            cell(f, &row, k);
        fputs("</tr>\n", f);
    }
    fprintf(f, "</tbody>\n</table>\n</div>\n<script>%s</script>\n", sort_script);
}
