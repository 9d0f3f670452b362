/* rules_mem.c: the MEM rules that need more than a name: shared memory above the LDS size
 * (MEM001), __constant__ assumptions (MEM002), floating-point atomics (MEM004), 16-bit float
 * atomicAdd (MEM006) and numeric memory-type values (MEM007). The plain names of MEM003,
 * MEM005, MEM007 and MEM008 are in data/tables/rule_names.tsv. */
#include <string.h>

#include "rules.h"
#include "str.h"

#include "banned.h"

static int guarded(const rctx *c, ptrdiff_t i)
{
    return (rules_scope(c, i) & SC_GUARDED) != 0;
}

static const char *kib(rctx *c, long long bytes)
{
    if (bytes % 1024 == 0)
        return rules_fmt(c, "%lld KiB", bytes / 1024);
    return rules_fmt(c, "%lld bytes", bytes);
}

/* ------------------------------------------------------------------ MEM001 */

typedef struct span {
    ptrdiff_t from, to;
} span;

typedef struct mem_state {
    span done[64]; /* argument ranges already judged (their literals are not flagged again) */
    int ndone;
} mem_state;

static void mark(mem_state *m, ptrdiff_t from, ptrdiff_t to)
{
    if (m->ndone < 64) {
        m->done[m->ndone].from = from;
        m->done[m->ndone].to = to;
        m->ndone++;
    }
}

static int marked(const mem_state *m, ptrdiff_t i)
{
    for (int k = 0; k < m->ndone; k++)
        if (i >= m->done[k].from && i <= m->done[k].to)
            return 1;
    return 0;
}

/* The LDS per workgroup of the target named by t (its features after ':' left out): 160 KiB
 * on gfx950, 64 KiB on the others. */
static long long target_lds(hp_str t)
{
    ptrdiff_t colon = str_chr(t, ':');
    if (colon >= 0)
        t.len = colon;
    return RULES_EQ(str_trim(t), "gfx950") ? 163840 : 65536;
}

/* "a", "a and b", "a, b and c": the n names of v joined as a list. */
static const char *name_list(rctx *c, const hp_str *v, int n)
{
    const char *out = "";
    for (int k = 0; k < n; k++)
        out = rules_fmt(c, "%s%s%.*s", out, k == 0 ? "" : k == n - 1 ? " and " : ", ",
                        (int)v[k].len, v[k].s);
    return out;
}

/* What the targets' LDS says of a need of bytes above the smallest: which targets it does not
 * fit and what they hold, and which it fits ("gfx908, gfx90a and gfx942 have 64 KiB of LDS per
 * workgroup (gfx950's 160 KiB holds it)"), or "the LDS of the targets holds 64 KiB per
 * workgroup" where it fits none. */
static const char *lds_short(rctx *c, long long bytes)
{
    hp_str fail[16], fit[16];
    int nfail = 0, nfit = 0;
    long long fitlds = 0;
    hp_str rest = c->cfg->targets ? str_cstr(c->cfg->targets) : S("");
    while (rest.len > 0) {
        ptrdiff_t comma = str_chr(rest, ',');
        hp_str t = str_trim(comma >= 0 ? str_cut(rest, 0, comma) : rest);
        rest = comma >= 0 ? str_cut(rest, comma + 1, rest.len) : S("");
        ptrdiff_t colon = str_chr(t, ':');
        hp_str nm = colon >= 0 ? str_trim(str_cut(t, 0, colon)) : t;
        if (nm.len == 0)
            continue;
        if (target_lds(t) < bytes) {
            if (nfail < 16)
                fail[nfail++] = nm;
        } else if (nfit < 16) {
            fit[nfit++] = nm;
            fitlds = target_lds(t);
        }
    }
    if (!nfit || !nfail)
        return rules_fmt(c, "the LDS of the targets holds %s per workgroup",
                         kib(c, c->cfg->lds_limit));
    return rules_fmt(c, "%s %s %s of LDS per workgroup (%s%s %s %s it)", name_list(c, fail, nfail),
                     nfail > 1 ? "have" : "has", kib(c, c->cfg->lds_limit), name_list(c, fit, nfit),
                     nfit > 1 ? " with" : "'s", kib(c, fitlds), nfit > 1 ? "hold" : "holds");
}

