/* rules_wave.c: the WAVE rules: code that assumes 32-lane warps, 32-bit lane masks, warp-sync
 * builtins or a compile-time warpSize. gfx9 GPUs (every Instinct) run 64-lane wavefronts;
 * HIP's lane masks are 64 bits on every target. */
#include <string.h>

#include "rules.h"
#include "str.h"

#include "banned.h"

/* ------------------------------------------------------------------ shared predicates */

/* A name for a thread, lane or warp index: threadIdx, lane, tid, thread_id, warp_id... */
static int laneish(hp_str s)
{
    return rules_name_has(s, "lane") || rules_name_has(s, "tid") ||
           rules_name_has(s, "threadid") || rules_name_has(s, "thread_id") ||
           rules_name_has(s, "warpid") || rules_name_has(s, "warp_id");
}

static int warpish(hp_str s)
{
    return rules_name_has(s, "warp") && !RULES_EQ(s, "warpSize");
}

/* WARP_SIZE, kWarpSize, THREADS_PER_WARP, ... (underscores ignored, any case) */
static int warp_size_name(hp_str s)
{
    int w = 0;
    for (ptrdiff_t i = 0; i + 1 < s.len && !w; i++)
        w = (s.s[i] == 'w' || s.s[i] == 'W') && (s.s[i + 1] == 'a' || s.s[i + 1] == 'A');
    if (!w)
        return 0;
    char low[64];
    ptrdiff_t n = 0;
    for (ptrdiff_t i = 0; i < s.len && n < (ptrdiff_t)sizeof low - 1; i++) {
        char ch = s.s[i];
        if (ch == '_')
            continue;
        if (ch >= 'A' && ch <= 'Z')
            ch = (char)(ch - 'A' + 'a');
        low[n++] = ch;
    }
    low[n] = 0;
    return strstr(low, "warpsize") || strstr(low, "warpsz") || strstr(low, "threadsperwarp") ||
           strstr(low, "lanesperwarp") || strstr(low, "warpthreads") ||
           strstr(low, "warplanes") || strstr(low, "warpwidth");
}

static int eval_is(const rctx *c, ptrdiff_t first, ptrdiff_t last, long long want)
{
    long long v;
    int bits;
    return rules_eval(c, first, last, &v, &bits) && v == want;
}

/* The source text of [first, last], shortened for messages. */
static const char *snippet(rctx *c, ptrdiff_t first, ptrdiff_t last)
{
    if (first < 0 || last < first || last >= c->nt)
        return "";
    ptrdiff_t a = c->t[first].off, b = c->t[last].off + c->t[last].len;
    /* one line, spaces collapsed */
    char out[72];
    ptrdiff_t n = 0;
    int space = 0;
    for (ptrdiff_t i = a; i < b && n < (ptrdiff_t)sizeof out - 4; i++) {
        char ch = c->src[i];
        if (ch == '\n' || ch == '\r' || ch == '\t' || ch == ' ') {
            space = 1;
            continue;
        }
        if (space && n)
            out[n++] = ' ';
        space = 0;
        out[n++] = ch;
    }
    if (n >= (ptrdiff_t)sizeof out - 4 && a + n < b) {
        out[n++] = '.';
        out[n++] = '.';
        out[n++] = '.';
    }
    return rules_fmt(c, "%.*s", (int)n, out);
}

static int is_sync_builtin(hp_str s)
{
    static const hp_str names[] = {
        RULES_S("__shfl_sync"), RULES_S("__shfl_up_sync"), RULES_S("__shfl_down_sync"),
        RULES_S("__shfl_xor_sync"), RULES_S("__ballot_sync"), RULES_S("__any_sync"),
        RULES_S("__all_sync"), RULES_S("__uni_sync"), RULES_S("__match_any_sync"),
        RULES_S("__match_all_sync"), RULES_S("__reduce_add_sync"), RULES_S("__reduce_min_sync"),
        RULES_S("__reduce_max_sync"), RULES_S("__reduce_and_sync"), RULES_S("__reduce_or_sync"),
        RULES_S("__reduce_xor_sync"), RULES_S("__syncwarp")};
    if (s.len < 10 || s.s[0] != '_')
        return 0;
    return RULES_IN(s, names);
}

/* Does [first, last] produce a lane mask (ballot, active mask, match)? */
static int mask_source(const rctx *c, ptrdiff_t first, ptrdiff_t last)
{
    for (ptrdiff_t i = first; i >= 0 && i <= last && i < c->nt; i = rules_next(c, i)) {
        if (c->t[i].kind != TK_IDENT)
            continue;
        hp_str s = rules_text(c, i);
        if (RULES_STARTS(s, "__ballot") || RULES_EQ(s, "__activemask") ||
            RULES_EQ(s, "__match_any_sync") || RULES_EQ(s, "__match_all_sync") ||
            (rules_member(c, i) && (RULES_EQ(s, "ballot") || RULES_STARTS(s, "match_"))))
            return 1;
    }
    return 0;
}

static int guarded(const rctx *c, ptrdiff_t i)
{
    return (rules_scope(c, i) & SC_GUARDED) != 0;
}

/* ------------------------------------------------------------------ WAVE001 */

/* #define FULL_MASK 0xffffffff in a file that never uses it (a shared header): the uses are
 * elsewhere, where the macro cannot be seen, so the definition is reported. Not in a CUDA
 * source: hipport translate widens the uses in every file that includes the definition. */
static void wave003_define(rctx *c, ptrdiff_t name, ptrdiff_t first, ptrdiff_t last)
{
    if (!c->hip_source)
        return;
    hp_str n = rules_text(c, name);
    if (!rules_name_has(n, "mask") && !rules_name_has(n, "lanes"))
        return;
    long long v;
    int bits;
    if (!rules_eval(c, first, last, &v, &bits) || bits != 32 ||
        ((unsigned long long)v & 0xffffffffull) != 0xffffffffull)
        return;
    for (ptrdiff_t j = 0; j < c->nt; j++)
        if (j != name && c->t[j].kind == TK_IDENT && str_eq(rules_text(c, j), n))
            return; /* used here: reported where it is used */
    /* A warning: whether any file passes the macro to a *_sync builtin is not known here (a
     * defined but unused mask compiles). */
    rules_report(c, RID_WAVE003, name, HP_SEV_WARNING, 0,
                 rules_fmt(c, "'%.*s' is a 32-bit full-warp mask: HIP's *_sync builtins reject "
                              "masks narrower than 64 bits at compile time",
                           (int)n.len, n.s),
                 NULL);
}

static int keeps32(rctx *c, const rules_fn *f);
static int keeps32_by_width(rctx *c, const rules_fn *f);
static int lane_numbering(rctx *c);

/* Does every use of the macro name in this file, one at least, sit where 32 lanes are a
 * consistent group on a 64-lane wavefront: host code, device code with no cross-lane call, or
 * device code whose every cross-lane exchange keeps to 32-lane groups (keeps32)? */
static int uses_keep32(rctx *c, ptrdiff_t name)
{
    hp_str n = rules_text(c, name);
    int uses = 0;
    for (ptrdiff_t j = 0; j < c->nt; j = rules_next(c, j)) {
        if (j == name || c->t[j].kind != TK_IDENT || !str_eq(rules_text(c, j), n))
            continue;
        if (c->t[j].flags & TF_PP)
            return 0; /* in another macro or a test: where it ends up is not known */
        const rules_fn *f = rules_fn_of(c, j);
        /* exchanges that keep to 32-lane groups, in a file that numbers its lanes within 32
         * (else a reduction over 32 lanes is read as the wavefront's: WAVE006) */
        if (f && f->device && f->crosslane &&
            !(keeps32_by_width(c, f) || (keeps32(c, f) && lane_numbering(c) == 1)))
            return 0;
        uses++;
    }
    return uses > 0;
}

/* WAVE001 on the name at token name, which is how ("defined as", "set to") 32: a note when
 * every use of it keeps to 32-lane groups (uses_keep32), else a warning. */
static void wave001_32(rctx *c, ptrdiff_t name, const char *how)
{
    hp_str n = rules_text(c, name);
    int k32 = uses_keep32(c, name);
    rules_report(c, RID_WAVE001, name, k32 ? HP_SEV_NOTE : 0, 0,
                 rules_fmt(c, "'%.*s' is %s 32; wavefronts have 64 lanes on gfx9 GPUs%s",
                           (int)n.len, n.s, how,
                           k32 ? "; every use of it in this file is host code, device code with "
                                 "no cross-lane call, or code whose cross-lane exchanges keep to "
                                 "32-lane groups, so a 64-lane wavefront computes the same"
                               : ""),
                 NULL);
}

static void wave001_define(rctx *c, ptrdiff_t h)
{
    ptrdiff_t name = rules_next(c, rules_next(c, h));
    if (!rules_ident(c, name) || guarded(c, h))
        return;
    if (!warp_size_name(rules_text(c, name))) {
        ptrdiff_t first = rules_next(c, name), last = -1;
        for (ptrdiff_t j = first; j < c->nt && c->t[j].kind != TK_PP_END; j = rules_next(c, j))
            last = j;
        if (last >= first && c->t[first].off != c->t[name].off + c->t[name].len)
            wave003_define(c, name, first, last);
        return;
    }
    ptrdiff_t first = rules_next(c, name), last = -1;
    for (ptrdiff_t j = first; j < c->nt && c->t[j].kind != TK_PP_END; j = rules_next(c, j))
        last = j;
    if (last < first || c->t[first].off == c->t[name].off + c->t[name].len)
        return; /* empty, or a function-like macro */
    if (!eval_is(c, first, last, 32))
        return;
    wave001_32(c, name, "defined as");
}

/* constexpr int get_warp_size() { return 32; }: a function named for the warp size whose
 * return is 32 (a return under a HIP test is that platform's). */
static void wave001_fn(rctx *c, ptrdiff_t name, ptrdiff_t open)
{
    ptrdiff_t close = rules_match(c, open);
    if (close < 0)
        return;
    ptrdiff_t b = rules_next(c, close);
    for (int k = 0; k < 4 && b < c->nt && !rules_punct(c, b, '{'); k++) {
        if (!rules_ident(c, b)) /* const, noexcept, -> int ... */
            return;
        b = rules_next(c, b);
    }
    ptrdiff_t e = rules_punct(c, b, '{') ? rules_match(c, b) : -1;
    if (e < 0 || e - b > 200)
        return;
    for (ptrdiff_t j = rules_next(c, b); j < e; j = rules_next(c, j)) {
        if (!str_eqc(rules_text(c, j), "return") || guarded(c, j))
            continue;
        ptrdiff_t v = rules_next(c, j), last = -1;
        for (ptrdiff_t q = v; q < e && !rules_punct(c, q, ';'); q = rules_next(c, q))
            last = q;
        if (last < v || !eval_is(c, v, last, 32))
            continue;
        hp_str n = rules_text(c, name);
        rules_report(c, RID_WAVE001, v, 0, 0,
                     rules_fmt(c, "'%.*s()' returns 32; wavefronts have 64 lanes on gfx9 GPUs",
                               (int)n.len, n.s),
                     NULL);
    }
}

static void wave001(rctx *c, ptrdiff_t i)
{
    hp_str s = rules_text(c, i);
    if (guarded(c, i))
        return;
    if (RULES_EQ(s, "warpSize")) {
        /* warpSize == 32, 32 != warpSize, prop.warpSize == 32 */
        ptrdiff_t n = rules_next(c, i), p = rules_prev(c, i);
        ptrdiff_t other = -1;
        if (rules_punct(c, n, P_EQ) || rules_punct(c, n, P_NE))
            other = rules_next(c, n);
        else if (rules_punct(c, p, P_EQ) || rules_punct(c, p, P_NE))
            other = rules_prev(c, p);
        if (other >= 0 && eval_is(c, other, other, 32))
            rules_report(c, RID_WAVE001, i, 0, 0,
                         "compares warpSize with 32; it is 64 on gfx9 GPUs", NULL);
        return;
    }
    if ((c->t[i].flags & TF_PP) || !warp_size_name(s))
        return;
    /* const int WARP_SIZE = 32;  enum { kWarpSize = 32 };  template <int WarpSize = 32> */
    ptrdiff_t eq = rules_next(c, i);
    if (rules_punct(c, eq, '(')) {
        wave001_fn(c, i, eq);
        return;
    }
    if (!rules_punct(c, eq, '='))
        return;
    ptrdiff_t p = rules_prev(c, i);
    if (!(rules_ident(c, p) || rules_punct(c, p, '{') || rules_punct(c, p, ',')))
        return;
    ptrdiff_t v = rules_next(c, eq), last = -1;
    for (ptrdiff_t j = v; j < c->nt; j = rules_next(c, j)) {
        if (rules_punct(c, j, ';') || rules_punct(c, j, ',') || rules_punct(c, j, '}') ||
            rules_punct(c, j, '>'))
            break;
        last = j;
    }
    if (last < v || !eval_is(c, v, last, 32))
        return;
    wave001_32(c, i, "set to");
}

