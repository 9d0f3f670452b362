/* rules_arch.c: the ARCH rules: __CUDA_ARCH__ tests (ARCH001), compute-capability checks on
 * the host (ARCH002), device properties whose AMD values differ widely (ARCH003), and CUDA
 * compiler or version tests (ARCH004). */
#include <string.h>

#include "ppeval.h"
#include "rules.h"
#include "str.h"

#include "banned.h"

static int is_cuda_arch(hp_str s)
{
    return RULES_EQ(s, "__CUDA_ARCH__") || RULES_EQ(s, "__CUDA_ARCH_LIST__") ||
           RULES_EQ(s, "__CUDA_ARCH_SPECIFIC__") || RULES_EQ(s, "__CUDA_ARCH_FAMILY_SPECIFIC__") ||
           RULES_STARTS(s, "__CUDA_ARCH_FEAT_");
}

static int is_cuda_version(hp_str s)
{
    return RULES_EQ(s, "CUDA_VERSION") || RULES_EQ(s, "CUDART_VERSION") ||
           RULES_STARTS(s, "__CUDACC_VER_") || RULES_EQ(s, "__NVCC__") ||
           RULES_EQ(s, "__CUDACC__") || RULES_EQ(s, "__CUDACC_RDC__") ||
           RULES_EQ(s, "__CUDACC_EWP__") || RULES_EQ(s, "__CUDA_API_VERSION");
}

/* Is the macro name at i only tested for being defined? */
static int defined_test(const rctx *c, ptrdiff_t i, ptrdiff_t h)
{
    ptrdiff_t p = rules_prev(c, i);
    if (rules_is(c, p, "defined"))
        return 1;
    if (rules_punct(c, p, '(') && rules_is(c, rules_prev(c, p), "defined"))
        return 1;
    return h >= 0 && (c->t[h].sub == PP_IFDEF || c->t[h].sub == PP_IFNDEF ||
                      c->t[h].sub == PP_UNDEF || c->t[h].sub == PP_DEFINE);
}

static int is_compare(const rctx *c, ptrdiff_t i)
{
    if (i < 0 || i >= c->nt || c->t[i].kind != TK_PUNCT)
        return 0;
    unsigned s = c->t[i].sub;
    return s == '<' || s == '>' || s == P_LE || s == P_GE || s == P_EQ || s == P_NE;
}

/* ------------------------------------------------------------------ ARCH001, ARCH004 */

