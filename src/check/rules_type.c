/* rules_type.c: TYPE001, FP8 types whose format depends on the target: gfx940-gfx942 (MI300,
 * MI325) implement only the FNUZ formats, gfx950 and gfx12 the OCP ones NVIDIA uses (and HIP's
 * own FP8 types of one format in device code, which HIP 7 compiles only for targets of that
 * format); TYPE004,
 * raw half structs initialised from bits; TYPE002's <cuda_bf16.h> include; TYPE003's __hmax2
 * and __hmin2, whose arguments' type decides. The other TYPE002 and the TYPE003 names are
 * plain names (data/tables/rule_names.tsv). */
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

static void report(rctx *c, ptrdiff_t i);

static int ident_has(hp_str s, const char *part)
{
    ptrdiff_t n = (ptrdiff_t)strlen(part);
    for (ptrdiff_t k = 0; k + n <= s.len; k++) {
        ptrdiff_t m = 0;
        while (m < n && (s.s[k + m] | 0x20) == part[m])
            m++;
        if (m == n)
            return 1;
    }
    return 0;
}

/* What an include of <cuda_fp8.h> serves. 2: the file is about the MX formats (an identifier
 * holds e8m0, mxfp8 or mxfp4, in any case): MX elements are OCP FP8 by definition, and of AMD's
 * GPUs only the OCP gfx950 has MXFP8, so FNUZ does not arise. 1: the file has no device code
 * (no __global__ or __device__ anywhere, macros included): FP8 values are only handled on
 * the host, as bytes or through float. 0: device code that may hold FP8 values (written out,
 * or through templates and aliases). */
static int fp8_include_use(const rctx *c)
{
    int device = 0;
    for (ptrdiff_t i = 0; i < c->nt; i++) {
        if (c->t[i].kind != TK_IDENT)
            continue;
        hp_str s = rules_text(c, i);
        if (s.len >= 4 &&
            (ident_has(s, "e8m0") || ident_has(s, "mxfp8") || ident_has(s, "mxfp4")))
            return 2;
        if (RULES_EQ(s, "__global__") || RULES_EQ(s, "__device__"))
            device = 1;
    }
    return device ? 0 : 1;
}

static void fp8_include(rctx *c, ptrdiff_t i)
{
    int use = fp8_include_use(c);
    if (use == 0) {
        report(c, i);
        return;
    }
    rules_report(c, RID_TYPE001, i, HP_SEV_NOTE, RF_ONCE,
                 use == 2 ? "<cuda_fp8.h> in MX-format code: MX elements are OCP FP8, which of "
                            "AMD's GPUs only gfx950 implements with MXFP8, so the FNUZ formats "
                            "of gfx942 do not arise; translate maps the include to "
                            "<hip/hip_fp8.h>"
                          : "<cuda_fp8.h> in a file with no device code: FP8 values are handled "
                            "on the host only; translate maps the include to <hip/hip_fp8.h>",
                 NULL);
}

/* ------------------------------------------------------------------ TYPE003 __hmax2, __hmin2 */

/* Is the identifier at i a call of __hmax2 or __hmin2 that TYPE003 looks at (not a member,
 * outside HIP/AMD branches, not a name a HIP shim of the tree defines)? */
static int hminmax2_call(const rctx *c, ptrdiff_t i)
{
    hp_str s = rules_text(c, i);
    return (RULES_EQ(s, "__hmax2") || RULES_EQ(s, "__hmin2")) && !rules_member(c, i) &&
           rules_call(c, i) >= 0 && !(rules_scope(c, i) & SC_GUARDED) && !rules_shim(c, s);
}

/* __hmax2 and __hmin2: HIP 7.x declares them for __hip_bfloat162 only (amd_hip_bf16.h), HIP
 * 5.2 to 6.x not at all. An argument of type __half2 (a variable, a cast, a conversion such
 * as __float2half2_rn) makes the call one HIP 7.x does not compile: an error. Of type
 * __hip_bfloat162/__nv_bfloat162: a note, for a HIP before 7. Of a type check does not know:
 * a warning. */
static void hminmax2(rctx *c, ptrdiff_t i)
{
    lex_args a;
    ptrdiff_t open = rules_call(c, i);
    if (open < 0 || !rules_args(c, open, &a))
        return;
    int half2 = 0, bf162 = 0;
    for (ptrdiff_t k = 0; k < a.n; k++) {
        int ptr;
        rules_type t = rules_expr_type(c, a.first[k], a.last[k], &ptr);
        half2 |= t == RT_HALF2 && ptr == 0;
        bf162 |= t == RT_BF162 && ptr == 0;
    }
    hp_str s = rules_text(c, i);
    if (half2)
        rules_report(c, RID_TYPE003, i, HP_SEV_ERROR, 0,
                     rules_fmt(c, "'%.*s' on __half2: HIP declares it for __hip_bfloat162 only "
                                  "(HIP 7.x's amd_hip_bf16.h; HIP 5.2 to 6.x not at all), so "
                                  "this call does not compile",
                               (int)s.len, s.s),
                     rules_fmt(c, "write a __half2 helper from two %.*s calls on the halves",
                               (int)s.len - 1, s.s));
    else if (bf162)
        rules_report(c, RID_TYPE003, i, HP_SEV_NOTE, 0,
                     rules_fmt(c, "'%.*s' on bf16 pairs is in HIP's bf16 header from HIP 7.x "
                                  "(not in HIP 5.2 to 6.x): an older HIP needs a helper",
                               (int)s.len, s.s),
                     NULL);
    else
        rules_report(c, RID_TYPE003, i, HP_SEV_WARNING, 0,
                     rules_fmt(c, "'%.*s' is in HIP's bf16 header from HIP 7.x only: HIP has no "
                                  "__half2 form (nor any in HIP 5.2 to 6.x), so a __half2 call "
                                  "needs a helper",
                               (int)s.len, s.s),
                     NULL);
}

