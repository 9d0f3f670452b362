/* rules_rt.c: RT003, exact runtime error codes whose HIP values or occasions changed in ROCm
 * 7.0; ROCM005, a versioned HIP function looked up by name; ROCM007, a runtime-compiled
 * program that uses the fixed-width integer types hipRTC stopped declaring in ROCm 7.0. RT001
 * and RT002 are plain names (data/tables/rule_names.tsv), as is ROCM007's hipRTC library. */
#include <string.h>

#include "rules.h"
#include "str.h"

#include "banned.h"

static int changed_code(hp_str s)
{
    static const hp_str codes[] = {
        RULES_S("cudaErrorInvalidValue"), RULES_S("cudaErrorInvalidConfiguration"),
        RULES_S("cudaErrorInvalidResourceHandle"), RULES_S("cudaErrorInvalidDevicePointer"),
        RULES_S("cudaErrorLaunchOutOfResources"), RULES_S("cudaErrorInvalidDeviceFunction"),
        RULES_S("cudaErrorNoKernelImageForDevice"), RULES_S("cudaErrorIllegalAddress"),
        RULES_S("cudaErrorLaunchFailure"), RULES_S("cudaErrorInvalidPitchValue"),
        RULES_S("cudaErrorInvalidSymbol"), RULES_S("cudaErrorContextIsDestroyed")};
    return RULES_IN(s, codes);
}

/* The identifiers the pass below acts on (rules_hot.c). */
unsigned rules_rt_names(const rctx *c, hp_str s, int number)
{
    (void)c;
    if (number)
        return 0;
    if (RULES_EQ(s, "hiprtcCreateProgram") || RULES_EQ(s, "nvrtcCreateProgram"))
        return RH_RT;
    return s.len >= 12 && RULES_STARTS(s, "cudaError") && changed_code(s) ? RH_RT : 0;
}

/* ROCM005: "hipGetDeviceProperties" looked up by name (dlsym, hipGetProcAddress): since HIP
 * 6.0 the symbol of that name is the old ABI's, whose struct layout is not hipDeviceProp_t's. */
static void rocm005(rctx *c, ptrdiff_t i)
{
    hp_str s = rules_text(c, i);
    if (!RULES_EQ(s, "\"hipGetDeviceProperties\"") && !RULES_EQ(s, "\"hipGetDevicePropertiesR0000\""))
        return;
    if (c->t[i].flags & TF_PP)
        return;
    rules_report(c, RID_ROCM005, i, rules_sev_since(c, 600), 0,
                 "the symbol 'hipGetDeviceProperties' looked up by name is the HIP 5 ABI's since "
                 "HIP 6.0: it fills the old hipDeviceProp_t layout, so the fields read after it "
                 "are garbage",
                 NULL);
}

/* ROCM007: the fixed-width integer types a runtime-compiled program may use without declaring
 * them. Before ROCm 7.0 hipRTC's headers put them in the global namespace; from 7.0 they are
 * __hip_internal::uint32_t and the like, so a program source in string literals that uses
 * them fails in hiprtcCompileProgram with "unknown type name". */
static const char *const rtc_types[] = {"uint8_t", "uint16_t", "uint32_t", "uint64_t",
                                        "int8_t",  "int16_t",  "int32_t",  "int64_t"};
enum { NRTC = (int)(sizeof rtc_types / sizeof rtc_types[0]) };

static int word_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_';
}

/* Where the word w occurs in s (not inside a longer identifier), or -1. */
static ptrdiff_t find_word(hp_str s, const char *w)
{
    ptrdiff_t wl = (ptrdiff_t)strlen(w);
    for (ptrdiff_t k = 0; k + wl <= s.len; k++) {
        if (s.s[k] != w[0] || memcmp(s.s + k, w, (size_t)wl) != 0)
            continue;
        int before = k > 0 && word_char(s.s[k - 1]);
        int after = k + wl < s.len && word_char(s.s[k + wl]);
        if (!before && !after)
            return k;
    }
    return -1;
}

/* Does the program text declare the types itself (a typedef or alias of one, or a header
 * that has them)? */
static int declares_types(hp_str s)
{
    if (find_word(s, "typedef") >= 0 || find_word(s, "using") >= 0)
        for (int k = 0; k < NRTC; k++)
            if (find_word(s, rtc_types[k]) >= 0)
                return 1;
    return find_word(s, "stdint") >= 0 || find_word(s, "cstdint") >= 0 ||
           find_word(s, "hip_stdint") >= 0;
}

static void rocm007(rctx *c)
{
    /* the file's strings are its program: a type declared in one is declared for all */
    int used = 0;
    for (ptrdiff_t hk = 0, i; (i = rules_hot_next(c, &hk, RH_STR)) >= 0;) {
        if (c->t[i].kind != TK_STRING)
            continue;
        hp_str s = rules_text(c, i);
        if (declares_types(s))
            return;
        for (int k = 0; k < NRTC && !used; k++)
            used = find_word(s, rtc_types[k]) >= 0;
    }
    if (!used)
        return;
    unsigned seen = 0;
    for (ptrdiff_t hk = 0, i; (i = rules_hot_next(c, &hk, RH_STR)) >= 0;) {
        if (c->t[i].kind != TK_STRING || (c->t[i].flags & TF_PP) ||
            (rules_scope(c, i) & SC_GUARDED))
            continue;
        hp_str s = rules_text(c, i);
        for (int k = 0; k < NRTC; k++) {
            if ((seen & (1u << k)) || find_word(s, rtc_types[k]) < 0)
                continue;
            seen |= 1u << k;
            rules_report(c, RID_ROCM007, i, rules_sev_since(c, 700), 0,
                         rules_fmt(c, "this runtime-compiled program uses '%s', which hipRTC "
                                      "no longer declares from ROCm 7.0 (HIP moved it to "
                                      "namespace __hip_internal): hiprtcCompileProgram fails "
                                      "with \"unknown type name '%s'\"",
                                   rtc_types[k], rtc_types[k]),
                         NULL);
        }
    }
}

void rules_rt_run(rctx *c)
{
    int rtc = 0;
    for (ptrdiff_t hk = 0, i; (i = rules_hot_next(c, &hk, RH_RT)) >= 0;) {
        if (c->t[i].kind != TK_IDENT)
            continue;
        hp_str s = rules_text(c, i);
        if (s.s[0] != 'c') {
            rtc |= RULES_EQ(s, "hiprtcCreateProgram") || RULES_EQ(s, "nvrtcCreateProgram");
            continue;
        }
        if (s.len < 12)
            continue;
        if (!changed_code(s) || (rules_scope(c, i) & SC_GUARDED))
            continue;
        ptrdiff_t p = rules_prev(c, i), n = rules_next(c, i);
        int compared = rules_punct(c, p, P_EQ) || rules_punct(c, p, P_NE) ||
                       rules_punct(c, n, P_EQ) || rules_punct(c, n, P_NE) ||
                       (rules_is(c, p, "case") && rules_punct(c, n, ':'));
        if (!compared)
            continue;
        rules_report(c, RID_RT003, i, 0, 0,
                     rules_fmt(c, "the code depends on '%.*s' exactly: HIP returned other codes "
                                  "for several errors before ROCm 7.0 and aligned them with "
                                  "CUDA's then",
                               (int)s.len, s.s),
                     NULL);
    }
    for (ptrdiff_t hk = 0, i; (i = rules_hot_next(c, &hk, RH_STR)) >= 0;)
        if (c->t[i].kind == TK_STRING)
            rocm005(c, i);
    if (rtc && rules_on(c, RID_ROCM007))
        rocm007(c);
}
