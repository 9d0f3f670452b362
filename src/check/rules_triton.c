/* rules_triton.c: rules TRI001-TRI012 over the Triton kernels, autotune configs and launch
 * sites of a Python file. */
#include <limits.h>
#include <string.h>

#include "pyrules.h"
#include "rule_ids.h"
#include "pysrc.h"
#include "rules_triton.h"
#include "str.h"
#include "triton.h"
#include "triton_env_tab.h"

#include "banned.h"

#define QN 160

static ptrdiff_t tok_end(const pysrc *p, ptrdiff_t i)
{
    return p->t[i].off + p->t[i].len;
}

/* Findings on a span of tokens (pyrules.c). */
#define add_span pyrules_add_span

/* Source text of tokens [b, e), at most max bytes (for messages). */
static hp_str span_text(const pysrc *p, ptrdiff_t b, ptrdiff_t e, ptrdiff_t max)
{
    hp_str s = {p->src + p->t[b].off, e > b ? tok_end(p, e - 1) - p->t[b].off : 0};
    ptrdiff_t nl = str_chr(s, '\n');
    if (nl >= 0)
        s.len = nl;
    if (s.len > max)
        s.len = max;
    return s;
}

static int guarded(const pysrc *p, ptrdiff_t i)
{
    return pysrc_vendor_only(p, i);
}

static int q_is(const char *q, const char *name)
{
    return strcmp(q, name) == 0;
}

/* ------------------------------------------------------------------ TRI001-TRI003, TRI008 */

static int site_value(const pysrc *p, const tri_site *s, int id, pysrc_ints *v)
{
    if (s->opt[id].key < 0)
        return 0;
    return pysrc_int_values(p, s->opt[id].vb, s->opt[id].ve, v);
}

/* Where to point at a value: the literal when it is in the site's statement (a comprehension
 * over a list of values counts), else the keyword. */
static ptrdiff_t value_tok(const pysrc *p, const tri_site *s, int id, int32_t lit)
{
    if (lit >= 0 && lit < p->n && p->lstart[lit] == p->lstart[s->opt[id].key])
        return lit;
    return s->opt[id].key;
}

/* A value bound on another line (NUM_WARPS = [4, 8, 16, 32] at the top of the file, or
 * nw = 32 before a launch): the finding goes to the literal, where the fix goes, once however
 * many configs and launches read it. Returns the token, or -1 when it was reported already. */
static ptrdiff_t far_value_tok(pyrules *r, const pysrc *p, const tri_site *s, int id,
                               int32_t lit, unsigned char **seen)
{
    ptrdiff_t at = value_tok(p, s, id, lit);
    if (at == lit || lit < 0 || lit >= p->n)
        return at;
    if (!*seen)
        *seen = arena_alloc(r->a, 1, 1, p->n);
    if (!*seen)
        return at;
    if ((*seen)[lit])
        return -1;
    (*seen)[lit] = 1;
    return lit;
}

/* The tile sizes a Config's dict names ({"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 32}; BM,
 * BLOCK_SIZE_M and TILE_M spell them too): 1 when M, N and K are all there. */
static int config_tiles(const pysrc *p, const tri_site *s, long long *m, long long *n,
                        long long *k)
{
    *m = *n = *k = 0;
    ptrdiff_t open = s->open + 1;
    if (s->kind != TS_CONFIG || !pysrc_op(p, open, '{') || p->match[open] < 0)
        return 0;
    ptrdiff_t end = p->match[open];
    for (ptrdiff_t i = open + 1; i + 2 < end; i++) {
        hp_str key;
        if (p->t[i].kind != PY_STRING || !pysrc_op(p, i + 1, ':') ||
            !pysrc_str(p, i, i + 1, &key) || key.len < 2 || key.len > 24)
            continue;
        char first = key.s[0], last = key.s[key.len - 1];
        if (first != 'B' && first != 'T')
            continue;
        long long val;
        if (!pysrc_int(p, i + 2, i + 3, &val) || val <= 0 || val > 65536)
            continue;
        long long *dst = last == 'M' ? m : last == 'N' ? n : last == 'K' ? k : NULL;
        if (dst && (key.len == 2 || key.s[key.len - 2] == '_'))
            *dst = val;
    }
    return *m && *n && *k;
}

/* What the site rules look up for many sites of one file, made once: a list of 20000 configs
 * would otherwise be scanned once per config. */
typedef struct tri_memo {
    arena *a;               /* the file's arena */
    int32_t *encl;          /* per token: the '[' or '(' of the innermost list or call around
                             * it, or -1; NULL until made */
    ptrdiff_t warps_open;   /* the list warps_min is of, or -1 */
    long long warps_min;    /* the least num_warps >= 1 its configs give (LLONG_MAX: none) */
    ptrdiff_t lds_open;     /* the list lds_count is of, or -1 */
    int lds_count;          /* its configs that fit gfx950's LDS or say too little to tell */
    int eight_bit;          /* eight_bit_file: -1 not known yet */
} tri_memo;

/* The '[' or '(' of the innermost list or call around token at, or -1 (one pass over the file
 * with a stack of open brackets, on first use; a scan back from at if memory runs out). */
static ptrdiff_t enclosing_list(const pysrc *p, tri_memo *m, ptrdiff_t at)
{
    if (!m->encl) {
        int32_t *e = arena_alloc_nozero(m->a, (ptrdiff_t)sizeof(int32_t), _Alignof(int32_t),
                                        p->n + 1);
        int32_t *stack = arena_alloc_nozero(m->a, (ptrdiff_t)sizeof(int32_t),
                                            _Alignof(int32_t), p->n + 1);
        if (e && stack) {
            ptrdiff_t depth = 0;
            for (ptrdiff_t k = 0; k < p->n; k++) {
                while (depth && p->match[stack[depth - 1]] <= k)
                    depth--;
                e[k] = depth ? stack[depth - 1] : -1;
                if ((pysrc_op(p, k, '[') || pysrc_op(p, k, '(')) && p->match[k] > k)
                    stack[depth++] = (int32_t)k;
            }
            m->encl = e;
        }
    }
    if (m->encl)
        return at >= 0 && at < p->n ? m->encl[at] : -1;
    for (ptrdiff_t k = at - 1; k >= 0; k--)
        if ((pysrc_op(p, k, '[') || pysrc_op(p, k, '(')) && p->match[k] > at)
            return k;
    return -1;
}

/* Does the list of configs around the Config at s hold one whose num_warps fits in max warps
 * (a sibling triton.Config(..., num_warps=8), or a smaller value of the same comprehension)?
 * Then the autotuner has something to run on AMD: Triton 3.4 and later raise OutOfResources
 * for a config over the workgroup limit, and the autotuner skips it. */
static int sibling_fits(const pysrc *p, tri_memo *m, const tri_site *s, const pysrc_ints *v,
                        long long max)
{
    if (s->kind != TS_CONFIG)
        return 0;
    if (v->min <= max)
        return 1;
    ptrdiff_t open = enclosing_list(p, m, s->tok);
    if (open < 0)
        return 0;
    if (m->warps_open != open) {
        long long w, least = LLONG_MAX;
        for (ptrdiff_t k = open + 1; k + 2 < p->match[open]; k++)
            if (pysrc_is(p, k, "num_warps") && pysrc_op(p, k + 1, '=') &&
                pysrc_int(p, k + 2, k + 3, &w) && w >= 1 && w < least)
                least = w;
        m->warps_open = open;
        m->warps_min = least;
    }
    return m->warps_min <= max;
}

/* The LDS bytes a config keeps on gfx950: Triton 3.6 copies both tiles to LDS directly,
 * num_stages - 1 deep (on gfx942 it keeps one set whatever num_stages is: tools/triton-amd). */
static long long gfx950_lds(long long stages, long long bm, long long bn, long long bk,
                            int elem)
{
    return (stages - 1) * (bm * bk + bk * bn) * elem;
}

/* Does another Config of the list around s fit gfx950's 160 KiB of LDS (or say too little to
 * tell)? The autotuner skips a config whose launch raises OutOfResources, so the list still
 * tunes. */