/* ------------------------------------------------------------------ WAVE002 */



/* The size of the cooperative-groups tile named at i (tiled_partition<N>, thread_block_tile<N>,
 * tiled_partition(parent, N)): N, -1 where it is not a constant check can compute (a template
 * parameter, a macro of another file), 0 where i names no tile. */
static long long tile_size_at(const rctx *c, ptrdiff_t i)
{
    ptrdiff_t n = rules_next(c, i), first = -1, last = -1;
    lex_args a;
    if (rules_punct(c, n, '<')) {
        ptrdiff_t gt = rules_template_close(c, n, -1);
        if (gt <= n)
            return 0;
        first = rules_next(c, n);
        last = rules_prev(c, gt);
    } else if (rules_punct(c, n, '(') && rules_is(c, i, "tiled_partition") &&
               rules_args(c, n, &a) && a.n == 2) {
        first = a.first[1];
        last = a.last[1];
    } else {
        return 0;
    }
    long long v;
    int bits;
    return rules_eval(c, first, last, &v, &bits) && v > 0 ? v : -1;
}

/* Does the name at i (tiled_partition, thread_block_tile) make a tile of 32:
 * tiled_partition<32>, thread_block_tile<32>, or tiled_partition(g, 32)? */
static int tile32_at(const rctx *c, ptrdiff_t i)
{
    return tile_size_at(c, i) == 32;
}

/* Does the condition [open, close] (an if's parentheses) hold only for the block's first 32
 * threads: tid < 32, threadIdx.x <= 31, or warp == 0 with warp counted in 32-thread warps
 * (threadIdx.x >> 5, tid / 32)? */
static int first32_cond(const rctx *c, ptrdiff_t open, ptrdiff_t close)
{
    for (ptrdiff_t k = rules_next(c, open); k < close && k >= 0; k = rules_next(c, k)) {
        if (c->t[k].kind != TK_PUNCT)
            continue;
        unsigned op = c->t[k].sub;
        if (op != '<' && op != P_LE && op != P_EQ)
            continue;
        ptrdiff_t l = rules_operand_left(c, k), re = rules_operand_right(c, k);
        if (l < 0 || re < 0 ||
            !(rules_range_has(c, l, rules_prev(c, k), laneish) ||
              (op == P_EQ && rules_range_has(c, l, rules_prev(c, k), warpish))))
            continue;
        if ((op == '<' && eval_is(c, rules_next(c, k), re, 32)) ||
            (op == P_LE && eval_is(c, rules_next(c, k), re, 31)))
            return 1;
        rules_decl d;
        ptrdiff_t w = rules_prev(c, k);
        if (op != P_EQ || !eval_is(c, rules_next(c, k), re, 0) || l != w || !rules_ident(c, w) ||
            !warpish(rules_text(c, w)) || !rules_decl_find(c, w, &d) || d.init_first < 0)
            continue;
        for (ptrdiff_t q = d.init_first; q <= d.init_last && q >= 0; q = rules_next(c, q))
            if ((rules_punct(c, q, P_SHR) && eval_is(c, rules_next(c, q), rules_next(c, q), 5)) ||
                (rules_punct(c, q, '/') && eval_is(c, rules_next(c, q), rules_next(c, q), 32)))
                return 1;
    }
    return 0;
}

#define FIRST32                                                                              \
    "; but this code runs only on the block's first 32 threads, so lanes 32-63 are inactive "    \
    "and the low 32 bits hold every lane that votes"

#define FIRST32_LANES                                                                        \
    "; but this code runs only on the block's first 32 threads, so no lane above 31 takes part"

/* Does the code at i run only on the block's first 32 threads (inside a braced if whose
 * condition first32_cond accepts)? Those are lanes 0-31 of the first wavefront: what 32 lanes
 * do there is complete on a 64-lane wavefront too, the other half being inactive. */
static int first32(const rctx *c, ptrdiff_t i)
{
    const rules_fn *f = rules_fn_of(c, i);
    if (!f)
        return 0;
    int nest = 0;
    for (ptrdiff_t k = rules_prev(c, i); k > f->open; k = rules_prev(c, k)) {
        if (rules_punct(c, k, '}')) {
            nest++;
        } else if (rules_punct(c, k, '{') && nest-- == 0) {
            nest = 0;
            ptrdiff_t close = rules_prev(c, k);
            if (!rules_punct(c, close, ')'))
                continue;
            ptrdiff_t o = rules_match_back(c, close);
            if (o >= 0 && rules_is(c, rules_prev(c, o), "if") && first32_cond(c, o, close))
                return 1;
        }
    }
    return 0;
}

/* Is function f called only where the block's first 32 threads run (every call of it in the
 * file, and at least one, inside first32 code)? */
static int called_first32(const rctx *c, const rules_fn *f)
{
    if (!f || f->name < 0)
        return 0;
    hp_str n = rules_text(c, f->name);
    int calls = 0;
    for (ptrdiff_t i = 0; i < c->nt; i++) {
        if (c->t[i].kind != TK_IDENT || i == f->name || (c->t[i].flags & TF_PP) ||
            !str_eq(rules_text(c, i), n) || rules_call(c, i) < 0)
            continue;
        if (!(rules_scope(c, i) & SC_DEVICE) || rules_fn_of(c, i) == f || !first32(c, i))
            return 0;
        calls++;
    }
    return calls > 0;
}

/* ------------------------------------------------------------------ 32-lane groups */

/* Code that keeps to 32-lane groups: every shuffle stays inside a group of 32 lanes (a width of
 * 32 or less, or an xor with a delta of 16 or less), an absolute-lane shuffle reads a lane below
 * 32 of a value the per-warp slots made uniform across the groups, and lanes are never
 * numbered within the wavefront. Its 32s are a group size the code keeps consistently: a
 * 64-lane wavefront runs it as two independent halves, with the same result. */

/* The function of this file named by the identifier at i (a call), or NULL. */
static const rules_fn *fn_named(const rctx *c, ptrdiff_t i)
{
    hp_str s = rules_text(c, i);
    for (int k = 0; k < c->nfns; k++)
        if (c->fns[k].name >= 0 && c->fns[k].device && str_eq(rules_text(c, c->fns[k].name), s))
            return &c->fns[k];
    return NULL;
}

/* The start of the for-loop of f that declares var before use: 1 with *v set where it is a
 * constant; 2 where it halves a count of warps (NUM_WARPS >> 1, nwarps / 2), at most 16 since
 * a block holds at most 32 warps of 32 threads; 0 where there is no such loop. */
static int loop_start(const rctx *c, const rules_fn *f, ptrdiff_t use, hp_str var, long long *v)
{
    int got = 0;
    for (ptrdiff_t j = f->open; j < use && j < c->nt; j = rules_next(c, j)) {
        if (!rules_is(c, j, "for") || !rules_punct(c, rules_next(c, j), '('))
            continue;
        ptrdiff_t open = rules_next(c, j), close = rules_match(c, open);
        ptrdiff_t eq = -1, semi = -1;
        for (ptrdiff_t k = rules_next(c, open); k < close && k >= 0; k = rules_next(c, k)) {
            if (eq < 0 && rules_punct(c, k, '='))
                eq = k;
            if (rules_punct(c, k, ';')) {
                semi = k;
                break;
            }
        }
        if (eq < 0 || semi < 0 || !rules_ident(c, rules_prev(c, eq)) ||
            !str_eq(rules_text(c, rules_prev(c, eq)), var))
            continue;
        ptrdiff_t e0 = rules_next(c, eq), e1 = rules_prev(c, semi);
        int bits;
        got = 0;
        if (rules_eval(c, e0, e1, v, &bits)) {
            got = 1;
        } else {
            while (rules_punct(c, e0, '(') && rules_match(c, e0) == e1) {
                e0 = rules_next(c, e0);
                e1 = rules_prev(c, e1);
            }
            ptrdiff_t op = rules_next(c, e0);
            if (rules_ident(c, e0) && rules_name_has(rules_text(c, e0), "warp") &&
                rules_next(c, op) == e1 &&
                ((rules_punct(c, op, P_SHR) && eval_is(c, e1, e1, 1)) ||
                 (rules_punct(c, op, '/') && eval_is(c, e1, e1, 2))))
                got = 2;
        }
    }
    return got;
}

/* Does the argument [first, last] of a shuffle in f keep below bound (a constant, or a loop
 * variable that starts there and only shrinks)? */
static int arg_below(const rctx *c, const rules_fn *f, ptrdiff_t first, ptrdiff_t last,
                     long long bound)
{
    long long v;
    int bits;
    if (rules_eval(c, first, last, &v, &bits))
        return v >= 0 && v <= bound;
    if (first != last || !rules_ident(c, first))
        return 0;
    int how = loop_start(c, f, first, rules_text(c, first), &v);
    return how == 2 || (how == 1 && v >= 0 && v <= bound);
}

typedef struct {
    int shuffles; /* shuffles seen, all within 32-lane groups */
    int bad;      /* something that is not */
    int absolute; /* absolute-lane shuffles below 32 (need uniform values) */
    int implicit; /* shuffles whose group of 32 is not their width argument's (xor or down
                     deltas below 32, lanes 0-31 only) */
} group32;

/* One cross-lane call named s with arguments a (after substitution), in f. */
static void group32_call(const rctx *c, const rules_fn *f, ptrdiff_t at, hp_str s,
                         const ptrdiff_t *first, const ptrdiff_t *last, int n, group32 *g)
{
    if (first32(c, at) || called_first32(c, f)) { /* only lanes 0-31 take part */
        g->shuffles++;
        g->implicit++;
        return;
    }
    int sync = str_ends(s, S("_sync"));
    int delta = RULES_STARTS(s, "__shfl_down") || RULES_STARTS(s, "__shfl_xor") ||
                RULES_STARTS(s, "__shfl_up");
    int abs = RULES_EQ(s, "__shfl") || RULES_EQ(s, "__shfl_sync");
    if (!delta && !abs) {
        g->bad = 1;
        return;
    }
    int arg = sync ? 2 : 1, width = sync ? 3 : 2;
    long long v;
    int bits;
    if (n <= arg) {
        g->bad = 1;
        return;
    }
    g->shuffles++;
    if (n > width && rules_eval(c, first[width], last[width], &v, &bits) && v <= 32)
        return;
    g->implicit++; /* undone below where nothing keeps it to a group */
    /* xor with a delta below 32 stays in the lane's group; down and up without a width read
     * across the group's top (lane 31 gets lane 32's value, not its own) */
    if (delta && RULES_STARTS(s, "__shfl_xor") && arg_below(c, f, first[arg], last[arg], 16))
        return;
    /* a reduction: down by a halving loop's delta from 16 at most. Lane 0 of each 32-lane group
     * ends with its group's sum, as on a 32-lane warp, where the other lanes hold partial sums
     * too (a lane near the top reads the next group's values instead of its own) */
    long long v0;
    int b0;
    if (delta && RULES_STARTS(s, "__shfl_down") && first[arg] == last[arg] &&
        !rules_eval(c, first[arg], last[arg], &v0, &b0) &&
        arg_below(c, f, first[arg], last[arg], 16))
        return;
    if (abs && rules_eval(c, first[arg], last[arg], &v, &bits) && v >= 0 && v < 32) {
        g->absolute++;
        return;
    }
    g->bad = 1;
}

