/* pyrules.c: what the Triton, PyTorch and build-file rule families share (pyrules.h): the
 * bits of their rules, the target groups of the run, and reporting. */
#include "pyrules.h"
#include "rule_ids.h"

#include <string.h>

#include "str.h"

#include "banned.h"

void pyrules_add(pyrules *r, ptrdiff_t off, ptrdiff_t n, const char *rule, hp_severity sev,
                 const char *msg, const char *fix)
{
    if (n < 0)
        n = 0;
    rules_report_at(r->c, rule, off, n, sev, RF_NOWAVE, msg, fix);
}

int pyrules_bit(const char *id)
{
    int base, max;
    const char *num;
    if (id[0] == 'T' && id[1] == 'R' && id[2] == 'I') {
        base = 0, max = 12, num = id + 3;
    } else if (id[0] == 'P' && id[1] == 'T') {
        base = 12, max = 5, num = id + 2;
    } else if (id[0] == 'B' && id[1] == 'L' && id[2] == 'D') {
        base = 17, max = 4, num = id + 3;
    } else {
        return -1;
    }
    if (num[0] < '0' || num[0] > '9' || num[1] < '0' || num[1] > '9' || num[2] < '0' ||
        num[2] > '9' || num[3])
        return -1;
    int v = (num[0] - '0') * 100 + (num[1] - '0') * 10 + (num[2] - '0');
    return v >= 1 && v <= max ? base + v - 1 : -1;
}

void pyrules_load(pyrules *r)
{
    static const char *const ids[] = {
        RID_TRI001, RID_TRI002, RID_TRI003, RID_TRI004, RID_TRI005, RID_TRI006, RID_TRI007,
        RID_TRI008, RID_TRI009, RID_TRI010, RID_TRI011, RID_TRI012, RID_PT001,  RID_PT002,
        RID_PT003,  RID_PT004,  RID_PT005,  RID_BLD001, RID_BLD002, RID_BLD003, RID_BLD004};
    r->on = 0;
    for (size_t k = 0; k < sizeof ids / sizeof *ids; k++)
        if (rules_on(r->c, ids[k]))
            r->on |= 1ul << pyrules_bit(ids[k]);
}

unsigned pyrules_target_of(const char *gfx, ptrdiff_t len)
{
    hp_str s = str_trim(str_make(gfx, len));
    ptrdiff_t colon = str_chr(s, ':');
    if (colon >= 0)
        s.len = colon;
    if (!RULES_STARTS(s, "gfx") || s.len < 4)
        return 0;
    hp_str v = {s.s + 3, s.len - 3};
    if (RULES_STARTS(v, "9-4-generic") || RULES_STARTS(v, "940") || RULES_STARTS(v, "941") ||
        RULES_STARTS(v, "942"))
        return TGT_GFX942;
    if (RULES_STARTS(v, "950"))
        return TGT_GFX950;
    if (v.s[0] == '9' || v.s[0] == '8')
        return TGT_CDNA12;
    if (RULES_STARTS(v, "12"))
        return TGT_GFX12;
    if (RULES_STARTS(v, "10") || RULES_STARTS(v, "11"))
        return TGT_RDNA;
    return 0;
}

unsigned pyrules_targets_of(const char *list)
{
    unsigned t = 0;
    if (!list)
        return TGT_ALL;
    hp_str rest = str_cstr(list);
    while (rest.len > 0) {
        ptrdiff_t comma = str_chr(rest, ',');
        ptrdiff_t n = comma >= 0 ? comma : rest.len;
        t |= pyrules_target_of(rest.s, n);
        rest.s += comma >= 0 ? comma + 1 : rest.len;
        rest.len -= comma >= 0 ? comma + 1 : rest.len;
    }
    return t ? t : TGT_ALL;
}

/* ------------------------------------------------------------------ which files */

void pyrules_add_span(pyrules *r, const pysrc *p, ptrdiff_t b, ptrdiff_t e, const char *rule,
                      hp_severity sev, const char *msg, const char *fix)
{
    if (e <= b)
        e = b + 1;
    ptrdiff_t end = p->t[e - 1].off + p->t[e - 1].len;
    pyrules_add(r, p->t[b].off, end - p->t[b].off, rule, sev, msg, fix);
}
