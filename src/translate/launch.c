/* launch.c: kernel launches k<<<grid, block, shared, stream>>>(args) rewritten as
 * hipLaunchKernelGGL(k, dim3(grid), dim3(block), shared, stream, args) for --launch=ggl, in
 * hipify-clang's layout: ", " between the arguments, the arguments' own text kept, dim3() only
 * where the argument is not a dim3(...) already. Template kernels (with template arguments, or
 * a template __global__ function of the file) are wrapped in HIP_KERNEL_NAME(); comments
 * inside the launch are kept. */
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

/* Fills x->tkern: the names of the function templates declared __global__ (template <...>
 * [specifiers] __global__ [specifiers] type name(...)). */
static void scan_template_kernels(xlate *x)
{
    x->tkern_scanned = 1;
    int n = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            if (!n)
                return;
            x->tkern = NEW(x->a, hp_str, n);
            n = 0;
        }
        for (ptrdiff_t i = 0; i < x->nt; i++) {
            if (x->t[i].kind != TK_IDENT || !xlate_is(x, i, "__global__"))
                continue;
            ptrdiff_t p = xlate_prev(x, i);
            while (p >= 0 && (x->t[p].kind == TK_IDENT || x->t[p].kind == TK_STRING))
                p = xlate_prev(x, p);
            if (p < 0 || !(xlate_punct(x, p, '>') || xlate_punct(x, p, P_SHR)))
                continue;
            /* the name: the identifier before the first "(" not of __launch_bounds__ */
            ptrdiff_t q = xlate_next(x, i), name = -1;
            for (int guard = 0; q < x->nt && guard < 64; guard++) {
                if (xlate_punct(x, q, '(')) {
                    ptrdiff_t r = xlate_prev(x, q);
                    if (r >= 0 && x->t[r].kind == TK_IDENT &&
                        !xlate_is(x, r, "__launch_bounds__")) {
                        name = r;
                        break;
                    }
                    q = xlate_match(x, q);
                    if (q < 0)
                        break;
                } else if (xlate_punct(x, q, ';') || xlate_punct(x, q, '{')) {
                    break;
                }
                q = xlate_next(x, q);
            }
            if (name < 0)
                continue;
            if (pass == 1)
                x->tkern[n] = xlate_text(x, name);
            n++;
        }
    }
    x->ntkern = n;
}

/* Does the kernel expression ending at token e name a template __global__ function? */
static int template_kernel(xlate *x, ptrdiff_t e)
{
    if (e < 0 || x->t[e].kind != TK_IDENT)
        return 0;
    if (!x->tkern_scanned)
        scan_template_kernels(x);
    hp_str name = xlate_text(x, e);
    for (int k = 0; k < x->ntkern; k++)
        if (str_eq(x->tkern[k], name))
            return 1;
    return 0;
}

/* The last token of the body of the #define whose name is token n, or -1 when the body is
 * empty or the macro is function-like (its name followed by '(' with no blank between). */
static ptrdiff_t object_body_end(const xlate *x, ptrdiff_t n)
{
    ptrdiff_t b = xlate_next(x, n);
    if (b >= x->nt || x->t[b].kind == TK_PP_END ||
        (xlate_punct(x, b, '(') && x->t[b].off == x->t[n].off + x->t[n].len))
        return -1;
    ptrdiff_t last = b;
    for (ptrdiff_t k = b; k < x->nt && x->t[k].kind != TK_PP_END; k = xlate_next(x, k))
        last = k;
    return last;
}

/* Does a #define of the file make the identifier at e, a kernel's name, a template kernel: an
 * object-like macro whose body is a kernel's name with template arguments, or a template
 * __global__ function's (#define KERNEL axpy<float>)? HIP_KERNEL_NAME() around it changes
 * nothing where it is not. */