/* The shuffle in the body of the function-like macro m, called at open (its '('), with the
 * macro's parameters replaced by the arguments of the call. */
static void group32_macro(const rctx *c, const rules_fn *f, const rules_macro *m, ptrdiff_t open,
                          group32 *g)
{
    lex_args call, a;
    if (!rules_args(c, open, &call))
        return;
    /* the parameters: the identifiers of the list that opens the body */
    hp_str par[8];
    int np = 0;
    ptrdiff_t pc = rules_punct(c, m->first, '(') ? rules_match(c, m->first) : -1;
    if (pc < 0)
        return;
    for (ptrdiff_t k = m->first + 1; k < pc && np < 8; k++)
        if (c->t[k].kind == TK_IDENT)
            par[np++] = rules_text(c, k);
    for (ptrdiff_t k = pc + 1; k <= m->last && k < c->nt; k++) {
        if (c->t[k].kind != TK_IDENT || !RULES_STARTS(rules_text(c, k), "__"))
            continue;
        hp_str s = rules_text(c, k);
        if (!(RULES_STARTS(s, "__shfl") || RULES_STARTS(s, "__ballot") ||
              RULES_STARTS(s, "__any") || RULES_STARTS(s, "__all") ||
              RULES_STARTS(s, "__match") || RULES_STARTS(s, "__reduce_")))
            continue;
        ptrdiff_t o = rules_call(c, k);
        if (o < 0 || !rules_args(c, o, &a)) {
            g->bad = 1;
            return;
        }
        ptrdiff_t first[8], last[8];
        int n = a.n < 8 ? (int)a.n : 8;
        for (int q = 0; q < n; q++) {
            first[q] = a.first[q];
            last[q] = a.last[q];
            if (a.first[q] != a.last[q] || !rules_ident(c, a.first[q]))
                continue;
            for (int p = 0; p < np; p++)
                if (str_eq(par[p], rules_text(c, a.first[q])) && p < call.n) {
                    first[q] = call.first[p];
                    last[q] = call.last[p];
                }
        }
        group32_call(c, f, open, s, first, last, n, g);
    }
}

static void group32_fn(const rctx *c, const rules_fn *f, int depth, group32 *g)
{
    for (ptrdiff_t j = rules_next(c, f->open); j < f->close && j >= 0 && !g->bad;
         j = rules_next(c, j)) {
        const tok *k = &c->t[j];
        if (k->kind == TK_PUNCT && (k->sub == '&' || k->sub == '%')) {
            /* a lane numbered within the wavefront */
            ptrdiff_t r = rules_next(c, j), re = rules_operand_right(c, j);
            long long v;
            int bits;
            if (re >= 0 && rules_eval(c, r, re, &v, &bits) &&
                ((k->sub == '&' && v == 63) || (k->sub == '%' && v == 64)))
                g->bad = 1;
            continue;
        }
        if (k->kind != TK_IDENT || rules_member(c, j))
            continue;
        hp_str s = rules_text(c, j);
        if (RULES_EQ(s, "warpSize") || RULES_EQ(s, "__lane_id")) {
            g->bad = 1;
            continue;
        }
        ptrdiff_t open = rules_call(c, j);
        if (open < 0)
            continue;
        lex_args a;
        if (s.len > 2 && s.s[0] == '_' && s.s[1] == '_' &&
            (RULES_STARTS(s, "__shfl") || RULES_STARTS(s, "__ballot") || RULES_EQ(s, "__any") ||
             RULES_EQ(s, "__all") || RULES_STARTS(s, "__any_") || RULES_STARTS(s, "__all_") ||
             RULES_STARTS(s, "__match_") || RULES_STARTS(s, "__reduce_") ||
             RULES_EQ(s, "__activemask"))) {
            if (!rules_args(c, open, &a)) {
                g->bad = 1;
                continue;
            }
            ptrdiff_t first[8], last[8];
            int n = a.n < 8 ? (int)a.n : 8;
            for (int q = 0; q < n; q++) {
                first[q] = a.first[q];
                last[q] = a.last[q];
            }
            group32_call(c, f, j, s, first, last, n, g);
            continue;
        }
        const rules_macro *m = rules_macro_any(c, s);
        if (m && m->funclike) {
            group32_macro(c, f, m, open, g);
            continue;
        }
        const rules_fn *callee = depth > 0 ? fn_named(c, j) : NULL;
        if (callee && callee != f)
            group32_fn(c, callee, depth - 1, g);
    }
}

/* Does f keep per-warp slots: an array written at a 32-thread warp's index and read at the
 * lane's (smem[warp] = v, then v = smem[lane])? Every 32-lane group then reads the same
 * values, so a broadcast from one of its lanes gives both halves of a wavefront the same. */
static int slots32(const rctx *c, const rules_fn *f)
{
    for (ptrdiff_t j = rules_next(c, f->open); j < f->close && j >= 0; j = rules_next(c, j)) {
        ptrdiff_t a = rules_prev(c, j), v = rules_next(c, j);
        if (!rules_punct(c, j, '[') || !rules_ident(c, a) || !rules_ident(c, v) ||
            !rules_punct(c, rules_next(c, v), ']') || !warpish(rules_text(c, v)))
            continue;
        hp_str arr = rules_text(c, a);
        for (ptrdiff_t k = rules_next(c, f->open); k < f->close && k >= 0; k = rules_next(c, k)) {
            ptrdiff_t b = rules_next(c, k), l = rules_next(c, b);
            if (rules_ident(c, k) && str_eq(rules_text(c, k), arr) && rules_punct(c, b, '[') &&
                rules_ident(c, l) && rules_punct(c, rules_next(c, l), ']') &&
                laneish(rules_text(c, l)) && !warpish(rules_text(c, l)))
                return 1;
        }
    }
    return 0;
}

/* Does function f keep to 32-lane groups (with the functions of the file it calls)? Where it
 * broadcasts from an absolute lane, the value must come from per-warp slots every group
 * reads alike (slots32). */
#define KEEPS32                                                                              \
    "; every cross-lane exchange of this code keeps to 32-lane groups, so a 64-lane wavefront "   \
    "runs it as two independent halves with the same result"

static int keeps32(rctx *c, const rules_fn *f)
{
    if (!f || !f->device)
        return 0;
    ptrdiff_t k = f - c->fns;
    if (!c->keeps32)
        c->keeps32 = arena_alloc(c->a, 1, 1, c->nfns + 1);
    if (!c->keeps32[k]) {
        group32 g = {0, 0, 0, 0};
        group32_fn(c, f, 2, &g);
        int yes = !g.bad && g.shuffles && (!g.absolute || slots32(c, f));
        c->keeps32[k] = (uint8_t)(yes ? (g.implicit ? 2 : 3) : 1);
    }
    return c->keeps32[k] >= 2;
}

/* keeps32, every shuffle's group of 32 its width argument (__shfl_xor(v, d, 32)): right on a
 * 64-lane wavefront however the code numbers its lanes. */
static int keeps32_by_width(rctx *c, const rules_fn *f)
{
    return keeps32(c, f) && c->keeps32[f - c->fns] == 3;
}

/* The severity of a lane or warp index computed with 32 in function f: an error where the
 * function exchanges data across lanes with the builtins, whose groups are wavefronts; a
 * warning where it does not. Where its only cross-lane calls are members of cooperative-groups
 * tiles (g.shfl_xor), the tiles decide: of 32 (tiled_partition<32>), a note, since the tile's
 * lanes are the 32-thread groups the index counts, on a 64-lane wavefront too; of a size check
 * cannot compute (tiled_partition<WARP_SIZE> with the macro in another header, a template
 * parameter), a warning; of another size, an error. */
static hp_severity lane32_sev(const rctx *c, const rules_fn *f)
{
    if (!f || !f->crosslane)
        return HP_SEV_WARNING;
    if (f->crosslane_free)
        return HP_SEV_ERROR;
    int n32 = 0, unknown = 0, other = 0;
    for (ptrdiff_t j = f->open; j < f->close; j = rules_next(c, j)) {
        if (!rules_is(c, j, "tiled_partition") && !rules_is(c, j, "thread_block_tile"))
            continue;
        long long k = tile_size_at(c, j);
        n32 += k == 32;
        unknown += k < 0;
        other += k > 0 && k != 32;
    }
    if (other || (!n32 && !unknown))
        return HP_SEV_ERROR;
    return unknown ? HP_SEV_WARNING : HP_SEV_NOTE;
}
/* Is the identifier s a cross-lane or warp-matrix name: a shuffle, vote, match or reduce
 * builtin (or member), wmma and mma calls, MFMA/WMMA builtins, __syncwarp, or a call whose name
 * says it works on a warp or numbers lanes (WarpReduce, warp_sum, block_reduce, shfl_...,
 * get_lane_id), cub's collectives and scans, whose body may be in another file? */
static int warp_op_name(hp_str s)
{
    return RULES_STARTS(s, "__shfl") || RULES_STARTS(s, "__ballot") || RULES_EQ(s, "__any") ||
           RULES_EQ(s, "__all") || RULES_STARTS(s, "__any_") || RULES_STARTS(s, "__all_") ||
           RULES_STARTS(s, "__match") || RULES_STARTS(s, "__reduce_") ||
           RULES_EQ(s, "__activemask") || RULES_EQ(s, "__syncwarp") || RULES_EQ(s, "wmma") ||
           RULES_EQ(s, "mma_sync") || RULES_STARTS(s, "load_matrix_sync") ||
           RULES_STARTS(s, "store_matrix_sync") || RULES_STARTS(s, "__builtin_amdgcn_mfma") ||
           RULES_STARTS(s, "__builtin_amdgcn_wmma") || RULES_EQ(s, "asm") ||
           RULES_EQ(s, "__asm__") || RULES_EQ(s, "__asm") || rules_name_has(s, "warp") ||
           rules_name_has(s, "reduce") || rules_name_has(s, "shfl") ||
           rules_name_has(s, "shuffle") || rules_name_has(s, "ballot") ||
           rules_name_has(s, "wavefront") || RULES_EQ(s, "tiled_partition") ||
           RULES_EQ(s, "thread_block_tile") || RULES_EQ(s, "coalesced_threads") ||
           RULES_EQ(s, "coalesced_group") || RULES_EQ(s, "cub") || RULES_EQ(s, "hipcub") ||
           rules_name_has(s, "scan") || rules_name_has(s, "lane");
}

/* Does function f, the functions of the file it calls and the macros it uses (depth levels
 * down) name a cross-lane or warp-matrix operation (warp_op_name)? A lane or warp index of a
 * kernel that has none is a work split: each thread reads and writes its own elements, which
 * does not depend on how many lanes a wavefront has. (A device function's index may reach a
 * caller's shuffle through its result, so only kernels are judged this way.) */
static int warp_ops(const rctx *c, const rules_fn *f, int depth)
{
    if (!f || f->crosslane)
        return 1;
    for (ptrdiff_t j = rules_next(c, f->open); j < f->close && j >= 0; j = rules_next(c, j)) {
        if (c->t[j].kind != TK_IDENT)
            continue;
        hp_str s = rules_text(c, j);
        if (RULES_EQ(s, "warpSize") || warp_size_name(s))
            continue;
        if (warp_op_name(s) && !(rules_ident(c, j) && rules_call(c, j) < 0 &&
                                 !RULES_EQ(s, "wmma") && !RULES_EQ(s, "asm") &&
                                 !RULES_EQ(s, "__asm__") && !RULES_EQ(s, "__asm") &&
                                 !rules_member(c, j)))
            return 1;
        const rules_macro *m = rules_macro_any(c, s);
        if (m) {
            for (ptrdiff_t k = m->first; k <= m->last && k < c->nt; k++)
                if (c->t[k].kind == TK_IDENT && !warp_size_name(rules_text(c, k)) &&
                    !RULES_EQ(rules_text(c, k), "warpSize") && warp_op_name(rules_text(c, k)))
                    return 1;
            continue;
        }
        if (rules_call(c, j) < 0 || rules_member(c, j))
            continue;
        /* a call through a variable (a functor, a callback): its body is not in sight */
        rules_decl d;
        if (rules_decl_find(c, j, &d) && d.name != j)
            return 1;
        const rules_fn *callee = fn_named(c, j);
        if (callee && callee != f && (depth == 0 || warp_ops(c, callee, depth - 1)))
            return 1;
    }
    return 0;
}

