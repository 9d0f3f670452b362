/* rules_lib.c: LIB004, CUB warp collectives whose implicit width differs (32 in CUB, 64 on gfx9
 * in hipCUB), and thrust::cuda execution policies. The other LIB rules are plain names
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

static void collective(rctx *c, ptrdiff_t i, int need, int *uses_cub)
{
    ptrdiff_t p = rules_prev(c, i);
    if (rules_punct(c, p, P_SCOPE)) {
        ptrdiff_t q = rules_prev(c, p);
        if (!rules_is(c, q, "cub") && !rules_is(c, q, "hipcub"))
            return;
    } else {
        if (*uses_cub < 0)
            *uses_cub = file_uses_cub(c);
        if (!*uses_cub)
            return;
    }
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
    int uses_cub = -1;
    for (ptrdiff_t hk = 0, i; (i = rules_hot_next(c, &hk, RH_LIB)) >= 0;) {
        if (c->t[i].kind != TK_IDENT || (rules_scope(c, i) & SC_GUARDED))
            continue;
        hp_str s = rules_text(c, i);
        int need;
        if (s.s[0] == 'W' && (need = width_position(s)) > 0) {
            collective(c, i, need, &uses_cub);
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