static void too_big(rctx *c, ptrdiff_t at, long long bytes, const char *what)
{
    rules_report(c, RID_MEM001, at, 0, 0,
                 rules_fmt(c, "%s asks for %s of shared memory; %s", what, kib(c, bytes),
                           lds_short(c, bytes)),
                 NULL);
}

static void mem001_attr(rctx *c, mem_state *m, ptrdiff_t i)
{
    ptrdiff_t open = rules_call(c, i);
    lex_args a;
    if (open < 0 || !rules_args(c, open, &a) || a.n < 3)
        return;
    int dyn = 0;
    for (ptrdiff_t j = a.first[1]; j <= a.last[1]; j = rules_next(c, j))
        if (rules_is(c, j, "cudaFuncAttributeMaxDynamicSharedMemorySize") ||
            rules_is(c, j, "hipFuncAttributeMaxDynamicSharedMemorySize"))
            dyn = 1;
    if (!dyn)
        return;
    mark(m, a.first[2], a.last[2]);
    long long v;
    int bits;
    if (rules_eval(c, a.first[2], a.last[2], &v, &bits)) {
        if (v > c->cfg->lds_limit)
            too_big(c, a.first[2], v, "the dynamic shared-memory attribute");
        return;
    }
    rules_report(c, RID_MEM001, i, HP_SEV_NOTE, 0,
                 "raising the dynamic shared-memory limit is an NVIDIA opt-in: HIP has no such "
                 "step, and a launch that needs more LDS than the GPU has fails",
                 "keep the call, but size the dynamic shared memory to sharedMemPerBlock "
                 "(64 KiB on most AMD GPUs, 160 KiB on gfx950)");
}

static void mem001_launch(rctx *c, mem_state *m, ptrdiff_t open)
{
    ptrdiff_t close = -1;
    for (ptrdiff_t j = rules_next(c, open); j < c->nt; j = rules_next(c, j)) {
        if (c->t[j].kind == TK_LAUNCH_CLOSE) {
            close = j;
            break;
        }
        if (rules_punct(c, j, ';') || c->t[j].kind == TK_LAUNCH_OPEN)
            return;
    }
    if (close < 0)
        return;
    int n = 0;
    ptrdiff_t start = rules_next(c, open);
    for (ptrdiff_t j = start; j <= close; j = rules_next(c, j)) {
        if (j == close || rules_punct(c, j, ',')) {
            if (n == 2) {
                ptrdiff_t last = rules_prev(c, j);
                mark(m, start, last);
                long long v;
                int bits;
                if (rules_eval(c, start, last, &v, &bits) && v > c->cfg->lds_limit)
                    too_big(c, start, v, "this launch");
                return;
            }
            n++;
            start = rules_next(c, j);
            continue;
        }
        if (rules_punct(c, j, '(') || rules_punct(c, j, '[') || rules_punct(c, j, '{')) {
            ptrdiff_t mm = rules_match(c, j);
            if (mm < 0 || mm > close)
                return;
            j = mm;
        }
    }
}

/* The bytes of a __shared__ declaration at token i (0 if unknown or extern). */
static long long shared_bytes(rctx *c, ptrdiff_t i, ptrdiff_t *name)
{
    ptrdiff_t p = rules_prev(c, i);
    if (rules_is(c, p, "extern"))
        return 0;
    /* __shared__ T name[d1][d2]...; (or T __shared__ name[...]) */
    ptrdiff_t tfirst = rules_next(c, i), j = tfirst, nm = -1;
    for (int guard = 0; guard < 32 && j < c->nt; guard++, j = rules_next(c, j)) {
        if (rules_ident(c, j) && (rules_punct(c, rules_next(c, j), '[') ||
                                  rules_punct(c, rules_next(c, j), ';') ||
                                  rules_punct(c, rules_next(c, j), '=')))
        {
            nm = j;
            break;
        }
        if (rules_punct(c, j, ';') || rules_punct(c, j, '{') || rules_punct(c, j, '('))
            return 0;
    }
    if (nm < 0)
        return 0;
    int elem = nm > tfirst ? rules_sizeof_type(c, tfirst, rules_prev(c, nm)) : 0;
    if (!elem && rules_ident(c, p))
        elem = rules_sizeof_type(c, p, p);
    if (!elem)
        return 0;
    long long total = elem;
    ptrdiff_t b = rules_next(c, nm);
    while (rules_punct(c, b, '[')) {
        ptrdiff_t e = rules_match(c, b);
        long long d;
        int bits;
        if (e < 0 || !rules_eval(c, rules_next(c, b), rules_prev(c, e), &d, &bits) || d <= 0 ||
            d > (1ll << 40) / (total > 0 ? total : 1))
            return 0;
        total *= d;
        b = rules_next(c, e);
    }
    *name = nm;
    return total;
}