/* Does the Config( at k fit gfx950's LDS with elem-byte operands, or say too little to tell? */
static int config_lds_fits(const pysrc *p, ptrdiff_t k, int elem)
{
    tri_site t = {0};
    t.kind = TS_CONFIG;
    t.open = (int32_t)(k + 1);
    long long bm, bn, bk, st = 0;
    pysrc_arg a[16];
    int n = pysrc_args(p, k + 1, a, 16);
    int ks = pysrc_kwarg(p, a, n < 16 ? n : 16, "num_stages");
    return !config_tiles(p, &t, &bm, &bn, &bk) || ks < 0 ||
           !pysrc_int(p, a[ks].vb, a[ks].e, &st) || gfx950_lds(st, bm, bn, bk, elem) <= 160 * 1024;
}

static int is_config_call(const pysrc *p, ptrdiff_t k)
{
    return pysrc_is(p, k, "Config") && pysrc_op(p, k + 1, '(');
}

static int sibling_lds_fits(const pysrc *p, tri_memo *m, const tri_site *s, int elem)
{
    ptrdiff_t open = enclosing_list(p, m, s->tok);
    if (open < 0)
        return 0;
    if (m->lds_open != open) { /* elem is 2 at every call */
        int count = 0;
        for (ptrdiff_t k = open + 1; k + 1 < p->match[open]; k++)
            count += is_config_call(p, k) && config_lds_fits(p, k, elem);
        m->lds_open = open;
        m->lds_count = count;
    }
    ptrdiff_t self = s->open - 1;
    int own = self > open && self + 1 < p->match[open] && is_config_call(p, self) &&
              config_lds_fits(p, self, elem);
    return m->lds_count - own > 0;
}

/* Does the file use 8-bit Triton element types (tl.int8, tl.uint8, tl.float8e4nv, ...)? Then
 * tiles may be one byte an element, not two. */
static int eight_bit_file(const pysrc *p)
{
    for (ptrdiff_t i = 2; i < p->n; i++) {
        if (p->t[i].kind != PY_NAME || !pysrc_op(p, i - 1, '.') || !pysrc_is(p, i - 2, "tl"))
            continue;
        hp_str n = pysrc_text(p, i);
        if (RULES_EQ(n, "int8") || RULES_EQ(n, "uint8") || RULES_STARTS(n, "float8"))
            return 1;
    }
    return 0;
}

/* Does the text of token k name the device's shared memory (max_shared_mem,
 * shared_memory, "smem")? */
static int smem_word(const pysrc *p, ptrdiff_t k)
{
    if (p->t[k].kind != PY_NAME && p->t[k].kind != PY_STRING)
        return 0;
    hp_str s = p->t[k].kind == PY_NAME ? pysrc_text(p, k) : pylex_string_body(p->src, &p->t[k]);
    return s.len < 64 && (pysrc_contains_nocase(s, "shared_mem") ||
                          pysrc_contains_nocase(s, "smem"));
}

/* Does the autotune that config s belongs to prune its configs by shared memory: its
 * prune_configs_by names triton's early_config_prune (matmul_perf_model: it drops configs over
 * the device's max_shared_mem), or a function of the file whose body compares with the
 * device's shared memory? The autotuner then drops a config over gfx950's LDS before it
 * runs. */
static int smem_pruned(const pysrc *p, const tri_file *tf, const tri_site *s)
{
    if (s->kernel < 0 || s->kernel >= tf->nk || tf->k[s->kernel].autotune < 0)
        return 0;
    int32_t o = tf->k[s->kernel].autotune;
    pysrc_arg a[16];
    int n = pysrc_args(p, o, a, 16);
    if (n > 16)
        n = 16;
    int kp = pysrc_kwarg(p, a, n, "prune_configs_by");
    if (kp < 0)
        return 0;
    for (ptrdiff_t k = a[kp].vb; k < a[kp].e; k++) {
        if (p->t[k].kind != PY_NAME)
            continue;
        hp_str name = pysrc_text(p, k);
        int defined = 0;
        for (ptrdiff_t d = 0; d + 1 < p->n; d++) {
            ptrdiff_t bb, be;
            if (!pysrc_is(p, d, "def") || !str_eq(pysrc_text(p, d + 1), name) ||
                !pysrc_block(p, d, &bb, &be))
                continue;
            defined = 1;
            for (ptrdiff_t j = bb; j < be; j++)
                if (smem_word(p, j))
                    return 1;
        }
        if (!defined && str_eqc(name, "early_config_prune"))
            return 1;
    }
    return 0;
}

static void site_rules(pyrules *r, const pysrc *p, const tri_file *tf, tri_memo *memo,
                       const tri_site *s, unsigned char **seen)
{
    arena *a = r->a;
    unsigned tg = pyrules_targets(r);
    pysrc_ints v;
    if (guarded(p, s->tok))
        return;
    if (pyrules_on(r, RID_TRI001) && site_value(p, s, TO_NUM_WARPS, &v)) {
        int wave = (tg & TGT_WAVE64) ? 64 : 32;
        if (v.max * wave > 1024) {
            ptrdiff_t at = far_value_tok(r, p, s, TO_NUM_WARPS, v.max_tok, seen);
            const char *m = arena_printf(
                a, "num_warps=%lld makes %lld-thread workgroups with %d-wide wavefronts; AMD "
                   "GPUs allow at most 1024 threads per workgroup",
                v.max, v.max * wave, wave);
            /* among autotune configs that fit, the autotuner skips the one that does not:
             * nothing to change on AMD unless the Triton is older than 3.4, where the list is
             * written in the autotune call itself; a list bound on another line (NUM_WARPS =
             * [4, 8, 16, 32] that every kernel of the file reads) is the one place a port
             * gives AMD its own values */
            hp_severity sev = HP_SEV_ERROR;
            if (sibling_fits(p, memo, s, &v, 1024 / wave)) {
                ptrdiff_t lit = v.max_tok, key = s->opt[TO_NUM_WARPS].key;
                int far = lit >= 0 && lit < p->n && key >= 0 && p->lstart[lit] != p->lstart[key];
                sev = far ? HP_SEV_WARNING : HP_SEV_NOTE;
            }
            if (at >= 0)
                add_span(r, p, at, at + 1, RID_TRI001, sev, m,
                         "a Triton warp is a whole wavefront: use num_warps <= 16 on gfx9 "
                         "(MI200, MI300) and <= 32 on RDNA");
        }
    }
    if (pyrules_on(r, RID_TRI003) && site_value(p, s, TO_NUM_STAGES, &v)) {
        long long bm, bn, bk;
        int tiles = config_tiles(p, s, &bm, &bn, &bk);
        if ((tg & TGT_GFX950) && v.max >= 2 && tiles) {
            /* Triton 3.6 on gfx950 copies both tiles to LDS directly, num_stages - 1 deep;
             * on gfx942 it keeps one set whatever num_stages is (tools/triton-amd) */
            long long need = gfx950_lds(v.max, bm, bn, bk, 2);
            if (need > 160 * 1024) {
                /* a config among others that fit is skipped by the autotuner; with 8-bit
                 * operands the same tiles may take half */
                hp_severity sev =
                    sibling_lds_fits(p, memo, s, 2) ? HP_SEV_WARNING : HP_SEV_ERROR;
                if (memo->eight_bit < 0)
                    memo->eight_bit = eight_bit_file(p);
                if (memo->eight_bit && gfx950_lds(v.max, bm, bn, bk, 1) <= 160 * 1024)
                    sev = HP_SEV_NOTE;
                /* a pruner that drops configs over the device's shared memory drops it */
                if (sev != HP_SEV_NOTE && smem_pruned(p, tf, s))
                    sev = HP_SEV_NOTE;
                const char *m = arena_printf(
                    a, "num_stages=%lld with %lldx%lldx%lld tiles: on gfx950 (MI350) Triton keeps "
                       "%lld copies of both tiles in LDS, %lld KiB for 16-bit operands, over its "
                       "160 KiB: the launch fails with OutOfResources",
                    v.max, bm, bn, bk, v.max - 1, need / 1024);
                ptrdiff_t at = value_tok(p, s, TO_NUM_STAGES, v.max_tok);
                add_span(r, p, at, at + 1, RID_TRI003, sev, m,
                         "lower num_stages until (num_stages - 1) x (BM x BK + BK x BN) x "
                         "element size fits 160 KiB, or add a gfx950 config with smaller tiles");
            }
        }
        if (v.min == 0) {
            ptrdiff_t at = value_tok(p, s, TO_NUM_STAGES, v.min_tok);
            add_span(r, p, at, at + 1, RID_TRI003, HP_SEV_WARNING,
                     "num_stages=0 was ROCm Triton's old switch for pipelining; current AMD "
                     "backends reject it on GPUs with matrix cores",
                     "use num_stages=2 for the old pipelined behaviour");
        }
    }
    if (pyrules_on(r, RID_TRI002)) {
        if (site_value(p, s, TO_NONKDIM, &v) &&
            !((v.min == 0 || v.min == 4 || v.min == 16 || v.min == 32) &&
              (v.max == 0 || v.max == 4 || v.max == 16 || v.max == 32))) {
            long long bad = (v.max == 0 || v.max == 4 || v.max == 16 || v.max == 32) ? v.min
                                                                                    : v.max;
            const char *m = arena_printf(
                a, "matrix_instr_nonkdim=%lld: AMD matrix instructions are 16x16 or 32x32 (4 "
                   "for small dots; 0 lets the compiler choose)",
                bad);
            add_span(r, p, s->opt[TO_NONKDIM].key, s->opt[TO_NONKDIM].ve, RID_TRI002,
                     HP_SEV_WARNING, m,
                     "use matrix_instr_nonkdim=16 (usually best on MI300) or 32");
        }
        if (site_value(p, s, TO_KPACK, &v)) {
            if (v.min < 1 || v.max > 2)
                add_span(r, p, s->opt[TO_KPACK].key, s->opt[TO_KPACK].ve, RID_TRI002,
                         HP_SEV_WARNING, "kpack takes 1 or 2", "use kpack=1 or kpack=2");
            else if (v.max == 2 && (tg & TGT_GFX950))
                add_span(r, p, s->opt[TO_KPACK].key, s->opt[TO_KPACK].ve, RID_TRI002,
                         HP_SEV_WARNING,
                         "kpack=2 is not accepted on gfx950 (MI350): older Triton asserts, "
                         "newer overrides it to 1",
                         "use kpack=1 for gfx950 configs");
        }
        if (site_value(p, s, TO_WAVES_PER_EU, &v) && (v.min < 0 || v.max > 8))
            add_span(r, p, s->opt[TO_WAVES_PER_EU].key, s->opt[TO_WAVES_PER_EU].ve, RID_TRI002,
                     HP_SEV_WARNING,
                     "waves_per_eu asks for an occupancy the hardware cannot give (0 to 8 "
                     "waves per SIMD)",
                     "use waves_per_eu in 0..4 (0 leaves it to the compiler)");
    }
    if (pyrules_on(r, RID_TRI008)) {
        if (site_value(p, s, TO_NUM_CTAS, &v) && v.max > 1) {
            ptrdiff_t at = value_tok(p, s, TO_NUM_CTAS, v.max_tok);
            add_span(r, p, at, at + 1, RID_TRI008, HP_SEV_ERROR,
                     "num_ctas > 1 (thread-block clusters) is NVIDIA-only: Triton's AMD backend "
                     "raises ValueError",
                     "drop num_ctas on AMD (keep it in an NVIDIA-only config set)");
        }
        /* test code builds configs to test the project's own selection of them; the kernels
         * it launches take theirs from the code under test, where findings stay warnings */
        if (s->opt[TO_MAXNREG].key >= 0)
            add_span(r, p, s->opt[TO_MAXNREG].key, s->opt[TO_MAXNREG].ve, RID_TRI008,
                     r->test_code ? HP_SEV_NOTE : HP_SEV_WARNING,
                     "maxnreg is an NVIDIA register cap; AMD's backend has no such option",
                     "on AMD, steer register use with waves_per_eu instead");
    }
}