/* The constant factor of a product [l, le] (threadIdx.y * 256, (8 * tid)), parentheses around
 * it left out: 1 with *k set where one side of a top-level '*' evaluates, 0 otherwise. */
static int product_factor(const rctx *c, ptrdiff_t l, ptrdiff_t le, long long *k)
{
    while (rules_punct(c, l, '(') && rules_match(c, l) == le) {
        l = rules_next(c, l);
        le = rules_prev(c, le);
    }
    for (ptrdiff_t j = l; j <= le && j >= 0; j = rules_next(c, j)) {
        if (rules_punct(c, j, '(') || rules_punct(c, j, '[')) {
            j = rules_match(c, j);
            if (j < 0)
                return 0;
            continue;
        }
        if (c->t[j].kind != TK_PUNCT || c->t[j].sub == '.' || c->t[j].sub == P_ARROW ||
            c->t[j].sub == P_SCOPE)
            continue;
        if (c->t[j].sub != '*')
            return 0;
        int bits;
        if (j > l && rules_eval(c, rules_next(c, j), le, k, &bits))
            return 1;
        if (j > l && rules_eval(c, l, rules_prev(c, j), k, &bits))
            return 1;
        return 0;
    }
    return 0;
}

static void wave002(rctx *c, ptrdiff_t op)
{
    if (!(rules_scope(c, op) & SC_DEVICE) || guarded(c, op))
        return;
    unsigned code = c->t[op].sub;
    ptrdiff_t r = rules_next(c, op);
    long long want;
    const char *what;
    switch (code) {
    case '&':
        want = 31;
        what = "takes the lane within 32 threads";
        break;
    case '%':
        want = 32;
        what = "takes the lane within 32 threads";
        break;
    case P_SHR:
        want = 5;
        what = "counts warps of 32 threads";
        break;
    case '/':
        want = 32;
        what = "counts warps of 32 threads";
        break;
    case '*':
    case P_SHL: {
        /* warp * 32, warp << 5, 32 * warp: a thread index rebuilt from 32-thread warps */
        ptrdiff_t l = rules_operand_left(c, op), re = rules_operand_right(c, op);
        if (l < 0 || re < 0)
            return;
        long long k = code == '*' ? 32 : 5;
        int left_lit = eval_is(c, l, rules_prev(c, op), k);
        int right_lit = eval_is(c, r, re, k);
        if (!(left_lit ^ right_lit))
            return;
        ptrdiff_t vf = left_lit ? r : l, vl = left_lit ? re : rules_prev(c, op);
        if (!rules_range_has(c, vf, vl, warpish))
            return;
        const rules_fn *f = rules_fn_of(c, op);
        int k32 = keeps32(c, f);
        rules_report_at(c, RID_WAVE002, c->t[l].off, c->t[re].off + c->t[re].len - c->t[l].off,
                        k32 ? HP_SEV_NOTE : lane32_sev(c, f), 0,
                        rules_fmt(c, "'%s' rebuilds a thread index from 32-thread warps; a "
                                     "wavefront has 64 lanes on gfx9%s",
                                  snippet(c, l, re), k32 ? KEEPS32 : ""),
                        NULL);
        return;
    }
    default:
        return;
    }
    ptrdiff_t l = rules_operand_left(c, op);
    ptrdiff_t re = rules_operand_right(c, op);
    if (l < 0 || re < 0 || !eval_is(c, r, re, want))
        return;
    ptrdiff_t lend = rules_prev(c, op);
    if (!rules_range_has(c, l, lend, laneish))
        return;
    const rules_fn *f = rules_fn_of(c, op);
    long long k;
    if ((code == '%' || code == '&') && product_factor(c, l, lend, &k) && k % 32 == 0) {
        rules_report_at(c, RID_WAVE002, c->t[l].off, c->t[re].off + c->t[re].len - c->t[l].off,
                        HP_SEV_NOTE, 0,
                        rules_fmt(c, "'%s' is always 0 (a multiple of 32 %s): it numbers no "
                                     "lane, on a 64-lane wavefront either",
                                  snippet(c, l, re),
                                  code == '%' ? "taken modulo 32" : "masked with 31"),
                        NULL);
        return;
    }
    /* tid * 8 % 32: a scaled thread index taken modulo 32 is a column offset within a tile
     * row, not a lane number, where no shuffle or vote of the function reads it */
    int scaled = (code == '%' || code == '&') && product_factor(c, l, lend, &k) && k > 1;
    if (scaled && f && !f->crosslane) {
        rules_report_at(c, RID_WAVE002, c->t[l].off, c->t[re].off + c->t[re].len - c->t[l].off,
                        HP_SEV_NOTE, 0,
                        rules_fmt(c, "'%s' is an offset of a scaled thread index within a row of "
                                     "32, not a lane number: no shuffle or vote of this function "
                                     "reads it, so a 64-lane wavefront does not change it",
                                  snippet(c, l, re)),
                        NULL);
        return;
    }
    if (f && f->kernel && !warp_ops(c, f, 2)) {
        rules_report_at(c, RID_WAVE002, c->t[l].off, c->t[re].off + c->t[re].len - c->t[l].off,
                        HP_SEV_NOTE, 0,
                        rules_fmt(c, "'%s' %s; but no cross-lane or warp-matrix operation "
                                     "(shuffle, vote, ballot, match, reduce, wmma, mma) is in "
                                     "this code or what it calls, so it only splits work among "
                                     "threads, which a 64-lane wavefront does not change",
                                  snippet(c, l, re),
                                  scaled ? "is an offset of a scaled thread index, not a lane"
                                         : what),
                        NULL);
        return;
    }
    int k32 = keeps32(c, f);
    rules_report_at(c, RID_WAVE002, c->t[l].off, c->t[re].off + c->t[re].len - c->t[l].off,
                    k32 ? HP_SEV_NOTE : lane32_sev(c, f), 0,
                    rules_fmt(c, "'%s' %s; a wavefront has 64 lanes on gfx9%s", snippet(c, l, re),
                              what, k32 ? KEEPS32 : ""),
                    NULL);
}

/* ------------------------------------------------------------------ WAVE003 */

/* Width and value of a mask argument: 32 or 64 bits (value known or not), 0 if unknown. */
static int mask_width(const rctx *c, ptrdiff_t first, ptrdiff_t last, long long *v, int *known,
                      const char **why)
{
    *known = 0;
    *why = NULL;
    int bits;
    if (rules_eval(c, first, last, v, &bits)) {
        *known = 1;
        return bits;
    }
    if (mask_source(c, first, last))
        return 64;
    /* (unsigned)m, static_cast<uint32_t>(m), uint32_t(m) */
    int ptr;
    if (rules_punct(c, first, '(')) {
        ptrdiff_t m = rules_match(c, first);
        if (m > first && m < last) {
            rules_type t = rules_type_of(c, rules_next(c, first), rules_prev(c, m), &ptr);
            if (!ptr && t == RT_INT32)
                return 32;
            if (!ptr && t == RT_INT64)
                return 64;
        }
        return 0;
    }
    if (!rules_ident(c, first))
        return 0;
    hp_str s = rules_text(c, first);
    if (RULES_EQ(s, "static_cast")) {
        ptrdiff_t lt = rules_next(c, first);
        ptrdiff_t gt = rules_punct(c, lt, '<') ? rules_template_close(c, lt, -1) : -1;
        if (gt < 0)
            return 0;
        rules_type t = rules_type_of(c, rules_next(c, lt), rules_prev(c, gt), &ptr);
        return ptr ? 0 : t == RT_INT32 ? 32 : t == RT_INT64 ? 64 : 0;
    }
    if (first != last) {
        ptrdiff_t o = rules_next(c, first);
        if (rules_punct(c, o, '(') && rules_match(c, o) == last) {
            rules_type t = rules_type_of(c, first, first, &ptr);
            return t == RT_INT32 ? 32 : t == RT_INT64 ? 64 : 0;
        }
        return 0;
    }
    rules_decl d;
    if (!rules_decl_find(c, first, &d) || d.ptr)
        return 0;
    if (d.type == RT_INT32) {
        int b;
        if (d.is_const && d.init_first >= 0 &&
            rules_eval(c, d.init_first, d.init_last, v, &b))
            *known = 1;
        *why = "declared 32-bit";
        return 32;
    }
    if (d.type == RT_INT64 || d.type == RT_AUTO) {
        if (d.init_first >= 0) {
            int b;
            if (rules_eval(c, d.init_first, d.init_last, v, &b)) {
                *known = 1;
                return d.type == RT_AUTO ? b : 64;
            }
        }
        return d.type == RT_INT64 ? 64 : 0;
    }
    return 0;
}

static void wave003(rctx *c, ptrdiff_t i)
{
    hp_str name = rules_text(c, i);
    ptrdiff_t open = rules_call(c, i);
    lex_args a;
    if (open < 0 || !rules_args(c, open, &a) || a.n < 1 || a.last[0] < a.first[0])
        return;
    long long v = 0;
    int known;
    const char *why;
    int w = mask_width(c, a.first[0], a.last[0], &v, &known, &why);
    const char *m = snippet(c, a.first[0], a.last[0]);
    ptrdiff_t at = a.first[0];
    ptrdiff_t n = c->t[a.last[0]].off + c->t[a.last[0]].len - c->t[at].off;
    int syncwarp = RULES_EQ(name, "__syncwarp");
    int full = known && ((unsigned long long)v & 0xffffffffull) == 0xffffffffull &&
               (w == 64 ? (unsigned long long)v == 0xffffffffull : 1);
    if (full && !c->hip_source && (w == 32 || w == 64)) {
        /* hipport translate widens a full-warp mask to HIP's 64-bit all-lanes mask */
        rules_report_at(c, RID_WAVE003, c->t[at].off, n, HP_SEV_NOTE, RF_NOWAVE,
                        rules_fmt(c, "full-warp mask '%s' of '%.*s': %s; hipport translate "
                                     "widens it to the 64-bit all-lanes mask",
                                  m, (int)name.len, name.s,
                                  w == 32 ? "HIP takes 64-bit masks only"
                                          : "on a 64-lane wavefront it names lanes 0-31 only"),
                        "translate with hipport, or pass ~0ull yourself");
        return;
    }
    if (w == 32 && !syncwarp) {
        const char *msg =
            why ? rules_fmt(c, "mask '%s' of '%.*s' is %s; HIP requires a 64-bit mask and "
                               "rejects narrower ones at compile time",
                            m, (int)name.len, name.s, why)
                : rules_fmt(c, "mask '%s' of '%.*s' is a 32-bit value; HIP requires a 64-bit "
                               "mask and rejects narrower ones at compile time",
                            m, (int)name.len, name.s);
        rules_report_at(c, RID_WAVE003, c->t[at].off, n, 0, 0, msg, NULL);
        return;
    }
    if ((w == 64 || (w == 32 && syncwarp)) && known &&
        ((unsigned long long)v & 0xffffffffffffffffull) == 0xffffffffull) {
        rules_report_at(c, RID_WAVE003, c->t[at].off, n, syncwarp ? HP_SEV_WARNING : 0, RF_WAVE64,
                        rules_fmt(c, "mask '%s' of '%.*s' names lanes 0-31 only; a 64-lane "
                                     "wavefront has lanes 32-63 too",
                                  m, (int)name.len, name.s),
                        NULL);
    }
}

/* ------------------------------------------------------------------ WAVE004 and WAVE005 */

