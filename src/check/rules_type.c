/* rules_type.c: TYPE001, FP8 types whose format depends on the target: gfx940-gfx942 (MI300,
 * MI325) implement only the FNUZ formats, gfx950 and gfx12 the OCP ones NVIDIA uses; TYPE004,
 * raw half structs initialised from bits. TYPE002 and TYPE003 are plain names
 * (data/tables/rule_names.tsv). */
#include <string.h>

#include "rules.h"
#include "str.h"

#include "banned.h"

static int fp8_name(hp_str s)
{
    static const hp_str names[] = {
        RULES_S("__nv_fp8_e4m3"), RULES_S("__nv_fp8_e5m2"), RULES_S("__nv_fp8x2_e4m3"),
        RULES_S("__nv_fp8x2_e5m2"), RULES_S("__nv_fp8x4_e4m3"), RULES_S("__nv_fp8x4_e5m2"),
        RULES_S("__nv_fp8_storage_t"), RULES_S("__nv_fp8x2_storage_t"),
        RULES_S("__nv_fp8x4_storage_t"), RULES_S("__NV_E4M3"), RULES_S("__NV_E5M2"),
        RULES_S("__NV_SATFINITE"), RULES_S("__NV_NOSAT"), RULES_S("kFloat8_e4m3fn"),
        RULES_S("kFloat8_e5m2"), RULES_S("Float8_e4m3fn"), RULES_S("Float8_e5m2"),
        RULES_S("__nv_fp8_interpretation_t")};
    if (RULES_STARTS(s, "__nv_cvt_") &&
        (str_find(s, S("fp8")) >= 0 || str_find(s, S("e4m3")) >= 0 ||
         str_find(s, S("e5m2")) >= 0))
        return 1;
    return RULES_IN(s, names);
}

static void report(rctx *c, ptrdiff_t i)
{
    const rules_cfg *g = c->cfg;
    if (g->fp8_fnuz)
        rules_report(c, RID_TYPE001, i, HP_SEV_ERROR, RF_ONCE,
                     "OCP FP8 (e4m3fn, e5m2): gfx942 (MI300, MI325) implements only the FNUZ "
                     "formats, whose exponent bias is one higher (e4m3 max 240 instead of 448) "
                     "and whose NaN and infinity encodings differ",
                     NULL);
    else if (g->fp8_none)
        rules_report(c, RID_TYPE001, i, HP_SEV_WARNING, RF_ONCE,
                     "FP8 types: some targets have no FP8 hardware (before gfx940, and gfx11), "
                     "where HIP's FP8 types are converted in software",
                     NULL);
    else
        rules_report(c, RID_TYPE001, i, HP_SEV_NOTE, RF_ONCE,
                     "FP8 types: the targets implement the OCP formats NVIDIA uses; HIP names "
                     "them __hip_fp8_e4m3 and __hip_fp8_e5m2",
                     NULL);
}

/* The identifiers the pass below acts on (rules_hot.c). */
unsigned rules_type_names(const rctx *c, hp_str s, int number)
{
    (void)c;
    if (number)
        return 0;
    /* __nv_..., __NV_..., kFloat8_..., Float8_... */
    if (s.len < 9 || !((s.s[0] == '_' && s.s[1] == '_' && (s.s[2] == 'n' || s.s[2] == 'N')) ||
                        s.s[0] == 'k' || s.s[0] == 'F'))
        return 0;
    return fp8_name(s) ? RH_TYPE : 0;
}

/* An integer literal that is not 0 (whose bits and value differ as a half). */
static int nonzero_int(const rctx *c, ptrdiff_t i)
{
    if (c->t[i].kind != TK_NUMBER)
        return 0;
    hp_str s = rules_text(c, i);
    int hex = s.len > 2 && s.s[0] == '0' && (s.s[1] == 'x' || s.s[1] == 'X');
    int nonzero = 0;
    for (ptrdiff_t k = hex ? 2 : 0; k < s.len; k++) {
        char ch = s.s[k];
        if (!hex && (ch == '.' || ch == 'e' || ch == 'E' || ch == 'p' || ch == 'P'))
            return 0;
        if (ch >= '1' && ch <= '9')
            nonzero = 1;
        else if (hex && ((ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F')))
            nonzero = 1;
    }
    return nonzero;
}

/* TYPE004: __half_raw h = {0x7C00}; __half2_raw{0x3C00, 0x3C00}. CUDA's raw structs hold
 * unsigned short bits; HIP's __half_raw is a union whose first member is the _Float16 value
 * (and __half2_raw a pair of them), so the braces convert 0x7C00 as the number 31744. */
static void type004(rctx *c, ptrdiff_t i)
{
    ptrdiff_t j = rules_next(c, i);
    if (rules_ident(c, j))
        j = rules_next(c, j);
    if (rules_punct(c, j, '='))
        j = rules_next(c, j);
    if (!rules_punct(c, j, '{'))
        return;
    ptrdiff_t close = rules_match(c, j);
    if (close < 0)
        return;
    ptrdiff_t lit = -1;
    for (ptrdiff_t q = rules_next(c, j); q < close; q = rules_next(c, q)) {
        if (rules_punct(c, q, '.'))
            return; /* designated: {.x = 0x7C00} sets the bits on both */
        if (lit < 0 && nonzero_int(c, q))
            lit = q;
    }
    if (lit < 0)
        return;
    hp_str n = rules_text(c, i), v = rules_text(c, lit);
    rules_report(c, RID_TYPE004, lit, 0, 0,
                 rules_fmt(c, "'%.*s' initialised with %.*s: HIP's raw half holds the _Float16 "
                              "value first, so the braces convert %.*s as a number, not as the "
                              "bit pattern CUDA stores",
                           (int)n.len, n.s, (int)v.len, v.s, (int)v.len, v.s),
                 NULL);
}

void rules_type_run(rctx *c)
{
    for (ptrdiff_t hk = 0, i; (i = rules_hot_next(c, &hk, RH_TYPE | RH_STR)) >= 0;) {
        const tok *k = &c->t[i];
        if (rules_scope(c, i) & SC_GUARDED)
            continue;
        if (k->kind == TK_IDENT) {
            hp_str s = rules_text(c, i);
            if ((s.s[0] == '_' || s.s[0] == 'k' || s.s[0] == 'F') && fp8_name(s) &&
                !rules_member(c, i))
                report(c, i);
            else if ((RULES_EQ(s, "__half_raw") || RULES_EQ(s, "__half2_raw")) &&
                     !rules_member(c, i))
                type004(c, i);
        } else if ((k->kind == TK_HEADER || k->kind == TK_STRING) && (k->flags & TF_PP) &&
                   k->len >= 2) {
            hp_str path = str_make(c->src + k->off + 1, k->len - 2);
            ptrdiff_t h = rules_directive(c, i);
            if (h >= 0 && c->t[h].sub == PP_INCLUDE && RULES_EQ(path, "cuda_fp8.h"))
                report(c, i);
        }
    }
}