/* Does the file import triton (import triton..., from triton... import)? */
static int imports_triton(const pysrc *p)
{
    for (ptrdiff_t i = 0; i + 1 < p->n; i++)
        if ((pysrc_is(p, i, "import") || pysrc_is(p, i, "from")) && pysrc_is(p, i + 1, "triton"))
            return 1;
    return 0;
}

/* Does the file import a kernel language of its own besides Triton (TileLang, CuTe DSL)? */
static int imports_other_dsl(const pysrc *p)
{
    for (ptrdiff_t i = 0; i + 1 < p->n; i++)
        if ((pysrc_is(p, i, "import") || pysrc_is(p, i, "from")) &&
            (pysrc_is(p, i + 1, "tilelang") || pysrc_is(p, i + 1, "cutlass")))
            return 1;
    return 0;
}

/* Does the name count warps (num_warps, NUM_WARPS_BIG, get_num_warps)? */
static int warp_count_name(hp_str s)
{
    return pysrc_contains_nocase(s, "warps") || pysrc_contains_nocase(s, "nwarp") ||
           pysrc_contains_nocase(s, "n_warp") || pysrc_contains_nocase(s, "num_warp");
}

/* A warp count over 16 bound to a name that counts warps (num_warps = 32, or returned by
 * get_num_warps()) where no launch of this file reads it: the value is passed on to one. */
static void tri001_count(pyrules *r, const pysrc *p, int wave, unsigned char *seen)
{
    for (ptrdiff_t i = 0; i < p->n; i++) {
        long long v;
        if (p->t[i].kind != PY_NUMBER || !pysrc_int(p, i, i + 1, &v) || v * wave <= 1024 ||
            v > 1024 || (seen && seen[i]))
            continue;
        ptrdiff_t ls = p->lstart[i], vb;
        hp_str name;
        int ret = 0;
        if (p->t[ls].kind == PY_NAME && pysrc_op(p, ls + 1, '=')) {
            name = pysrc_text(p, ls);
            vb = ls + 2;
        } else if (pysrc_is(p, ls, "return")) {
            ptrdiff_t h = p->up[i];
            while (h >= 0 && !pysrc_is(p, h, "def"))
                h = p->up[h];
            if (h < 0 || h + 1 >= p->n)
                continue;
            name = pysrc_text(p, h + 1);
            vb = ls + 1;
            ret = 1;
        } else {
            continue;
        }
        pysrc_ints vals;
        if (!warp_count_name(name) || guarded(p, i) ||
            !pysrc_int_values(p, vb, pysrc_line_end(p, ls), &vals) || vals.max_tok != i)
            continue;
        const char *m = arena_printf(
            r->a, "%.*s%s %lld: as a Triton num_warps that makes %lld-thread workgroups "
                  "with %d-wide wavefronts; AMD GPUs allow at most 1024 threads per workgroup",
            (int)name.len, name.s, ret ? "() returns" : " takes", v, v * wave, wave);
        add_span(r, p, i, i + 1, RID_TRI001, HP_SEV_WARNING, m,
                 "a Triton warp is a whole wavefront: cap num_warps at 16 on gfx9 (MI200, MI300), "
                 "e.g. 16 if torch.version.hip else 32");
    }
}

/* Host code that counts 32 threads per warp: 32 * num_warps, WARP_SIZE = 32. */
static void tri001_host(pyrules *r, const pysrc *p)
{
    ptrdiff_t last_name = -1; /* 32 * num_warps * 32 is one finding, not one per literal */
    for (ptrdiff_t i = 0; i < p->n; i++) {
        if (p->t[i].kind != PY_NUMBER || !str_eqc(pysrc_text(p, i), "32"))
            continue;
        ptrdiff_t name = -1;
        if (pysrc_op(p, i + 1, '*') && i + 2 < p->n && p->t[i + 2].kind == PY_NAME)
            name = i + 2;
        else if (i >= 2 && pysrc_op(p, i - 1, '*') && p->t[i - 2].kind == PY_NAME)
            name = i - 2;
        int assign = 0;
        if (name < 0 && i >= 2 && pysrc_op(p, i - 1, '=') && p->t[i - 2].kind == PY_NAME &&
            p->lstart[i - 2] == i - 2 && (i + 1 >= p->n || p->t[i + 1].kind == PY_NEWLINE)) {
            name = i - 2;
            assign = 1;
        }
        if (name < 0 || name == last_name || !pysrc_contains_nocase(pysrc_text(p, name), "warp") ||
            guarded(p, i))
            continue;
        /* NUM_WARPS = 32 counts warps, not threads: the launches that read it say what it does */
        if (assign && warp_count_name(pysrc_text(p, name)))
            continue;
        const char *m = assign ? "a warp of 32 threads is hard-coded; AMD GPUs of the gfx9 "
                                 "family (MI200, MI300) run 64-wide wavefronts"
                               : "threads computed as 32 per warp; a Triton warp on gfx9 "
                                 "(MI200, MI300) is a 64-thread wavefront";
        ptrdiff_t b = name < i ? name : i, e = name < i ? i + 1 : name + 1;
        last_name = name;
        add_span(r, p, b, e, RID_TRI001, HP_SEV_WARNING, m,
                 "take the width from triton.runtime.driver.active.get_current_target()"
                 ".warp_size or torch.cuda.get_device_properties(d).warp_size");
    }
}