/* Where does the value of the call [i .. close] go? Reports when it lands in 32 bits. */
static void narrowed(rctx *c, ptrdiff_t i, ptrdiff_t close, const char *rule, hp_str what)
{
    ptrdiff_t p = rules_prev(c, i);
    const char *into = NULL;
    /* m = call / unsigned m = call */
    if (rules_punct(c, p, '=')) {
        ptrdiff_t v = rules_prev(c, p);
        rules_decl d;
        if (rules_ident(c, v) && (rules_decl_at(c, v, &d) || rules_decl_find(c, v, &d)) &&
            !d.ptr && d.type == RT_INT32) {
            hp_str vn = rules_text(c, v);
            into = rules_fmt(c, "is stored in 32-bit '%.*s'", (int)vn.len, vn.s);
        }
    } else if (rules_ident(c, p) && rules_is(c, p, "return")) {
        const rules_fn *f = rules_fn_of(c, i);
        int ptr;
        if (f && f->name > f->hdr &&
            rules_type_of(c, f->hdr, rules_prev(c, f->name), &ptr) == RT_INT32 && !ptr)
            into = "is returned as a 32-bit value";
    } else if (rules_punct(c, p, '(')) {
        ptrdiff_t fnname = rules_prev(c, p);
        hp_str f = rules_text(c, fnname);
        if (rules_ident(c, fnname) &&
            (RULES_EQ(f, "__popc") || RULES_EQ(f, "__ffs") || RULES_EQ(f, "__clz") ||
             RULES_EQ(f, "__brev") || RULES_EQ(f, "__fns32")))
            into = rules_fmt(c, "goes to '%.*s', which takes 32 bits", (int)f.len, f.s);
    } else if (rules_punct(c, p, ')')) {
        ptrdiff_t m = rules_match_back(c, p);
        int ptr;
        if (m >= 0 && rules_type_of(c, rules_next(c, m), rules_prev(c, p), &ptr) == RT_INT32 &&
            !ptr)
            into = "is cast to 32 bits";
    }
    if (!into && strcmp(rule, RID_WAVE004) == 0) {
        /* compared with 0xffffffff */
        ptrdiff_t n = rules_next(c, close);
        ptrdiff_t other = -1;
        if (rules_punct(c, n, P_EQ) || rules_punct(c, n, P_NE))
            other = rules_next(c, n);
        else if (rules_punct(c, p, P_EQ) || rules_punct(c, p, P_NE))
            other = rules_prev(c, p);
        if (other >= 0 && eval_is(c, other, other, 0xffffffffll))
            into = "is compared with 0xffffffff, which is 'every lane' only for 32 lanes";
    }
    if (!into)
        return;
    int low = first32(c, i);
    rules_report(c, rule, i, low ? HP_SEV_NOTE : 0, 0,
                 rules_fmt(c, "the 64-bit result of '%.*s' %s; lanes 32-63 are lost%s",
                           (int)what.len, what.s, into, low ? FIRST32 : ""),
                 NULL);
}

static void wave004_var(rctx *c, ptrdiff_t i)
{
    /* __popc(m) or m == 0xffffffff where m holds a ballot */
    hp_str f = rules_text(c, i);
    int bitcall = RULES_EQ(f, "__popc") || RULES_EQ(f, "__ffs") || RULES_EQ(f, "__clz") ||
                  RULES_EQ(f, "__brev");
    if (!bitcall)
        return;
    ptrdiff_t open = rules_call(c, i);
    lex_args a;
    if (open < 0 || !rules_args(c, open, &a) || a.n != 1 || a.first[0] != a.last[0] ||
        !rules_ident(c, a.first[0]))
        return;
    rules_decl d;
    if (!rules_decl_find(c, a.first[0], &d) || d.ptr || d.init_first < 0 ||
        !mask_source(c, d.init_first, d.init_last) || d.type == RT_INT32)
        return;
    hp_str v = rules_text(c, a.first[0]);
    int low = first32(c, i);
    rules_report(c, RID_WAVE004, i, low ? HP_SEV_NOTE : 0, 0,
                 rules_fmt(c, "'%.*s' takes 32 bits but '%.*s' holds a 64-lane mask; use the "
                              "64-bit variant (%.*sll)%s",
                           (int)f.len, f.s, (int)v.len, v.s, (int)f.len, f.s,
                           low ? FIRST32 : ""),
                 NULL);
}

/* Is the variable at i declared with an initializer that takes a number within 32 (x % 32,
 * x & 31, at the end of the initializer)? */
static int declared_within32(const rctx *c, ptrdiff_t i)
{
    rules_decl d;
    if (!rules_ident(c, i) || !rules_decl_find(c, i, &d) || d.init_first < 0)
        return 0;
    ptrdiff_t last = d.init_last, op = rules_prev(c, last);
    while (rules_punct(c, last, ')') && rules_match_back(c, last) == d.init_first) {
        last = rules_prev(c, last);
        op = rules_prev(c, last);
    }
    return op >= d.init_first &&
           ((rules_punct(c, op, '%') && eval_is(c, last, last, 32)) ||
            (rules_punct(c, op, '&') && eval_is(c, last, last, 31)));
}

/* Does function f take a vote or a lane mask (__ballot*, __activemask, __any*, __all*,
 * __match*, __lanemask*), whose bits number the lanes of the wavefront? A bit picked by a
 * lane numbered within 32 then names the wrong lane in the upper half. */
static int votes_in(const rctx *c, const rules_fn *f)
{
    if (!f)
        return 1;
    for (ptrdiff_t j = f->open; j < f->close && j >= 0; j = rules_next(c, j)) {
        if (!rules_ident(c, j))
            continue;
        hp_str s = rules_text(c, j);
        if (RULES_STARTS(s, "__ballot") || RULES_STARTS(s, "__activemask") ||
            RULES_STARTS(s, "__any") || RULES_STARTS(s, "__all") ||
            RULES_STARTS(s, "__match") || RULES_STARTS(s, "__lanemask"))
            return 1;
    }
    return 0;
}

/* Does the shift amount [b, e] stay below 32: its lane-like names all declared within 32
 * (lane = tid % 32), combined only by subtraction from a constant (31 - lane) or alone? */
static int shift_below32(const rctx *c, ptrdiff_t b, ptrdiff_t e)
{
    int names = 0;
    for (ptrdiff_t k = b; k <= e && k >= 0; k = rules_next(c, k)) {
        if (rules_ident(c, k)) {
            if (!declared_within32(c, k))
                return 0;
            names++;
        } else if (c->t[k].kind == TK_PUNCT && !rules_punct(c, k, '-') &&
                   !rules_punct(c, k, '(') && !rules_punct(c, k, ')')) {
            return 0;
        } else if (c->t[k].kind == TK_NUMBER) {
            long long v;
            int bits;
            if (!rules_eval(c, k, k, &v, &bits) || v < 0 || v > 31)
                return 0;
        }
    }
    return names > 0;
}

static void wave005_shift(rctx *c, ptrdiff_t op)
{
    if (!(rules_scope(c, op) & SC_DEVICE) || guarded(c, op))
        return;
    ptrdiff_t l = rules_prev(c, op);
    if (l < 0 || c->t[l].kind != TK_NUMBER)
        return;
    unsigned long long one;
    int bits;
    if (!lex_int_literal(rules_text(c, l), &one, &bits) || one != 1 || bits != 32)
        return;
    ptrdiff_t lp = rules_prev(c, l);
    if (rules_punct(c, lp, ')')) {
        ptrdiff_t m = rules_match_back(c, lp);
        int ptr;
        if (m >= 0 && rules_type_of(c, rules_next(c, m), rules_prev(c, lp), &ptr) == RT_INT64)
            return;
        if (m >= 0)
            l = m;
    } else if (rules_punct(c, lp, '.') || rules_punct(c, lp, P_ARROW)) {
        return;
    }
    ptrdiff_t re = rules_operand_right(c, op);
    if (re < 0 || !rules_range_has(c, rules_next(c, op), re, laneish))
        return;
    if (shift_below32(c, rules_next(c, op), re) && !votes_in(c, rules_fn_of(c, op)))
        return;
    int low = first32(c, op);
    rules_report_at(c, RID_WAVE005, c->t[l].off, c->t[re].off + c->t[re].len - c->t[l].off,
                    low ? HP_SEV_NOTE : 0, 0,
                    rules_fmt(c, "'%s' shifts a 32-bit one by a lane number; lanes 32-63 of a "
                                 "64-lane wavefront get no bit%s",
                              snippet(c, l, re), low ? FIRST32_LANES : ""),
                    NULL);
}

/* ------------------------------------------------------------------ WAVE006 */

static int is_shfl_delta_call(hp_str s, int *delta_arg, int *width_arg)
{
    int sync = str_ends(s, S("_sync"));
    if (!(RULES_STARTS(s, "__shfl_down") || RULES_STARTS(s, "__shfl_xor") ||
          RULES_STARTS(s, "__shfl_up")))
        return 0;
    *delta_arg = sync ? 2 : 1;
    *width_arg = sync ? 3 : 2;
    return 1;
}

/* Is the call's width argument a constant of at most 32 (an explicit 32-lane group)? */
static int narrow_width(const rctx *c, const lex_args *a, int width_arg)
{
    long long v;
    int bits;
    return a->n > width_arg && rules_eval(c, a->first[width_arg], a->last[width_arg], &v, &bits) &&
           v <= 32;
}

/* Does [from, to] call a delta shuffle whose delta is the variable var (not narrowed)? */
static ptrdiff_t shuffle_by(const rctx *c, ptrdiff_t from, ptrdiff_t to, hp_str var, int up)
{
    for (ptrdiff_t j = from; j <= to && j < c->nt; j = rules_next(c, j)) {
        if (c->t[j].kind != TK_IDENT)
            continue;
        int da, wa;
        hp_str s = rules_text(c, j);
        if (!is_shfl_delta_call(s, &da, &wa) || (up != RULES_STARTS(s, "__shfl_up")))
            continue;
        ptrdiff_t open = rules_call(c, j);
        lex_args a;
        if (open < 0 || !rules_args(c, open, &a) || a.n <= da)
            continue;
        if (narrow_width(c, &a, wa))
            continue;
        for (ptrdiff_t k = a.first[da]; k <= a.last[da]; k = rules_next(c, k))
            if (rules_ident(c, k) && str_eq(rules_text(c, k), var))
                return j;
    }
    return -1;
}

/* How the file numbers lanes in device code: bit 1 for a lane within 32 threads (tid & 31,
 * lane % 32), bit 2 for a lane within the wavefront (% warpSize, & (WARP_SIZE - 1) where it is
 * not a known 32, & 63, % 64, __lane_id()), or for a shuffle from a lane named absolutely
 * (__shfl(v, 0) broadcasting a reduction's result: on a wavefront it reads the lower half's
 * lane 0 for both halves) without a width of 32 or less. */
static int lane_numbering(rctx *c)
{
    if (c->lanes)
        return c->lanes & 3; /* once per file */
    int how = 0;
    for (ptrdiff_t i = 0; i < c->nt && how != 3; i++) {
        const tok *k = &c->t[i];
        if (k->kind == TK_IDENT) {
            hp_str s = rules_text(c, i);
            int sync = RULES_EQ(s, "__shfl_sync");
            if (RULES_EQ(s, "__lane_id")) {
                how |= 2;
            } else if (sync || RULES_EQ(s, "__shfl")) {
                ptrdiff_t open = rules_call(c, i);
                lex_args a;
                if (open >= 0 && rules_args(c, open, &a) && !narrow_width(c, &a, sync ? 3 : 2))
                    how |= 2;
            }
            continue;
        }
        if (k->kind != TK_PUNCT || (k->sub != '&' && k->sub != '%') ||
            !(rules_scope(c, i) & SC_DEVICE))
            continue;
        ptrdiff_t l = rules_operand_left(c, i), re = rules_operand_right(c, i);
        if (l < 0 || re < 0 || !rules_range_has(c, l, rules_prev(c, i), laneish))
            continue;
        ptrdiff_t r = rules_next(c, i);
        long long v;
        int bits;
        if (rules_eval(c, r, re, &v, &bits)) {
            if ((k->sub == '&' && v == 31) || (k->sub == '%' && v == 32))
                how |= 1;
            else if ((k->sub == '&' && v == 63) || (k->sub == '%' && v == 64))
                how |= 2;
        } else if (rules_range_has(c, r, re, warp_size_name)) { /* warpSize, WARP_SIZE */
            how |= 2;
        }
    }
    c->lanes = how | 4;
    return how;
}

/* A 32-lane reduction or scan. Where every lane of the file is numbered within 32 threads,
 * each 32-lane half of a wavefront reduces alone and the half's first lane (lane & 31 == 0)
 * holds its result: right as long as the code keeps to 32-lane groups, so a warning. Else
 * (one lane per wavefront takes the result) the other half is lost: the rule's error. */