static void mem001_static(rctx *c)
{
    for (int f = 0; f < c->nfns; f++) {
        const rules_fn *fn = &c->fns[f];
        if (!fn->device)
            continue;
        long long sum = 0;
        /* the __shared__ of the body, outside directives (as a walk with rules_next sees it) */
        for (ptrdiff_t hk = rules_hot_from(c, fn->open); hk < c->nhot; hk++) {
            ptrdiff_t j = c->hot[hk].tok;
            if (j > fn->close || j >= c->nt)
                break;
            if (!(c->hot[hk].bits & RH_SHARED) || (c->t[j].flags & TF_PP) ||
                !rules_is(c, j, "__shared__") || guarded(c, j))
                continue;
            ptrdiff_t nm;
            long long bytes = shared_bytes(c, j, &nm);
            if (bytes <= 0)
                continue;
            long long before = sum;
            sum += bytes;
            if (before <= c->cfg->lds_limit && sum > c->cfg->lds_limit) {
                hp_str s = rules_text(c, nm);
                rules_report(c, RID_MEM001, nm, 0, 0,
                             rules_fmt(c, "static __shared__ arrays reach %s with '%.*s'; %s",
                                       kib(c, sum), (int)s.len, s.s, lds_short(c, sum)),
                             NULL);
            }
        }
    }
}

/* 48 * 1024, 49152, 99 << 10, 232448, ...: NVIDIA's shared-memory limits written out. */
static void mem001_literal(rctx *c, const mem_state *m, ptrdiff_t i)
{
    if (guarded(c, i) || marked(m, i) || (c->t[i].flags & TF_PP))
        return;
    unsigned long long v;
    int bits;
    if (!lex_int_literal(rules_text(c, i), &v, &bits))
        return;
    long long bytes = 0;
    ptrdiff_t end = i;
    if (v == 49152 || v == 101376 || v == 232448 || v == 102400 || v == 166912) {
        bytes = (long long)v;
    } else if (v == 48 || v == 99 || v == 100 || v == 163 || v == 227) {
        ptrdiff_t op = rules_next(c, i), k = rules_next(c, op);
        unsigned long long w;
        int b2;
        if (k < c->nt && c->t[k].kind == TK_NUMBER &&
            lex_int_literal(rules_text(c, k), &w, &b2) &&
            ((rules_punct(c, op, '*') && w == 1024) || (rules_punct(c, op, P_SHL) && w == 10))) {
            bytes = (long long)v * 1024;
            end = k;
        }
    }
    if (!bytes)
        return;
    ptrdiff_t n = c->t[end].off + c->t[end].len - c->t[i].off;
    if (bytes == 49152)
        rules_report_at(c, RID_MEM001, c->t[i].off, n, HP_SEV_NOTE, 0,
                        "48 KiB is NVIDIA's default per-block shared-memory limit; AMD GPUs "
                        "have 64 KiB of LDS per workgroup (160 KiB on gfx950) and no opt-in",
                        "query sharedMemPerBlock instead of hard-coding limits");
    else if (bytes > c->cfg->lds_limit)
        rules_report_at(c, RID_MEM001, c->t[i].off, n, HP_SEV_WARNING, 0,
                        rules_fmt(c, "%s is an NVIDIA opt-in shared-memory size; %s",
                                  kib(c, bytes), lds_short(c, bytes)),
                        "query sharedMemPerBlock instead of hard-coding limits");
}

/* ------------------------------------------------------------------ MEM002 */

static int lane_varying(hp_str s)
{
    return rules_name_has(s, "threadidx") || rules_name_has(s, "lane") ||
           rules_name_has(s, "tid") || RULES_EQ(s, "i") || RULES_EQ(s, "idx") ||
           rules_name_has(s, "thread");
}