/* Autotune config lists with no AMD variant. */
static void tri002_autotune(pyrules *r, const pysrc *p, const tri_file *tf)
{
    if (pysrc_mentions_amd(p))
        return;
    for (int k = 0; k < tf->nk; k++) {
        const tri_kernel *kn = &tf->k[k];
        if (kn->autotune < 0)
            continue;
        int n = 0;
        long long w = 0, st = 0;
        for (int j = 0; j < tf->ns; j++) {
            const tri_site *s = &tf->s[j];
            if (s->kind != TS_CONFIG || s->kernel != k)
                continue;
            if (s->opt[TO_WAVES_PER_EU].key >= 0 || s->opt[TO_NONKDIM].key >= 0 ||
                s->opt[TO_KPACK].key >= 0)
                return;
            pysrc_ints v;
            /* a comprehension over a list of values makes one config per value */
            int cw = site_value(p, s, TO_NUM_WARPS, &v);
            if (cw && v.max > w)
                w = v.max;
            int cs = site_value(p, s, TO_NUM_STAGES, &v);
            if (cs && v.max > st)
                st = v.max;
            n += cw > cs ? cw : cs > 1 ? cs : 1;
        }
        /* configs AMD's backend runs as well (up to 8 warps, up to 2 stages) need no variant */
        if (n == 0 || (w <= 8 && st <= 2))
            continue;
        const char *m =
            arena_printf(r->a, "autotune configs of '%.*s' are tuned for NVIDIA only (%d config%s",
                         (int)kn->name.len, kn->name.s, n, n == 1 ? "" : "s");
        if (w)
            m = arena_printf(r->a, "%s, num_warps up to %lld", m, w);
        if (st)
            m = arena_printf(r->a, "%s, num_stages up to %lld", m, st);
        m = arena_printf(r->a, "%s)", m);
        ptrdiff_t at = kn->autotune - 1;
        while (at > 0 && p->t[at - 1].kind != PY_DECORATOR && at > kn->first_deco)
            at--;
        add_span(r, p, at, kn->autotune, RID_TRI002, HP_SEV_NOTE, m,
                 "add an AMD config set under torch.version.hip: num_stages 1-2, num_warps "
                 "4-8, and the AMD knobs waves_per_eu and matrix_instr_nonkdim=16");
    }
}

/* ------------------------------------------------------------------ data flow in kernels */

enum {
    B_ARANGE = 1, /* built from tl.arange */
    B_PID = 2,    /* built from tl.program_id */
    B_LOAD = 4,   /* a value loaded from memory */
    B_F32 = 8,    /* converted to or created as fp32/fp64 */
    B_LOW = 16,   /* converted to or created as fp16/bf16 */
    B_LOWACC = 32 /* an fp16/bf16 accumulator from tl.zeros/tl.full */
};

typedef struct kvar {
    hp_str name;
    unsigned bits;
    int32_t origin; /* token of the tl.zeros call for B_LOWACC */
    int reported;
} kvar;

typedef struct kflow {
    kvar v[512];
    int n;
} kflow;

static kvar *var_find(kflow *f, hp_str name)
{
    for (int k = f->n - 1; k >= 0; k--)
        if (str_eq(f->v[k].name, name))
            return &f->v[k];
    return NULL;
}

static kvar *var_set(kflow *f, hp_str name)
{
    kvar *v = var_find(f, name);
    if (v)
        return v;
    if (f->n == (int)(sizeof f->v / sizeof *f->v))
        return NULL;
    v = &f->v[f->n++];
    memset(v, 0, sizeof *v);
    v->name = name;
    v->origin = -1;
    return v;
}

static unsigned dtype_bits(const char *q)
{
    if (q_is(q, "triton.language.float32") || q_is(q, "triton.language.float64"))
        return B_F32;
    if (q_is(q, "triton.language.float16") || q_is(q, "triton.language.bfloat16"))
        return B_LOW;
    return 0;
}

/* Bits of the expression [b, e). Loads contribute B_LOAD, not their pointer's bits. */
static unsigned expr_bits(const pysrc *p, kflow *f, ptrdiff_t b, ptrdiff_t e)
{
    unsigned bits = 0;
    char q[QN];
    for (ptrdiff_t i = b; i < e; i++) {
        if (p->t[i].kind != PY_NAME || (i > 0 && pysrc_op(p, i - 1, '.')))
            continue;
        kvar *v = var_find(f, pysrc_text(p, i));
        if (v)
            bits |= v->bits;
        ptrdiff_t j = pysrc_qualname(p, i, q, sizeof q);
        if (q_is(q, "triton.language.arange"))
            bits |= B_ARANGE;
        else if (q_is(q, "triton.language.program_id"))
            bits |= B_PID;
        else if (q_is(q, "triton.language.load") && pysrc_op(p, j, '(') && p->match[j] > j) {
            bits |= B_LOAD;
            j = p->match[j] + 1;
        } else {
            bits |= dtype_bits(q);
        }
        i = j - 1;
    }
    return bits;
}

/* The '=' or augmented assignment at depth 0 of the logical line [k, le), or -1. */
static ptrdiff_t assign_op(const pysrc *p, ptrdiff_t k, ptrdiff_t le)
{
    for (ptrdiff_t j = k; j < le; j++) {
        const pytok *t = &p->t[j];
        if (t->kind == PY_OP && (t->sub == '(' || t->sub == '[' || t->sub == '{') &&
            p->match[j] > j) {
            j = p->match[j];
            continue;
        }
        if (pysrc_op(p, j, '=') || pysrc_op(p, j, PO_AUGASSIGN))
            return j;
        if (pysrc_op(p, j, ':') || t->kind == PY_STRING)
            return -1;
    }
    return -1;
}

typedef struct kctx {
    pyrules *r;
    const pysrc *p;
    const tri_kernel *k;
    kflow f;
    int low;        /* the kernel names fp16/bf16 */
    int even;       /* evidence that sizes divide evenly */
    hp_str block;   /* the block-size name of the first tl.arange */
} kctx;

static int line_has_mod_zero(const pysrc *p, ptrdiff_t k, ptrdiff_t le)
{
    int mod = 0;
    for (ptrdiff_t j = k; j < le; j++) {
        if (pysrc_op(p, j, '%'))
            mod = 1;
        if (mod && (pysrc_op(p, j, PO_EQ) || pysrc_op(p, j, PO_NE)) && j + 1 < le &&
            str_eqc(pysrc_text(p, j + 1), "0"))
            return 1;
    }
    return 0;
}

/* Host code (outside kernels) that tests divisibility: assert n % BLOCK == 0, or
 * if n % BLOCK != 0: raise. Kernels come in source order. */
static int host_even(const pysrc *p, const tri_file *tf)
{
    int k = 0;
    for (ptrdiff_t i = 0; i < p->n; i++) {
        while (k < tf->nk && i >= tf->k[k].body_e)
            k++;
        if (k < tf->nk && i >= tf->k[k].body_b) {
            i = tf->k[k].body_e - 1;
            continue;
        }
        if (p->lstart[i] == i && line_has_mod_zero(p, i, pysrc_line_end(p, i)))
            return 1;
    }
    return 0;
}

/* Sizes shown to divide evenly: tl.multiple_of, tl.assume, asserts, x % B == 0 tests, and
 * heuristics built from such tests. */
