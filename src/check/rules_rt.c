/* rules_rt.c: RT003, exact runtime error codes whose HIP values or occasions changed in ROCm
 * 7.0, and ROCM005, a versioned HIP function looked up by name. RT001 and RT002 are plain
 * names (data/tables/rule_names.tsv). */
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

void rules_rt_run(rctx *c)
{
    for (ptrdiff_t hk = 0, i; (i = rules_hot_next(c, &hk, RH_STR)) >= 0;)
        if (c->t[i].kind == TK_STRING)
            rocm005(c, i);
    for (ptrdiff_t hk = 0, i; (i = rules_hot_next(c, &hk, RH_RT)) >= 0;) {
        if (c->t[i].kind != TK_IDENT || c->t[i].len < 12 || c->src[c->t[i].off] != 'c')
            continue;
        hp_str s = rules_text(c, i);
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
}