static int macro_names_template(xlate *x, ptrdiff_t e)
{
    hp_str name = xlate_text(x, e);
    for (ptrdiff_t d = 0; d < x->ndirs; d++) {
        ptrdiff_t h = x->dirs[d];
        if (x->t[h].sub != PP_DEFINE)
            continue;
        ptrdiff_t n = xlate_next(x, xlate_next(x, h));
        if (n >= x->nt || x->t[n].kind != TK_IDENT || !str_eq(xlate_text(x, n), name))
            continue;
        ptrdiff_t last = object_body_end(x, n);
        int templ;
        if (last >= 0 && kernel_start(x, last, &templ) == xlate_next(x, n) &&
            (templ || template_kernel(x, last)))
            return 1;
    }
    return 0;
}

/* Are the bytes [a, b) free of comments (only blanks and the launch's own punctuation)? */
static int no_comment(const xlate *x, ptrdiff_t a, ptrdiff_t b)
{
    for (; a < b; a++)
        if (x->src[a] == '/')
            return 0;
    return 1;
}

/* Is the configuration argument first..last a dim3(...) or dim3{...} already? */
static int is_dim3(const xlate *x, ptrdiff_t first, ptrdiff_t last)
{
    if (!xlate_is(x, first, "dim3"))
        return 0;
    ptrdiff_t b = xlate_next(x, first);
    return (xlate_punct(x, b, '(') || xlate_punct(x, b, '{')) && xlate_match(x, b) == last;
}

/* The configuration argument k of a launch as hipLaunchKernelGGL takes it: its own text, in
 * dim3() for the grid and the block where it is not a dim3 already, "0" where it is absent. */
static hp_str config_arg(xlate *x, const lex_args *cfg, int k)
{
    if (k >= cfg->n)
        return S("0");
    const tok *f = &x->t[cfg->first[k]], *l = &x->t[cfg->last[k]];
    int len = (int)(l->off + l->len - f->off);
    if (k < 2 && !is_dim3(x, cfg->first[k], cfg->last[k]))
        return str_cstr(arena_printf(x->a, "dim3(%.*s)", len, x->src + f->off));
    return str_make(x->src + f->off, len);
}

/* A launch without its arguments that is the whole body of an object-like macro (#define RUN
 * k<<<g, b>>>), used as RUN(args): each use after the #define is written as the launch the
 * preprocessor makes of it, hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, 0, args), as
 * hipify-clang writes it, and the #define is left as it is. Only where the file defines the
 * macro once and never #undefs it, and the body has no '#', '##' or line continuation: then
 * every use expands to the tokens written here. */