static int kernel_even(const pysrc *p, const tri_kernel *k)
{
    char q[QN];
    for (ptrdiff_t i = k->body_b; i < k->body_e; i++) {
        if (p->t[i].kind != PY_NAME)
            continue;
        if (pysrc_is(p, i, "assert") && p->lstart[i] == i)
            return 1;
        ptrdiff_t j = pysrc_qualname(p, i, q, sizeof q);
        if (q_is(q, "triton.language.multiple_of") || q_is(q, "triton.language.assume") ||
            q_is(q, "triton.language.static_assert") || q_is(q, "triton.language.device_assert"))
            return 1;
        i = j > i ? j - 1 : i;
    }
    for (ptrdiff_t i = k->body_b; i < k->body_e; i++)
        if (p->lstart[i] == i && line_has_mod_zero(p, i, pysrc_line_end(p, i)))
            return 1;
    if (k->heuristics >= 0) {
        for (ptrdiff_t i = k->heuristics; i < p->match[k->heuristics]; i++)
            if (pysrc_op(p, i, '%'))
                return 1;
    }
    return 0;
}

static void tri012_access(kctx *c, ptrdiff_t name, ptrdiff_t open, int store)
{
    const pysrc *p = c->p;
    pysrc_arg args[16];
    int n = pysrc_args(p, open, args, 16);
    if (n > 16)
        n = 16;
    int ptr = -1;
    for (int k = 0; k < n; k++)
        if (args[k].kw < 0 && !args[k].star) {
            ptr = k;
            break;
        }
    int kp = pysrc_kwarg(p, args, n, "pointer");
    if (kp >= 0)
        ptr = kp;
    if (ptr < 0)
        return;
    int km = pysrc_kwarg(p, args, n, "mask");
    if (km >= 0 && !pysrc_const(p, args[km].vb, args[km].e, "None"))
        return;
    if (km < 0 && pysrc_npositional(args, n) >= (store ? 3 : 2))
        return;
    if (pysrc_kwarg(p, args, n, "boundary_check") >= 0 || pysrc_kwarg(p, args, n, "other") >= 0)
        return;
    for (int k = 0; k < n; k++)
        if (args[k].star)
            return; /* **kwargs may carry the mask */
    unsigned bits = expr_bits(p, &c->f, args[ptr].vb, args[ptr].e);
    if ((bits & (B_ARANGE | B_PID)) != (B_ARANGE | B_PID))
        return;
    hp_str ptext = span_text(p, args[ptr].vb, args[ptr].e, 48);
    hp_str blk = c->block.len ? c->block : S("the block size");
    const char *m = arena_printf(
        c->r->a,
        "%s of '%.*s' without a mask: offsets from tl.program_id and tl.arange %s past the end "
        "of the tensor when its size is not a multiple of %.*s",
        store ? "tl.store" : "tl.load", (int)ptext.len, ptext.s, store ? "write" : "read",
        (int)blk.len, blk.s);
    add_span(c->r, p, name, open, RID_TRI012, HP_SEV_NOTE, m,
             store ? "pass mask=offsets < n_elements, or show that the size divides evenly "
                     "(tl.multiple_of, an assert n % BLOCK == 0)"
                   : "pass mask=offsets < n_elements (and other= for the masked lanes), or "
                     "show that the size divides evenly (tl.multiple_of, an assert)");
}

static void tri010_reduce(kctx *c, ptrdiff_t name, ptrdiff_t open, const char *fn)
{
    const pysrc *p = c->p;
    if (!c->low)
        return;
    pysrc_arg args[8];
    int n = pysrc_args(p, open, args, 8);
    if (n > 8)
        n = 8;
    if (n == 0 || args[0].kw >= 0 || pysrc_kwarg(p, args, n, "dtype") >= 0)
        return;
    unsigned bits = expr_bits(p, &c->f, args[0].vb, args[0].e);
    if (!(bits & (B_LOAD | B_LOW)) || (bits & B_F32))
        return;
    const char *m = arena_printf(
        c->r->a, "%s over fp16/bf16 values without an fp32 upcast: Triton keeps the "
                    "reduction in the input type, and AMD's packed fp16 math may round "
                    "differently from an NVIDIA run",
        fn);
    add_span(c->r, p, name, open, RID_TRI010, HP_SEV_NOTE, m,
             "upcast first (x.to(tl.float32)) or pass dtype=tl.float32");
}

static void kernel_statements(kctx *c)
{
    const pysrc *p = c->p;
    const tri_kernel *k = c->k;
    char q[QN];
    for (ptrdiff_t i = k->body_b; i < k->body_e; i++) {
        if (p->lstart[i] != i || p->t[i].kind == PY_NEWLINE)
            continue;
        ptrdiff_t le = pysrc_line_end(p, i);
        if (le > k->body_e)
            le = k->body_e;
        if (pysrc_is(p, i, "for")) {
            ptrdiff_t in = i + 1;
            while (in < le && !pysrc_is(p, in, "in"))
                in++;
            unsigned bits = expr_bits(p, &c->f, in + 1, le);
            for (ptrdiff_t j = i + 1; j < in; j++)
                if (p->t[j].kind == PY_NAME) {
                    kvar *v = var_set(&c->f, pysrc_text(p, j));
                    if (v)
                        v->bits = bits & (B_ARANGE | B_PID);
                }
            continue;
        }
        ptrdiff_t eq = assign_op(p, i, le);
        if (eq < 0)
            continue;
        unsigned bits = expr_bits(p, &c->f, eq + 1, le);
        /* offsets wrapped into range: offs = (pid * B + tl.arange(0, B)) % n */
        for (ptrdiff_t j = eq + 1; j < le; j++) {
            if (pysrc_op(p, j, '(') || pysrc_op(p, j, '[') || pysrc_op(p, j, '{')) {
                if (p->match[j] > j)
                    j = p->match[j];
                continue;
            }
            if (pysrc_op(p, j, '%'))
                bits &= ~(unsigned)(B_ARANGE | B_PID);
        }
        int aug = pysrc_op(p, eq, PO_AUGASSIGN);
        /* an fp16/bf16 accumulator: acc = tl.zeros(..., dtype=tl.float16) */
        int32_t zeros = -1;
        for (ptrdiff_t j = eq + 1; j < le; j++) {
            if (p->t[j].kind != PY_NAME || pysrc_op(p, j - 1, '.'))
                continue;
            ptrdiff_t e = pysrc_qualname(p, j, q, sizeof q);
            if ((q_is(q, "triton.language.zeros") || q_is(q, "triton.language.full")) &&
                (bits & B_LOW))
                zeros = (int32_t)j;
            j = e > j ? e - 1 : j;
        }
        for (ptrdiff_t j = i; j < eq; j++) {
            if (p->t[j].kind != PY_NAME || (j > i && pysrc_op(p, j - 1, '.')) ||
                pysrc_op(p, j + 1, '.') || pysrc_op(p, j + 1, '['))
                continue;
            kvar *v = var_find(&c->f, pysrc_text(p, j));
            /* accumulating into a low-precision accumulator */
            int self = 0;
            for (ptrdiff_t m = eq + 1; v && m < le; m++)
                if (p->t[m].kind == PY_NAME && str_eq(pysrc_text(p, m), v->name))
                    self = 1;
            if (v && (v->bits & B_LOWACC) && (aug || self) && !v->reported && c->low &&
                pyrules_on(c->r, RID_TRI010)) {
                v->reported = 1;
                const char *m = arena_printf(
                    c->r->a, "'%.*s' accumulates in fp16/bf16: Triton does not widen "
                                "accumulators, and rounding then differs between vendors",
                    (int)v->name.len, v->name.s);
                add_span(c->r, p, v->origin, v->origin + 1, RID_TRI010, HP_SEV_NOTE, m,
                         "create the accumulator with dtype=tl.float32 and convert once at "
                         "the end");
            }
            if (!v)
                v = var_set(&c->f, pysrc_text(p, j));
            if (!v)
                continue;
            if (aug || self) {
                v->bits |= bits & ~(unsigned)B_LOWACC;
            } else {
                v->bits = bits;
                v->origin = zeros;
                if (zeros >= 0)
                    v->bits |= B_LOWACC;
            }
        }
    }
}