/* The index in c->dirs of the directive whose '#' is h, or -1. */
static ptrdiff_t dir_index(const rctx *c, ptrdiff_t h)
{
    ptrdiff_t lo = 0, hi = c->ndirs;
    while (lo < hi) {
        ptrdiff_t mid = lo + (hi - lo) / 2;
        if (c->dirs[mid] < h)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < c->ndirs && c->dirs[lo] == h ? lo : -1;
}

/* The next directive of the same #if chain after dirs[k] (#elif, #else or #endif), or -1. */
static ptrdiff_t chain_next(const rctx *c, ptrdiff_t k)
{
    int depth = 0;
    for (ptrdiff_t j = k + 1; j < c->ndirs; j++) {
        unsigned sub = c->t[c->dirs[j]].sub;
        if (sub == PP_IF || sub == PP_IFDEF || sub == PP_IFNDEF)
            depth++;
        else if (sub == PP_ENDIF && depth-- == 0)
            return j;
        else if ((sub == PP_ELIF || sub == PP_ELSE) && depth == 0)
            return j;
    }
    return -1;
}

/* The previous directive of the same #if chain before dirs[k] (#if, #ifdef, #ifndef or
 * #elif), or -1. */
static ptrdiff_t chain_prev(const rctx *c, ptrdiff_t k)
{
    int depth = 0;
    for (ptrdiff_t j = k - 1; j >= 0; j--) {
        unsigned sub = c->t[c->dirs[j]].sub;
        if (sub == PP_ENDIF)
            depth++;
        else if ((sub == PP_IF || sub == PP_IFDEF || sub == PP_IFNDEF) && depth-- == 0)
            return j;
        else if ((sub == PP_ELIF || sub == PP_ELSE) && depth == 0)
            return j;
    }
    return -1;
}

/* Is token i code: none of a directive's tokens, its end, the end of file or a comment? */
static int code_tok(const rctx *c, ptrdiff_t i)
{
    return !(c->t[i].flags & TF_PP) && c->t[i].kind != TK_PP_END && c->t[i].kind != TK_EOF &&
           c->t[i].kind != TK_COMMENT;
}

/* Does the branch after dirs[k] (to the chain's next directive) hold code or a #define,
 * #undef or #include, and no #error? */
static int branch_has_code(const rctx *c, ptrdiff_t k)
{
    ptrdiff_t e = chain_next(c, k);
    if (e < 0)
        return 0;
    int code = 0;
    for (ptrdiff_t j = k + 1; j < e; j++) {
        unsigned sub = c->t[c->dirs[j]].sub;
        if (sub == PP_ERROR)
            return 0;
        code |= sub == PP_DEFINE || sub == PP_UNDEF || sub == PP_INCLUDE;
    }
    for (ptrdiff_t i = c->dirs[k] + 1; !code && i < c->dirs[e]; i++)
        code = code_tok(c, i);
    return code;
}

/* Is the code at token i in a branch HIP-Clang certainly skips, since it defines neither
 * __CUDA_ARCH__ nor name ("#ifdef __CUDA_ARCH_LIST__ ... __CUDA_ARCH_LIST__ ...")? */
static int amd_skips(rctx *c, ptrdiff_t i, hp_str name)
{
    const char *u[2];
    u[0] = "-U__CUDA_ARCH__";
    u[1] = rules_fmt(c, "-U%.*s", (int)name.len, name.s);
    ppskip sk;
    ppeval_skip_init(&sk, c->a, u, 2);
    for (ptrdiff_t k = 0; k < c->ndirs && c->dirs[k] < i; k++)
        ppeval_skip_directive(&sk, c->src, c->t, c->nt, c->dirs[k]);
    return sk.skipping;
}

/* The condition of the directive at h as AMD's device pass sees it (rules_amd_env; CUDA's
 * other architecture and version macros undefined): 1 true, 0 false, -1 undecided (it tests
 * other macros too). */
static int amd_eval(rctx *c, ptrdiff_t h)
{
    ppenv env;
    rules_amd_env(c, 1, &env);
    for (ptrdiff_t j = rules_next(c, h); j < c->nt && c->t[j].kind != TK_PP_END;
         j = rules_next(c, j)) {
        if (c->t[j].kind != TK_IDENT)
            continue;
        hp_str s = rules_text(c, j);
        if ((is_cuda_arch(s) || is_cuda_version(s)) && !rules_shim(c, s) &&
            (c->hip_source ||
             !(RULES_EQ(s, "__CUDA_ARCH__") || RULES_EQ(s, "CUDA_VERSION") ||
               RULES_EQ(s, "CUDART_VERSION") || RULES_EQ(s, "__CUDACC__")))) {
            ppeval_env_set(&env, s, 0, 0, S(""));
            continue;
        }
        /* a number the file #defines once above, outside HIP tests: #define CC_TURING 750 */
        const rules_macro *m = is_cuda_arch(s) || is_cuda_version(s) ? NULL : rules_macro_get(c, s);
        if (m && m->ndefs == 1 && !m->funclike && !m->guarded && m->tok < h &&
            m->first == m->last && c->t[m->first].kind == TK_NUMBER)
            ppeval_env_set(&env, s, 1, 0, rules_text(c, m->first));
    }
    return ppeval_directive(&env, c->src, c->t, c->nt, h);
}

/* Is the macro at token i (__CUDA_ARCH__, CUDA_VERSION, CUDART_VERSION) in a comparison that
 * translate decides in a CUDA source, "NAME OP NUMBER" alone between operators: every HIP has
 * the CUDA 10 runtime's API (>= N for N up to 10000 holds, < N fails) and every AMD GPU what
 * sm_30 added (__CUDA_ARCH__ >= N for N up to 300 is __HIP_DEVICE_COMPILE__)? 1 where
 * translate writes true, -1 false, 0 when it leaves the comparison. */
static int translate_decides(rctx *c, ptrdiff_t i, ptrdiff_t h)
{
    if (c->hip_source)
        return 0;
    hp_str name = rules_text(c, i);
    int arch = RULES_EQ(name, "__CUDA_ARCH__");
    if (!arch && !RULES_EQ(name, "CUDA_VERSION") && !RULES_EQ(name, "CUDART_VERSION"))
        return 0;
    ptrdiff_t pv = rules_prev(c, i), op = rules_next(c, i), num = rules_next(c, op),
              after = rules_next(c, num);
    if (op >= c->nt || num >= c->nt || c->t[num].kind != TK_NUMBER)
        return 0;
    /* alone: after the directive's name, '(', '!', && or ||; before ')', && , || or the end */
    if (!(pv == rules_next(c, h) || rules_punct(c, pv, '(') || rules_punct(c, pv, '!') ||
          RULES_EQ(rules_text(c, pv), "&&") || RULES_EQ(rules_text(c, pv), "||")))
        return 0;
    if (!(after >= c->nt || c->t[after].kind == TK_PP_END || rules_punct(c, after, ')') ||
          RULES_EQ(rules_text(c, after), "&&") || RULES_EQ(rules_text(c, after), "||")))
        return 0;
    hp_str d = rules_text(c, num);
    long long n = 0;
    for (ptrdiff_t k = 0; k < d.len; k++) {
        if (d.s[k] < '0' || d.s[k] > '9' || n > 1000000)
            return 0;
        n = n * 10 + (d.s[k] - '0');
    }
    long long floor = arch ? 300 : 10000;
    hp_str o = rules_text(c, op);
    if ((RULES_EQ(o, ">=") && n <= floor) || (RULES_EQ(o, ">") && n < floor))
        return 1;
    if ((RULES_EQ(o, "<") && n <= floor) || (RULES_EQ(o, "<=") && n < floor))
        return -1;
    return 0;
}

/* Does no branch of the #if chain that the directive at '#' h opens or continues hold code
 * (comments only)? */
static int chain_empty(const rctx *c, ptrdiff_t h)
{
    ptrdiff_t k = dir_index(c, h);
    if (k < 0)
        return 0;
    for (ptrdiff_t j = chain_prev(c, k); j >= 0; j = chain_prev(c, j)) {
        k = j;
        unsigned sub = c->t[c->dirs[j]].sub;
        if (sub == PP_IF || sub == PP_IFDEF || sub == PP_IFNDEF)
            break;
    }
    for (; k >= 0 && c->t[c->dirs[k]].sub != PP_ENDIF; k = chain_next(c, k)) {
        ptrdiff_t e = chain_next(c, k);
        if (e < 0 || e != k + 1) /* a directive inside: not empty */
            return 0;
        if (branch_has_code(c, k))
            return 0;
    }
    return k >= 0;
}

/* Is the branch after dirs[k] one whose absence is a fallback: only #defines (a feature flag,
 * #define TURING_MMA_AVAILABLE, that code elsewhere tests), or explicit specializations
 * (template <> ...: without them the generic template serves)? */
static int branch_optional(const rctx *c, ptrdiff_t k)
{
    ptrdiff_t e = chain_next(c, k);
    if (e < 0)
        return 0;
    int defs = 0;
    for (ptrdiff_t j = k + 1; j < e; j++) {
        unsigned sub = c->t[c->dirs[j]].sub;
        if (sub != PP_DEFINE && sub != PP_UNDEF)
            return 0; /* nested conditionals, includes, #error */
        defs++;
    }
    ptrdiff_t first = -1;
    for (ptrdiff_t i = c->dirs[k] + 1; i < c->dirs[e] && first < 0; i++)
        if (code_tok(c, i))
            first = i;
    if (first < 0)
        return defs > 0;
    ptrdiff_t lt = rules_next(c, first);
    return !defs && rules_is(c, first, "template") && rules_punct(c, lt, '<') &&
           rules_punct(c, rules_next(c, lt), '>');
}

/* Is the branch after dirs[k] a stub that stops the kernel: a short one (a few statements)
 * that calls a trap (__trap, __builtin_trap, a function named for one: trap_unsupported_arch)
 * or abort? */
static int branch_traps(const rctx *c, ptrdiff_t k)
{
    ptrdiff_t e = k >= 0 ? chain_next(c, k) : -1;
    if (e < 0)
        return 0;
    int n = 0, trap = 0;
    for (ptrdiff_t i = c->dirs[k] + 1; i < c->dirs[e]; i++) {
        if (!code_tok(c, i))
            continue;
        if (++n > 24)
            return 0;
        if (c->t[i].kind == TK_IDENT) {
            hp_str s = rules_text(c, i);
            trap |= str_find_nocase(s, S("trap")) >= 0 || RULES_EQ(s, "abort");
        }
    }
    return trap;
}

static int tests_arch_value(rctx *c, ptrdiff_t h);

/* Where the #if or #elif at '#' h sends HIP-Clang, which defines none of CUDA's architecture
 * macros: 1 into a branch that holds code (the condition's own, or the #else after it), 0 into
 * an empty one, #error or past the chain, -1 when that depends on macros check does not know. */
static int amd_lands_in_code(rctx *c, ptrdiff_t h)
{
    if (c->t[h].sub != PP_IF && c->t[h].sub != PP_IFDEF && c->t[h].sub != PP_IFNDEF &&
        c->t[h].sub != PP_ELIF)
        return -1;
    ptrdiff_t k = dir_index(c, h);
    if (k < 0)
        return -1;
    int v = amd_eval(c, h);
    if (v < 0)
        return -1;
    if (v == 1)
        return branch_has_code(c, k) && !branch_traps(c, k);
    ptrdiff_t n = chain_next(c, k);
    if (n < 0)
        return -1;
    if (c->t[c->dirs[n]].sub == PP_ENDIF)
        return branch_optional(c, k);
    if (c->t[c->dirs[n]].sub == PP_ELSE)
        return branch_has_code(c, n);
    /* an #elif: its own test decides, when it tests only the architecture macros too */
    return tests_arch_value(c, c->dirs[n]) ? amd_lands_in_code(c, c->dirs[n]) : -1;
}

/* Does the condition of the directive at '#' h test the value of a CUDA architecture macro
 * (outside defined())? */
static int tests_arch_value(rctx *c, ptrdiff_t h)
{
    for (ptrdiff_t j = rules_next(c, h); j < c->nt && c->t[j].kind != TK_PP_END;
         j = rules_next(c, j))
        if (c->t[j].kind == TK_IDENT && is_cuda_arch(rules_text(c, j)) && !defined_test(c, j, h))
            return 1;
    return 0;
}

/* Is the #elif at '#' h in a chain whose earlier branch already tests an architecture's value
 * and that ends in an #else with code (where AMD lands whatever the #elif says)? One finding,
 * on the first test, is the chain's. */
static int chain_reported(rctx *c, ptrdiff_t h)
{
    ptrdiff_t k = dir_index(c, h);
    if (k < 0 || c->t[h].sub != PP_ELIF)
        return 0;
    int earlier = 0;
    for (ptrdiff_t j = chain_prev(c, k); j >= 0 && !earlier; j = chain_prev(c, j)) {
        earlier = tests_arch_value(c, c->dirs[j]);
        unsigned sub = c->t[c->dirs[j]].sub;
        if (sub != PP_ELIF)
            break;
    }
    if (!earlier)
        return 0;
    ptrdiff_t e = k;
    while ((e = chain_next(c, e)) >= 0 && c->t[c->dirs[e]].sub == PP_ELIF)
        ;
    return e >= 0 && c->t[c->dirs[e]].sub == PP_ELSE && branch_has_code(c, e);
}

/* Does the condition at '#' h start with "defined(__CUDA_ARCH__) &&" (so that it is false on
 * AMD whatever follows)? */
static int arch_conjunction(rctx *c, ptrdiff_t h)
{
    ptrdiff_t j = rules_next(c, rules_next(c, h)); /* past '#' and the directive's name */
    if (j >= c->nt || !RULES_EQ(rules_text(c, j), "defined"))
        return 0;
    j = rules_next(c, j);
    int paren = rules_punct(c, j, '(');
    if (paren)
        j = rules_next(c, j);
    if (j >= c->nt || !RULES_EQ(rules_text(c, j), "__CUDA_ARCH__"))
        return 0;
    j = rules_next(c, j);
    if (paren) {
        if (!rules_punct(c, j, ')'))
            return 0;
        j = rules_next(c, j);
    }
    return j < c->nt && RULES_EQ(rules_text(c, j), "&&");
}

/* The condition of the directive at h with every CUDA architecture macro undefined, as on
 * AMD: 1 true, 0 false, -1 undecided (it tests other macros too). */
static int arch_eval(rctx *c, ptrdiff_t h)
{
    return amd_eval(c, h);
}

/* Where AMD goes for the test of __CUDA_ARCH__'s value at token v of the directive at h. */
static const char *arch_branch(rctx *c, ptrdiff_t h, ptrdiff_t v)
{
    int own = arch_eval(c, h);
    ptrdiff_t op = rules_next(c, v);
    hp_str o = op < c->nt ? rules_text(c, op) : S("");
    int older = RULES_EQ(o, "<") || RULES_EQ(o, "<="); /* this branch is for older GPUs */
    int newer = RULES_EQ(o, ">") || RULES_EQ(o, ">=");
    if (own < 0 || (!older && !newer))
        return "this tests the value of __CUDA_ARCH__, which HIP-Clang does not define: AMD "
               "takes the branch for older NVIDIA GPUs";
    if (own == 1)
        return older ? "this tests the value of __CUDA_ARCH__, which HIP-Clang does not "
                       "define: AMD takes this branch, the one for older NVIDIA GPUs"
                     : "this tests the value of __CUDA_ARCH__, which HIP-Clang does not "
                       "define: AMD takes this branch, the one for newer NVIDIA GPUs";
    return older ? "this tests the value of __CUDA_ARCH__, which HIP-Clang does not define: AMD "
                   "takes the other branch, the one for newer NVIDIA GPUs"
                 : "this tests the value of __CUDA_ARCH__, which HIP-Clang does not define: AMD "
                   "takes the other branch, the one for older NVIDIA GPUs";
}

/* The message for a test of the CUDA version macro s in the directive at h. HIP-Clang defines
 * none of them, so each counts as 0 (defined() is false): with every one undefined, the
 * condition decides where AMD goes. CUDART_VERSION < 13000 holds there, so AMD takes this
 * branch; CUDA_VERSION >= 11000 fails, so AMD takes the other. */
static const char *ver_branch(rctx *c, ptrdiff_t h, hp_str s)
{
    int own = amd_eval(c, h);
    if (own == 1)
        return rules_fmt(c, "'%.*s' is not defined by HIP-Clang, so the test holds there: AMD "
                            "takes this branch; HIP's version numbers do not follow CUDA's",
                         (int)s.len, s.s);
    if (own == 0)
        return rules_fmt(c, "'%.*s' is not defined by HIP-Clang, so the test fails there: AMD "
                            "takes the other branch; HIP's version numbers do not follow CUDA's",
                         (int)s.len, s.s);
    return rules_fmt(c, "'%.*s' is not defined by HIP-Clang, so the test reads it as 0 there (no "
                        "CUDA at all); HIP's version numbers do not follow CUDA's",
                     (int)s.len, s.s);
}

/* ------------------------------------------------------------------ where AMD lands */

struct rules_landing {
    int idx;          /* the finding, in c->d */
    ptrdiff_t k;      /* the directive whose branch AMD takes (dirs index) */
};

/* The directive of the chain through '#' h whose branch AMD's device pass takes (an #if or
 * #elif that holds, or the #else), as a dirs index; -1 when it takes none or check cannot
 * tell. */
static ptrdiff_t landing(rctx *c, ptrdiff_t h)
{
    ptrdiff_t k = dir_index(c, h);
    for (int guard = 0; k >= 0 && guard < 64; guard++) {
        unsigned sub = c->t[c->dirs[k]].sub;
        if (sub == PP_ENDIF)
            return -1;
        if (sub == PP_ELSE)
            return k;
        int v = amd_eval(c, c->dirs[k]);
        if (v < 0)
            return -1;
        if (v == 1)
            return k;
        k = chain_next(c, k);
    }
    return -1;
}

/* Records the warning that the report just before added (if it added one) with the branch
 * AMD takes, for rules_arch_settle. */
static void note_landing(rctx *c, ptrdiff_t h, int before)
{
    if (c->d.n != before + 1 || c->d.v[before].severity != HP_SEV_WARNING)
        return;
    ptrdiff_t k = landing(c, h);
    if (k < 0 || !branch_has_code(c, k))
        return;
    if (c->nland == c->capland) {
        int nc = c->capland ? 2 * c->capland : 16;
        struct rules_landing *nv =
            arena_grow(c->a, c->land, (ptrdiff_t)c->capland * (ptrdiff_t)sizeof *nv,
                       (ptrdiff_t)nc * (ptrdiff_t)sizeof *nv, _Alignof(struct rules_landing));
        if (!nv)
            return;
        c->land = nv;
        c->capland = nc;
    }
    c->land[c->nland].idx = before;
    c->land[c->nland].k = k;
    c->nland++;
}

/* Does the branch after dirs[k] stop something: a trap or abort (branch_traps), an assertion
 * of false (assert(false), assert(0), ASSERT(false, ...), TORCH_CHECK(false, ...)), a throw, an
 * #error, or a definition of a function named like a device builtin (atomic..., __...), which
 * collides with HIP's own? */
static int branch_stops(const rctx *c, ptrdiff_t k)
{
    ptrdiff_t e = chain_next(c, k);
    if (e < 0)
        return 1;
    for (ptrdiff_t j = k + 1; j < e; j++)
        if (c->t[c->dirs[j]].sub == PP_ERROR)
            return 1;
    for (ptrdiff_t i = c->dirs[k] + 1; i < c->dirs[e]; i++) {
        if (c->t[i].kind != TK_IDENT)
            continue;
        hp_str s = rules_text(c, i);
        if (str_find_nocase(s, S("trap")) >= 0 || RULES_EQ(s, "abort") || RULES_EQ(s, "throw") ||
            RULES_EQ(s, "exit"))
            return 1;
        /* a definition of a device function HIP has (atomicAdd on double, __hmax_nan): the
         * redefinition does not compile */
        if ((RULES_STARTS(s, "atomic") || RULES_STARTS(s, "__")) &&
            rules_punct(c, rules_next(c, i), '(')) {
            ptrdiff_t close = rules_match(c, rules_next(c, i));
            ptrdiff_t after = close >= 0 ? rules_next(c, close) : -1;
            ptrdiff_t before = rules_prev(c, i);
            if (after >= 0 && rules_punct(c, after, '{') && before >= 0 &&
                (c->t[before].kind == TK_IDENT || rules_punct(c, before, '*')))
                return 1;
        }
        if ((str_find_nocase(s, S("assert")) >= 0 || str_find_nocase(s, S("check")) >= 0) &&
            rules_punct(c, rules_next(c, i), '(')) {
            ptrdiff_t open = rules_next(c, i), close = rules_match(c, open);
            ptrdiff_t a = rules_next(c, open);
            if (a < c->nt && c->t[a].kind == TK_NUMBER && RULES_EQ(rules_text(c, a), "0"))
                return 1;
            /* assert(false), ASSERT(false, "..."), assert(("msg", false)) */
            for (ptrdiff_t q = a; close > 0 && q < close && q >= 0; q = rules_next(c, q))
                if (rules_is(c, q, "false"))
                    return 1;
        }
    }
    return 0;
}

void rules_arch_settle(rctx *c)
{
    if (!c->nland)
        return;
    /* per line, how many errors and warnings the lines before it hold (each landing is then
     * one subtraction: linear in the findings and lines) */
    int maxl = 0;
    for (int j = 0; j < c->d.n; j++)
        maxl = c->d.v[j].line > maxl ? c->d.v[j].line : maxl;
    int32_t *upto = NEW(c->a, int32_t, (ptrdiff_t)maxl + 2);
    int32_t *ptx = NEW(c->a, int32_t, (ptrdiff_t)maxl + 2); /* ... of them inline PTX */
    if (!upto || !ptx)
        return;
    for (int j = 0; j < c->d.n; j++)
        if (c->d.v[j].severity >= HP_SEV_WARNING && c->d.v[j].line >= 0) {
            upto[c->d.v[j].line + 1]++;
            ptx[c->d.v[j].line + 1] += strcmp(c->d.v[j].rule, RID_ASM001) == 0 ||
                                       strcmp(c->d.v[j].rule, RID_ASM002) == 0;
        }
    for (int l = 1; l <= maxl + 1; l++) {
        upto[l] += upto[l - 1];
        ptx[l] += ptx[l - 1];
    }
    for (int q = 0; q < c->nland; q++) {
        hp_finding *f = &c->d.v[c->land[q].idx];
        ptrdiff_t k = c->land[q].k, e = chain_next(c, k);
        if (f->severity != HP_SEV_WARNING || e < 0 || branch_stops(c, k))
            continue;
        int lb, le, col;
        diag_linecol(&c->d, c->t[c->dirs[k]].off, &lb, &col);
        diag_linecol(&c->d, c->t[c->dirs[e]].off, &le, &col);
        /* the errors and warnings on lines lb+1 .. le-1, the landing's own aside */
        int a = lb + 1 > maxl + 1 ? maxl + 1 : lb + 1, b = le > maxl + 1 ? maxl + 1 : le;
        int other = b > a ? upto[b] - upto[a] : 0;
        int asm_only = b > a ? ptx[b] - ptx[a] : 0;
        if (f->line > lb && f->line < le)
            other--;
        if (other > 0 && other == asm_only) {
            /* the branch AMD takes is inline PTX, reported where it is: that is the work */
            f->severity = HP_SEV_NOTE;
            f->message = rules_fmt(c, "%s; the code AMD takes there is inline PTX, reported "
                                      "where it is",
                                   f->message);
            continue;
        }
        if (other > 0)
            continue;
        f->severity = HP_SEV_NOTE;
        f->message = rules_fmt(c, "%s; check finds nothing in the code AMD takes there that HIP "
                                  "does not build or run",
                               f->message);
    }
}

static void directive(rctx *c, ptrdiff_t h)
{
    if (c->t[h].sub == PP_DEFINE || c->t[h].sub == PP_UNDEF || c->t[h].sub == PP_INCLUDE ||
        c->t[h].sub == PP_PRAGMA || c->t[h].sub == PP_ERROR || c->t[h].sub == PP_LINE)
        return;
    if ((rules_scope(c, h) & SC_GUARDED) || rules_directive_amd(c, h))
        return;
    ptrdiff_t arch_def = -1, arch_val = -1, ver_def = -1, ver_val = -1;
    for (ptrdiff_t j = rules_next(c, h); j < c->nt && c->t[j].kind != TK_PP_END;
         j = rules_next(c, j)) {
        if (c->t[j].kind != TK_IDENT)
            continue;
        hp_str s = rules_text(c, j);
        if (is_cuda_arch(s)) {
            if (defined_test(c, j, h) && RULES_EQ(s, "__CUDA_ARCH__")) {
                if (arch_def < 0)
                    arch_def = j;
            } else if (arch_val < 0 && !translate_decides(c, j, h)) {
                arch_val = j;
            }
        } else if (is_cuda_version(s)) {
            if (defined_test(c, j, h) &&
                (RULES_EQ(s, "__CUDACC__") || RULES_EQ(s, "__NVCC__") ||
                 RULES_EQ(s, "CUDA_VERSION") || RULES_EQ(s, "CUDART_VERSION"))) {
                if (ver_def < 0)
                    ver_def = j;
            } else if (ver_val < 0) {
                ver_val = j;
            }
        }
    }
    /* A HIP shim of the tree that defines __CUDA_ARCH__ (to a level its AMD build meets)
     * decides these tests on AMD itself. */
    if (arch_val >= 0 && rules_shim(c, rules_text(c, arch_val)))
        arch_val = arch_def = -1;
    if (arch_def >= 0 && rules_shim(c, rules_text(c, arch_def)))
        arch_def = -1;
    if (arch_val >= 0 && chain_reported(c, h))
        arch_val = -1;
    /* defined(__CUDA_ARCH__) && ...: in a HIP source false on AMD whatever CUDA version it
     * also tests (in a CUDA source translate makes it the device pass's test) */
    if (ver_val >= 0 && c->hip_source && arch_conjunction(c, h))
        ver_val = -1;
    /* a comparison translate decides beside an architecture test: the ARCH001 finding is the
     * line's */
    if (ver_val >= 0 && arch_val >= 0 && translate_decides(c, ver_val, h))
        ver_val = -1;
    if (arch_val >= 0) {
        hp_str s = rules_text(c, arch_val);
        /* AMD lands in code of the chain (mostly the fallback for older NVIDIA GPUs): it
         * builds and runs, maybe slower or without a feature; an error only when it lands in
         * nothing, an #error, or where check cannot tell. */
        int code = amd_lands_in_code(c, h) == 1;
        int own = arch_eval(c, h);
        if (chain_empty(c, h)) { /* comments only: whichever branch AMD takes, no code */
            rules_report(c, RID_ARCH001, arch_val, HP_SEV_NOTE, 0,
                         "this tests an architecture macro HIP-Clang does not define, but no "
                         "branch of the test holds code",
                         NULL);
            return;
        }
        const char *where = own == 1 ? "the test holds there and AMD silently takes this branch"
                                     : "the test silently takes the other branch";
        int before = c->d.n;
        rules_report(c, RID_ARCH001, arch_val, code ? HP_SEV_WARNING : 0, 0,
                     RULES_EQ(s, "__CUDA_ARCH__")
                         ? code ? arch_branch(c, h, arch_val)
                                : rules_fmt(c, "this tests the value of __CUDA_ARCH__, which "
                                               "HIP-Clang does not define: %s",
                                            own == 1 && branch_traps(c, dir_index(c, h))
                                                ? "on AMD's device pass the condition holds "
                                                  "and this branch, a stub that stops the "
                                                  "kernel, is taken"
                                            : own == 1 ? "the condition holds there and AMD "
                                                         "silently takes this branch"
                                            : own == 0 ? "the condition silently takes the "
                                                         "other branch"
                                                       : "where AMD goes depends on other "
                                                         "macros the condition tests")
                         : rules_fmt(c, "'%.*s' is not defined by HIP-Clang: %s", (int)s.len, s.s,
                                     where),
                     NULL);
        if (code)
            note_landing(c, h, before);
    } else if (arch_def >= 0) {
        rules_report(c, RID_ARCH001, arch_def, HP_SEV_NOTE, 0,
                     c->hip_source
                         ? "__CUDA_ARCH__ is not defined by HIP-Clang, and translate leaves "
                           "this HIP source alone: the test fails on AMD's device pass too"
                         : "__CUDA_ARCH__ is not defined by HIP-Clang; as a device-pass test it "
                           "becomes __HIP_DEVICE_COMPILE__ (hipport translate rewrites it)",
                     "test __HIP_DEVICE_COMPILE__ for the device pass");
    }
    if (ver_val >= 0) {
        hp_str s = rules_text(c, ver_val);
        int own = amd_eval(c, h), holds = translate_decides(c, ver_val, h);
        int before = c->d.n;
        rules_report(c, RID_ARCH004, ver_val, 0, 0,
                     holds && own >= 0
                         ? rules_fmt(c,
                                     "'%.*s' is not defined by HIP-Clang; hipport translate "
                                     "decides this comparison as %s (HIP has at least the CUDA "
                                     "10 runtime's API), and AMD takes %s branch; HIP lacks "
                                     "some device features CUDA had by then (half-precision "
                                     "shuffles, the *_sync forms before HIP 7)",
                                     (int)s.len, s.s, holds > 0 ? "true" : "false",
                                     own ? "this" : "the other")
                         : ver_branch(c, h, s),
                     NULL);
        note_landing(c, h, before);
    } else if (ver_def >= 0 && !c->hip_source &&
               (RULES_EQ(rules_text(c, ver_def), "CUDA_VERSION") ||
                RULES_EQ(rules_text(c, ver_def), "CUDART_VERSION") ||
                RULES_EQ(rules_text(c, ver_def), "__CUDACC__"))) {
        hp_str s = rules_text(c, ver_def);
        int own = amd_eval(c, h);
        rules_report(c, RID_ARCH004, ver_def, HP_SEV_NOTE, 0,
                     rules_fmt(c, "'%.*s' is not defined by HIP-Clang; hipport translate tests "
                                  "%s instead, which HIP defines%s",
                               (int)s.len, s.s,
                               RULES_EQ(s, "__CUDACC__") ? "__HIPCC__" : "HIP_VERSION",
                               own == 1   ? ", so AMD takes this branch"
                               : own == 0 ? ", so AMD takes the other branch"
                                          : ""),
                     NULL);
    } else if (ver_def >= 0) {
        hp_str s = rules_text(c, ver_def);
        rules_report(c, RID_ARCH004, ver_def, HP_SEV_NOTE, 0,
                     rules_fmt(c, "'%.*s' is not defined by HIP-Clang: code under this test "
                                  "disappears unless HIP gets its own branch",
                               (int)s.len, s.s),
                     NULL);
    }
}

/* ------------------------------------------------------------------ ARCH002 */

static int prop_object(const rctx *c, ptrdiff_t obj)
{
    if (rules_punct(c, obj, ']')) {
        ptrdiff_t m = rules_match_back(c, obj);
        obj = m >= 0 ? rules_prev(c, m) : -1;
    }
    if (!rules_ident(c, obj))
        return 0;
    hp_str s = rules_text(c, obj);
    if (rules_name_has(s, "prop"))
        return 1;
    rules_decl d;
    if (!rules_decl_find(c, obj, &d) || d.type_first < 0)
        return 0;
    for (ptrdiff_t k = d.type_first; k < d.name; k = rules_next(c, k))
        if (rules_is(c, k, "cudaDeviceProp") || rules_is(c, k, "hipDeviceProp_t"))
            return 1;
    return 0;
}

/* Is the token at i 'major' compared with a number ("major >= 9" with n the operator after it,
 * or "9 <= major" with p the operator before 'obj.')? The operator as "major OP N" reads it
 * in *o (N < major is major > N), N in *v. */
static int major_compare(const rctx *c, ptrdiff_t i, ptrdiff_t n, ptrdiff_t p, unsigned *o,
                         unsigned long long *v)
{
    if (!rules_is(c, i, "major"))
        return 0;
    ptrdiff_t op = -1, num = -1;
    int reversed = 0;
    if (is_compare(c, n) && rules_next(c, n) < c->nt && c->t[rules_next(c, n)].kind == TK_NUMBER) {
        op = n;
        num = rules_next(c, n);
    } else if (is_compare(c, p) && rules_prev(c, p) >= 0 &&
               c->t[rules_prev(c, p)].kind == TK_NUMBER) {
        op = p;
        num = rules_prev(c, p);
        reversed = 1;
    }
    int bits;
    if (op < 0 || !lex_int_literal(rules_text(c, num), v, &bits))
        return 0;
    unsigned x = c->t[op].sub;
    if (reversed)
        x = x == '<' ? '>' : x == '>' ? '<' : x == P_LE ? P_GE : x == P_GE ? P_LE : x;
    *o = x;
    return 1;
}

/* Does the comparison of 'major' at i (n the token after it, p the one before 'obj.') come out
 * the same on every GPU current toolchains build for: NVIDIA's from compute capability 5.0 (CUDA
 * 12's oldest) and AMD's, whose major is at least 9? Then it picks no path of its own on AMD
 * ("major >= 2", a Fermi test). */
static int same_everywhere(const rctx *c, ptrdiff_t i, ptrdiff_t n, ptrdiff_t p)
{
    unsigned o;
    unsigned long long v;
    if (!major_compare(c, i, n, p, &o, &v))
        return 0;
    switch (o) {
    case P_GE: /* true everywhere, or false everywhere (<) */
    case '<':
        return v <= 5;
    case '>':
    case P_LE:
    case P_EQ:
    case P_NE:
        return v < 5;
    default:
        return 0;
    }
}

static int cmp_holds(unsigned o, long long a, long long b)
{
    switch (o) {
    case '<':
        return a < b;
    case '>':
        return a > b;
    case P_LE:
        return a <= b;
    case P_GE:
        return a >= b;
    case P_EQ:
        return a == b;
    case P_NE:
        return a != b;
    default:
        return -1;
    }
}

/* Does "major OP N" (at i, with n after and p before it) come out on every target as on an
 * sm_80 (Ampere) GPU? HIP's major is the gfx major: 9 for gfx908-gfx950, 11 for gfx1100. Then
 * AMD takes the path the code has for an Ampere-class GPU, not a Hopper or Blackwell one. */
static int like_ampere(const rctx *c, ptrdiff_t i, ptrdiff_t n, ptrdiff_t p)
{
    unsigned o;
    unsigned long long v;
    if (!c->cfg->targets || !major_compare(c, i, n, p, &o, &v) || v > 100)
        return 0;
    int want = cmp_holds(o, 8, (long long)v), seen = 0;
    if (want < 0)
        return 0;
    hp_str rest = str_cstr(c->cfg->targets);
    while (rest.len > 0) {
        ptrdiff_t comma = str_chr(rest, ',');
        hp_str t = comma >= 0 ? str_cut(rest, 0, comma) : rest;
        rest = comma >= 0 ? str_cut(rest, comma + 1, rest.len) : str_cut(rest, rest.len, rest.len);
        ptrdiff_t d = 3;
        long long num_v = 0;
        if (!RULES_STARTS(t, "gfx"))
            return 0;
        while (d < t.len && ((t.s[d] >= '0' && t.s[d] <= '9') || (t.s[d] >= 'a' && t.s[d] <= 'f')))
            d++;
        if (d - 3 < 3)
            return 0;
        for (ptrdiff_t k = 3; k < d - 2; k++) {
            if (t.s[k] < '0' || t.s[k] > '9')
                return 0;
            num_v = num_v * 10 + (t.s[k] - '0');
        }
        if (cmp_holds(o, num_v, (long long)v) != want)
            return 0;
        seen = 1;
    }
    return seen;
}

static void arch002_member(rctx *c, ptrdiff_t i)
{
    if (rules_scope(c, i) & (SC_GUARDED | SC_DEVICE))
        return;
    if (!prop_object(c, rules_prev(c, rules_prev(c, i))))
        return;
    ptrdiff_t n = rules_next(c, i), p = rules_prev(c, rules_prev(c, rules_prev(c, i)));
    int hit = 0;
    if ((is_compare(c, n) || rules_punct(c, n, '*')) &&
        rules_next(c, n) < c->nt && c->t[rules_next(c, n)].kind == TK_NUMBER)
        hit = 1;
    if (is_compare(c, p) && rules_prev(c, p) >= 0 && c->t[rules_prev(c, p)].kind == TK_NUMBER)
        hit = 1;
    if (!hit || same_everywhere(c, i, n, p))
        return;
    if (like_ampere(c, i, n, p)) {
        rules_report(c, RID_ARCH002, i, HP_SEV_NOTE, 0,
                     "compares the compute capability with a number; on AMD major.minor is the "
                     "gfx version (gfx942: 9.4): on the targets the test goes as on an sm_80 "
                     "GPU, so AMD takes the path written for Ampere",
                     NULL);
        return;
    }
    rules_report(c, RID_ARCH002, i, 0, 0,
                 "compares the compute capability with a number; on AMD major.minor is the "
                 "gfx version (gfx90a: 9.0, gfx942: 9.4, gfx1100: 11.0), so NVIDIA feature "
                 "thresholds pick the wrong path",
                 NULL);
}

static int sm_string(hp_str lit)
{
    /* "sm_80", "sm_90a", "compute_80", or an option ending in one: "-arch=sm_80" */
    if (lit.len < 7 || lit.s[0] != '"')
        return 0;
    hp_str body = str_cut(lit, 1, lit.len - 1);
    ptrdiff_t eq = str_chr(body, '=');
    if (eq >= 0)
        body = str_cut(body, eq + 1, body.len);
    hp_str digits;
    if (RULES_STARTS(body, "sm_"))
        digits = str_cut(body, 3, body.len);
    else if (RULES_STARTS(body, "compute_"))
        digits = str_cut(body, 8, body.len);
    else
        return 0;
    ptrdiff_t d = 0;
    while (d < digits.len && digits.s[d] >= '0' && digits.s[d] <= '9')
        d++;
    if (d < 2 || d > 3)
        return 0;
    return d == digits.len || (d + 1 == digits.len && digits.s[d] >= 'a' && digits.s[d] <= 'z');
}

/* ------------------------------------------------------------------ ARCH003 */

static const hp_str props[] = {
    RULES_S("multiProcessorCount"), RULES_S("maxThreadsPerMultiProcessor"),
    RULES_S("maxBlocksPerMultiProcessor"), RULES_S("sharedMemPerBlockOptin"),
    RULES_S("sharedMemPerMultiprocessor"), RULES_S("regsPerBlock"),
    RULES_S("regsPerMultiprocessor"), RULES_S("l2CacheSize"), RULES_S("totalConstMem"),
    RULES_S("clockRate"), RULES_S("memoryClockRate"), RULES_S("persistingL2CacheMaxSize"),
    RULES_S("accessPolicyMaxWindowSize"), RULES_S("reservedSharedMemPerBlock")};

static const char *prop_why(hp_str s)
{
    if (RULES_EQ(s, "multiProcessorCount"))
        return "AMD GPUs have many more CUs (MI300X: 304, MI250X: 2 x 110) than SM-tuned "
               "heuristics expect";
    if (RULES_STARTS(s, "maxThreads") || RULES_EQ(s, "maxBlocksPerMultiProcessor"))
        return "a CU holds 2048 threads in 32 wavefronts of 64 on CDNA; occupancy math for "
               "32-thread warps does not carry over";
    if (RULES_STARTS(s, "sharedMem") || RULES_STARTS(s, "reservedShared"))
        return "LDS is 64 KiB per workgroup (160 KiB on gfx950) and has no opt-in carveout";
    if (RULES_STARTS(s, "regs"))
        return "register files are per SIMD and counted per wavefront of 64 lanes";
    if (RULES_EQ(s, "l2CacheSize") || RULES_STARTS(s, "persisting") ||
        RULES_STARTS(s, "accessPolicy"))
        return "the L2 is split per XCD on MI300 (4 MiB each) and HIP reports one aggregate";
    if (RULES_EQ(s, "totalConstMem"))
        return "HIP can report very large values; do not size buffers from it";
    return "clock rates on AMD change at run time and differ in meaning";
}

/* Is token i an argument of printf/fprintf/std::cout << (a value only shown)? */
static int only_printed(const rctx *c, ptrdiff_t i)
{
    int depth = 0;
    for (ptrdiff_t j = rules_prev(c, i), steps = 0; j >= 0 && steps < 128;
         j = rules_prev(c, j), steps++) {
        const tok *k = &c->t[j];
        if (k->kind == TK_PUNCT) {
            if (k->sub == ')')
                depth++;
            else if (k->sub == '(') {
                if (depth > 0) {
                    depth--;
                    continue;
                }
                hp_str f = rules_text(c, rules_prev(c, j));
                if (rules_name_has(f, "printf") || rules_name_has(f, "print") ||
                    rules_name_has(f, "log") || rules_name_has(f, "format"))
                    return 1;
            } else if (k->sub == ';' || k->sub == '{' || k->sub == '}') {
                return 0;
            } else if (k->sub == P_SHL && depth == 0) {
                return 1; /* a stream insertion */
            }
        }
    }
    return 0;
}

static void arch003(rctx *c, ptrdiff_t i, hp_str s)
{
    if (rules_scope(c, i) & SC_GUARDED)
        return;
    if (!RULES_IN(s, props) || only_printed(c, i))
        return;
    rules_report(c, RID_ARCH003, i, 0, RF_ONCE,
                 rules_fmt(c, "'%.*s' feeds a heuristic: %s", (int)s.len, s.s, prop_why(s)),
                 NULL);
}

/* ------------------------------------------------------------------ the family */

/* The identifiers the pass below acts on (rules_hot.c) that rule_keys.tsv cannot list: the
 * __CUDA_ARCH__ spellings and the device properties of prop_why. */
unsigned rules_arch_names(const rctx *c, hp_str s, int number)
{
    (void)c;
    if (number || s.len < 9)
        return 0;
    if (s.s[0] == '_')
        return RULES_STARTS(s, "__CUDA_ARCH") && is_cuda_arch(s) ? RH_ARCH : 0;
    return RULES_IN(s, props) ? RH_ARCH : 0;
}

void rules_arch_run(rctx *c)
{
    for (ptrdiff_t hk = 0, i; (i = rules_hot_next(c, &hk, RH_ARCH | RH_STR)) >= 0;) {
        const tok *k = &c->t[i];
        if (k->kind == TK_PP_HASH) {
            directive(c, i);
            continue;
        }
        if (k->kind == TK_STRING && !(k->flags & TF_PP)) {
            if (!(rules_scope(c, i) & SC_GUARDED) && sm_string(rules_text(c, i))) {
                hp_str s = rules_text(c, i);
                rules_report(c, RID_ARCH002, i, 0, 0,
                             rules_fmt(c, "%.*s names an NVIDIA architecture; AMD targets are "
                                          "gfx names (gfx90a, gfx942, gfx1100)",
                                       (int)s.len, s.s),
                             NULL);
            }
            continue;
        }
        if (k->kind != TK_IDENT || (k->flags & TF_PP))
            continue;
        hp_str s = rules_text(c, i);
        if (is_cuda_arch(s) && !(rules_scope(c, i) & SC_GUARDED) && !rules_shim(c, s) &&
            !amd_skips(c, i, s)) {
            rules_report(c, RID_ARCH001, i, 0, 0,
                         rules_fmt(c, "'%.*s' is not defined by HIP-Clang", (int)s.len, s.s),
                         NULL);
            continue;
        }
        if (rules_member(c, i)) {
            if (RULES_EQ(s, "major"))
                arch002_member(c, i);
            else
                arch003(c, i, s);
            continue;
        }
        if ((RULES_EQ(s, "cudaDevAttrComputeCapabilityMajor") ||
             RULES_EQ(s, "cudaDevAttrComputeCapabilityMinor")) &&
            !(rules_scope(c, i) & SC_GUARDED)) {
            rules_report(c, RID_ARCH002, i, 0, 0,
                         rules_fmt(c, "'%.*s': on AMD the compute capability is the gfx "
                                      "version (gfx942: 9.4), not a feature level",
                                   (int)s.len, s.s),
                         NULL);
            continue;
        }
        if ((RULES_EQ(s, "cudaRuntimeGetVersion") || RULES_EQ(s, "cudaDriverGetVersion")) &&
            rules_call(c, i) >= 0 && !(rules_scope(c, i) & SC_GUARDED)) {
            rules_report(c, RID_ARCH004, i, HP_SEV_NOTE, 0,
                         rules_fmt(c, "'%.*s' returns HIP's version numbers under HIP, which "
                                      "do not compare with CUDA's (11000, 12000)",
                                   (int)s.len, s.s),
                         NULL);
        }
    }
}