static void launch_macro_uses(xlate *x, ptrdiff_t name, ptrdiff_t start, ptrdiff_t e,
                              ptrdiff_t open, ptrdiff_t close, int templ)
{
    hp_str mname = xlate_text(x, name);
    int ndef = 0;
    for (ptrdiff_t d = 0; d < x->ndirs; d++) {
        ptrdiff_t h = x->dirs[d];
        if (x->t[h].sub != PP_DEFINE && x->t[h].sub != PP_UNDEF)
            continue;
        ptrdiff_t n = xlate_next(x, xlate_next(x, h));
        if (n >= x->nt || x->t[n].kind != TK_IDENT || !str_eq(xlate_text(x, n), mname))
            continue;
        if (x->t[h].sub == PP_UNDEF)
            return;
        ndef++;
    }
    const tok *c = &x->t[close];
    ptrdiff_t from = x->t[start].off, to = c->off + c->len;
    if (ndef != 1 || memchr(x->src + from, '#', (size_t)(to - from)) ||
        memchr(x->src + from, '\\', (size_t)(to - from)))
        return;
    lex_args cfg;
    if (!xlate_split(x, open, close, &cfg) || cfg.n < 2 || cfg.n > 4)
        return;
    for (int k = 0; k < cfg.n; k++)
        if (cfg.last[k] < cfg.first[k])
            return;
    if (!templ && (template_kernel(x, e) || (start == e && macro_names_template(x, e))))
        templ = 1;
    int klen = (int)(x->t[e].off + x->t[e].len - from);
    hp_str g = config_arg(x, &cfg, 0), b = config_arg(x, &cfg, 1), sh = config_arg(x, &cfg, 2),
           st = config_arg(x, &cfg, 3);
    const char *head = arena_printf(
        x->a, "hipLaunchKernelGGL(%s%.*s%s, %.*s, %.*s, %.*s, %.*s", templ ? "HIP_KERNEL_NAME(" : "",
        klen, x->src + from, templ ? ")" : "", (int)g.len, g.s, (int)b.len, b.s, (int)sh.len,
        sh.s, (int)st.len, st.s);
    for (ptrdiff_t i = close + 1; i < x->nt; i++) {
        if (x->t[i].kind != TK_IDENT || (x->t[i].flags & TF_PP) ||
            !str_eq(xlate_text(x, i), mname))
            continue;
        ptrdiff_t lp = xlate_next(x, i);
        lex_args args;
        if (!xlate_punct(x, lp, '(') || xlate_match(x, lp) < 0 || !xlate_args(x, lp, &args))
            continue;
        ptrdiff_t off = x->t[i].off;
        if (args.n)
            xlate_edit(x, off, x->t[lp].off + 1 - off,
                       str_cstr(arena_printf(x->a, "%s, ", head)));
        else
            xlate_edit(x, off, x->t[xlate_match(x, lp)].off - off, str_cstr(head));
        x->st.launches++;
    }
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
        ptrdiff_t after = xlate_next(x, close);
        if ((after >= x->nt || x->t[after].kind == TK_PP_END) && start == xlate_next(x, name) &&
            object_body_end(x, name) == close) {
            launch_macro_uses(x, name, start, e, open, close, templ);
            return open;
        }
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

    if (!templ && (template_kernel(x, e) || (start == e && macro_names_template(x, e))))
        templ = 1;
    xlate_insert(x, x->t[start].off, templ ? "hipLaunchKernelGGL(HIP_KERNEL_NAME(" :
                                            "hipLaunchKernelGGL(");
    ptrdiff_t kend = x->t[e].off + x->t[e].len;
    if (templ)
        xlate_insert(x, kend, ")");
    /* "k <<< g" becomes "k, g" (", " only in place of "<<<" where a comment is in between) */
    const tok *o = &x->t[open], *g = &x->t[cfg.first[0]];
    if (no_comment(x, kend, g->off))
        xlate_edit(x, kend, g->off - kend, S(", "));
    else
        xlate_edit(x, o->off, o->len, S(", "));
    for (int k = 0; k < cfg.n; k++) {
        const tok *f = &x->t[cfg.first[k]], *l = &x->t[cfg.last[k]];
        if (k < 2 && !is_dim3(x, cfg.first[k], cfg.last[k])) {
            xlate_insert(x, f->off, "dim3(");
            xlate_insert(x, l->off + l->len, ")");
        }
        /* the separator: ", " */
        ptrdiff_t lend = l->off + l->len;
        if (k + 1 < cfg.n && no_comment(x, lend, x->t[cfg.first[k + 1]].off))
            xlate_edit(x, lend, x->t[cfg.first[k + 1]].off - lend, S(", "));
    }
    const tok *c = &x->t[close], *last = &x->t[cfg.last[cfg.n - 1]];
    const char *defaults = cfg.n == 2 ? ", 0, 0" : cfg.n == 3 ? ", 0" : "";
    /* ">>> (" becomes ", " (just "," at the end of a line, so that no trailing space appears),
     * or ")" where there are no arguments */
    ptrdiff_t after = x->t[lp].off + 1;
    int eol = after < x->len && (x->src[after] == '\n' || x->src[after] == '\r');
    hp_str sep = !args.n ? S("") : eol ? S(",") : S(", ");
    ptrdiff_t lend = last->off + last->len, rp = xlate_match(x, lp);
    if (!args.n && rp > lp && no_comment(x, after, x->t[rp].off))
        after = x->t[rp].off; /* "( )" */
    if (no_comment(x, lend, after)) {
        xlate_insert(x, lend, defaults);
        xlate_edit(x, lend, after - lend, sep);
    } else {
        xlate_insert(x, c->off, defaults);
        xlate_edit(x, c->off, c->len, S(""));
        xlate_edit(x, x->t[lp].off, x->t[lp].len, sep);
    }
    x->st.launches++;
    return close;
}