static void kernel_calls(kctx *c)
{
    const pysrc *p = c->p;
    const tri_kernel *k = c->k;
    char q[QN];
    for (ptrdiff_t i = k->body_b; i < k->body_e; i++) {
        if (p->t[i].kind != PY_NAME || (i > 0 && pysrc_op(p, i - 1, '.')))
            continue;
        ptrdiff_t e = pysrc_qualname(p, i, q, sizeof q);
        if (pysrc_op(p, e, '(') && p->match[e] > e) {
            if (q_is(q, "triton.language.load") && pyrules_on(c->r, RID_TRI012) && !c->even)
                tri012_access(c, i, e, 0);
            else if (q_is(q, "triton.language.store") && pyrules_on(c->r, RID_TRI012) && !c->even)
                tri012_access(c, i, e, 1);
            else if (pyrules_on(c->r, RID_TRI010) &&
                     (q_is(q, "triton.language.sum") || q_is(q, "triton.language.cumsum") ||
                      q_is(q, "triton.language.reduce") || q_is(q, "triton.language.cumprod") ||
                      q_is(q, "triton.language.associative_scan")))
                tri010_reduce(c, i, e, q + strlen("triton.language."));
        }
        i = e > i ? e - 1 : i;
    }
}

/* Learns the kernel's variables from its assignments, then checks its calls against that
 * picture (kernels are short, and offsets are rarely reassigned with another meaning). */
static void kernel_flow(kctx *c, pyrules *r, const pysrc *p, int host, const tri_kernel *k)
{
    c->f.n = 0;
    c->low = 0;
    c->block.s = NULL;
    c->block.len = 0;
    c->r = r;
    c->p = p;
    c->k = k;
    char q[QN];
    for (ptrdiff_t i = k->body_b; i < k->body_e; i++) {
        if (p->t[i].kind != PY_NAME || pysrc_op(p, i - 1, '.'))
            continue;
        ptrdiff_t e = pysrc_qualname(p, i, q, sizeof q);
        if (dtype_bits(q) == B_LOW)
            c->low = 1;
        if (!c->block.len && q_is(q, "triton.language.arange") && pysrc_op(p, e, '(')) {
            pysrc_arg a[4];
            int n = pysrc_args(p, e, a, 4);
            if (n >= 2 && a[1].e - a[1].vb == 1 && p->t[a[1].vb].kind == PY_NAME)
                c->block = pysrc_text(p, a[1].vb);
        }
        i = e > i ? e - 1 : i;
    }
    /* parameters annotated with fp16 pointer types count as low precision */
    for (ptrdiff_t i = k->params; i < p->match[k->params] && !c->low; i++)
        if (p->t[i].kind == PY_NAME && (pysrc_contains_nocase(pysrc_text(p, i), "float16") ||
                                        pysrc_contains_nocase(pysrc_text(p, i), "fp16")))
            c->low = 1;
    c->even = host || kernel_even(p, k);
    kernel_statements(c);
    kernel_calls(c);
}

/* ------------------------------------------------------------------ calls anywhere */

static int has_any(hp_str s, const char *const *needles, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (str_find(s, str_cstr(needles[k])) >= 0)
            return 1;
    return 0;
}

static int ptx_asm(hp_str s)
{
    static const char *const ptx[] = {
        ".reg",  ".b16",   ".b32",   ".b64",     ".u16",        ".u32",        ".u64",
        ".s32",  ".f16x2", ".f32",   ".bf16",    ".pred",       "cvt.",        "mov.",
        "prmt.", "lop3.",  "shf.",   "ld.global", "st.global",  "ex2.approx",  "rcp.approx",
        "setp.", "selp.",  "fma.rn", "mul.lo",   "mad.lo",      "cvt.rn",      "{ .reg"};
    return has_any(s, ptx, sizeof ptx / sizeof *ptx);
}

static int ptx_constraints(hp_str s)
{
    ptrdiff_t i = 0;
    while (i < s.len) {
        ptrdiff_t j = i;
        while (j < s.len && s.s[j] != ',')
            j++;
        ptrdiff_t b = i;
        while (b < j && (s.s[b] == '=' || s.s[b] == '+' || s.s[b] == '&' || s.s[b] == ' '))
            b++;
        if (j - b == 1 && strchr("rhlfd", s.s[b]))
            return 1;
        i = j + 1;
    }
    return 0;
}

static void tri006(pyrules *r, const pysrc *p, ptrdiff_t name, ptrdiff_t open)
{
    pysrc_arg a[16];
    int n = pysrc_args(p, open, a, 16);
    if (n > 16)
        n = 16;
    int ka = pysrc_kwarg(p, a, n, "asm"), kc = pysrc_kwarg(p, a, n, "constraints");
    if (ka < 0 && n >= 1 && a[0].kw < 0)
        ka = 0;
    if (kc < 0 && n >= 2 && a[1].kw < 0)
        kc = 1;
    hp_str asm_s = {0, 0}, con = {0, 0};
    int have_asm = ka >= 0 && pysrc_str(p, a[ka].vb, a[ka].e, &asm_s);
    int have_con = kc >= 0 && pysrc_str(p, a[kc].vb, a[kc].e, &con);
    int ptx = (have_asm && ptx_asm(asm_s)) || (have_con && ptx_constraints(con));
    if (ptx) {
        add_span(r, p, name, open, RID_TRI006, HP_SEV_ERROR,
                 "tl.inline_asm_elementwise with PTX: the AMD backend hands the string to the "
                 "AMDGPU assembler, which rejects PTX (and its 'r'/'h'/'l' constraints)",
                 "use tl.math or libdevice functions, or add an AMDGCN variant ('v' "
                 "constraints) chosen by torch.version.hip");
    } else if (!have_asm) {
        add_span(r, p, name, open, RID_TRI006, HP_SEV_WARNING,
                 "tl.inline_asm_elementwise: the assembly must be AMDGCN on AMD GPUs, and "
                 "this string cannot be checked here",
                 "make sure an AMDGCN variant is used on ROCm (guard on torch.version.hip)");
    }
}

static void tri005(pyrules *r, const pysrc *p, ptrdiff_t open)
{
    unsigned tg = pyrules_targets(r);
    pysrc_arg a[16];
    int n = pysrc_args(p, open, a, 16);
    if (n > 16)
        n = 16;
    int ki = pysrc_kwarg(p, a, n, "input_precision");
    if (ki < 0 && n >= 4 && a[3].kw < 0)
        ki = 3; /* dot(input, other, acc, input_precision, ...) */
    hp_str v;
    if (ki >= 0 && pysrc_str(p, a[ki].vb, a[ki].e, &v)) {
        if (RULES_EQ(v, "tf32") && (tg & ~(unsigned)TGT_GFX942)) {
            add_span(r, p, a[ki].b, a[ki].e, RID_TRI005, HP_SEV_ERROR,
                     "input_precision=\"tf32\": Triton's AMD backend accepts only \"ieee\" "
                     "(\"tf32\" runs as XF32 on gfx942 alone) and asserts otherwise",
                     "leave input_precision unset, or choose it per target");
        } else if (RULES_EQ(v, "tf32")) {
            add_span(r, p, a[ki].b, a[ki].e, RID_TRI005, HP_SEV_NOTE,
                     "input_precision=\"tf32\" runs as XF32 on gfx942, whose rounding differs "
                     "from NVIDIA TF32",
                     "compare against an fp32 reference with a TF32-sized tolerance");
        } else if (RULES_EQ(v, "tf32x3") || RULES_EQ(v, "bf16x3") || RULES_EQ(v, "bf16x6")) {
            const char *m = arena_printf(r->a,
                                         "input_precision=\"%.*s\" is NVIDIA-only: Triton's "
                                         "AMD backend asserts on it",
                                         (int)v.len, v.s);
            add_span(r, p, a[ki].b, a[ki].e, RID_TRI005, HP_SEV_ERROR, m,
                     "use \"ieee\" on AMD (exact fp32) or leave it unset");
        }
        return;
    }
    int kt = pysrc_kwarg(p, a, n, "allow_tf32");
    if (kt >= 0 && pysrc_const(p, a[kt].vb, a[kt].e, "True"))
        add_span(r, p, a[kt].b, a[kt].e, RID_TRI005, HP_SEV_NOTE,
                 "allow_tf32=True has no TF32 to use on AMD except gfx942 (XF32): elsewhere "
                 "the dot runs in full fp32, slower than and not bit-equal to an NVIDIA TF32 run",
                 "compare results with tolerances; use fp16/bf16 inputs for speed on AMD");
}

