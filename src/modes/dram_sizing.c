/* SPDX-License-Identifier: MIT */
#include "modes/dram_sizing.h"

#include "util/format_bytes.h"

bool session_dram_sized(session *s, const dram_basis *b, dram_figure kind, const char *what, uint64_t total, bool given,
                        bool capped, bool every_record)
{
    bool may_fit = dram_may_fit_cache(b, total);
    char basis[96], rule[160], size[32];
    dram_basis_text(b, basis, sizeof basis);
    dram_rule_text(b, rule, sizeof rule);
    param_list *p = &s->info.plan.values;
    params_text(p, "size_basis", given ? "given on the command line" : basis);
    params_int(p, "dram_rule_bytes", (long long)dram_rule_bytes(b));
    params_text(p, "dram_rule", rule);
    params_int(p, "dram_footprint_bytes", (long long)total);
    params_bool(p, "may_fit_cache", may_fit);
    if (every_record && given)
        session_size_given(s, true, may_fit);
    else if (every_record)
        session_size_basis(s, b, may_fit);
    uint64_t budget = 0;
    if (dram_basis_none(b) && !given && !may_fit && session_memory_budget(s, &budget) && 2 * total <= budget) {
        s->dram_check_kind = s->env.live ? kind : DRAM_FIGURE_NONE; /* a recorded machine is only planned */
        s->dram_check_footprint = total;
        params_text(p, "dram_check", "planned: no source describes the last level, so the run first measures the same "
                                     "kind of kernel at the footprint and at twice it");
    } else if (dram_basis_none(b) && !given && !may_fit) {
        params_text(p, "dram_check", "not run: twice the footprint is more than the memory budget");
    }
    if (may_fit && what)
        session_warn(s, WARN_MAY_FIT_CACHE, "%s (%s in all%s): below the DRAM rule (%s), so its figures may be a "
                        "cache's, not DRAM's", what, format_bytes(total, size, sizeof size),
                     capped ? ", capped by the memory budget" : given ? ", as given" : "", rule);
    return may_fit;
}
