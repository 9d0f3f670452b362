/* rules_lib.c: LIB004, CUB warp collectives whose implicit width differs (32 in CUB, 64 on gfx9
 * in hipCUB), warp-transpose block loads and stores of blocks that are not whole wavefronts,
 * and thrust::cuda execution policies. The other LIB rules are plain names
 * (data/tables/rule_names.tsv). */
#include <string.h>

#include "rules.h"
#include "str.h"

#include "banned.h"

/* Template arguments a collective needs before its logical-warp-width argument. */
static int width_position(hp_str s)
{
    if (RULES_EQ(s, "WarpReduce") || RULES_EQ(s, "WarpScan"))
        return 2;
    if (RULES_EQ(s, "WarpLoad") || RULES_EQ(s, "WarpStore"))
        return 4;
    if (RULES_EQ(s, "WarpExchange") || RULES_EQ(s, "WarpMergeSort"))
        return 3;
    return 0;
}

static int file_uses_cub(const rctx *c)
{
    for (ptrdiff_t i = 0; i < c->nt; i++)
        if (c->t[i].kind == TK_IDENT && (rules_is(c, i, "cub") || rules_is(c, i, "hipcub")))
            return 1;
    return 0;
}

/* Is there warp arithmetic with 32 in [from, to]: x / 32, x % 32, x >> 5, x & 31? */
static int warp32(const rctx *c, ptrdiff_t from, ptrdiff_t to)
{
    for (ptrdiff_t j = from; j <= to && j < c->nt; j = rules_next(c, j)) {
        const tok *k = &c->t[j];
        if (k->kind != TK_PUNCT || (k->flags & TF_PP))
            continue;
        long long want = k->sub == '/' || k->sub == '%' ? 32 : k->sub == P_SHR ? 5
                         : k->sub == '&'                  ? 31
                                                          : -1;
        if (want < 0 || rules_operand_left(c, j) < 0)
            continue;
        ptrdiff_t r = rules_operand_right(c, j);
        long long v;
        int bits;
        if (r >= 0 && rules_eval(c, rules_next(c, j), r, &v, &bits) && v == want)
            return 1;
    }
    return 0;
}

/* Is the name at i cub's: cub::X or hipcub::X, or X alone in a file that uses cub (*uses_cub:
 * -1 until the file is looked at)? */
static int cub_name(rctx *c, ptrdiff_t i, int *uses_cub)
{
    ptrdiff_t p = rules_prev(c, i);
    if (rules_punct(c, p, P_SCOPE)) {
        ptrdiff_t q = rules_prev(c, p);
        return rules_is(c, q, "cub") || rules_is(c, q, "hipcub");
    }
    if (*uses_cub < 0)
        *uses_cub = file_uses_cub(c);
    return *uses_cub != 0;
}

static void collective(rctx *c, ptrdiff_t i, int need, int *uses_cub)
{
    if (!cub_name(c, i, uses_cub))
        return;
    ptrdiff_t lt = rules_next(c, i);
    if (!rules_punct(c, lt, '<'))
        return;
    ptrdiff_t gt = rules_template_close(c, lt, -1);
    if (gt < 0)
        return;
    int n = 1, depth = 0;
    for (ptrdiff_t j = rules_next(c, lt); j < gt; j = rules_next(c, j)) {
        if (rules_punct(c, j, '<') || rules_punct(c, j, '(') || rules_punct(c, j, '['))
            depth++;
        else if (rules_punct(c, j, '>') || rules_punct(c, j, ')') || rules_punct(c, j, ']'))
            depth--;
        else if (depth == 0 && rules_punct(c, j, ','))
            n++;
    }
    if (n >= need)
        return;
    const rules_fn *f = rules_fn_of(c, i);
    int split = f ? warp32(c, f->open, f->close) : warp32(c, 0, c->nt - 1);
    hp_str s = rules_text(c, i);
    if (split)
        rules_report(c, RID_LIB004, i, HP_SEV_ERROR, 0,
                     rules_fmt(c, "'%.*s' without a width is 32 lanes wide in CUB but 64 on "
                                  "gfx9 in hipCUB, while this code splits the block into "
                                  "32-thread warps: two warps get folded together",
                               (int)s.len, s.s),
                     NULL);
    else
        rules_report(c, RID_LIB004, i, HP_SEV_WARNING, 0,
                     rules_fmt(c, "'%.*s' without a width is 32 lanes wide in CUB but 64 on "
                                  "gfx9 in hipCUB; check the code around it assumes neither",
                               (int)s.len, s.s),
                     NULL);
}