static void tri009(pyrules *r, const pysrc *p, ptrdiff_t name, ptrdiff_t open)
{
    pysrc_arg a[16];
    int n = pysrc_args(p, open, a, 16);
    if (n > 16)
        n = 16;
    int ks = pysrc_kwarg(p, a, n, "scope");
    hp_str v;
    if (ks >= 0 && pysrc_str(p, a[ks].vb, a[ks].e, &v) && RULES_EQ(v, "sys"))
        add_span(r, p, a[ks].b, a[ks].e, RID_TRI009, HP_SEV_WARNING,
                 "scope=\"sys\" atomics need coherent (fine-grained) memory on AMD; on "
                 "ordinary device memory other agents may not see them",
                 "allocate the target with fine-grained or host-coherent memory, or use "
                 "scope \"gpu\"");
    int kv = pysrc_kwarg(p, a, n, "val");
    if (kv < 0 && n >= 2 && a[1].kw < 0)
        kv = 1;
    if (kv < 0)
        return;
    hp_str t = span_text(p, a[kv].vb, a[kv].e, 4096);
    if (pysrc_contains_nocase(t, "float16") || pysrc_contains_nocase(t, "bfloat16") ||
        pysrc_contains_nocase(t, "fp16") || pysrc_contains_nocase(t, "bf16"))
        add_span(r, p, name, open, RID_TRI009, HP_SEV_WARNING,
                 "16-bit floating-point atomic: bf16 atomic_add reached Triton's AMD backend "
                 "only in 2025, and fp16 atomics fall back to compare-and-swap loops where "
                 "packed atomics are missing",
                 "accumulate into an fp32 buffer and convert afterwards");
}

static const char *const tma_names[] = {
    "triton.language.make_tensor_descriptor",
    "triton.language._experimental_make_tensor_descriptor",
    "triton.language._experimental_descriptor_load",
    "triton.language._experimental_descriptor_store",
    "triton.tools.tensor_descriptor.TensorDescriptor",
    "triton.tools.experimental_descriptor.create_1d_tma_descriptor",
    "triton.tools.experimental_descriptor.create_2d_tma_descriptor",
};

/* Does the file name an FNUZ fp8 type (tl.float8e4b8, tl.float8e5b16, torch.float8_e4m3fnuz,
 * torch.float8_e5m2fnuz, or a string of one) or test for the AMD side? Then OCP data and FNUZ
 * data may meet in it. Asked once per file. */
static int fnuz_file(pyrules *r, const pysrc *p)
{
    if (!r->fnuz) {
        r->fnuz = 1;
        for (ptrdiff_t k = 0; k < p->n && r->fnuz == 1; k++) {
            hp_str s = pysrc_text(p, k);
            if ((p->t[k].kind == PY_NAME || p->t[k].kind == PY_STRING) &&
                (str_find(s, S("fnuz")) >= 0 || str_find(s, S("float8e4b8")) >= 0 ||
                 str_find(s, S("float8e5b16")) >= 0 || str_find(s, S("fp8e4b8")) >= 0 ||
                 str_find(s, S("fp8e5b16")) >= 0))
                r->fnuz = 2;
        }
        if (r->fnuz == 1 && pysrc_mentions_amd(p))
            r->fnuz = 2;
    }
    return r->fnuz == 2;
}

static void fp8_name(pyrules *r, const pysrc *p, ptrdiff_t b, ptrdiff_t e, const char *q)
{
    unsigned tg = pyrules_targets(r);
    const char *t = q + strlen("triton.language.");
    /* a comparison with the caller's dtype, a map of both families, a format's own code */
    if (pyrules_fp8_use(r, p, b, e))
        return;
    if (strcmp(t, "float8e4b15") == 0 || strcmp(t, "float8e4b15x4") == 0) {
        add_span(r, p, b, e, RID_TRI004, HP_SEV_ERROR,
                 "tl.float8e4b15 is an NVIDIA-only format: no AMD GPU supports it in Triton",
                 "use tl.float8e4b8 (FNUZ) on gfx942 or tl.float8e4nv (OCP) on gfx950");
    } else if ((strcmp(t, "float8e4nv") == 0 || strcmp(t, "float8e5") == 0) &&
               (tg & (TGT_CDNA12 | TGT_GFX942 | TGT_RDNA))) {
        /* where the file knows of no FNUZ data (it names no FNUZ type and no AMD test), its
         * fp8 is OCP throughout: on gfx942 Triton emulates it, and computes the same */
        int mixed = fnuz_file(r, p);
        const char *m = arena_printf(
            r->a,
            mixed ? "tl.%s is OCP fp8: native only on gfx950 (MI350) and RDNA4; on gfx942 "
                    "(MI300) and older Triton emulates it or rejects it, and MI300 fp8 data "
                    "is FNUZ (tl.float8e4b8/tl.float8e5b16)"
                  : "tl.%s is OCP fp8: native only on gfx950 (MI350) and RDNA4; on gfx942 "
                    "(MI300) Triton emulates it (slower), on older CDNA it rejects it; the file "
                    "names no FNUZ type, so its fp8 data is OCP throughout",
            t);
        add_span(r, p, b, e, RID_TRI004, mixed ? HP_SEV_WARNING : HP_SEV_NOTE, m,
                 "choose the dtype from the GPU's gcnArchName: gfx942 -> e4b8/e5b16, gfx950 "
                 "-> e4nv/e5");
    } else if ((strcmp(t, "float8e4b8") == 0 || strcmp(t, "float8e5b16") == 0) &&
               (tg & ~(unsigned)TGT_GFX942)) {
        const char *m = arena_printf(
            r->a, "tl.%s is FNUZ fp8: native only on gfx942 (MI300, max 240 for e4m3), "
                     "emulated elsewhere and deprecated as a tl.dot operand on gfx950",
            t);
        add_span(r, p, b, e, RID_TRI004, HP_SEV_WARNING, m,
                 "choose the dtype from the GPU's gcnArchName and keep torch and Triton dtypes "
                 "paired (float8_e4m3fnuz <-> tl.float8e4b8)");
    }
}

static const char tri007_msg[] =
    "triton.language.extra.cuda targets NVPTX only: the AMD backend maps just "
    "triton.language.extra.libdevice to its own library";
static const char tri007_fix[] =
    "import libdevice from triton.language.extra (portable); drop or guard extra.cuda helpers "
    "such as globaltimer and smid";

static int extra_cuda(hp_str mod)
{
    hp_str pre = S("triton.language.extra.cuda");
    return str_starts(mod, pre) && (mod.len == pre.len || mod.s[pre.len] == '.');
}

/* Imports of triton.language.extra.cuda: "from M import a, b", "import M [as x]". */
/* Is the statement at i in an "except ImportError:" handler (or a bare except)? There a
 * CUDA-only import is the fallback for a Triton that lacks what the try imports. */
static int import_fallback(const pysrc *p, ptrdiff_t i)
{
    ptrdiff_t h = p->up[i];
    if (h < 0 || !pysrc_is(p, h, "except"))
        return 0;
    ptrdiff_t le = pysrc_line_end(p, h);
    if (pysrc_op(p, h + 1, ':'))
        return 1;
    for (ptrdiff_t j = h + 1; j < le; j++)
        if (pysrc_is(p, j, "ImportError") || pysrc_is(p, j, "ModuleNotFoundError"))
            return 1;
    return 0;
}

static void tri007_imports(pyrules *r, const pysrc *p)
{
    char q[QN];
    for (ptrdiff_t i = 0; i < p->n; i++) {
        if (p->lstart[i] != i || !(pysrc_is(p, i, "import") || pysrc_is(p, i, "from")) ||
            guarded(p, i) || import_fallback(p, i))
            continue;
        if (pysrc_is(p, i, "import")) {
            for (ptrdiff_t j = i + 1; j < p->n && p->t[j].kind == PY_NAME;) {
                ptrdiff_t e = pysrc_qualname(p, j, q, sizeof q);
                if (extra_cuda(str_cstr(q))) {
                    add_span(r, p, j, e, RID_TRI007, HP_SEV_ERROR, tri007_msg, tri007_fix);
                    break;
                }
                if (pysrc_is(p, e, "as"))
                    e += 2;
                if (!pysrc_op(p, e, ','))
                    break;
                j = e + 1;
            }
        } else if (pysrc_is(p, i, "from")) {
            ptrdiff_t e = pysrc_qualname(p, i + 1, q, sizeof q);
            if (e <= i + 1 || !pysrc_is(p, e, "import"))
                continue;
            if (extra_cuda(str_cstr(q))) {
                add_span(r, p, i + 1, e, RID_TRI007, HP_SEV_ERROR, tri007_msg, tri007_fix);
                continue;
            }
            if (strcmp(q, "triton.language.extra") != 0)
                continue;
            for (ptrdiff_t j = e + 1; j < p->n && p->t[j].kind != PY_NEWLINE; j++)
                if (pysrc_is(p, j, "cuda") && !pysrc_op(p, j - 1, '.')) {
                    add_span(r, p, j, j + 1, RID_TRI007, HP_SEV_ERROR, tri007_msg, tri007_fix);
                    break;
                }
        }
    }
}