static void wave006_report(rctx *c, ptrdiff_t at, const char *msg)
{
    if (lane_numbering(c) == 1 && keeps32(c, rules_fn_of(c, at)))
        rules_report(c, RID_WAVE006, at, HP_SEV_NOTE, 0,
                     rules_fmt(c, "%s; this file numbers lanes within 32 threads and %s", msg,
                               KEEPS32 + 2),
                     NULL);
    else if (lane_numbering(c) == 1)
        rules_report(c, RID_WAVE006, at, HP_SEV_WARNING, 0,
                     rules_fmt(c, "%s; this file numbers lanes within 32 threads, so each half "
                                  "of a 64-lane wavefront reduces alone: right only while "
                                  "every step keeps to 32-lane groups",
                               msg),
                     NULL);
    else
        rules_report(c, RID_WAVE006, at, 0, 0, msg, NULL);
}

static void wave006_for(rctx *c, ptrdiff_t i)
{
    if (!(rules_scope(c, i) & SC_DEVICE) || guarded(c, i) || first32(c, i))
        return;
    ptrdiff_t open = rules_next(c, i);
    if (!rules_punct(c, open, '('))
        return;
    ptrdiff_t close = rules_match(c, open);
    if (close < 0)
        return;
    /* the three clauses */
    ptrdiff_t semi[2], ns = 0;
    int depth = 0;
    for (ptrdiff_t j = rules_next(c, open); j < close && ns < 2; j = rules_next(c, j)) {
        if (rules_punct(c, j, '(') || rules_punct(c, j, '['))
            depth++;
        else if (rules_punct(c, j, ')') || rules_punct(c, j, ']'))
            depth--;
        else if (depth == 0 && rules_punct(c, j, ';'))
            semi[ns++] = j;
    }
    if (ns != 2)
        return;
    /* init: [type] v = E */
    ptrdiff_t eq = -1;
    for (ptrdiff_t j = rules_next(c, open); j < semi[0]; j = rules_next(c, j))
        if (rules_punct(c, j, '=')) {
            eq = j;
            break;
        }
    if (eq < 0 || !rules_ident(c, rules_prev(c, eq)))
        return;
    ptrdiff_t var = rules_prev(c, eq);
    hp_str v = rules_text(c, var);
    long long start;
    int bits;
    if (!rules_eval(c, rules_next(c, eq), rules_prev(c, semi[0]), &start, &bits))
        return;
    /* body: a block or one statement */
    ptrdiff_t b0 = rules_next(c, close), b1 = b0;
    if (rules_punct(c, b0, '{')) {
        b1 = rules_match(c, b0);
        if (b1 < 0)
            return;
    } else {
        while (b1 < c->nt && !rules_punct(c, b1, ';'))
            b1 = rules_next(c, b1);
    }
    hp_str step = str_make(c->src + c->t[semi[1]].off,
                           c->t[close].off - c->t[semi[1]].off);
    ptrdiff_t call;
    if (start == 16) {
        /* a butterfly that halves: v /= 2, v >>= 1, v = v / 2, v = v >> 1 */
        int halves = str_find(step, S("/=")) >= 0 || str_find(step, S(">>=")) >= 0 ||
                     str_find(step, S("/ 2")) >= 0 || str_find(step, S("/2")) >= 0 ||
                     str_find(step, S(">> 1")) >= 0 || str_find(step, S(">>1")) >= 0;
        if (!halves || (call = shuffle_by(c, b0, b1, v, 0)) < 0)
            return;
        wave006_report(c, i,
                       "this shuffle reduction starts at offset 16 and combines 32 lanes; a "
                       "64-lane wavefront needs offset 32 first");
        return;
    }
    if (start == 1) {
        /* a scan: v < 32 (or <= 16), doubling */
        ptrdiff_t lt = -1;
        for (ptrdiff_t j = rules_next(c, semi[0]); j < semi[1]; j = rules_next(c, j))
            if (rules_punct(c, j, '<') || rules_punct(c, j, P_LE)) {
                lt = j;
                break;
            }
        if (lt < 0)
            return;
        long long lim;
        if (!rules_eval(c, rules_next(c, lt), rules_prev(c, semi[1]), &lim, &bits))
            return;
        if (!((rules_punct(c, lt, '<') && lim == 32) || (rules_punct(c, lt, P_LE) && lim == 16)))
            return;
        int doubles = str_find(step, S("*=")) >= 0 || str_find(step, S("<<=")) >= 0 ||
                      str_find(step, S("* 2")) >= 0 || str_find(step, S("*2")) >= 0 ||
                      str_find(step, S("+=")) >= 0;
        if (!doubles || (call = shuffle_by(c, b0, b1, v, 1)) < 0)
            return;
        wave006_report(c, i,
                       "this shuffle scan stops after 32 lanes; a 64-lane wavefront needs one "
                       "more step");
    }
}

/* Straight-line reductions: deltas 16 and 8 with no 32 in the same function. */
static void wave006_lines(rctx *c)
{
    for (int f = 0; f < c->nfns; f++) {
        const rules_fn *fn = &c->fns[f];
        if (!fn->device || !fn->crosslane)
            continue;
        ptrdiff_t first16 = -1;
        int has8 = 0, has32 = 0;
        /* the shuffles of the body, outside directives (as a walk with rules_next sees it) */
        for (ptrdiff_t hk = rules_hot_from(c, fn->open); hk < c->nhot; hk++) {
            ptrdiff_t j = c->hot[hk].tok;
            if (j > fn->close || j >= c->nt)
                break;
            int da, wa;
            if (!(c->hot[hk].bits & RH_WAVE) || (c->t[j].flags & TF_PP) ||
                c->t[j].kind != TK_IDENT || !is_shfl_delta_call(rules_text(c, j), &da, &wa) ||
                str_starts(rules_text(c, j), S("__shfl_up")) || guarded(c, j))
                continue;
            ptrdiff_t open = rules_call(c, j);
            lex_args a;
            long long d;
            int bits;
            if (open < 0 || !rules_args(c, open, &a) || a.n <= da || narrow_width(c, &a, wa) ||
                !rules_eval(c, a.first[da], a.last[da], &d, &bits))
                continue;
            if (d == 16 && first16 < 0)
                first16 = j;
            has8 |= d == 8;
            has32 |= d == 32;
        }
        if (first16 >= 0 && has8 && !has32 && !first32(c, first16))
            wave006_report(c, first16,
                           "shuffle steps 16, 8, ... combine 32 lanes; a 64-lane wavefront "
                           "needs a step of 32 first");
    }
}

/* ------------------------------------------------------------------ WAVE007 */

static int defines_or_tests(const rctx *c, const char *macro)
{
    hp_str m = str_cstr(macro);
    for (ptrdiff_t i = 0; i < c->nt; i++)
        if ((c->t[i].flags & TF_PP) && c->t[i].kind == TK_IDENT && str_eq(rules_text(c, i), m))
            return 1;
    return 0;
}

static void wave007(rctx *c, ptrdiff_t first)
{
    int v = c->cfg->hip_version;
    if (v >= 700)
        return;
    if (!c->hip_source) {
        rules_report(c, RID_WAVE007, first, HP_SEV_NOTE, RF_ONCE,
                     "the warp-sync builtins need HIP 7.0 (or HIP 6.2 to 6.4 with "
                     "HIP_ENABLE_WARP_SYNC_BUILTINS); hipport translate --hip-version X.Y "
                     "writes maskless forms or hipport_compat.h helpers for older HIP",
                     "translate with hipport and the --hip-version of your HIP");
        return;
    }
    if (v >= 602 && defines_or_tests(c, "HIP_ENABLE_WARP_SYNC_BUILTINS"))
        return;
    if (v > 0 && v < 602)
        rules_report(c, RID_WAVE007, first, HP_SEV_ERROR, RF_ONCE,
                     rules_fmt(c, "HIP %d.%d does not declare the warp-sync builtins "
                                  "(__shfl_*_sync, __ballot_sync, __activemask, __syncwarp, ...): "
                                  "they arrived in HIP 6.2",
                               v / 100, v % 100),
                     NULL);
    else if (v >= 602)
        rules_report(c, RID_WAVE007, first, HP_SEV_WARNING, RF_ONCE,
                     rules_fmt(c, "HIP %d.%d declares the warp-sync builtins only when "
                                  "HIP_ENABLE_WARP_SYNC_BUILTINS is defined (HIP 7.0 enables "
                                  "them by default)",
                               v / 100, v % 100),
                     NULL);
    else
        rules_report(c, RID_WAVE007, first, HP_SEV_WARNING, RF_ONCE,
                     "the warp-sync builtins (__shfl_*_sync, __ballot_sync, __activemask, "
                     "__syncwarp, ...) need HIP 7.0, or HIP 6.2 to 6.4 with "
                     "HIP_ENABLE_WARP_SYNC_BUILTINS; older HIP does not declare them",
                     NULL);
}

/* ------------------------------------------------------------------ WAVE008 */

/* Is token i inside an if whose condition picks one lane (tid == 0, lane == 0, ...)? */
static int single_lane(const rctx *c, ptrdiff_t i)
{
    const rules_fn *f = rules_fn_of(c, i);
    ptrdiff_t floor = f ? f->open : 0;
    int depth = 0, levels = 0;
    for (ptrdiff_t j = rules_prev(c, i); j > floor && levels < 16; j = rules_prev(c, j)) {
        if (rules_punct(c, j, '}')) {
            depth++;
            continue;
        }
        if (!rules_punct(c, j, '{'))
            continue;
        if (depth > 0) {
            depth--;
            continue;
        }
        levels++;
        ptrdiff_t cl = rules_prev(c, j);
        if (!rules_punct(c, cl, ')'))
            continue;
        ptrdiff_t op = rules_match_back(c, cl);
        if (op < 0 || !rules_is(c, rules_prev(c, op), "if"))
            continue;
        int eq = 0;
        for (ptrdiff_t k = op; k < cl; k = rules_next(c, k))
            if (rules_punct(c, k, P_EQ))
                eq = 1;
        if (eq && rules_range_has(c, op, cl, laneish))
            return 1;
    }
    return 0;
}

static void wave008_spin(rctx *c, ptrdiff_t i)
{
    if (!(rules_scope(c, i) & SC_DEVICE) || guarded(c, i))
        return;
    ptrdiff_t open = rules_next(c, i);
    if (!rules_punct(c, open, '('))
        return;
    ptrdiff_t close = rules_match(c, open);
    if (close < 0)
        return;
    ptrdiff_t at = -1;
    for (ptrdiff_t j = open; j < close; j = rules_next(c, j))
        if (rules_is(c, j, "atomicCAS") || rules_is(c, j, "atomicExch") ||
            rules_is(c, j, "atomicCAS_block") || rules_is(c, j, "atomicExch_block")) {
            at = j;
            break;
        }
    if (at < 0 || single_lane(c, i))
        return;
    /* a do { } while (...) or a while (...) loop */
    hp_str a = rules_text(c, at);
    rules_report(c, RID_WAVE008, i, HP_SEV_ERROR, 0,
                 rules_fmt(c, "lanes spin on '%.*s' until another lane releases it; lanes of "
                              "one AMD wavefront run in lockstep, so a lane of the same "
                              "wavefront never gets there (deadlock)",
                           (int)a.len, a.s),
                 "let one lane per wavefront take the lock (if (__lane_id() == 0)), or use an "
                 "atomic operation instead of a lock");
}