static void mem002(rctx *c, ptrdiff_t i)
{
    if (guarded(c, i))
        return;
    /* in a template? the declaration itself, or the headers of the classes around it */
    int levels = 0, skip = 0;
    for (ptrdiff_t j = rules_prev(c, i), steps = 0; j >= 0 && steps < 512;
         j = rules_prev(c, j), steps++) {
        if (rules_punct(c, j, '}'))
            break;
        if (rules_punct(c, j, ';')) {
            if (levels > 0)
                break; /* the class header ended without a template */
            skip = 1;  /* earlier members: skip to the class's '{' */
            continue;
        }
        if (rules_punct(c, j, '{')) {
            if (++levels > 4 || (rules_scope(c, j) & (SC_DEVICE | SC_HOST)))
                break;
            skip = 0;
            continue;
        }
        if (skip)
            continue;
        if (rules_is(c, j, "template")) {
            rules_report(c, RID_MEM002, i, 0, 0,
                         "__constant__ inside a template: HIP documents this as undefined "
                         "behaviour",
                         "move the __constant__ variable out of the template");
            return;
        }
    }
    /* __constant__ T name[...]: uses indexed by a per-thread value */
    ptrdiff_t nm = -1;
    for (ptrdiff_t j = rules_next(c, i), g = 0; j < c->nt && g < 32; j = rules_next(c, j), g++) {
        if (rules_ident(c, j) && rules_punct(c, rules_next(c, j), '[')) {
            nm = j;
            break;
        }
        if (rules_punct(c, j, ';') || rules_punct(c, j, '='))
            break;
    }
    if (nm < 0)
        return;
    hp_str name = rules_text(c, nm);
    for (ptrdiff_t j = rules_next(c, nm); j < c->nt; j++) {
        if (c->t[j].kind != TK_IDENT || !(rules_scope(c, j) & SC_DEVICE) ||
            !str_eq(rules_text(c, j), name))
            continue;
        ptrdiff_t b = rules_next(c, j);
        if (!rules_punct(c, b, '['))
            continue;
        ptrdiff_t e = rules_match(c, b);
        if (e < 0 || !rules_range_has(c, b, e, lane_varying))
            continue;
        rules_report(c, RID_MEM002, j, 0, 0,
                     rules_fmt(c, "__constant__ '%.*s' is indexed per thread: AMD's scalar "
                                  "constant path is fast only for indices uniform across a "
                                  "wavefront",
                               (int)name.len, name.s),
                     NULL);
        return;
    }
}

/* ------------------------------------------------------------------ MEM004, MEM006 */

/* Does a HIP shim of the tree define the overload s(T *, ...) for the 16-bit type t
 * ("atomicAdd(half2" in rules_shim's index)? */
static int shim_overload(rctx *c, hp_str s, rules_type t)
{
    static const char *const half[] = {"half", "__half", NULL};
    static const char *const half2[] = {"half2", "__half2", NULL};
    static const char *const bf16[] = {"__nv_bfloat16", "nv_bfloat16", "__hip_bfloat16",
                                       "hip_bfloat16", "bfloat16", NULL};
    static const char *const bf162[] = {"__nv_bfloat162", "nv_bfloat162", "__hip_bfloat162",
                                        "hip_bfloat162", "bfloat162", NULL};
    const char *const *ty = t == RT_HALF ? half : t == RT_HALF2 ? half2 : t == RT_BF16 ? bf16
                                                                                      : bf162;
    for (; *ty; ty++)
        if (rules_shim(c, str_cstr(rules_fmt(c, "%.*s(%s", (int)s.len, s.s, *ty))))
            return 1;
    return 0;
}

