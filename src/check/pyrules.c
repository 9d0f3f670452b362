/* pyrules.c: what the Triton, PyTorch and build-file rule families share (pyrules.h): the
 * bits of their rules, the target groups of the run, and reporting. */
#include "pyrules.h"
#include "rule_ids.h"

#include <string.h>

#include "str.h"

#include "banned.h"

/* The fp8 family a name is of: 1 OCP (float8_e4m3fn, float8_e5m2, tl.float8e4nv, tl.float8e5),
 * 2 FNUZ (float8_e4m3fnuz, float8_e5m2fnuz, tl.float8e4b8, tl.float8e5b16), 0 none. */
static int fp8_family(hp_str s)
{
    if (str_eqc(s, "float8_e4m3fnuz") || str_eqc(s, "float8_e5m2fnuz") ||
        str_eqc(s, "float8e4b8") || str_eqc(s, "float8e5b16"))
        return 2;
    if (str_eqc(s, "float8_e4m3fn") || str_eqc(s, "float8_e5m2") || str_eqc(s, "float8e4nv") ||
        str_eqc(s, "float8e5"))
        return 1;
    return 0;
}

static int cmp_tok(const pysrc *p, ptrdiff_t i)
{
    return pysrc_op(p, i, PO_EQ) || pysrc_op(p, i, PO_NE) || pysrc_is(p, i, "in") ||
           pysrc_is(p, i, "is");
}

/* Does the name say a format whose element or scale types are fixed by its definition
 * (NVFP4: e4m3fn scales; MX: OCP elements; any FP4, e2m1, format is one of the two: there is
 * no FNUZ FP4)? */
static int fixed_format_name(hp_str s)
{
    static const char *const words[] = {"nvfp4", "mxfp4", "mxfp6", "mxfp8", "mx_format",
                                        "mx_tensor", "mxtensor", "mxlinear", "fp4", "e2m1"};
    for (size_t k = 0; k < sizeof words / sizeof *words; k++)
        if (str_find_nocase(s, str_cstr(words[k])) >= 0)
            return 1;
    return 0;
}

int pyrules_fp8_use(const pyrules *r, const pysrc *p, ptrdiff_t b, ptrdiff_t e)
{
    if (cmp_tok(p, b - 1) || pysrc_op(p, e, PO_EQ) || pysrc_op(p, e, PO_NE))
        return PYFP8_COMPARED;
    /* the innermost bracket around it */
    ptrdiff_t o = -1;
    for (ptrdiff_t k = b - 1; k >= 0 && k >= p->lstart[b]; k--)
        if ((pysrc_op(p, k, '(') || pysrc_op(p, k, '[') || pysrc_op(p, k, '{')) &&
            p->match[k] >= e) {
            o = k;
            break;
        }
    /* a key of a dict literal (a table of peak speeds per dtype): it looks up, fixes nothing */
    if (o >= 0 && pysrc_op(p, o, '{') && pysrc_op(p, e, ':'))
        return PYFP8_NEUTRAL;
    if (o >= 0) {
        int kw = cmp_tok(p, o - 1) || pysrc_is(p, o - 1, "not") || pysrc_is(p, o - 1, "and") ||
                 pysrc_is(p, o - 1, "or") || pysrc_is(p, o - 1, "return") ||
                 pysrc_is(p, o - 1, "if") || pysrc_is(p, o - 1, "elif") ||
                 pysrc_is(p, o - 1, "else") || pysrc_is(p, o - 1, "yield") ||
                 pysrc_is(p, o - 1, "assert");
        int call = pysrc_op(p, o, '(') && o > 0 && !kw &&
                   (p->t[o - 1].kind == PY_NAME || pysrc_op(p, o - 1, ')') ||
                    pysrc_op(p, o - 1, ']'));
        if (call && p->t[o - 1].kind == PY_NAME &&
            ((pysrc_is(p, o - 1, "view") && pysrc_op(p, o - 2, '.')) ||
             pysrc_is(p, o - 1, "finfo") || pysrc_is(p, o - 1, "iinfo")))
            return PYFP8_NEUTRAL;
        /* x.to(tl.float8e4nv, bitcast=True): the bytes reinterpreted, as .view() */
        if (call && pysrc_is(p, o - 1, "to") && pysrc_op(p, o - 2, '.'))
            for (ptrdiff_t k = o + 1; k + 2 < p->match[o]; k++)
                if (pysrc_is(p, k, "bitcast") && pysrc_op(p, k + 1, '=') &&
                    pysrc_is(p, k + 2, "True"))
                    return PYFP8_NEUTRAL;
        if (!call && !pysrc_op(p, o, '[') && cmp_tok(p, o - 1))
            return PYFP8_COMPARED;
        if (!call) {
            int fam = 0;
            for (ptrdiff_t k = o + 1; k < p->match[o]; k++)
                if (p->t[k].kind == PY_NAME)
                    fam |= fp8_family(pysrc_text(p, k));
            if (fam == 3)
                return PYFP8_NEUTRAL;
        }
    }
    if (r->c->path && fixed_format_name(str_cstr(r->c->path)))
        return PYFP8_NEUTRAL;
    for (ptrdiff_t h = p->up[b]; h >= 0; h = p->up[h])
        if ((pysrc_is(p, h, "class") || pysrc_is(p, h, "def")) && h + 1 < p->n &&
            p->t[h + 1].kind == PY_NAME) {
            hp_str n = pysrc_text(p, h + 1);
            if (fixed_format_name(n) ||
                (pysrc_is(p, h, "class") && (RULES_STARTS(n, "MX") || RULES_STARTS(n, "NVFP4"))))
                return PYFP8_NEUTRAL;
        }
    return 0;
}