static void wave008_lockstep(rctx *c, ptrdiff_t i)
{
    if (!(rules_scope(c, i) & SC_DEVICE) || guarded(c, i))
        return;
    ptrdiff_t open = rules_next(c, i);
    if (!rules_punct(c, open, '('))
        return;
    ptrdiff_t close = rules_match(c, open);
    if (close < 0)
        return;
    /* if (tid < 32) */
    ptrdiff_t lt = -1;
    for (ptrdiff_t j = open; j < close; j = rules_next(c, j))
        if (rules_punct(c, j, '<'))
            lt = j;
    if (lt < 0 || !eval_is(c, rules_next(c, lt), rules_prev(c, close), 32) ||
        !rules_range_has(c, open, lt, laneish))
        return;
    ptrdiff_t b0 = rules_next(c, close);
    if (!rules_punct(c, b0, '{'))
        return;
    ptrdiff_t b1 = rules_match(c, b0);
    if (b1 < 0)
        return;
    int vol = 0, sync = 0;
    for (ptrdiff_t j = b0; j < b1; j = rules_next(c, j)) {
        if (rules_is(c, j, "volatile"))
            vol = 1;
        if (rules_is(c, j, "__syncwarp") || rules_is(c, j, "__syncthreads") ||
            (c->t[j].kind == TK_IDENT && str_starts(rules_text(c, j), S("__shfl"))))
            sync = 1;
    }
    if (!vol || sync)
        return;
    rules_report(c, RID_WAVE008, i, 0, 0,
                 "warp-synchronous code: lanes 0-31 exchange data through volatile memory "
                 "without __syncwarp, relying on implicit lockstep",
                 "replace the volatile tail with shuffles (__shfl_down over warpSize lanes) "
                 "or put __syncwarp() between the steps");
}

/* ------------------------------------------------------------------ WAVE009 */

/* Does function f index warps with 32 (1) or call a wavefront-wide builtin (2: __syncwarp,
 * __ballot, __activemask, or a free shuffle or vote)? 0: neither. */
static int warp_indexing(const rctx *c, const rules_fn *f)
{
    if (f->crosslane_free)
        return 2;
    int found = 0;
    for (ptrdiff_t j = f->open; j <= f->close && j < c->nt; j = rules_next(c, j)) {
        const tok *k = &c->t[j];
        if (k->kind == TK_IDENT) {
            hp_str s = rules_text(c, j);
            if (RULES_EQ(s, "__syncwarp") || RULES_EQ(s, "__ballot") || RULES_EQ(s, "__activemask"))
                return 2;
            continue;
        }
        if (k->kind != TK_PUNCT)
            continue;
        long long want = k->sub == '/' || k->sub == '%' ? 32 : k->sub == P_SHR ? 5
                         : k->sub == '&'                  ? 31
                                                          : -1;
        if (want < 0)
            continue;
        ptrdiff_t l = rules_operand_left(c, j), re = rules_operand_right(c, j);
        if (l >= 0 && re >= 0 && eval_is(c, rules_next(c, j), re, want) &&
            rules_range_has(c, l, rules_prev(c, j), laneish))
            found = 1;
    }
    return found;
}

static void wave009(rctx *c, ptrdiff_t i)
{
    if (guarded(c, i))
        return;
    if (!tile32_at(c, i))
        return;
    /* "thread_block_tile<32> g = tiled_partition<32>(b)" is one tile: reported once */
    if (rules_is(c, i, "tiled_partition"))
        for (ptrdiff_t j = rules_prev(c, i); j >= 0 && !rules_punct(c, j, ';') &&
                                             !rules_punct(c, j, '{') && !rules_punct(c, j, '}');
             j = rules_prev(c, j))
            if (rules_is(c, j, "thread_block_tile") && tile32_at(c, j))
                return;
    const rules_fn *f = rules_fn_of(c, i);
    int w = f ? warp_indexing(c, f) : 0;
    if (!w)
        return;
    /* Indexing with 32 alone numbers the tiles themselves (tile k holds threads 32k to
     * 32k + 31): consistent, only half a wavefront per tile. Wavefront-wide builtins next to
     * the tile mix the two groupings: the warning. */
    rules_report(c, RID_WAVE009, i, w == 2 ? 0 : HP_SEV_NOTE, 0,
                 "a 32-thread tile is used next to warp-level indexing or warp builtins; on "
                 "gfx9 a tile of 32 is half a wavefront, not the warp",
                 NULL);
}

/* ------------------------------------------------------------------ WAVE010 */

/* Is the warpSize at i in a place that needs a constant expression? Returns what, or NULL. */
static const char *constant_context(const rctx *c, ptrdiff_t i)
{
    if (c->t[i].flags & TF_PP) {
        ptrdiff_t h = rules_directive(c, i);
        if (h >= 0 && (c->t[h].sub == PP_IF || c->t[h].sub == PP_ELIF))
            return "#if";
        return NULL;
    }
    /* walk back to the start of the statement, noting enclosing brackets */
    int depth = 0;
    ptrdiff_t stmt = 0;
    for (ptrdiff_t j = rules_prev(c, i), steps = 0; j >= 0 && steps < 256;
         j = rules_prev(c, j), steps++) {
        const tok *k = &c->t[j];
        if (k->kind == TK_PUNCT) {
            if (k->sub == ')' || k->sub == ']')
                depth++;
            else if (k->sub == '(' || k->sub == '[') {
                if (depth > 0) {
                    depth--;
                    continue;
                }
                ptrdiff_t p = rules_prev(c, j);
                if (k->sub == '(' && (rules_is(c, p, "static_assert") ||
                                      rules_is(c, p, "__launch_bounds__") ||
                                      rules_is(c, p, "alignas")))
                    return rules_is(c, p, "static_assert") ? "static_assert" : "an attribute";
                if (k->sub == '[') {
                    rules_decl d;
                    if (rules_decl_at(c, p, &d))
                        return "an array bound";
                }
            } else if (k->sub == '<' && depth == 0 && rules_ident(c, rules_prev(c, j))) {
                ptrdiff_t gt = rules_template_close(c, j, -1);
                if (gt > i)
                    return "a template argument";
            } else if (k->sub == ';' || k->sub == '{' || k->sub == '}') {
                stmt = j;
                break;
            }
        }
    }
    for (ptrdiff_t j = stmt; j < i; j = rules_next(c, j))
        if (rules_is(c, j, "constexpr") || rules_is(c, j, "consteval"))
            return "a constexpr initializer";
        else if (rules_is(c, j, "__shared__") && depth == 0)
            break;
    return NULL;
}

static void wave010(rctx *c, ptrdiff_t i)
{
    hp_str s = rules_text(c, i);
    if (RULES_STARTS(s, "__AMDGCN_WAVEFRONT_SIZE")) {
        ptrdiff_t p = rules_prev(c, i);
        ptrdiff_t h = rules_directive(c, i);
        if (rules_is(c, p, "defined") ||
            (rules_punct(c, p, '(') && rules_is(c, rules_prev(c, p), "defined")) ||
            (h >= 0 && (c->t[h].sub == PP_IFDEF || c->t[h].sub == PP_IFNDEF ||
                        c->t[h].sub == PP_UNDEF || c->t[h].sub == PP_DEFINE)))
            return;
        rules_report(c, RID_WAVE010, i, 0, 0,
                     rules_fmt(c, "'%.*s' is deprecated and removed in recent clang; in host "
                                  "compilation it reads 64 whatever the target",
                               (int)s.len, s.s),
                     NULL);
        return;
    }
    if (rules_member(c, i))
        return;
    const char *where = constant_context(c, i);
    if (!where)
        return;
    if (strcmp(where, "#if") == 0) {
        rules_report(c, RID_WAVE010, i, HP_SEV_ERROR, 0,
                     "warpSize is not a macro: in #if it reads 0", NULL);
        return;
    }
    int v = c->cfg->hip_version;
    if (v > 0 && v < 700)
        rules_report(c, RID_WAVE010, i, HP_SEV_WARNING, 0,
                     rules_fmt(c, "warpSize in %s: HIP %d.%d accepts it, HIP 7.0 and newer "
                                  "do not (warpSize is no longer constexpr)",
                               where, v / 100, v % 100),
                     NULL);
    else
        rules_report(c, RID_WAVE010, i, 0, 0,
                     rules_fmt(c, "warpSize in %s: it is not a compile-time constant from HIP "
                                  "7.0 on",
                               where),
                     NULL);
}

/* ------------------------------------------------------------------ WAVE011 */

static void wave011(rctx *c, ptrdiff_t i)
{
    hp_str s = rules_text(c, i);
    int sync = str_ends(s, S("_sync"));
    if (!(RULES_EQ(s, "__shfl") || RULES_EQ(s, "__shfl_up") || RULES_EQ(s, "__shfl_down") ||
          RULES_EQ(s, "__shfl_xor") || RULES_EQ(s, "__shfl_sync") ||
          RULES_EQ(s, "__shfl_up_sync") || RULES_EQ(s, "__shfl_down_sync") ||
          RULES_EQ(s, "__shfl_xor_sync")))
        return;
    ptrdiff_t open = rules_call(c, i);
    lex_args a;
    int va = sync ? 1 : 0;
    if (open < 0 || !rules_args(c, open, &a) || a.n <= va || a.last[va] < a.first[va])
        return;
    int ptr;
    rules_type t = rules_expr_type(c, a.first[va], a.last[va], &ptr);
    if (ptr || (t != RT_HALF && t != RT_HALF2))
        return;
    /* HIP 5.6 added __half and __half2 overloads of __shfl, __shfl_up, __shfl_down and
     * __shfl_xor to amd_hip_fp16.h (the _sync forms forward to them): an error only for an
     * older HIP; a note where the version is not known (the gfx94x/gfx950 targets need ROCm 6
     * or newer anyway). */
    int v = c->cfg->hip_version;
    if (v >= 506)
        return;
    rules_report(c, RID_WAVE011, i, v ? HP_SEV_ERROR : HP_SEV_NOTE, 0,
                 rules_fmt(c, "'%.*s' of a %s value: before HIP 5.6, HIP's shuffles take 32- "
                              "and 64-bit integers, float and double, and have no half "
                              "overloads",
                           (int)s.len, s.s, t == RT_HALF ? "__half" : "__half2"),
                 t == RT_HALF2 ? "shuffle the 32 bits: reinterpret the __half2 as unsigned "
                                 "int, shuffle, and reinterpret back"
                               : NULL);
}

/* ------------------------------------------------------------------ WAVE012 */
/* The second step of a block reduction: each warp's first lane writes its partial to a
 * __shared__ array of one slot per warp (sums[warp_id] = v), and one warp reads it back one slot
 * per lane (v = sums[lane_id]). Unguarded, that read is right only where the block has as
 * many warps as a warp has lanes (1024 threads of 32); a 64-lane wavefront has lanes past the
 * warps of any block, which read past a 32-slot array or slots no warp wrote. */

/* A lane index written as one identifier: lane, lane_id, laneId, lane_idx. */
static int lane_index(const rctx *c, ptrdiff_t first, ptrdiff_t last)
{
    return first == last && rules_ident(c, first) && rules_name_has(rules_text(c, first), "lane");
}

/* A warp index written as one identifier: warp, warp_id, warpId, wid (not a warp size). */
static int warp_index(const rctx *c, ptrdiff_t first, ptrdiff_t last)
{
    if (first != last || !rules_ident(c, first))
        return 0;
    hp_str s = rules_text(c, first);
    return RULES_EQ(s, "wid") || (warpish(s) && !warp_size_name(s) && !rules_name_has(s, "num") &&
                                  !rules_name_has(s, "count"));
}

/* Does [first, last] compare the lane (lane < n, n > lane, lane >= n), or a thread index
 * (threadIdx.x < blockDim.x / warpSize, tid < nwarps: in the warp that reads, the same)? */
static int compares(const rctx *c, ptrdiff_t first, ptrdiff_t last, hp_str lane)
{
    for (ptrdiff_t j = first; j >= 0 && j <= last && j < c->nt; j = rules_next(c, j)) {
        if (!rules_ident(c, j))
            continue;
        hp_str s = rules_text(c, j);
        ptrdiff_t p = rules_prev(c, j), n = rules_next(c, j);
        if (RULES_EQ(s, "threadIdx") && rules_punct(c, n, '.'))
            n = rules_next(c, rules_next(c, n));
        else if (rules_member(c, j) || (!str_eq(s, lane) && !laneish(s)))
            continue;
        if (rules_punct(c, n, '<') || rules_punct(c, n, '>') || rules_punct(c, n, P_LE) ||
            rules_punct(c, n, P_GE) || rules_punct(c, p, '<') || rules_punct(c, p, '>') ||
            rules_punct(c, p, P_LE) || rules_punct(c, p, P_GE))
            return 1;
    }
    return 0;
}