/* ---- BlockLoad and BlockStore warp transposes
 * cub::BlockLoad<T, BLOCK_THREADS, ITEMS, cub::BLOCK_LOAD_WARP_TRANSPOSE> (and BlockStore)
 * exchanges through warp-sized tiles: on CUDA any multiple of 32 threads works; hipCUB's
 * rocPRIM implementation needs a multiple of the 64-lane wavefront on gfx9. The block size is
 * a constant, or a template parameter that the file's calls of a function template fill with
 * one (launch<32, 4, T>(...) for template <int kNThreads, ...>). */

/* The top-level template arguments between '<' lt and its '>' (at most 16): first/last. */
static int template_args(const rctx *c, ptrdiff_t lt, ptrdiff_t *first, ptrdiff_t *last)
{
    ptrdiff_t gt = rules_template_close(c, lt, -1);
    if (gt < 0)
        return 0;
    int n = 0, depth = 0;
    ptrdiff_t from = rules_next(c, lt);
    for (ptrdiff_t j = from; j <= gt && n < 16; j = rules_next(c, j)) {
        if (j < gt && (rules_punct(c, j, '<') || rules_punct(c, j, '(') || rules_punct(c, j, '[')))
            depth++;
        else if (j < gt && (rules_punct(c, j, '>') || rules_punct(c, j, ')') ||
                            rules_punct(c, j, ']')))
            depth--;
        else if (j == gt || (depth == 0 && rules_punct(c, j, ','))) {
            if (j == from)
                return n;
            first[n] = from;
            last[n++] = rules_prev(c, j);
            from = rules_next(c, j);
        }
    }
    return n;
}

/* Same names but for a trailing underscore (kNThreads and kNThreads_). */
static int same_param(hp_str a, hp_str b)
{
    while (a.len > 1 && a.s[a.len - 1] == '_')
        a.len--;
    while (b.len > 1 && b.s[b.len - 1] == '_')
        b.len--;
    return str_eq(a, b);
}

/* The position of a template parameter named param in the template header whose '<' is lt
 * (template <int kNThreads, int kNItems, typename T>), or -1. */
static int param_position(const rctx *c, ptrdiff_t lt, hp_str param)
{
    ptrdiff_t first[16], last[16];
    int n = template_args(c, lt, first, last);
    for (int k = 0; k < n; k++) {
        ptrdiff_t e = last[k];
        /* int kNThreads, int kNThreads = 128: the name before '=' or at the end */
        for (ptrdiff_t j = first[k]; j <= last[k]; j = rules_next(c, j))
            if (rules_punct(c, j, '=')) {
                e = rules_prev(c, j);
                break;
            }
        if (rules_ident(c, e) && e != first[k] && same_param(rules_text(c, e), param))
            return k;
    }
    return -1;
}

static void warp_transpose_calls(rctx *c, ptrdiff_t at, hp_str param)
{
    int line = 1;
    for (ptrdiff_t k = 0; k < c->t[at].off; k++)
        line += c->src[k] == '\n';
    for (ptrdiff_t t = 0; t < c->nt; t = rules_next(c, t)) {
        if (!rules_is(c, t, "template") || !rules_punct(c, rules_next(c, t), '<'))
            continue;
        ptrdiff_t lt = rules_next(c, t), gt = rules_template_close(c, lt, -1);
        int pos = gt > lt ? param_position(c, lt, param) : -1;
        if (pos < 0)
            continue;
        /* the function the header declares: the first identifier followed by '(' */
        ptrdiff_t name = -1;
        for (ptrdiff_t j = rules_next(c, gt), n = 0; j < c->nt && n < 12;
             j = rules_next(c, j), n++) {
            if (rules_punct(c, j, ';') || rules_punct(c, j, '{') || rules_is(c, j, "struct") ||
                rules_is(c, j, "class"))
                break;
            if (rules_ident(c, j) && rules_punct(c, rules_next(c, j), '(')) {
                name = j;
                break;
            }
        }
        if (name < 0)
            continue;
        hp_str fname = rules_text(c, name);
        for (ptrdiff_t j = 0; j < c->nt; j = rules_next(c, j)) {
            if (j == name || !rules_ident(c, j) || !str_eq(rules_text(c, j), fname) ||
                !rules_punct(c, rules_next(c, j), '<') || (rules_scope(c, j) & SC_GUARDED))
                continue;
            ptrdiff_t first[16], last[16];
            int n = template_args(c, rules_next(c, j), first, last);
            long long v;
            int bits;
            if (n <= pos || !rules_eval(c, first[pos], last[pos], &v, &bits) || v <= 0 ||
                v % 64 == 0)
                continue;
            rules_report_at(
                c, RID_LIB004, c->t[j].off, c->t[last[pos]].off + c->t[last[pos]].len - c->t[j].off,
                HP_SEV_ERROR, RF_WAVE64,
                rules_fmt(c, "'%.*s' sets %.*s = %lld for the warp-transpose BlockLoad/BlockStore "
                             "of line %d: hipCUB's warp transposes need a block of whole "
                             "64-lane wavefronts on gfx9",
                          (int)fname.len, fname.s, (int)param.len, param.s, v, line),
                "use BLOCK_LOAD_DIRECT/BLOCK_STORE_DIRECT (or a multiple of 64 threads) where "
                "the block is smaller");
        }
    }
}