/* Names anywhere in the file: fp8 dtypes, CUDA-only modules, TMA, dots, inline asm, atomics. */
static void scan_names(pyrules *r, const pysrc *p, const tri_file *tf)
{
    char q[QN];
    ptrdiff_t last_tri007_line = -1;
    for (ptrdiff_t i = 0; i < p->n; i++) {
        if (p->t[i].kind != PY_NAME || (i > 0 && pysrc_op(p, i - 1, '.')))
            continue;
        ptrdiff_t e = pysrc_qualname(p, i, q, sizeof q);
        if (e <= i || strncmp(q, "triton.", 7) != 0) {
            i = e > i ? e - 1 : i;
            continue;
        }
        int call = pysrc_op(p, e, '(') && p->match[e] > e;
        if (strncmp(q, "triton.language.float8", 22) == 0 && pyrules_on(r, RID_TRI004) &&
            !guarded(p, i)) {
            fp8_name(r, p, i, e, q);
        } else if (strncmp(q, "triton.language.extra.cuda", 26) == 0 &&
                   pyrules_on(r, RID_TRI007) && p->lstart[i] != last_tri007_line && !guarded(p, i)) {
            /* spelled-out uses (tl.extra.cuda.x); imports are handled below, and uses of an
             * imported alias are not reported again */
            int spelled = 0;
            for (ptrdiff_t j = i; j + 2 < e; j++)
                if (pysrc_is(p, j, "extra") && pysrc_is(p, j + 2, "cuda"))
                    spelled = 1;
            ptrdiff_t ls = p->lstart[i];
            if (spelled && !pysrc_is(p, ls, "from") && !pysrc_is(p, ls, "import")) {
                last_tri007_line = ls;
                add_span(r, p, i, e, RID_TRI007, HP_SEV_ERROR, tri007_msg, tri007_fix);
            }
        } else if (call && q_is(q, "triton.language.dot") && pyrules_on(r, RID_TRI005) &&
                   !guarded(p, i)) {
            tri005(r, p, e);
        } else if (call && q_is(q, "triton.language.inline_asm_elementwise") &&
                   pyrules_on(r, RID_TRI006) && !guarded(p, i)) {
            tri006(r, p, i, e);
        } else if (call && strncmp(q, "triton.language.atomic_", 23) == 0 &&
                   pyrules_on(r, RID_TRI009) && triton_kernel_at(tf, i) >= 0) {
            tri009(r, p, i, e);
        } else if (pyrules_on(r, RID_TRI008)) {
            for (size_t k = 0; k < sizeof tma_names / sizeof *tma_names; k++)
                if (strncmp(q, tma_names[k], strlen(tma_names[k])) == 0 && !guarded(p, i) &&
                    !pysrc_is(p, p->lstart[i], "from") && !pysrc_is(p, p->lstart[i], "import")) {
                    /* a note: Triton's AMD backend rewrites descriptor loads and stores into
                     * pointer ones (Triton 3.4 and later), so the kernel compiles and runs */
                    add_span(r, p, i, e, RID_TRI008, HP_SEV_NOTE,
                             "tensor descriptors (TMA) are NVIDIA hardware: on AMD Triton "
                             "lowers them to plain pointer arithmetic, so they work without "
                             "the TMA speed-up (AMD backends before Triton 3.4 reject them)",
                             "keep a pointer-based path for AMD, or accept the slower "
                             "lowering and retune");
                    break;
                }
        }
        i = e - 1;
    }
    /* warp specialization options */
    if (!pyrules_on(r, RID_TRI008))
        return;
    for (ptrdiff_t i = 0; i + 1 < p->n; i++) {
        if (p->t[i].kind != PY_NAME || !pysrc_op(p, i + 1, '='))
            continue;
        hp_str s = pysrc_text(p, i);
        if ((RULES_EQ(s, "warp_specialize") || RULES_EQ(s, "num_consumer_groups") ||
             RULES_EQ(s, "num_buffers_warp_spec") || RULES_EQ(s, "enable_warp_specialization")) &&
            !guarded(p, i))
            add_span(r, p, i, i + 1, RID_TRI008, HP_SEV_WARNING,
                     "warp specialization is an NVIDIA Hopper/Blackwell feature; the AMD "
                     "backend ignores or rejects it",
                     "leave it out of AMD configs");
    }
}

/* ------------------------------------------------------------------ TRI011 */

/* The table row of the Triton variable named by body (alone or as NAME=value), or -1. */
int rules_triton_env_row(hp_str body)
{
    for (int k = 0; k < triton_env_rows_COUNT; k++) {
        hp_str name = str_cstr(triton_env_rows[k][0]);
        if (str_starts(body, name) && (body.len == name.len || body.s[name.len] == '='))
            return k;
    }
    return -1;
}

const char *rules_triton_env_message(arena *a, int row)
{
    const char *name = triton_env_rows[row][0];
    if (strcmp(triton_env_rows[row][1], "nvidia") == 0)
        return arena_printf(a, "%s configures an NVIDIA tool and has no effect with ROCm (%s)",
                            name, triton_env_rows[row][2]);
    return arena_printf(a, "%s changes code generation on AMD (%s); record it with benchmark "
                           "results, its default differs between Triton releases",
                        name, triton_env_rows[row][2]);
}

const char *rules_triton_env_fix(int row)
{
    return strcmp(triton_env_rows[row][1], "nvidia") == 0
               ? "drop it from AMD launch scripts"
               : "set it explicitly where results must be reproducible";
}

static void tri011(pyrules *r, const pysrc *p)
{
    for (ptrdiff_t i = 0; i < p->n; i++) {
        if (p->t[i].kind != PY_STRING)
            continue;
        hp_str body = pylex_string_body(p->src, &p->t[i]);
        int row = rules_triton_env_row(body);
        if (row < 0)
            continue;
        hp_str name = str_cstr(triton_env_rows[row][0]);
        ptrdiff_t off = body.s - p->src;
        pyrules_add(r, off, name.len, RID_TRI011, HP_SEV_NOTE,
                    rules_triton_env_message(r->a, row), rules_triton_env_fix(row));
    }
}

/* ------------------------------------------------------------------ entry */

void rules_triton(pyrules *r, const pysrc *p, const tri_file *tf)
{
    unsigned char *seen = NULL;
    tri_memo memo = {r->a, NULL, -1, 0, -1, 0, -1};
    for (int k = 0; k < tf->ns; k++)
        site_rules(r, p, tf, &memo, &tf->s[k], &seen);
    /* host-side warp arithmetic means Triton's warps only where the file uses Triton (not in
     * CuTe DSL or TileLang files, whose warps are the hardware's, even when they borrow
     * triton.cdiv: a file with no Triton kernel, config or launch of its own that imports
     * such a language computes that language's threads) */
    if (pyrules_on(r, RID_TRI001) && imports_triton(p) &&
        (tf->nk > 0 || tf->ns > 0 || !imports_other_dsl(p))) {
        tri001_host(r, p);
        if (pyrules_targets(r) & TGT_WAVE64)
            tri001_count(r, p, 64, seen);
    }
    if (pyrules_on(r, RID_TRI002))
        tri002_autotune(r, p, tf);
    scan_names(r, p, tf);
    if (pyrules_on(r, RID_TRI007))
        tri007_imports(r, p);
    if ((pyrules_on(r, RID_TRI010) || pyrules_on(r, RID_TRI012)) && tf->nk > 0) {
        int host = host_even(p, tf);
        kctx *c = arena_alloc_nozero(r->a, (ptrdiff_t)sizeof(kctx), _Alignof(kctx), 1);
        for (int k = 0; c && k < tf->nk; k++)
            kernel_flow(c, r, p, host, &tf->k[k]);
    }
    if (pyrules_on(r, RID_TRI011))
        tri011(r, p);
}
