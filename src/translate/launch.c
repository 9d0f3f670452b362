/* launch.c: kernel launches k<<<grid, block, shared, stream>>>(args) rewritten as
 * hipLaunchKernelGGL(k, dim3(grid), dim3(block), shared, stream, args) for --launch=ggl.
 * Template kernels are wrapped in HIP_KERNEL_NAME(); comments inside the launch are kept. */
#include "str.h"
#include "xlate.h"

#include "banned.h"

/* Start of the kernel expression that ends at token e (the token before <<<), or -1.
 * Sets *templ when the expression ends in a template argument list. */
static ptrdiff_t kernel_start(const xlate *x, ptrdiff_t e, int *templ)
{
    *templ = 0;
    ptrdiff_t p = e;
    for (;;) {
        if (p < 0)
            return -1;
        const tok *k = &x->t[p];
        if (k->kind == TK_PUNCT && (k->sub == '>' || k->sub == P_SHR)) {
            int depth = 0;
            for (; p >= 0; p = xlate_prev(x, p)) {
                const tok *q = &x->t[p];
                if (q->kind == TK_LAUNCH_OPEN || q->kind == TK_LAUNCH_CLOSE)
                    return -1;
                if (q->kind != TK_PUNCT)
                    continue;
                if (q->sub == '>')
                    depth++;
                else if (q->sub == P_SHR)
                    depth += 2;
                else if (q->sub == '<' && --depth == 0)
                    break;
                else if (q->sub == ';' || q->sub == '{' || q->sub == '}' || q->sub == '(' ||
                         q->sub == '[')
                    return -1;
                else if (q->sub == ')' || q->sub == ']') {
                    /* skip a bracketed template argument backwards */
                    unsigned open = q->sub == ')' ? '(' : '[';
                    int d = 0;
                    for (; p >= 0; p = xlate_prev(x, p)) {
                        if (xlate_punct(x, p, q->sub))
                            d++;
                        else if (xlate_punct(x, p, open) && --d == 0)
                            break;
                    }
                    if (p < 0)
                        return -1;
                }
            }
            if (p < 0)
                return -1;
            *templ = 1;
            p = xlate_prev(x, p);
            continue;
        }
        if (k->kind == TK_IDENT) {
            ptrdiff_t q = xlate_prev(x, p);
            if (xlate_punct(x, q, P_SCOPE)) {
                ptrdiff_t r = xlate_prev(x, q);
                if (r >= 0 && (x->t[r].kind == TK_IDENT || xlate_punct(x, r, '>'))) {
                    p = r;
                    continue;
                }
                return q; /* ::kernel */
            }
            return p;
        }
        if (xlate_punct(x, p, ')')) {
            int d = 0;
            for (; p >= 0; p = xlate_prev(x, p)) {
                if (xlate_punct(x, p, ')'))
                    d++;
                else if (xlate_punct(x, p, '(') && --d == 0)
                    return p;
            }
            return -1;
        }
        return -1;
    }
}

/* The >>> closing the <<< at open, or -1 unless the brackets between them balance. */
static ptrdiff_t launch_close(const xlate *x, ptrdiff_t open)
{
    int depth = 0;
    for (ptrdiff_t i = xlate_next(x, open); i < x->nt; i = xlate_next(x, i)) {
        const tok *k = &x->t[i];
        if (k->kind == TK_LAUNCH_CLOSE)
            return depth == 0 ? i : -1;
        if (k->kind == TK_PP_END || k->kind == TK_LAUNCH_OPEN)
            return -1;
        if (k->kind != TK_PUNCT)
            continue;
        if (k->sub == '(' || k->sub == '[' || k->sub == '{')
            depth++;
        else if ((k->sub == ')' || k->sub == ']' || k->sub == '}') && --depth < 0)
            return -1;
        else if (k->sub == ';' && depth == 0)
            return -1;
    }
    return -1;
}

ptrdiff_t launch_rewrite(xlate *x, ptrdiff_t open)
{
    ptrdiff_t e = xlate_prev(x, open);
    int templ;
    ptrdiff_t start = kernel_start(x, e, &templ);
    ptrdiff_t close = launch_close(x, open);
    if (start < 0 || close < 0)
        return open;
    if (x->t[open].flags & TF_PP) {
        /* in a directive, only in a #define body: after the macro's name */
        ptrdiff_t h = open;
        while (h > 0 && x->t[h].kind != TK_PP_HASH)
            h--;
        ptrdiff_t name = xlate_next(x, xlate_next(x, h));
        if (x->t[h].sub != PP_DEFINE || start <= name)
            return open;
    }
    ptrdiff_t lp = xlate_next(x, close);
    if (!xlate_punct(x, lp, '('))
        return open;
    lex_args cfg, args;
    if (!xlate_split(x, open, close, &cfg) || cfg.n < 2 || cfg.n > 4 || !xlate_args(x, lp, &args))
        return open;
    for (int k = 0; k < cfg.n; k++)
        if (cfg.last[k] < cfg.first[k])
            return open; /* an empty configuration argument: leave it to the compiler */

    xlate_insert(x, x->t[start].off, templ ? "hipLaunchKernelGGL(HIP_KERNEL_NAME(" :
                                            "hipLaunchKernelGGL(");
    if (templ)
        xlate_insert(x, x->t[e].off + x->t[e].len, ")");
    xlate_edit(x, x->t[open].off, x->t[open].len, S(", "));
    for (int k = 0; k < 2; k++) {
        const tok *f = &x->t[cfg.first[k]], *l = &x->t[cfg.last[k]];
        xlate_insert(x, f->off, "dim3(");
        xlate_insert(x, l->off + l->len, ")");
    }
    const tok *c = &x->t[close];
    if (cfg.n == 2)
        xlate_insert(x, c->off, ", 0, 0");
    else if (cfg.n == 3)
        xlate_insert(x, c->off, ", 0");
    xlate_edit(x, c->off, c->len, S(""));
    /* "(" becomes ", " (just "," at the end of a line, so that no trailing space appears) */
    ptrdiff_t after = x->t[lp].off + 1;
    int eol = after < x->len && (x->src[after] == '\n' || x->src[after] == '\r');
    xlate_edit(x, x->t[lp].off, x->t[lp].len, !args.n ? S("") : eol ? S(",") : S(", "));
    x->st.launches++;
    return close;
}