/* Is the read at token i (in function f) bounded by a test of lane: in its own statement
 * (lane < n ? s[lane] : 0), or in the condition of an if, while or for around it? */
static int lane_bounded(const rctx *c, const rules_fn *f, ptrdiff_t i, hp_str lane)
{
    ptrdiff_t j = i, depth = 0;
    for (;;) {
        /* back to the start of the statement (or of a nested block's statement) */
        ptrdiff_t start = j;
        for (ptrdiff_t k = rules_prev(c, j); k > f->open; k = rules_prev(c, k)) {
            if (rules_punct(c, k, ')') || rules_punct(c, k, ']')) {
                ptrdiff_t o = rules_match_back(c, k);
                if (o < 0)
                    return 0;
                /* the condition of an if/while/for that governs a statement without braces */
                ptrdiff_t kw = rules_prev(c, o);
                if (rules_punct(c, k, ')') && (rules_is(c, kw, "if") || rules_is(c, kw, "while") ||
                                               rules_is(c, kw, "for"))) {
                    if (compares(c, o, k, lane))
                        return 1;
                }
                k = o;
                start = k;
                continue;
            }
            if (rules_punct(c, k, ';') || rules_punct(c, k, '{') || rules_punct(c, k, '}'))
                break;
            start = k;
        }
        if (!depth && compares(c, start, i, lane))
            return 1;
        depth = 1;
        /* the block around it */
        ptrdiff_t k = rules_prev(c, start);
        int nest = 0;
        for (; k > f->open; k = rules_prev(c, k)) {
            if (rules_punct(c, k, '}'))
                nest++;
            else if (rules_punct(c, k, '{') && nest-- == 0)
                break;
        }
        if (k <= f->open)
            return 0;
        ptrdiff_t close = rules_prev(c, k);
        if (rules_punct(c, close, ')')) {
            ptrdiff_t o = rules_match_back(c, close);
            ptrdiff_t kw = o >= 0 ? rules_prev(c, o) : -1;
            if (o >= 0 && (rules_is(c, kw, "if") || rules_is(c, kw, "while") ||
                           rules_is(c, kw, "for")) &&
                compares(c, o, close, lane))
                return 1;
        }
        j = k;
    }
}

/* Does f count its lanes in wavefronts: a delta shuffle of its own without a width argument
 * (or of width warpSize), whose lanes are the whole wavefront's, or the lane index j declared
 * from warpSize? Code that keeps 32-lane groups on AMD (shuffles of width 32, the lane taken
 * modulo a WARP_SIZE of 32) reads no more slots than it has warps. */
static int wave_lanes(const rctx *c, const rules_fn *f, ptrdiff_t j)
{
    rules_decl d;
    if (rules_decl_find(c, j, &d) && d.init_first >= 0) {
        for (ptrdiff_t k = d.init_first; k >= 0 && k <= d.init_last; k = rules_next(c, k))
            if (rules_is(c, k, "warpSize") || rules_is(c, k, "__lane_id"))
                return 1;
    }
    for (ptrdiff_t k = f->open; k < f->close; k = rules_next(c, k)) {
        int delta, width;
        lex_args a;
        if (!rules_ident(c, k) || rules_member(c, k) ||
            !is_shfl_delta_call(rules_text(c, k), &delta, &width))
            continue;
        ptrdiff_t o = rules_call(c, k);
        if (o < 0 || !rules_args(c, o, &a) || a.n <= delta)
            continue;
        if (a.n <= width || (a.first[width] == a.last[width] &&
                             rules_is(c, a.first[width], "warpSize")))
            return 1;
    }
    return 0;
}

static void wave012(rctx *c, ptrdiff_t sh)
{
    const rules_fn *f = rules_fn_of(c, sh);
    if (!f || !f->device || guarded(c, sh) || (c->t[sh].flags & TF_PP))
        return;
    /* __shared__ T name[size]; one dimension */
    ptrdiff_t name = -1, open = -1;
    for (ptrdiff_t j = rules_next(c, sh), n = 0; j < c->nt && n < 8; j = rules_next(c, j), n++) {
        if (rules_punct(c, j, ';') || rules_punct(c, j, '='))
            return;
        if (rules_ident(c, j) && rules_punct(c, rules_next(c, j), '[')) {
            name = j;
            open = rules_next(c, j);
            break;
        }
    }
    ptrdiff_t close = open >= 0 ? rules_match(c, open) : -1;
    if (close < 0 || !rules_punct(c, rules_next(c, close), ';') || close == rules_next(c, open))
        return;
    hp_str arr = rules_text(c, name);
    long long size = 0;
    int bits = 0;
    if (!rules_eval(c, rules_next(c, open), rules_prev(c, close), &size, &bits))
        size = -1;
    if (size >= 64 * 64)
        return;
    /* a write at a warp index, then the reads at a lane index */
    int written = 0;
    ptrdiff_t reads[8];
    int nreads = 0;
    for (ptrdiff_t j = rules_next(c, close); j < f->close; j = rules_next(c, j)) {
        if (!rules_ident(c, j) || !str_eq(rules_text(c, j), arr) || rules_member(c, j))
            continue;
        ptrdiff_t o = rules_next(c, j);
        ptrdiff_t e = rules_punct(c, o, '[') ? rules_match(c, o) : -1;
        if (e < 0)
            continue;
        ptrdiff_t a = rules_next(c, o), b = rules_prev(c, e), after = rules_next(c, e);
        int store = rules_punct(c, after, '=') || rules_punct(c, after, P_ASSIGN_OP);
        if (store && warp_index(c, a, b))
            written = 1;
        else if (!store && lane_index(c, a, b) && nreads < (int)(sizeof reads / sizeof *reads))
            reads[nreads++] = j;
    }
    if (!written)
        return;
    for (int r = 0; r < nreads; r++) {
        ptrdiff_t j = reads[r], e = rules_match(c, rules_next(c, j));
        ptrdiff_t idx = rules_next(c, rules_next(c, j));
        hp_str lane = rules_text(c, idx);
        if (guarded(c, j) || lane_bounded(c, f, j, lane) || !wave_lanes(c, f, idx))
            continue;
        const char *what = size > 0 && size < 64
                               ? rules_fmt(c, "the 64 lanes of a wavefront outnumber its %lld "
                                              "slots", size)
                               : "the 64 lanes of a wavefront outnumber the warps of a block";
        rules_report_at(c, RID_WAVE012, c->t[j].off, c->t[e].off + c->t[e].len - c->t[j].off,
                        size > 0 && size < 64 ? HP_SEV_ERROR : HP_SEV_WARNING, 0,
                        rules_fmt(c, "'%s' reads '%.*s', written one slot per warp, at the lane "
                                     "index with no bound: %s",
                                  snippet(c, j, e), (int)arr.len, arr.s, what),
                        NULL);
    }
}

/* ------------------------------------------------------------------ the family */

/* The identifiers the pass below acts on (rules_hot.c) that rule_keys.tsv cannot list: the
 * names of warp-size variables and the *_sync builtins. */
unsigned rules_wave_names(const rctx *c, hp_str s, int number)
{
    (void)c;
    if (number || s.len <= 0)
        return 0;
    char f = s.s[0];
    if (s.len >= 7 &&
        (f == 'w' || f == 'W' || f == 'k' || f == 'T' || f == 'L' || f == 'N' || f == 'n' ||
         f == 't' || f == 'l' || f == 'M' || f == 'm' || f == '_' || f == 'g' || f == 'G') &&
        warp_size_name(s))
        return RH_WAVE;
    return f == '_' && s.len > 4 && s.s[1] == '_' && is_sync_builtin(s) ? RH_WAVE : 0;
}

void rules_wave_run(rctx *c)
{
    ptrdiff_t first_sync = -1;
    for (ptrdiff_t hk = 0, i; (i = rules_hot_next(c, &hk, RH_WAVE)) >= 0;) {
        const tok *k = &c->t[i];
        if (k->kind == TK_PP_HASH) {
            if (k->sub == PP_DEFINE)
                wave001_define(c, i);
            continue;
        }
        if (k->kind == TK_PUNCT) {
            switch (k->sub) {
            case '&':
            case '%':
            case '/':
            case '*':
            case P_SHR:
                if (!(k->flags & TF_PP))
                    wave002(c, i);
                break;
            case P_SHL:
                if (!(k->flags & TF_PP)) {
                    wave002(c, i);
                    wave005_shift(c, i);
                }
                break;
            default:
                break;
            }
            continue;
        }
        if (k->kind != TK_IDENT)
            continue;
        hp_str s = rules_text(c, i);
        if (k->len >= 7 && (s.s[0] == 'w' || s.s[0] == 'W' || s.s[0] == 'k' ||
                            s.s[0] == 'T' || s.s[0] == 'L' || s.s[0] == 'N' || s.s[0] == 'n' ||
                            s.s[0] == 't' || s.s[0] == 'l' || s.s[0] == 'M' || s.s[0] == 'm' ||
                            s.s[0] == '_' || s.s[0] == 'g' || s.s[0] == 'G'))
            wave001(c, i);
        if (s.s[0] == '_' && s.len > 4) {
            /* a builtin a HIP shim of the tree defines ("#define __shfl_down_sync(mask, v,
             * d) __shfl_down(v, d)" under an AMD test) is already mapped for HIP */
            if ((is_sync_builtin(s) || RULES_EQ(s, "__activemask")) && !rules_shim(c, s)) {
                if (!guarded(c, i) && !rules_member(c, i) && rules_call(c, i) >= 0) {
                    if (first_sync < 0)
                        first_sync = i;
                    if (!RULES_EQ(s, "__activemask"))
                        wave003(c, i);
                }
            }
            if ((RULES_STARTS(s, "__ballot") || RULES_EQ(s, "__activemask") ||
                 RULES_EQ(s, "__match_any_sync") || RULES_EQ(s, "__match_all_sync")) &&
                !RULES_EQ(s, "__ballot64") && !guarded(c, i)) {
                ptrdiff_t open = rules_call(c, i);
                ptrdiff_t close = open >= 0 ? rules_match(c, open) : -1;
                if (close >= 0)
                    narrowed(c, i, close, RID_WAVE004, s);
            }
            if (RULES_STARTS(s, "__lanemask_") && !guarded(c, i)) {
                ptrdiff_t open = rules_call(c, i);
                ptrdiff_t close = open >= 0 ? rules_match(c, open) : -1;
                if (close >= 0)
                    narrowed(c, i, close, RID_WAVE005, s);
            }
            if (!guarded(c, i))
                wave004_var(c, i);
            if (RULES_STARTS(s, "__shfl") && !guarded(c, i))
                wave011(c, i);
            if (RULES_STARTS(s, "__AMDGCN_WAVEFRONT_SIZE"))
                wave010(c, i);
            continue;
        }
        if ((RULES_EQ(s, "ballot") || RULES_EQ(s, "match_any")) && rules_member(c, i) &&
            !guarded(c, i)) {
            ptrdiff_t open = rules_call(c, i);
            ptrdiff_t close = open >= 0 ? rules_match(c, open) : -1;
            if (close >= 0)
                narrowed(c, i, close, RID_WAVE004, s);
            continue;
        }
        switch (s.s[0]) {
        case 'w':
            if (RULES_EQ(s, "warpSize"))
                wave010(c, i);
            else if (RULES_EQ(s, "while")) {
                if (!(k->flags & TF_PP))
                    wave008_spin(c, i);
            }
            break;
        case 'f':
            if (RULES_EQ(s, "for") && !(k->flags & TF_PP))
                wave006_for(c, i);
            break;
        case 'i':
            if (RULES_EQ(s, "if") && !(k->flags & TF_PP))
                wave008_lockstep(c, i);
            break;
        case 't':
            if (RULES_EQ(s, "tiled_partition") || RULES_EQ(s, "thread_block_tile"))
                wave009(c, i);
            break;
        default:
            break;
        }
    }
    for (ptrdiff_t hk = 0, i; (i = rules_hot_next(c, &hk, RH_SHARED)) >= 0;)
        if (rules_is(c, i, "__shared__"))
            wave012(c, i);
    wave006_lines(c);
    if (first_sync >= 0)
        wave007(c, first_sync);
}