/* Does the file call __hmax2 or __hmin2 (where TYPE003 reports them)? */
static int hminmax2_calls(const rctx *c)
{
    for (ptrdiff_t hk = 0, i; (i = rules_hot_next(c, &hk, RH_TYPE)) >= 0;)
        if (c->t[i].kind == TK_IDENT && hminmax2_call(c, i))
            return 1;
    return 0;
}

/* TYPE002 on #include <cuda_bf16.h>: a warning where the file calls a bf16 or half intrinsic
 * HIP lacks (TYPE003's calls above a note); otherwise translate's rename of the include and of
 * the types is all the file needs. */
static void bf16_include(rctx *c, ptrdiff_t i)
{
    if (rules_names_calls(c, RID_TYPE003) || hminmax2_calls(c))
        rules_report(c, RID_TYPE002, i, HP_SEV_WARNING, RF_ONCE,
                     "<cuda_bf16.h>: the file calls intrinsics HIP's <hip/hip_bf16.h> lacks "
                     "(TYPE003, where they are called); check each bf16 type and intrinsic "
                     "against it",
                     NULL);
    else
        rules_report(c, RID_TYPE002, i, HP_SEV_NOTE, RF_ONCE,
                     "<cuda_bf16.h>: the file calls none of the bf16 intrinsics HIP lacks; "
                     "translate maps the include to <hip/hip_bf16.h>",
                     NULL);
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

/* HIP's FP8 types: 1 for the FNUZ ones, 2 for the OCP ones, 0 for neither. */
static int hip_fp8(hp_str s)
{
    if (!RULES_STARTS(s, "__hip_fp8"))
        return 0;
    hp_str t = str_cut(s, 9, s.len);
    if (RULES_STARTS(t, "x2_") || RULES_STARTS(t, "x4_"))
        t = str_cut(t, 3, t.len);
    else if (RULES_STARTS(t, "_"))
        t = str_cut(t, 1, t.len);
    else
        return 0;
    if (RULES_EQ(t, "e4m3_fnuz") || RULES_EQ(t, "e5m2_fnuz"))
        return 1;
    if (RULES_EQ(t, "e4m3") || RULES_EQ(t, "e5m2"))
        return 2;
    return 0;
}

/* A HIP FP8 type of one format in device code. HIP 7's amd_hip_fp8.h gives the types of the
 * format a target lacks only host constructors and conversions in that target's device pass
 * (HIP_FP8_TYPE_FNUZ is 0 for gfx950 and gfx12, HIP_FP8_TYPE_OCP 0 for gfx942), so the kernel
 * does not compile for it; the one constructor left for the device (from short) takes a float
 * through short and traps at run time. */
static void hip_fp8_device(rctx *c, ptrdiff_t i, int fmt)
{
    const rules_cfg *g = c->cfg;
    if (!(rules_scope(c, i) & SC_DEVICE) || (fmt == 1 ? !g->fp8_ocp : !g->fp8_fnuz))
        return;
    hp_str s = rules_text(c, i);
    rules_report(c, RID_TYPE001, i, HP_SEV_ERROR, RF_ONCE,
                 rules_fmt(c, "'%.*s' in device code: HIP gives the %s FP8 types no device "
                              "conversions on %s, so this does not compile for them (\"no "
                              "matching constructor\", or a call to a __host__ function), or "
                              "compiles to a trap",
                           (int)s.len, s.s, fmt == 1 ? "FNUZ" : "OCP",
                           fmt == 1 ? "gfx950 and gfx12 (OCP targets)"
                                    : "gfx942 (a FNUZ target)"),
                 "pick the type per target: HIP_FP8_TYPE_FNUZ and HIP_FP8_TYPE_OCP "
                 "(hip/hip_fp8.h) say which the device pass has");
}

/* The identifiers the pass below acts on (rules_hot.c). */
unsigned rules_type_names(const rctx *c, hp_str s, int number)
{
    (void)c;
    if (number)
        return 0;
    if (hip_fp8(s))
        return RH_TYPE;
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
            else if (s.s[0] == '_' && hip_fp8(s) && !rules_member(c, i))
                hip_fp8_device(c, i, hip_fp8(s));
            else if ((RULES_EQ(s, "__half_raw") || RULES_EQ(s, "__half2_raw")) &&
                     !rules_member(c, i))
                type004(c, i);
            else if (s.s[0] == '_' && hminmax2_call(c, i))
                hminmax2(c, i);
        } else if ((k->kind == TK_HEADER || k->kind == TK_STRING) && (k->flags & TF_PP) &&
                   k->len >= 2) {
            hp_str path = str_make(c->src + k->off + 1, k->len - 2);
            ptrdiff_t h = rules_directive(c, i);
            if (h < 0 || c->t[h].sub != PP_INCLUDE)
                continue;
            if (RULES_EQ(path, "cuda_fp8.h"))
                fp8_include(c, i);
            else if (RULES_EQ(path, "cuda_bf16.h"))
                bf16_include(c, i);
        }
    }
}