void pyrules_add(pyrules *r, ptrdiff_t off, ptrdiff_t n, const char *rule, hp_severity sev,
                 const char *msg, const char *fix)
{
    if (n < 0)
        n = 0;
    if (r->src && sev > HP_SEV_NOTE && pysrc_windows_only(r->src, pysrc_tok_at(r->src, off)))
        sev = HP_SEV_NOTE;
    ptrdiff_t fk;
    if (r->src && sev > HP_SEV_NOTE &&
        (fk = pysrc_fork_only(r->src, pysrc_tok_at(r->src, off))) >= 0) {
        hp_str f = pylex_string_body(r->src->src, &r->src->t[fk]);
        sev = HP_SEV_NOTE;
        if (msg)
            msg = arena_printf(r->a,
                               "%s (under a test for triton.language.%.*s, a Triton fork's "
                               "feature that upstream Triton, AMD's backend included, lacks: "
                               "this code belongs to that fork's build)",
                               msg, (int)f.len, f.s);
    }
    if (r->src && sev > HP_SEV_NOTE &&
        (fk = pysrc_constexpr_off(r->src, pysrc_tok_at(r->src, off))) >= 0) {
        hp_str f = pysrc_text(r->src, fk);
        sev = HP_SEV_NOTE;
        if (msg)
            msg = arena_printf(r->a,
                               "%s (under if %.*s, a constexpr every call of this kernel in the "
                               "file passes as false: Triton does not compile this branch)",
                               msg, (int)f.len, f.s);
    }
    if (r->refuses_rocm && sev > HP_SEV_NOTE) {
        sev = HP_SEV_NOTE;
        if (msg)
            msg = arena_printf(r->a,
                               "%s (this module refuses ROCm: it returns or raises 'not "
                               "supported' there, so an AMD run does not reach this code)",
                               msg);
    }
    if (r->nv_dialect && sev > HP_SEV_NOTE) {
        sev = HP_SEV_NOTE;
        if (msg)
            msg = arena_printf(r->a,
                               "%s (this module imports %s, whose kernels run only on NVIDIA "
                               "GPUs: an AMD port uses plain Triton or Gluon's AMD dialect)",
                               msg, r->nv_dialect);
    }
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