static void block_transpose(rctx *c, ptrdiff_t i, int *uses_cub, int *done)
{
    if (!cub_name(c, i, uses_cub))
        return;
    ptrdiff_t lt = rules_next(c, i), first[16], last[16];
    if (!rules_punct(c, lt, '<'))
        return;
    int n = template_args(c, lt, first, last);
    if (n < 4)
        return;
    int transpose = 0;
    for (ptrdiff_t j = first[3]; j <= last[3] && !transpose; j = rules_next(c, j))
        transpose = rules_ident(c, j) && (rules_is(c, j, "BLOCK_LOAD_WARP_TRANSPOSE") ||
                                          rules_is(c, j, "BLOCK_STORE_WARP_TRANSPOSE") ||
                                          rules_is(c, j, "BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED") ||
                                          rules_is(c, j, "BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED"));
    if (!transpose)
        return;
    long long v;
    int bits;
    if (rules_eval(c, first[1], last[1], &v, &bits)) {
        if (v > 0 && v % 64 != 0)
            rules_report(c, RID_LIB004, i, HP_SEV_ERROR, RF_WAVE64,
                         rules_fmt(c, "a warp-transpose %.*s of %lld threads: hipCUB's warp "
                                      "transposes need a block of whole 64-lane wavefronts on "
                                      "gfx9", (int)c->t[i].len, c->src + c->t[i].off, v),
                         "use BLOCK_LOAD_DIRECT/BLOCK_STORE_DIRECT (or a multiple of 64 "
                         "threads) where the block is smaller");
        return;
    }
    /* a template parameter: the calls that fill it, once per file and name */
    if (first[1] != last[1] || !rules_ident(c, first[1]) || *done)
        return;
    *done = 1;
    warp_transpose_calls(c, i, rules_text(c, first[1]));
}

/* The identifiers the pass below acts on (rules_hot.c) that rule_keys.tsv cannot list: the
 * collectives with a width parameter. */
unsigned rules_lib_names(const rctx *c, hp_str s, int number)
{
    (void)c;
    if (number)
        return 0;
    if (s.len < 6 || s.s[0] != 'W')
        return 0;
    return width_position(s) > 0 ? RH_LIB : 0;
}

void rules_lib_run(rctx *c)
{
    int uses_cub = -1, transposes = 0;
    for (ptrdiff_t hk = 0, i; (i = rules_hot_next(c, &hk, RH_LIB)) >= 0;) {
        if (c->t[i].kind != TK_IDENT || (rules_scope(c, i) & SC_GUARDED))
            continue;
        hp_str s = rules_text(c, i);
        int need;
        if (s.s[0] == 'W' && (need = width_position(s)) > 0) {
            collective(c, i, need, &uses_cub);
        } else if (RULES_EQ(s, "BlockLoad") || RULES_EQ(s, "BlockStore")) {
            block_transpose(c, i, &uses_cub, &transposes);
        } else if (RULES_EQ(s, "thrust") && rules_punct(c, rules_next(c, i), P_SCOPE) &&
                   rules_is(c, rules_next(c, rules_next(c, i)), "cuda")) {
            /* a note: translate renames thrust::cuda:: to thrust::hip:: (and the headers) */
            rules_report(c, RID_LIB004, i, HP_SEV_NOTE, RF_ONCE,
                         "thrust::cuda execution policies and headers are CUDA's; rocThrust "
                         "spells them thrust::hip (hipport translate renames them)",
                         "use thrust::hip::par (or thrust::device) with rocThrust");
        }
    }
}