static void atomic_fp(rctx *c, ptrdiff_t i, hp_str s)
{
    if (guarded(c, i) || rules_member(c, i))
        return;
    ptrdiff_t open = rules_call(c, i);
    lex_args a;
    if (open < 0 || !rules_args(c, open, &a) || a.n < 2 || a.last[0] < a.first[0])
        return;
    int ptr;
    rules_type t = rules_expr_type(c, a.first[0], a.last[0], &ptr);
    if (ptr != 1)
        return;
    if ((t == RT_HALF || t == RT_HALF2 || t == RT_BF16 || t == RT_BF162) &&
        (RULES_EQ(s, "atomicAdd") || RULES_EQ(s, "atomicAdd_block") ||
         RULES_EQ(s, "atomicAdd_system"))) {
        if (shim_overload(c, s, t))
            return;
        const char *tn = t == RT_HALF ? "__half" : t == RT_HALF2 ? "__half2"
                                                 : t == RT_BF16  ? "bfloat16"
                                                                 : "bfloat162";
        rules_report(c, RID_MEM006, i, 0, 0,
                     rules_fmt(c, "'%.*s' on a %s pointer: HIP's atomicAdd has overloads for "
                                  "int, unsigned, 64-bit integers, float and double only "
                                  "(HIP 5.2 to 6.x)",
                               (int)s.len, s.s, tn),
                     NULL);
        return;
    }
    if ((t == RT_FLOAT || t == RT_DOUBLE) &&
        (RULES_EQ(s, "atomicAdd") || RULES_EQ(s, "atomicAdd_block") || RULES_EQ(s, "atomicSub") ||
         RULES_EQ(s, "atomicMax") || RULES_EQ(s, "atomicMin")))
        rules_report(c, RID_MEM004, i, 0, RF_ONCE,
                     rules_fmt(c, "'%.*s' on %s: HIP compiles it to a compare-and-swap loop "
                                  "unless unsafe FP atomics are on, and hardware FP atomics "
                                  "may be lost on fine-grained (host or managed) memory",
                               (int)s.len, s.s, t == RT_FLOAT ? "float" : "double"),
                     NULL);
}

/* ------------------------------------------------------------------ MEM007 */

static void mem007(rctx *c, ptrdiff_t i)
{
    if (guarded(c, i))
        return;
    ptrdiff_t obj = rules_prev(c, rules_prev(c, i));
    if (!rules_ident(c, obj))
        return;
    hp_str o = rules_text(c, obj);
    int attr = rules_name_has(o, "attr");
    rules_decl d;
    if (!attr && rules_decl_find(c, obj, &d) && d.type_first >= 0)
        for (ptrdiff_t k = d.type_first; k < d.name; k = rules_next(c, k))
            if (rules_is(c, k, "cudaPointerAttributes") ||
                rules_is(c, k, "hipPointerAttribute_t"))
                attr = 1;
    if (!attr)
        return;
    ptrdiff_t n = rules_next(c, i);
    ptrdiff_t v = rules_next(c, n);
    if (!(rules_punct(c, n, P_EQ) || rules_punct(c, n, P_NE)) || v >= c->nt ||
        c->t[v].kind != TK_NUMBER)
        return;
    rules_report(c, RID_MEM007, i, 0, 0,
                 "compares a memory type with a number: HIP numbers them differently "
                 "(hipMemoryTypeHost is 0, Device 1; CUDA's Host is 1, Device 2)",
                 NULL);
}

/* ------------------------------------------------------------------ the family */


void rules_mem_run(rctx *c)
{
    mem_state m;
    m.ndone = 0;
    const tok *t = c->t;
    for (ptrdiff_t hk = 0, i; (i = rules_hot_next(c, &hk, RH_MEM)) >= 0;) {
        const tok *k = &t[i];
        if (k->kind == TK_LAUNCH_OPEN) {
            if (!guarded(c, i))
                mem001_launch(c, &m, i);
            continue;
        }
        if (k->kind != TK_IDENT)
            continue;
        hp_str s = rules_text(c, i);
        if (s.s[0] == 'c' || s.s[0] == 'h') {
            if ((RULES_EQ(s, "cudaFuncSetAttribute") || RULES_EQ(s, "hipFuncSetAttribute")) &&
                !guarded(c, i))
                mem001_attr(c, &m, i);
        } else if (s.s[0] == 'a') {
            if (RULES_STARTS(s, "atomic"))
                atomic_fp(c, i, s);
        } else if (s.s[0] == '_') {
            if (RULES_EQ(s, "__constant__") && !(k->flags & TF_PP))
                mem002(c, i);
        } else if ((RULES_EQ(s, "type") || RULES_EQ(s, "memoryType")) && rules_member(c, i)) {
            mem007(c, i);
        }
    }
    for (ptrdiff_t hk = 0, i; (i = rules_hot_next(c, &hk, RH_MEMNUM)) >= 0;)
        if (t[i].kind == TK_NUMBER)
            mem001_literal(c, &m, i);
    mem001_static(c);
}
