/* pysrc.c: a Python file ready for rules (see pysrc.h): significant tokens, brackets, logical
 * lines, blocks, import aliases, call arguments and literals. */
#include "pysrc.h"

#include <string.h>

#include "str.h"

#include "banned.h"


static int is_open(const pytok *t)
{
    return t->kind == PY_OP && (t->sub == '(' || t->sub == '[' || t->sub == '{');
}

static int is_close(const pytok *t)
{
    return t->kind == PY_OP && (t->sub == ')' || t->sub == ']' || t->sub == '}');
}

/* What the predicates remember of a file, made by pysrc_init. */
struct pysrc_memo {
    arena *a;
    int32_t *amd;     /* amd[i]: the tokens before i that name the AMD side; NULL until built */
    ptrdiff_t budget; /* tokens the plain tests may still visit before amd is built */
    unsigned char *chain; /* per line start: whether pysrc_pred_amd holds on the if chain
                           * walked from it (header_pred): 0 not known, 1 no, 2 yes */
    int32_t *vend;        /* vend[i]: the tokens before i that are vendor tests of either side
                           * (pysrc_pred_vendor); NULL until built */
    unsigned char *vchain; /* as chain, for pysrc_pred_vendor */
    unsigned char *amdk;   /* per token: amd_tok's answer, 0 not known, 1 no, 2 yes */
    unsigned char *vexit;  /* per line start: after_vendor_exit's answer, 0 not known, 1 no,
                            * 2 yes */
    unsigned char *vonly;  /* per line start: pysrc_vendor_only's answer, 0 not known, 1 no,
                            * 2 yes (the tokens of a logical line share their blocks) */
    unsigned char *vblock; /* per block header: whether it or a block around it makes its
                            * body vendor-only (block_vendor), 0 not known, 1 no, 2 yes */
    unsigned char *vname;  /* per token: a name that holds a vendor test's value (vendor
                            * values below): 0 no, 1 NVIDIA's side, 2 AMD's, 3 either */
    int32_t *vnm;          /* vnm[i]: the tokens before i that vname marks */
    unsigned char *vfwd;   /* per if/elif header: whether a later branch of its chain tests
                            * for AMD (later_amd), 0 not known, 1 no, 2 yes */
    int vname_built;       /* build_vnames ran */
    int skipif;            /* the file names skipif: 0 not known, 1 no, 2 yes */
    unsigned char *vassert; /* per line start: pysrc_nv_assert's answer, 0 not known, 1 no,
                             * 2 yes */
    int nvfn_built;        /* nvfn_ix is made */
    nameidx nvfn_ix;       /* the file's own NVIDIA-only predicates (pysrc_nv_predicate) */
    int fns_built;        /* fn_ix and fn_only are made (pysrc_vendor_only) */
    nameidx fn_ix;        /* names of the file's functions -> their slot in fn_only */
    unsigned char *fn_only; /* per function: 1 no, 2 only vendor-only code refers to it */
    unsigned char *winhdr;  /* per block header: whether its body runs only on Windows
                             * (pysrc_windows_only), 0 not known, 1 no, 2 yes */
    int forks_built;        /* fork_name and fork_at are made (pysrc_fork_only) */
    int nfork;              /* module-level names bound to a fork probe */
    hp_str fork_name[8];
    int32_t fork_probe[8];  /* the string token of each one's probe */
    int forkany;            /* the file holds a fork probe at all */
    int32_t *forkfn;        /* per def header (fork_fn): 0 not known, -1 no (or being asked),
                             * else the probe's string token + 1 */
    int32_t *cxoff;         /* per if/elif header (pysrc_constexpr_off): 0 not known, -1 no,
                             * else the flag's token + 1 */
};

/* The last alias of name. */
static const pysrc_alias *find_alias(const pysrc *p, hp_str name)
{
    if (p->alias_ix.cap) {
        int32_t k = nameidx_get(&p->alias_ix, name);
        return k >= 0 ? &p->alias[k] : NULL;
    }
    for (int k = p->nalias - 1; k >= 0; k--)
        if (str_eq(p->alias[k].name, name))
            return &p->alias[k];
    return NULL;
}

static void add_alias(pysrc *p, arena *a, int *cap, hp_str name, hp_str target)
{
    if (p->nalias == *cap) {
        int ncap = *cap ? *cap * 2 : 16;
        p->alias = arena_grow(a, p->alias, (ptrdiff_t)*cap * (ptrdiff_t)sizeof(pysrc_alias),
                              (ptrdiff_t)ncap * (ptrdiff_t)sizeof(pysrc_alias),
                              _Alignof(pysrc_alias));
        if (!p->alias) {
            p->nalias = 0;
            *cap = 0;
            return;
        }
        *cap = ncap;
    }
    p->alias[p->nalias].name = name;
    p->alias[p->nalias].target = target;
    p->nalias++;
}

/* A dotted module name at i: returns the index after it and its source span. */
static ptrdiff_t dotted(const pysrc *p, ptrdiff_t i, hp_str *span)
{
    if (i >= p->n || p->t[i].kind != PY_NAME)
        return i;
    ptrdiff_t j = i + 1;
    while (j + 1 < p->n && pysrc_op(p, j, '.') && p->t[j + 1].kind == PY_NAME)
        j += 2;
    span->s = p->src + p->t[i].off;
    span->len = p->t[j - 1].off + p->t[j - 1].len - p->t[i].off;
    return j;
}

/* A dotted span with any spaces around its dots removed (arena), so that "a . b" is "a.b". */
static hp_str squeeze(arena *a, hp_str s)
{
    char *buf = arena_alloc_nozero(a, 1, 1, s.len + 1);
    if (!buf)
        return s;
    ptrdiff_t k = 0;
    for (ptrdiff_t i = 0; i < s.len; i++)
        if (!str_is_space(s.s[i]) && s.s[i] != '\\')
            buf[k++] = s.s[i];
    buf[k] = 0;
    hp_str r = {buf, k};
    return r;
}

static hp_str join3(arena *a, hp_str x, hp_str y)
{
    char *buf = arena_join(a, x.s, x.len, '.', y.s, y.len);
    if (!buf)
        return y;
    hp_str r = {buf, x.len + 1 + y.len};
    return r;
}

/* import a.b [as c], ... / from a.b import c [as d], ... */
static void scan_imports(pysrc *p, arena *a)
{
    int cap = 0;
    for (ptrdiff_t i = 0; i < p->n; i++) {
        if (p->t[i].kind != PY_NAME || (i > 0 && pysrc_op(p, i - 1, '.')))
            continue;
        if (pysrc_is(p, i, "import")) {
            if (i > 0 && p->lstart[i] != i && !pysrc_op(p, i - 1, ':') &&
                !pysrc_op(p, i - 1, ';'))
                continue; /* the import of a from-import */
            ptrdiff_t j = i + 1;
            for (;;) {
                hp_str mod;
                ptrdiff_t k = dotted(p, j, &mod);
                if (k == j)
                    break;
                if (pysrc_is(p, k, "as") && k + 1 < p->n && p->t[k + 1].kind == PY_NAME) {
                    add_alias(p, a, &cap, pysrc_text(p, k + 1), squeeze(a, mod));
                    k += 2;
                }
                if (!pysrc_op(p, k, ','))
                    break;
                j = k + 1;
            }
        } else if (pysrc_is(p, i, "from")) {
            hp_str mod;
            ptrdiff_t k = dotted(p, i + 1, &mod);
            if (k == i + 1 || !pysrc_is(p, k, "import"))
                continue;
            mod = squeeze(a, mod);
            ptrdiff_t j = k + 1, end = p->n;
            if (pysrc_op(p, j, '(') && p->match[j] > j) {
                end = p->match[j];
                j++;
            }
            while (j < end && p->t[j].kind == PY_NAME) {
                hp_str name = pysrc_text(p, j);
                ptrdiff_t nx = j + 1;
                hp_str local = name;
                if (pysrc_is(p, nx, "as") && nx + 1 < end && p->t[nx + 1].kind == PY_NAME) {
                    local = pysrc_text(p, nx + 1);
                    nx += 2;
                }
                add_alias(p, a, &cap, local, join3(a, mod, name));
                if (!pysrc_op(p, nx, ','))
                    break;
                j = nx + 1;
            }
        }
    }
}

int pysrc_init(pysrc *p, arena *a, const char *src, ptrdiff_t len)
{
    pylex_out lx;
    pylex_all(a, src, len, &lx);
    return pysrc_init_lexed(p, a, src, len, &lx);
}

int pysrc_init_lexed(pysrc *p, arena *a, const char *src, ptrdiff_t len, const pylex_out *plx)
{
    memset(p, 0, sizeof *p);
    pylex_out lx = *plx;
    if (!lx.toks)
        return 0;
    p->src = src;
    p->len = len;
    p->unterminated = lx.unterminated;
    ptrdiff_t ncom = 0;
    for (ptrdiff_t i = 0; i < lx.n; i++)
        ncom += lx.toks[i].kind == PY_COMMENT;
    ptrdiff_t n = lx.n - ncom;
    p->t = NEW(a, pytok, n + 1);
    p->com = NEW(a, pytok, ncom + 1);
    p->match = NEW(a, int32_t, n + 1);
    p->lstart = NEW(a, int32_t, n + 1);
    p->up = NEW(a, int32_t, n + 1);
    p->prev = NEW(a, int32_t, n + 1);
    int32_t *stack = NEW(a, int32_t, n + 1);
    int32_t *last = NEW(a, int32_t, n + 2);
    if (!p->t || !p->com || !p->match || !p->lstart || !p->up || !p->prev || !stack || !last)
        return 0;
    ptrdiff_t k = 0, c = 0;
    for (ptrdiff_t i = 0; i <= lx.n; i++) {
        if (i < lx.n && lx.toks[i].kind == PY_COMMENT)
            p->com[c++] = lx.toks[i];
        else
            p->t[k++] = lx.toks[i];
    }
    p->n = n;
    p->ncom = ncom;
    /* brackets */
    ptrdiff_t sp = 0;
    for (ptrdiff_t i = 0; i < n; i++) {
        p->match[i] = -1;
        if (is_open(&p->t[i])) {
            stack[sp++] = (int32_t)i;
        } else if (is_close(&p->t[i]) && sp > 0) {
            int32_t o = stack[--sp];
            p->match[o] = (int32_t)i;
            p->match[i] = o;
        }
    }
    p->match[n] = -1;
    /* logical lines and blocks */
    int32_t cur = -1;
    sp = 0;
    for (ptrdiff_t i = 0; i <= n; i++) {
        const pytok *t = &p->t[i];
        if (t->kind == PY_INDENT) {
            if (i > 0 && p->t[i - 1].kind == PY_NEWLINE)
                stack[sp++] = p->lstart[i - 1];
            else
                stack[sp++] = -1;
        } else if (t->kind == PY_DEDENT && sp > 0) {
            sp--;
        }
        p->up[i] = -1;
        for (ptrdiff_t s = sp - 1; s >= 0; s--)
            if (stack[s] >= 0) {
                p->up[i] = stack[s];
                break;
            }
        if (t->kind == PY_INDENT || t->kind == PY_DEDENT || t->kind == PY_EOF) {
            p->lstart[i] = (int32_t)i;
            p->prev[i] = -1;
            cur = -1;
            continue;
        }
        if (cur < 0) {
            cur = (int32_t)i;
            /* siblings: the last line start seen in the same block */
            int32_t u = p->up[i] + 1;
            p->prev[i] = last[u] - 1;
            last[u] = (int32_t)i + 1;
        } else {
            p->prev[i] = -1;
        }
        p->lstart[i] = cur;
        if (t->kind == PY_NEWLINE)
            cur = -1;
    }
    scan_imports(p, a);
    if (p->nalias > 8 && nameidx_init(&p->alias_ix, a, p->nalias))
        for (int q = 0; q < p->nalias; q++)
            nameidx_put(&p->alias_ix, p->alias[q].name, q, 1);
    /* line ends, from the back */
    p->lend = NEW(a, int32_t, n + 1);
    p->memo = NEW(a, struct pysrc_memo, 1);
    if (!p->lend || !p->memo)
        return 0;
    int32_t nl = (int32_t)n;
    p->lend[n] = nl;
    for (ptrdiff_t i = n - 1; i >= 0; i--) {
        if (p->t[i].kind == PY_NEWLINE)
            nl = (int32_t)i;
        p->lend[i] = nl;
    }
    p->memo->a = a;
    p->memo->budget = n + 1024;
    return 1;
}

ptrdiff_t pysrc_qualname(const pysrc *p, ptrdiff_t i, char *buf, ptrdiff_t cap)
{
    if (cap > 0)
        buf[0] = 0;
    if (i < 0 || i >= p->n || p->t[i].kind != PY_NAME || cap < 2)
        return i;
    if (i > 0 && pysrc_op(p, i - 1, '.'))
        return i;
    hp_str head = pysrc_text(p, i);
    const pysrc_alias *al = find_alias(p, head);
    if (al)
        head = al->target;
    else if (str_eqc(head, "tl"))
        head = S("triton.language");
    ptrdiff_t k = 0;
    int over = 0;
#define PUT(s_, n_)                                                                            \
    do {                                                                                       \
        if (k + (n_) < cap) {                                                                  \
            memcpy(buf + k, (s_), (size_t)(n_));                                               \
            k += (n_);                                                                         \
        } else {                                                                               \
            over = 1;                                                                          \
        }                                                                                      \
    } while (0)
    PUT(head.s, head.len);
    ptrdiff_t j = i + 1;
    while (j + 1 < p->n && pysrc_op(p, j, '.') && p->t[j + 1].kind == PY_NAME) {
        PUT(".", 1);
        PUT(p->src + p->t[j + 1].off, p->t[j + 1].len);
        j += 2;
    }
#undef PUT
    buf[over ? 0 : k] = 0;
    return j;
}

int pysrc_args(const pysrc *p, ptrdiff_t open, pysrc_arg *out, int max)
{
    if (open < 0 || open >= p->n || p->match[open] <= open)
        return 0;
    ptrdiff_t close = p->match[open];
    int cnt = 0;
    ptrdiff_t b = open + 1;
    while (b < close) {
        ptrdiff_t e = b;
        while (e < close && !pysrc_op(p, e, ',')) {
            if (is_open(&p->t[e]) && p->match[e] > e)
                e = p->match[e];
            e++;
        }
        if (e > close)
            e = close;
        if (e > b) {
            if (cnt < max) {
                pysrc_arg *a = &out[cnt];
                a->b = (int32_t)b;
                a->e = (int32_t)e;
                a->vb = (int32_t)b;
                a->kw = -1;
                a->star = pysrc_op(p, b, '*') || pysrc_op(p, b, PO_POW);
                if (p->t[b].kind == PY_NAME && b + 1 < e && pysrc_op(p, b + 1, '=')) {
                    a->kw = (int32_t)b;
                    a->vb = (int32_t)(b + 2);
                }
            }
            cnt++;
        }
        b = e + 1;
    }
    return cnt;
}

int pysrc_kwarg(const pysrc *p, const pysrc_arg *a, int n, const char *kw)
{
    for (int k = 0; k < n; k++)
        if (a[k].kw >= 0 && pysrc_is(p, a[k].kw, kw))
            return k;
    return -1;
}

int pysrc_npositional(const pysrc_arg *a, int n)
{
    int c = 0;
    for (int k = 0; k < n; k++)
        c += a[k].kw < 0 && !a[k].star;
    return c;
}

static void strip_parens(const pysrc *p, ptrdiff_t *b, ptrdiff_t *e)
{
    while (*e - *b >= 2 && pysrc_op(p, *b, '(') && p->match[*b] == *e - 1) {
        (*b)++;
        (*e)--;
    }
}

int pysrc_int(const pysrc *p, ptrdiff_t b, ptrdiff_t e, long long *v)
{
    strip_parens(p, &b, &e);
    int neg = 0;
    if (e - b == 2 && (pysrc_op(p, b, '-') || pysrc_op(p, b, '+'))) {
        neg = pysrc_op(p, b, '-');
        b++;
    }
    if (e - b != 1 || p->t[b].kind != PY_NUMBER)
        return 0;
    hp_str s = pysrc_text(p, b);
    long long x = 0;
    int base = 10;
    ptrdiff_t k = 0;
    if (s.len > 2 && s.s[0] == '0' && (s.s[1] | 0x20) == 'x') {
        base = 16;
        k = 2;
    } else if (s.len > 2 && s.s[0] == '0' && (s.s[1] | 0x20) == 'b') {
        base = 2;
        k = 2;
    } else if (s.len > 2 && s.s[0] == '0' && (s.s[1] | 0x20) == 'o') {
        base = 8;
        k = 2;
    }
    if (k == s.len)
        return 0;
    for (; k < s.len; k++) {
        char ch = s.s[k];
        int d;
        if (ch == '_')
            continue;
        if (ch >= '0' && ch <= '9')
            d = ch - '0';
        else if (base == 16 && (ch | 0x20) >= 'a' && (ch | 0x20) <= 'f')
            d = (ch | 0x20) - 'a' + 10;
        else
            return 0;
        if (d >= base)
            return 0;
        if (x > (1LL << 40))
            x = 1LL << 40; /* large enough for any rule; no overflow */
        else
            x = x * base + d;
    }
    *v = neg ? -x : x;
    return 1;
}

int pysrc_str(const pysrc *p, ptrdiff_t b, ptrdiff_t e, hp_str *body)
{
    strip_parens(p, &b, &e);
    if (e - b != 1 || p->t[b].kind != PY_STRING)
        return 0;
    *body = pylex_string_body(p->src, &p->t[b]);
    return 1;
}

int pysrc_const(const pysrc *p, ptrdiff_t b, ptrdiff_t e, const char *w)
{
    strip_parens(p, &b, &e);
    return e - b == 1 && pysrc_is(p, b, w);
}

ptrdiff_t pysrc_line_end(const pysrc *p, ptrdiff_t i)
{
    if (i >= 0 && i < p->n)
        return p->lend[i];
    while (i < p->n && p->t[i].kind != PY_NEWLINE)
        i++;
    return i;
}

int pysrc_block(const pysrc *p, ptrdiff_t h, ptrdiff_t *body_b, ptrdiff_t *body_e)
{
    ptrdiff_t j = h;
    while (j < p->n && p->t[j].kind != PY_NEWLINE && !pysrc_op(p, j, ':')) {
        if (is_open(&p->t[j]) && p->match[j] > j)
            j = p->match[j];
        j++;
    }
    if (j >= p->n || !pysrc_op(p, j, ':'))
        return 0;
    if (j + 2 < p->n && p->t[j + 1].kind == PY_NEWLINE && p->t[j + 2].kind == PY_INDENT) {
        ptrdiff_t d = 0, k = j + 2;
        for (; k < p->n; k++) {
            d += p->t[k].kind == PY_INDENT;
            d -= p->t[k].kind == PY_DEDENT;
            if (d == 0)
                break;
        }
        *body_b = j + 3;
        *body_e = k;
        return 1;
    }
    *body_b = j + 1;
    *body_e = pysrc_line_end(p, j + 1);
    return 1;
}

/* Integer literals of the list or tuple display opening at token o (all elements). */
static int list_ints(const pysrc *p, ptrdiff_t o, pysrc_ints *out)
{
    if (!(pysrc_op(p, o, '[') || pysrc_op(p, o, '(')) || p->match[o] <= o)
        return 0;
    pysrc_arg el[64];
    int n = pysrc_args(p, o, el, 64);
    if (n == 0 || n > 64)
        return 0;
    for (int k = 0; k < n; k++) {
        long long v;
        if (!pysrc_int(p, el[k].b, el[k].e, &v))
            return 0;
        if (k == 0 || v < out->min) {
            out->min = v;
            out->min_tok = el[k].b;
        }
        if (k == 0 || v > out->max) {
            out->max = v;
            out->max_tok = el[k].b;
        }
    }
    return n;
}

/* Merges the values of one operand into out (n: how many out holds so far). */
static int merge_ints(pysrc_ints *out, int n, const pysrc_ints *v, int nv)
{
    if (!nv)
        return 0;
    if (!n || v->min < out->min) {
        out->min = v->min;
        out->min_tok = v->min_tok;
    }
    if (!n || v->max > out->max) {
        out->max = v->max;
        out->max_tok = v->max_tok;
    }
    return n + nv;
}

/* Integer literals of "A if COND else B" spanning [b, e) (B may be another such expression),
 * when COND is no vendor test: a vendor test picks one operand per platform, which a value
 * read on AMD must not mix. */
static int ternary_ints(const pysrc *p, ptrdiff_t b, ptrdiff_t e, pysrc_ints *out)
{
    ptrdiff_t q = -1, el = -1;
    for (ptrdiff_t i = b; i < e; i++) {
        if (is_open(&p->t[i]) && p->match[i] > i) {
            i = p->match[i];
            continue;
        }
        if (q < 0 && pysrc_is(p, i, "if"))
            q = i;
        else if (q >= 0 && pysrc_is(p, i, "else")) {
            el = i;
            break;
        }
    }
    if (q <= b || el < 0 || el + 1 >= e || pysrc_pred_amd(p, q + 1, el, NULL))
        return 0;
    pysrc_ints a = {0, 0, -1, -1}, c = {0, 0, -1, -1};
    long long v;
    int na = 0, nc = 0;
    if (pysrc_int(p, b, q, &v)) {
        a.min = a.max = v;
        a.min_tok = a.max_tok = (int32_t)b;
        na = 1;
    }
    if (pysrc_int(p, el + 1, e, &v)) {
        c.min = c.max = v;
        c.min_tok = c.max_tok = (int32_t)(el + 1);
        nc = 1;
    } else {
        nc = ternary_ints(p, el + 1, e, &c);
    }
    if (!na || !nc)
        return 0;
    return merge_ints(out, merge_ints(out, 0, &a, na), &c, nc);
}

/* The statement "name = ..." that last binds name before token before: the token after its
 * '=' and the end of its line; 0 if there is none, or if it sits under a vendor test (its value
 * is one platform's). */
static int last_binding(const pysrc *p, ptrdiff_t before, hp_str name, ptrdiff_t *vb,
                        ptrdiff_t *ve)
{
    for (ptrdiff_t k = before - 1; k >= 0; k--) {
        if (p->lstart[k] != k || p->t[k].kind != PY_NAME || !str_eq(pysrc_text(p, k), name) ||
            !pysrc_op(p, k + 1, '='))
            continue;
        if (pysrc_guarded(p, k, pysrc_pred_amd, NULL))
            return 0;
        *vb = k + 2;
        *ve = pysrc_line_end(p, k);
        return *vb < *ve;
    }
    return 0;
}

/* "for NAME in <list>" with the for at token f; the list may be a name bound to one. */
static int for_ints(const pysrc *p, ptrdiff_t f, hp_str name, pysrc_ints *out)
{
    if (!pysrc_is(p, f, "for") || f + 3 >= p->n || !str_eq(pysrc_text(p, f + 1), name) ||
        !pysrc_is(p, f + 2, "in"))
        return 0;
    ptrdiff_t o = f + 3, vb, ve;
    if (p->t[o].kind == PY_NAME && o + 1 < p->n && !is_open(&p->t[o + 1]) &&
        !pysrc_op(p, o + 1, '.') && last_binding(p, p->lstart[f], pysrc_text(p, o), &vb, &ve) &&
        p->match[vb] == ve - 1)
        o = vb;
    return list_ints(p, o, out);
}

int pysrc_int_values(const pysrc *p, ptrdiff_t b, ptrdiff_t e, pysrc_ints *out)
{
    long long v;
    if (pysrc_int(p, b, e, &v)) {
        out->min = out->max = v;
        out->min_tok = out->max_tok = (int32_t)b;
        return 1;
    }
    strip_parens(p, &b, &e);
    if (e - b != 1 || p->t[b].kind != PY_NAME)
        return ternary_ints(p, b, e, out);
    hp_str name = pysrc_text(p, b);
    /* a comprehension around it on the same logical line */
    for (ptrdiff_t k = b - 1; k >= 0 && k >= p->lstart[b]; k--) {
        if (!is_open(&p->t[k]) || p->match[k] < e)
            continue;
        for (ptrdiff_t f = k + 1; f < p->match[k]; f++) {
            int c = for_ints(p, f, name, out);
            if (c)
                return c;
        }
    }
    /* an enclosing for loop */
    for (ptrdiff_t h = p->up[b]; h >= 0; h = p->up[h]) {
        int c = for_ints(p, h, name, out);
        if (c)
            return c;
    }
    /* the last plain assignment before it */
    ptrdiff_t vb, ve;
    if (!last_binding(p, p->lstart[b], name, &vb, &ve))
        return 0;
    if (pysrc_int(p, vb, ve, &v)) {
        out->min = out->max = v;
        out->min_tok = out->max_tok = (int32_t)vb;
        return 1;
    }
    return ternary_ints(p, vb, ve, out);
}

int pysrc_contains_nocase(hp_str hay, const char *needle)
{
    return str_find_nocase(hay, str_cstr(needle)) >= 0;
}

/* Is the identifier one that names the AMD side? Its '_'-separated parts are compared. */
static int amd_name(hp_str s)
{
#define W(lit) {(lit), (ptrdiff_t)sizeof(lit) - 1}
    static const hp_str words[] = {W("hip"),   W("rocm"),   W("amd"),   W("amdgpu"),
                                   W("hipcc"), W("cdna"),   W("rdna"),  W("gcnarchname"),
                                   W("mi300"), W("mi300x"), W("mi250"), W("mi200"),
                                   W("mi355"), W("mi350"),  W("fnuz"),  W("hipify")};
#undef W
    ptrdiff_t i = 0;
    while (i < s.len) {
        ptrdiff_t j = i;
        while (j < s.len && s.s[j] != '_')
            j++;
        hp_str part = {s.s + i, j - i};
        if (part.len >= 3 && part.len <= 11) {
            char c0 = (char)(part.s[0] | 0x20);
            if (c0 == 'g' && part.len >= 4 && (part.s[1] | 0x20) == 'f' &&
                (part.s[2] | 0x20) == 'x' && part.s[3] >= '0' && part.s[3] <= '9')
                return 1;
            if (c0 == 'h' || c0 == 'r' || c0 == 'a' || c0 == 'c' || c0 == 'g' || c0 == 'm' ||
                c0 == 'f')
                for (size_t k = 0; k < sizeof words / sizeof *words; k++)
                    if (part.len == words[k].len && c0 == words[k].s[0] &&
                        str_eq_nocase(part, words[k]))
                        return 1;
        }
        i = j + 1;
    }
    return 0;
}

/* Does the string mention the AMD side ("gfx942", "rocm", "hip" as a word, "amd")? */
static int amd_string(hp_str s)
{
    if (pysrc_contains_nocase(s, "gfx") || pysrc_contains_nocase(s, "rocm") ||
        pysrc_contains_nocase(s, "amd") || pysrc_contains_nocase(s, "fnuz"))
        return 1;
    for (ptrdiff_t i = 0; i + 3 <= s.len; i++) {
        if ((s.s[i] | 0x20) != 'h' || (s.s[i + 1] | 0x20) != 'i' || (s.s[i + 2] | 0x20) != 'p')
            continue;
        int before = i == 0 || !((s.s[i - 1] | 0x20) >= 'a' && (s.s[i - 1] | 0x20) <= 'z');
        int after = i + 3 == s.len ||
                    !((s.s[i + 3] | 0x20) >= 'a' && (s.s[i + 3] | 0x20) <= 'z');
        if (before && after)
            return 1;
    }
    return 0;
}

/* Remembered per token (a string can be long, and the predicates visit tokens again). */
static int amd_tok(const pysrc *p, ptrdiff_t i)
{
    unsigned kind = p->t[i].kind;
    if (kind != PY_NAME && kind != PY_STRING)
        return 0;
    struct pysrc_memo *m = p->memo;
    if (m && !m->amdk)
        m->amdk = NEW(m->a, unsigned char, p->n + 1);
    if (m && m->amdk && m->amdk[i])
        return m->amdk[i] == 2;
    int r = kind == PY_NAME ? amd_name(pysrc_text(p, i))
                            : amd_string(pylex_string_body(p->src, &p->t[i]));
    if (m && m->amdk)
        m->amdk[i] = (unsigned char)(r ? 2 : 1);
    return r;
}

/* The plain tests visit ranges until they have visited more tokens than the file holds; then
 * the counts of AMD tokens before each token answer every range at once. */
int pysrc_pred_amd(const pysrc *p, ptrdiff_t b, ptrdiff_t e, void *ud)
{
    (void)ud;
    struct pysrc_memo *m = p->memo;
    if (e > p->n)
        e = p->n;
    if (m && m->amd && b >= 0)
        return b < e && m->amd[e] - m->amd[b] > 0;
    ptrdiff_t i = b;
    while (i < e && !amd_tok(p, i))
        i++;
    if (m && i > b && (m->budget -= i - b) < 0) {
        int32_t *amd = arena_alloc_nozero(m->a, (ptrdiff_t)sizeof(int32_t), _Alignof(int32_t),
                                          p->n + 1);
        if (amd) {
            int32_t c = 0;
            for (ptrdiff_t k = 0; k < p->n; k++) {
                amd[k] = c;
                c += amd_tok(p, k);
            }
            amd[p->n] = c;
            m->amd = amd;
        }
    }
    return i < e;
}

int pysrc_mentions_amd(const pysrc *p)
{
    return pysrc_pred_amd(p, 0, p->n, NULL);
}

/* The walk of header_pred from sibling k for pysrc_pred_amd, remembered for each sibling it
 * passes: every sibling on the way has the answer of the one where the walk ends. */
static int memo_chain(const pysrc *p, ptrdiff_t k, pysrc_pred pred, unsigned char **slot)
{
    struct pysrc_memo *m = p->memo;
    if (!*slot)
        *slot = NEW(m->a, unsigned char, p->n + 1);
    unsigned char *c = *slot;
    int v = 0;
    ptrdiff_t j = k;
    for (; j >= 0; j = p->prev[j]) {
        if (c && c[j]) {
            v = c[j] - 1;
            break;
        }
        if (pysrc_is(p, j, "if")) {
            v = pred(p, j, pysrc_line_end(p, j), NULL);
            break;
        }
        if (pysrc_is(p, j, "elif")) {
            if (pred(p, j, pysrc_line_end(p, j), NULL)) {
                v = 1;
                break;
            }
            continue;
        }
        if (pysrc_is(p, j, "else") || pysrc_is(p, j, "except") || pysrc_is(p, j, "try"))
            continue;
        break;
    }
    if (c) {
        for (ptrdiff_t q = k; q >= 0 && q != j; q = p->prev[q])
            c[q] = (unsigned char)(v + 1);
        if (j >= 0)
            c[j] = (unsigned char)(v + 1);
    }
    return v;
}

/* Does a name of the condition [b, e) say CUDA (FORCE_CUDA, CUDA_HOME, WITH_CUDA, use_cuda,
 * NVCC_FLAGS)? Attributes (torch.cuda.is_available()) and availability flags (CUDA_AVAILABLE,
 * true on ROCm too) do not. */
static int cuda_named(const pysrc *p, ptrdiff_t b, ptrdiff_t e)
{
    for (ptrdiff_t k = b; k < e; k++) {
        if (p->t[k].kind != PY_NAME || pysrc_op(p, k - 1, '.'))
            continue;
        hp_str s = pysrc_text(p, k);
        int cuda = 0, avail = 0;
        for (ptrdiff_t i = 0; i < s.len;) {
            ptrdiff_t j = i;
            while (j < s.len && s.s[j] != '_')
                j++;
            hp_str part = str_make(s.s + i, j - i);
            cuda |= str_eq_nocase(part, S("cuda")) || str_eq_nocase(part, S("nvcc")) ||
                    str_eq_nocase(part, S("nvidia"));
            avail |= str_eq_nocase(part, S("available")) || str_eq_nocase(part, S("avail"));
            i = j + 1;
        }
        if (cuda && !avail)
            return 1;
    }
    return 0;
}

/* Does a later elif of the if chain that the if or elif at h is in test for AMD (if FORCE_CUDA:
 * ... elif torch.version.hip:)? Then the branches before it are the NVIDIA side, where their
 * conditions say CUDA. Remembered per header. */
static int later_amd(const pysrc *p, ptrdiff_t h)
{
    struct pysrc_memo *m = p->memo;
    if (m && !m->vfwd)
        m->vfwd = NEW(m->a, unsigned char, p->n);
    if (m && m->vfwd && m->vfwd[h])
        return m->vfwd[h] == 2;
    int r = 0;
    ptrdiff_t k = h;
    for (int step = 0; step < 64; step++) {
        ptrdiff_t bb, be;
        if (!pysrc_block(p, k, &bb, &be))
            break;
        ptrdiff_t j = be;
        while (j < p->n && (p->t[j].kind == PY_INDENT || p->t[j].kind == PY_DEDENT ||
                            p->t[j].kind == PY_NEWLINE))
            j++;
        if (j >= p->n || p->prev[j] != k || !pysrc_is(p, j, "elif"))
            break;
        if (pysrc_pred_amd(p, j, pysrc_line_end(p, j), NULL)) {
            r = 1;
            break;
        }
        k = j;
    }
    if (m && m->vfwd)
        m->vfwd[h] = (unsigned char)(r ? 2 : 1);
    return r;
}

static int skipped_on_rocm(const pysrc *p, ptrdiff_t h);

static int header_pred(const pysrc *p, ptrdiff_t h, pysrc_pred pred, void *ud)
{
    ptrdiff_t le = pysrc_line_end(p, h);
    if (pred(p, h, le, ud))
        return 1;
    if (pred == pysrc_pred_vendor && pysrc_is(p, h, "def") && skipped_on_rocm(p, h))
        return 1;
    if (pred == pysrc_pred_vendor && (pysrc_is(p, h, "if") || pysrc_is(p, h, "elif")) &&
        cuda_named(p, h, le) && later_amd(p, h))
        return 1;
    if (!pysrc_is(p, h, "else") && !pysrc_is(p, h, "elif"))
        return 0;
    /* the earlier branches of the same if chain, sibling by sibling */
    if (pred == pysrc_pred_amd && p->memo)
        return memo_chain(p, p->prev[h], pred, &p->memo->chain);
    if (pred == pysrc_pred_vendor && p->memo)
        return memo_chain(p, p->prev[h], pred, &p->memo->vchain);
    for (ptrdiff_t k = p->prev[h]; k >= 0; k = p->prev[k]) {
        if (pysrc_is(p, k, "if"))
            return pred(p, k, pysrc_line_end(p, k), ud);
        if (pysrc_is(p, k, "elif")) {
            if (pred(p, k, pysrc_line_end(p, k), ud))
                return 1;
            continue;
        }
        if (pysrc_is(p, k, "else") || pysrc_is(p, k, "except") || pysrc_is(p, k, "try"))
            continue;
        break;
    }
    return 0;
}

int pysrc_guarded(const pysrc *p, ptrdiff_t i, pysrc_pred pred, void *ud)
{
    if (i < 0 || i >= p->n)
        return 0;
    ptrdiff_t ls = p->lstart[i];
    if (header_pred(p, ls, pred, ud))
        return 1;
    for (ptrdiff_t h = p->up[i]; h >= 0; h = p->up[h])
        if (header_pred(p, h, pred, ud))
            return 1;
    return 0;
}

/* ------------------------------------------------------------------ vendor-only code */

/* The name on the other side of the comparison that string token i is in (x == "cuda",
 * "cuda" != x, x in ("cuda", ...)), or -1. */
static ptrdiff_t compared_name(const pysrc *p, ptrdiff_t i)
{
    ptrdiff_t j = i;
    if (pysrc_op(p, j - 1, '(') && pysrc_is(p, j - 2, "in"))
        j -= 1;
    if ((pysrc_op(p, j - 1, PO_EQ) || pysrc_op(p, j - 1, PO_NE) || pysrc_is(p, j - 1, "in")) &&
        j >= 2 && p->t[j - 2].kind == PY_NAME)
        return j - 2;
    if ((pysrc_op(p, i + 1, PO_EQ) || pysrc_op(p, i + 1, PO_NE)) && i + 2 < p->n &&
        p->t[i + 2].kind == PY_NAME)
        return i + 2;
    return -1;
}

/* Is the name at token x compared with "hip" (or "rocm", "cdna", "amd") anywhere in the
 * file? Then it holds the vendor, and its comparison with "cuda" is a vendor test (DEVICE_TYPE == "cuda" where
 * DEVICE_TYPE is "hip" on ROCm), unlike device.type == "cuda", which ROCm passes too. */
static int names_vendor(const pysrc *p, ptrdiff_t x)
{
    hp_str name = pysrc_text(p, x);
    for (ptrdiff_t k = 0; k < p->n; k++) {
        if (p->t[k].kind != PY_STRING)
            continue;
        hp_str b = pylex_string_body(p->src, &p->t[k]);
        if (!str_eq_nocase(b, S("hip")) && !str_eq_nocase(b, S("rocm")) &&
            !str_eq_nocase(b, S("cdna")) && !str_eq_nocase(b, S("amd")))
            continue;
        ptrdiff_t y = compared_name(p, k);
        if (y >= 0 && str_eq(pysrc_text(p, y), name))
            return 1;
    }
    return 0;
}

/* A comparison with a vendor or device name that ROCm never reports: "nvidia", another
 * vendor's device ("xpu", "npu", "mps"), or "cuda" where the name compared holds the vendor
 * (names_vendor). */
static int vendor_string(const pysrc *p, ptrdiff_t i)
{
    hp_str b = pylex_string_body(p->src, &p->t[i]);
    if (b.len < 3 || b.len > 6)
        return 0;
    ptrdiff_t x = compared_name(p, i);
    if (x < 0)
        return 0;
    if (str_eq_nocase(b, S("nvidia")) || str_eq_nocase(b, S("xpu")) ||
        str_eq_nocase(b, S("npu")) || str_eq_nocase(b, S("mps")) || str_eq_nocase(b, S("musa")))
        return 1;
    return str_eq_nocase(b, S("cuda")) && names_vendor(p, x);
}

/* A flag or predicate named for NVIDIA: IS_NVIDIA_BLACKWELL, HAS_NVIDIA_GPU,
 * is_nvidia_hopper(): an is/has prefix and an "nvidia" part. (IS_HOPPER alone is no vendor
 * test: a capability gate at 9 is true on MI300.) */
static int nvidia_flag(hp_str s)
{
    if (s.len && s.s[0] == '_')
        s.s++, s.len--;
    if (!str_starts(s, S("IS_")) && !str_starts(s, S("is_")) && !str_starts(s, S("HAS_")) &&
        !str_starts(s, S("has_")))
        return 0;
    for (ptrdiff_t i = 0; i < s.len;) {
        ptrdiff_t j = i;
        while (j < s.len && s.s[j] != '_')
            j++;
        if (str_eq_nocase(str_make(s.s + i, j - i), S("nvidia")))
            return 1;
        i = j + 1;
    }
    return 0;
}

/* Is the name at i CUDA_HOME (or CUDA_PATH) tested for being set: "CUDA_HOME is not None",
 * "CUDA_HOME is None", "!= None", or alone as a condition or one operand of and/or/not? A
 * ROCm machine has no CUDA toolkit, so torch's CUDA_HOME is None there. (CUDA_HOME in path
 * arithmetic is no test.) */
static int cuda_home_test(const pysrc *p, ptrdiff_t i)
{
    hp_str s = pysrc_text(p, i);
    if (s.len != 9 || s.s[0] != 'C' || (!str_eqc(s, "CUDA_HOME") && !str_eqc(s, "CUDA_PATH")))
        return 0;
    if (pysrc_op(p, i - 1, '.') && !(i >= 2 && pysrc_is(p, i - 2, "cpp_extension")))
        return 0;
    ptrdiff_t k = i + 1;
    if (pysrc_is(p, k, "is") || pysrc_op(p, k, PO_EQ) || pysrc_op(p, k, PO_NE)) {
        k += pysrc_is(p, k + 1, "not") ? 2 : 1;
        return pysrc_is(p, k, "None");
    }
    int before = pysrc_is(p, i - 1, "if") || pysrc_is(p, i - 1, "elif") ||
                 pysrc_is(p, i - 1, "and") || pysrc_is(p, i - 1, "or") ||
                 pysrc_is(p, i - 1, "not") || pysrc_is(p, i - 1, "assert");
    int after = pysrc_op(p, k, ':') || pysrc_is(p, k, "and") || pysrc_is(p, k, "or") ||
                pysrc_op(p, k, ')') || p->t[k].kind == PY_NEWLINE;
    return before && after;
}

static int nv_predicate_call(const pysrc *p, ptrdiff_t i);

/* An NVIDIA-side vendor test: is_cuda() (a call: tensor.is_cuda is true on ROCm too),
 * IS_CUDA, is_nvidia(), IS_NVIDIA_BLACKWELL-style flags (nvidia_flag), torch.version.cuda, or
 * a comparison with a vendor name ROCm never reports (vendor_string). */
static int nv_tok(const pysrc *p, ptrdiff_t i)
{
    if (p->t[i].kind == PY_STRING)
        return vendor_string(p, i);
    if (p->t[i].kind != PY_NAME)
        return 0;
    hp_str s = pysrc_text(p, i);
    if (nvidia_flag(s))
        return 1;
    if (cuda_home_test(p, i) || nv_predicate_call(p, i))
        return 1;
    if (str_eqc(s, "IS_CUDA") || str_eqc(s, "_IS_CUDA") || str_eqc(s, "IS_NVIDIA") ||
        str_eqc(s, "_IS_NVIDIA"))
        return 1;
    if ((str_eqc(s, "is_cuda") || str_eqc(s, "_is_cuda") || str_eqc(s, "is_nvidia") ||
         str_eqc(s, "_is_nvidia")) &&
        pysrc_op(p, i + 1, '('))
        return 1;
    return str_eqc(s, "cuda") && i >= 2 && pysrc_op(p, i - 1, '.') &&
           str_eqc(pysrc_text(p, i - 2), "version");
}

/* ------------------------------------------------------------------ NVIDIA-only predicates */

/* Is tokens [b, e) an operand that requires torch.version.cuda ("torch.version.cuda",
 * "torch.version.cuda is not None", "torch.version.cuda >= '12.8'"), not its negation? */
static int cuda_operand(const pysrc *p, ptrdiff_t b, ptrdiff_t e)
{
    int has = 0;
    for (ptrdiff_t k = b; k < e; k++) {
        if (pysrc_is(p, k, "not") && !(k > b && pysrc_is(p, k - 1, "is")))
            return 0;
        if (pysrc_is(p, k, "None") && k > b &&
            ((pysrc_is(p, k - 1, "is") && !pysrc_is(p, k - 2, "is")) ||
             pysrc_op(p, k - 1, PO_EQ)))
            return 0;
        if (pysrc_is(p, k, "cuda") && k >= 2 && pysrc_op(p, k - 1, '.') &&
            pysrc_is(p, k - 2, "version"))
            has = 1;
    }
    return has;
}

/* Does the returned expression [b, e) require torch.version.cuda: a chain of and (no or, no
 * conditional expression) one of whose operands is cuda_operand? 1 yes, 0 no, -1 for False or
 * None (an answer of no, which every platform may get). */
static int nv_return(const pysrc *p, ptrdiff_t b, ptrdiff_t e)
{
    while (b + 1 < e && pysrc_op(p, b, '(') && p->match[b] == e - 1)
        b++, e--;
    if (b + 1 == e && (pysrc_is(p, b, "False") || pysrc_is(p, b, "None")))
        return -1;
    int req = 0;
    ptrdiff_t cb = b;
    for (ptrdiff_t k = b; k <= e; k++) {
        if (k < e && is_open(&p->t[k]) && p->match[k] > k && p->match[k] < e) {
            k = p->match[k];
            continue;
        }
        if (k < e && (pysrc_is(p, k, "or") || pysrc_is(p, k, "if") || pysrc_is(p, k, "lambda")))
            return 0;
        if (k == e || pysrc_is(p, k, "and")) {
            req |= cuda_operand(p, cb, k);
            cb = k + 1;
        }
    }
    return req;
}

int pysrc_nv_predicate(const pysrc *p, ptrdiff_t d)
{
    ptrdiff_t bb, be;
    if (!pysrc_is(p, d, "def") || d + 1 >= p->n || p->t[d + 1].kind != PY_NAME ||
        !pysrc_block(p, d, &bb, &be))
        return 0;
    int yes = 0;
    for (ptrdiff_t k = bb; k < be; k++) {
        if (pysrc_is(p, k, "yield"))
            return 0;
        if (!pysrc_is(p, k, "return"))
            continue;
        int r = nv_return(p, k + 1, pysrc_line_end(p, k));
        if (r == 0)
            return 0;
        yes |= r > 0;
    }
    return yes;
}

/* The file's functions, each 1 when pysrc_nv_predicate holds for every def of its name, else 0;
 * made on first use. */
static void build_nvfn(const pysrc *p)
{
    struct pysrc_memo *m = p->memo;
    m->nvfn_built = 1;
    int nf = 0, cuda = 0;
    for (ptrdiff_t i = 0; i + 1 < p->n; i++) {
        nf += pysrc_is(p, i, "def") && p->t[i + 1].kind == PY_NAME;
        cuda |= i >= 2 && pysrc_is(p, i, "cuda") && pysrc_op(p, i - 1, '.') &&
                pysrc_is(p, i - 2, "version");
    }
    if (!cuda) /* no def of the file requires torch.version.cuda */
        nf = 0;
    if (!nf || !nameidx_init(&m->nvfn_ix, m->a, nf))
        return;
    for (ptrdiff_t i = 0; i + 1 < p->n; i++) {
        if (!pysrc_is(p, i, "def") || p->t[i + 1].kind != PY_NAME)
            continue;
        hp_str name = pysrc_text(p, i + 1);
        int v = pysrc_nv_predicate(p, i);
        int32_t old = nameidx_get(&m->nvfn_ix, name);
        nameidx_put(&m->nvfn_ix, name, old == 0 ? 0 : v, 1);
    }
}

/* Is the name at i a call of an NVIDIA-only predicate: one of the file's (pysrc_nv_predicate),
 * or one the caller says the tree defines (p->nv_fns) that the file does not define
 * otherwise? */
static int nv_predicate_call(const pysrc *p, ptrdiff_t i)
{
    struct pysrc_memo *m = p->memo;
    if (!m || !pysrc_op(p, i + 1, '(') || pysrc_is(p, i - 1, "def"))
        return 0;
    if (!m->nvfn_built)
        build_nvfn(p);
    if (!m->nvfn_ix.cap && !p->nv_fns)
        return 0;
    hp_str name = pysrc_text(p, i);
    int32_t v = m->nvfn_ix.cap ? nameidx_get(&m->nvfn_ix, name) : -1;
    if (v >= 0)
        return v == 1;
    return p->nv_fns && nameidx_get(p->nv_fns, name) >= 0;
}

/* ------------------------------------------------------------------ vendor values */

/* A name that holds the answer of a vendor test is tested in its place: "use_cuda =
 * torch.version.cuda is not None and CUDA_HOME is not None" or "IS_CUDA = not
 * IS_HIP_EXTENSION", then "if use_cuda:". So is a name that only code under a vendor test
 * sets or fills, beyond an empty start ("use_cutlass = False" ... "if use_cuda: use_cutlass =
 * True"; "sources_90a = None" ... "if use_cutlass: sources_90a = [...]"). Such names count
 * in the conditions of if, elif, while and assert, not on other lines. */

/* The side the right-hand side [b, e) of an assignment tests: 1 NVIDIA's, 2 AMD's, 0 none,
 * both, or no plain test (a conditional expression, an or, a list or dict display, a
 * lambda). */
/* Is [b, e) a read of an environment variable named for CUDA: os.getenv("CUDA_..."),
 * os.environ.get("CUDA_..."), os.environ["CUDA_..."] (a default, if any, None)? */
int pysrc_cuda_env_read(const pysrc *p, ptrdiff_t b, ptrdiff_t e)
{
    if (e - b < 4 || !pysrc_is(p, b, "os") || !pysrc_op(p, b + 1, '.'))
        return 0;
    ptrdiff_t k = b + 2, open;
    if (pysrc_is(p, k, "getenv"))
        open = k + 1;
    else if (pysrc_is(p, k, "environ") && pysrc_op(p, k + 1, '.') && pysrc_is(p, k + 2, "get"))
        open = k + 3;
    else if (pysrc_is(p, k, "environ") && pysrc_op(p, k + 1, '['))
        open = k + 1;
    else
        return 0;
    if (open >= e || p->match[open] != e - 1 || open + 1 >= e ||
        p->t[open + 1].kind != PY_STRING)
        return 0;
    hp_str v = pylex_string_body(p->src, &p->t[open + 1]);
    if (v.len < 5 || memcmp(v.s, "CUDA_", 5) != 0)
        return 0;
    ptrdiff_t after = open + 2;
    return after == e - 1 || (pysrc_op(p, after, ',') && pysrc_is(p, after + 1, "None") &&
                              after + 2 == e - 1);
}

/* Is [b, e) an or-chain every operand of which is an NVIDIA-side value: a CUDA environment
 * read (pysrc_cuda_env_read) or an operand that names only the NVIDIA side
 * (os.getenv("CUDA_VERSION", None) or torch.version.cuda)? */
static int nv_or_chain(const pysrc *p, ptrdiff_t b, ptrdiff_t e)
{
    int ors = 0;
    for (ptrdiff_t s = b, k = b; k <= e; k++) {
        if (k == e || pysrc_is(p, k, "or")) {
            if (k == s)
                return 0;
            int nv = pysrc_cuda_env_read(p, s, k);
            for (ptrdiff_t q = s; q < k && !nv; q++)
                nv = nv_tok(p, q);
            for (ptrdiff_t q = s; q < k; q++)
                if (amd_tok(p, q) || pysrc_is(p, q, "if") || pysrc_is(p, q, "lambda") ||
                    pysrc_is(p, q, "not"))
                    return 0;
            if (!nv)
                return 0;
            ors += k < e;
            s = k + 1;
        } else if (p->match[k] > k) {
            k = p->match[k];
        }
    }
    return ors > 0;
}

static int rhs_side(const pysrc *p, ptrdiff_t b, ptrdiff_t e)
{
    struct pysrc_memo *m = p->memo;
    if (b >= e || pysrc_op(p, b, '[') || pysrc_op(p, b, '{'))
        return 0;
    if (nv_or_chain(p, b, e))
        return 1;
    int nv = 0, amd = 0, andor = 0;
    for (ptrdiff_t k = b; k < e; k++) {
        /* an operand of or may hold where the vendor test does not */
        if (pysrc_is(p, k, "if") || pysrc_is(p, k, "lambda") || pysrc_op(p, k, '=') ||
            pysrc_is(p, k, "or"))
            return 0;
        andor |= pysrc_is(p, k, "and");
        if (amd_tok(p, k) || (m->vname && m->vname[k] == 2))
            amd = 1;
        else if (nv_tok(p, k) || (m->vname && m->vname[k] == 1))
            nv = 1;
        else if (m->vname && m->vname[k] == 3)
            nv = amd = 1;
    }
    if (amd && !nv && !andor && pysrc_is(p, b, "not"))
        return 1;
    /* a value that names both sides (cuda_ok or is_rocm() and is_mi350()) is no one vendor's */
    return nv && amd ? 0 : nv | amd << 1;
}

/* An empty start: False, None, 0, "", [], {}, (), list(), dict(), set(). */
static int empty_value(const pysrc *p, ptrdiff_t b, ptrdiff_t e)
{
    if (e - b == 1)
        return pysrc_is(p, b, "False") || pysrc_is(p, b, "None") ||
               (p->t[b].kind == PY_NUMBER && p->t[b].len == 1 && p->src[p->t[b].off] == '0') ||
               (p->t[b].kind == PY_STRING && pylex_string_body(p->src, &p->t[b]).len == 0);
    if (e - b == 2)
        return p->match[b] == b + 1;
    if (e - b == 3)
        return p->match[b + 1] == b + 2 &&
               (pysrc_is(p, b, "list") || pysrc_is(p, b, "dict") || pysrc_is(p, b, "set"));
    return 0;
}

/* The write at line start s to the name there: 1 "N = value" (the value from *vb), 2 a fill
 * (N += ..., N.append(...) and the like, N[k] = ...), 0 none. */
static int name_write(const pysrc *p, ptrdiff_t s, ptrdiff_t *vb)
{
    if (p->t[s].kind != PY_NAME || pysrc_op(p, s - 1, '.'))
        return 0;
    if (pysrc_op(p, s + 1, '=')) {
        *vb = s + 2;
        return 1;
    }
    if (pysrc_op(p, s + 1, PO_AUGASSIGN))
        return 2;
    if (pysrc_op(p, s + 1, '.') &&
        (pysrc_is(p, s + 2, "append") || pysrc_is(p, s + 2, "extend") ||
         pysrc_is(p, s + 2, "insert") || pysrc_is(p, s + 2, "update") ||
         pysrc_is(p, s + 2, "add")) &&
        pysrc_op(p, s + 3, '('))
        return 2;
    if (pysrc_op(p, s + 1, '[') && p->match[s + 1] > s && pysrc_op(p, p->match[s + 1] + 1, '='))
        return 2;
    return 0;
}

/* Is the name at k bound by something else than a write name_write sees: a parameter, a for
 * or with target, an import, a tuple target, global, an annotated or walrus binding? */
static int other_binding(const pysrc *p, ptrdiff_t k)
{
    if (pysrc_is(p, k - 1, "for") || pysrc_is(p, k - 1, "as") || pysrc_is(p, k - 1, "global") ||
        pysrc_is(p, k - 1, "nonlocal") || pysrc_is(p, k - 1, "import") ||
        pysrc_op(p, k + 1, PO_WALRUS))
        return 1;
    ptrdiff_t s = p->lstart[k];
    if (pysrc_is(p, s, "def") || pysrc_is(p, s, "lambda") || pysrc_is(p, s, "import") ||
        pysrc_is(p, s, "from") || pysrc_is(p, s, "class"))
        return 1;
    if (s == k && (pysrc_op(p, k + 1, ',') || pysrc_op(p, k + 1, ':')))
        return 1;
    if (s != k && pysrc_op(p, k - 1, ',') && pysrc_op(p, k + 1, '=') && p->up[k] == p->up[s] &&
        p->t[s].kind == PY_NAME && pysrc_op(p, s + 1, ','))
        return 1;
    return 0;
}

typedef struct vval {
    unsigned char bad, other, side;
} vval;

static void count_vnames(const pysrc *p)
{
    struct pysrc_memo *m = p->memo;
    int32_t c = 0;
    for (ptrdiff_t k = 0; k < p->n; k++) {
        m->vnm[k] = c;
        c += m->vname[k] != 0;
    }
    m->vnm[p->n] = c;
}

static int header_pred(const pysrc *p, ptrdiff_t h, pysrc_pred pred, void *ud);
static int after_vendor_exit(const pysrc *p, ptrdiff_t i);

/* Is the line start s under a vendor test, or after an exit on one? (Its own line is not
 * asked: the value it writes may be the test.) */
static int vendor_around(const pysrc *p, ptrdiff_t s)
{
    for (ptrdiff_t h = p->up[s]; h >= 0; h = p->up[h])
        if (header_pred(p, h, pysrc_pred_vendor, NULL))
            return 1;
    return after_vendor_exit(p, s);
}

static void build_vnames(const pysrc *p)
{
    struct pysrc_memo *m = p->memo;
    int nw = 0;
    for (ptrdiff_t s = 0; s < p->n; s++) {
        ptrdiff_t vb;
        nw += p->lstart[s] == s && name_write(p, s, &vb) != 0;
    }
    nameidx ix;
    if (!nw || !nameidx_init(&ix, m->a, nw))
        return;
    int nv = 0;
    for (ptrdiff_t s = 0; s < p->n; s++) {
        ptrdiff_t vb;
        if (p->lstart[s] == s && name_write(p, s, &vb) && nameidx_get(&ix, pysrc_text(p, s)) < 0)
            nameidx_put(&ix, pysrc_text(p, s), nv++, 0);
    }
    vval *v = NEW(m->a, vval, nv);
    unsigned char *vn = NEW(m->a, unsigned char, p->n + 1);
    int32_t *cnt = NEW(m->a, int32_t, p->n + 1);
    if (!v || !vn || !cnt)
        return;
    for (ptrdiff_t k = 0; k < p->n; k++) {
        if (p->t[k].kind != PY_NAME)
            continue;
        int32_t x = nameidx_get(&ix, pysrc_text(p, k));
        if (x >= 0 && other_binding(p, k))
            v[x].bad = 1;
    }
    m->vname = vn;
    m->vnm = cnt;
    count_vnames(p);
    /* a round finds the names of the written names' values; names found make more writes
     * vendor-only, so a few rounds, until none is new */
    for (int round = 0; round < 4; round++) {
        for (int x = 0; x < nv; x++)
            v[x].other = 0;
        unsigned char *side = NEW(m->a, unsigned char, nv);
        if (!side)
            return;
        for (ptrdiff_t s = 0; s < p->n; s++) {
            ptrdiff_t vb = 0;
            int w = p->lstart[s] == s ? name_write(p, s, &vb) : 0;
            if (!w)
                continue;
            int32_t x = nameidx_get(&ix, pysrc_text(p, s));
            if (x < 0 || v[x].bad || v[x].other)
                continue;
            int sd = w == 1 ? rhs_side(p, vb, pysrc_line_end(p, s)) : 0;
            if (!sd && vendor_around(p, s))
                sd = 3;
            if (sd)
                side[x] |= (unsigned char)sd;
            else if (!(w == 1 && empty_value(p, vb, pysrc_line_end(p, s))))
                v[x].other = 1;
        }
        int changed = 0;
        for (int x = 0; x < nv; x++) {
            unsigned char sd = v[x].bad || v[x].other ? 0 : side[x];
            changed |= sd != v[x].side;
            v[x].side = sd;
        }
        if (!changed)
            break;
        for (ptrdiff_t k = 0; k < p->n; k++) {
            vn[k] = 0;
            if (p->t[k].kind != PY_NAME || pysrc_op(p, k - 1, '.'))
                continue;
            int32_t x = nameidx_get(&ix, pysrc_text(p, k));
            if (x >= 0)
                vn[k] = v[x].side;
        }
        count_vnames(p);
        /* the answers remembered so far knew fewer names */
        if (m->vchain)
            memset(m->vchain, 0, (size_t)(p->n + 1));
        if (m->vexit)
            memset(m->vexit, 0, (size_t)p->n);
        if (m->vblock)
            memset(m->vblock, 0, (size_t)p->n);
        if (m->vonly)
            memset(m->vonly, 0, (size_t)p->n);
        if (m->vassert)
            memset(m->vassert, 0, (size_t)p->n);
    }
}

/* Does the range start a condition where vendor values count (if, elif, while, assert)? */
static int condition_start(const pysrc *p, ptrdiff_t b)
{
    return pysrc_is(p, b, "if") || pysrc_is(p, b, "elif") || pysrc_is(p, b, "while") ||
           pysrc_is(p, b, "assert");
}

/* The counts of vendor tokens before each token (vend), then the vendor values (vname, vnm),
 * made once, before any answer that depends on them is remembered. */
static void ensure_vendor(const pysrc *p)
{
    struct pysrc_memo *m = p->memo;
    if (!m || m->vname_built)
        return;
    m->vname_built = 1;
    int32_t *v = arena_alloc_nozero(m->a, (ptrdiff_t)sizeof(int32_t), _Alignof(int32_t),
                                    p->n + 1);
    if (!v)
        return;
    int32_t c = 0;
    for (ptrdiff_t k = 0; k < p->n; k++) {
        v[k] = c;
        c += amd_tok(p, k) || nv_tok(p, k);
    }
    v[p->n] = c;
    m->vend = v;
    if (c) /* with no vendor test, no name holds one */
        build_vnames(p);
}

/* Answered from counts of vendor tokens before each token, made on first use: a condition
 * or a logical line can be as long as the file. */
int pysrc_pred_vendor(const pysrc *p, ptrdiff_t b, ptrdiff_t e, void *ud)
{
    (void)ud;
    struct pysrc_memo *m = p->memo;
    if (e > p->n)
        e = p->n;
    if (b < 0 || b >= e)
        return 0;
    ensure_vendor(p);
    if (m && m->vnm && m->vnm[e] - m->vnm[b] > 0 && condition_start(p, b))
        return 1;
    if (m && m->vend)
        return m->vend[e] - m->vend[b] > 0;
    for (ptrdiff_t i = b; i < e; i++)
        if (amd_tok(p, i) || nv_tok(p, i))
            return 1;
    return 0;
}

/* Does the body of the if at h leave the block (return, raise, continue, break) at its top? */
static int exits(const pysrc *p, ptrdiff_t h)
{
    ptrdiff_t bb, be;
    if (!pysrc_block(p, h, &bb, &be))
        return 0;
    for (ptrdiff_t j = bb; j < be; j++)
        if (p->lstart[j] == j && (j == bb || p->up[j] == h) &&
            (pysrc_is(p, j, "return") || pysrc_is(p, j, "raise") || pysrc_is(p, j, "continue") ||
             pysrc_is(p, j, "break")))
            return 1;
    return 0;
}

/* Is the condition of the if at h "not" and an NVIDIA-side test (if not torch.version.cuda:,
 * if not is_nvidia():, if not use_cuda:), alone or beside operands every GPU passes (if
 * torch.cuda.is_available() and not is_sm_at_least_100():)? Its body is every other vendor's,
 * AMD's too. */
static int not_nvidia(const pysrc *p, ptrdiff_t h)
{
    struct pysrc_memo *m = p->memo;
    ptrdiff_t e = pysrc_line_end(p, h);
    int nots = 0;
    ptrdiff_t cb = h + 1;
    for (ptrdiff_t k = h + 1;; k++) {
        if (k < e && is_open(&p->t[k]) && p->match[k] > k && p->match[k] < e) {
            k = p->match[k];
            continue;
        }
        int stop = k >= e || pysrc_op(p, k, ':');
        if (!stop && pysrc_is(p, k, "or"))
            return 0;
        if (!stop && !pysrc_is(p, k, "and"))
            continue;
        if (pysrc_is(p, cb, "not")) {
            int nv = 0;
            for (ptrdiff_t j = cb + 1; j < k; j++) {
                if (pysrc_is(p, j, "and") || pysrc_is(p, j, "or"))
                    return 0;
                nv |= nv_tok(p, j) || (m && m->vname && m->vname[j] == 1);
            }
            if (!nv)
                return 0;
            nots++;
        } else if (!(k - cb == 7 && pysrc_is(p, cb, "torch") && pysrc_is(p, cb + 2, "cuda") &&
                     pysrc_is(p, cb + 4, "is_available") && pysrc_op(p, cb + 5, '('))) {
            return 0;
        }
        cb = k + 1;
        if (stop)
            break;
    }
    return nots > 0;
}

/* Does the operand [b, e) of a skip condition hold on ROCm: torch.version.cuda is None, not
 * torch.version.cuda, not an NVIDIA-only predicate or flag, or an AMD test (torch.version.hip,
 * IS_ROCM) not negated? */
static int rocm_operand(const pysrc *p, ptrdiff_t b, ptrdiff_t e)
{
    while (b + 1 < e && pysrc_op(p, b, '(') && p->match[b] == e - 1)
        b++, e--;
    int neg = pysrc_is(p, b, "not"), nv = 0, amd = 0, isnone = 0;
    for (ptrdiff_t k = b + neg; k < e; k++) {
        if (pysrc_is(p, k, "and") || (k > b + neg && pysrc_is(p, k, "not") &&
                                      !pysrc_is(p, k - 1, "is")))
            return 0;
        if (pysrc_is(p, k, "None") && pysrc_is(p, k - 1, "is") && !pysrc_is(p, k - 2, "is") &&
            !pysrc_is(p, k - 1, "not"))
            isnone = 1;
        amd |= amd_tok(p, k);
        nv |= nv_tok(p, k);
    }
    if (amd && !nv)
        return !neg && !isnone;
    if (nv && !amd)
        return neg != isnone;
    return 0;
}

/* Is the condition [b, e) of a skipif true on ROCm: an or one of whose operands is
 * rocm_operand (compute_capability != (9, 0) or torch.version.cuda is None)? */
static int skip_cond_rocm(const pysrc *p, ptrdiff_t b, ptrdiff_t e)
{
    ptrdiff_t cb = b;
    for (ptrdiff_t k = b; k <= e; k++) {
        if (k < e && is_open(&p->t[k]) && p->match[k] > k && p->match[k] < e) {
            k = p->match[k];
            continue;
        }
        if (k == e || pysrc_is(p, k, "or")) {
            if (rocm_operand(p, cb, k))
                return 1;
            cb = k + 1;
        }
    }
    return 0;
}

/* Is the skipif call whose '(' is at o skipped on ROCm (its first argument, skip_cond_rocm)? */
static int skipif_rocm(const pysrc *p, ptrdiff_t o)
{
    if (!pysrc_op(p, o, '(') || p->match[o] <= o || !pysrc_is(p, o - 1, "skipif"))
        return 0;
    ptrdiff_t e = o + 1;
    while (e < p->match[o] && !pysrc_op(p, e, ',')) {
        if (is_open(&p->t[e]) && p->match[e] > e)
            e = p->match[e];
        e++;
    }
    return skip_cond_rocm(p, o + 1, e);
}

/* Is the function at def h decorated with a pytest skip that ROCm takes: @pytest.mark.skipif(
 * torch.version.cuda is None, ...), or @NAME where NAME = pytest.mark.skipif(...) is such a
 * skip? Its body and header are then code ROCm does not run. */
static int skipped_on_rocm(const pysrc *p, ptrdiff_t h)
{
    struct pysrc_memo *m = p->memo;
    if (h < 1 || p->prev[h] < 0 || p->t[p->prev[h]].kind != PY_DECORATOR)
        return 0;
    if (m && !m->skipif) {
        m->skipif = 1;
        for (ptrdiff_t k = 0; k < p->n && m->skipif == 1; k++)
            if (pysrc_is(p, k, "skipif"))
                m->skipif = 2;
    }
    if (m && m->skipif == 1)
        return 0;
    for (ptrdiff_t j = p->prev[h]; j >= 0 && p->t[j].kind == PY_DECORATOR; j = p->prev[j]) {
        ptrdiff_t le = pysrc_line_end(p, j);
        for (ptrdiff_t k = j + 1; k < le; k++)
            if (skipif_rocm(p, k))
                return 1;
        /* @name: its assignment at the top of the file */
        if (j + 2 == le && p->t[j + 1].kind == PY_NAME) {
            hp_str name = pysrc_text(p, j + 1);
            for (ptrdiff_t s = 0; s + 2 < p->n; s++) {
                if (p->lstart[s] != s || p->up[s] >= 0 || p->t[s].kind != PY_NAME ||
                    !pysrc_op(p, s + 1, '=') || !str_eq(pysrc_text(p, s), name))
                    continue;
                ptrdiff_t se = pysrc_line_end(p, s);
                for (ptrdiff_t k = s + 2; k < se; k++)
                    if (skipif_rocm(p, k))
                        return 1;
            }
        }
    }
    return 0;
}

static int nv_assert(const pysrc *p, ptrdiff_t j);

/* Remembered per line: exit_before asks it of the same earlier siblings for each line. */
int pysrc_nv_assert(const pysrc *p, ptrdiff_t j)
{
    if (!pysrc_is(p, j, "assert"))
        return 0;
    ensure_vendor(p);
    struct pysrc_memo *m = p->memo;
    if (m && !m->vassert)
        m->vassert = NEW(m->a, unsigned char, p->n);
    if (!m || !m->vassert || p->lstart[j] != j)
        return nv_assert(p, j);
    if (!m->vassert[j])
        m->vassert[j] = (unsigned char)(nv_assert(p, j) ? 2 : 1);
    return m->vassert[j] == 2;
}

static int nv_assert(const pysrc *p, ptrdiff_t j)
{
    struct pysrc_memo *m = p->memo;
    ptrdiff_t e = pysrc_line_end(p, j);
    int nv = 0, depth = 0;
    for (ptrdiff_t k = j + 1; k < e; k++) {
        /* a call's arguments are its own business: is_sm100(dev) */
        if (pysrc_op(p, k, '(') && p->t[k - 1].kind == PY_NAME && p->match[k] > k &&
            p->match[k] < e && k - 1 > j && !pysrc_is(p, k - 1, "and") &&
            !pysrc_is(p, k - 1, "or") && !pysrc_is(p, k - 1, "not") &&
            !pysrc_is(p, k - 1, "in") && !pysrc_is(p, k - 1, "is")) {
            k = p->match[k];
            continue;
        }
        if (is_open(&p->t[k]))
            depth++;
        else if (is_close(&p->t[k]))
            depth--;
        else if (depth == 0 && pysrc_op(p, k, ','))
            break; /* the message */
        if (pysrc_is(p, k, "or") || (pysrc_is(p, k, "not") && !pysrc_is(p, k - 1, "is")))
            return 0;
        if (pysrc_is(p, k, "None") && (pysrc_op(p, k - 1, PO_EQ) ||
                                       (pysrc_is(p, k - 1, "is") && !pysrc_is(p, k - 2, "is"))))
            return 0;
        nv |= nv_tok(p, k) || (m && m->vname && m->vname[k] == 1);
    }
    return nv;
}

/* After "if torch.version.hip: return ..." or "if not torch.version.cuda: return" (no else),
 * or "assert torch.version.cuda is not None", the rest of the block is the other vendor's. An exit on another vendor's test (if DEVICE_TYPE == "xpu": raise ...) leaves the
 * rest to every other vendor, AMD included. Looks at up to 64 earlier siblings at each
 * level. */
static int exit_before(const pysrc *p, ptrdiff_t s)
{
    ptrdiff_t after = s;
    int k = 0;
    for (ptrdiff_t j = p->prev[s]; j >= 0 && k < 64; after = j, j = p->prev[j], k++) {
        if (pysrc_nv_assert(p, j))
            return 1;
        if (!pysrc_is(p, j, "if") || pysrc_is(p, after, "else") || pysrc_is(p, after, "elif"))
            continue;
        if ((pysrc_pred_amd(p, j, pysrc_line_end(p, j), NULL) || not_nvidia(p, j)) &&
            exits(p, j))
            return 1;
    }
    return 0;
}

/* The answer of each line start is remembered: a file's findings ask it for the same lines
 * and their enclosing ones again and again. */
static int after_vendor_exit(const pysrc *p, ptrdiff_t i)
{
    struct pysrc_memo *m = p->memo;
    if (m && !m->vexit)
        m->vexit = NEW(m->a, unsigned char, p->n);
    unsigned char *mv = m ? m->vexit : NULL;
    int r = 0;
    ptrdiff_t s = p->lstart[i], stop = -1;
    while (s >= 0) {
        if (mv && mv[s]) {
            r = mv[s] == 2;
            stop = s;
            break;
        }
        if (exit_before(p, s)) {
            r = 1;
            break;
        }
        ptrdiff_t h = p->up[s];
        s = h >= 0 ? p->lstart[h] : -1;
    }
    if (!mv)
        return r;
    for (ptrdiff_t t = p->lstart[i]; t >= 0 && t != stop;) {
        mv[t] = r ? 2 : 1;
        if (t == s)
            break;
        ptrdiff_t h = p->up[t];
        t = h >= 0 ? p->lstart[h] : -1;
    }
    return r;
}

static int vendor_here(const pysrc *p, ptrdiff_t i)
{
    return pysrc_guarded(p, i, pysrc_pred_vendor, NULL) || after_vendor_exit(p, i);
}

/* Does the function's name say it serves NVIDIA (get_cuda_configs, _nvidia_tuning,
 * hopper_configs, has_usable_nvcc)? A function named for AMD is AMD's code, and checked. */
static int vendor_fn_name(hp_str s)
{
    static const char *const parts[] = {"cuda", "nvidia", "nv", "nvcc", "hopper", "blackwell",
                                        "sm90", "sm100"};
    ptrdiff_t i = 0;
    while (i < s.len) {
        ptrdiff_t j = i;
        while (j < s.len && s.s[j] != '_')
            j++;
        hp_str part = {s.s + i, j - i};
        for (size_t k = 0; k < sizeof parts / sizeof *parts; k++)
            if (str_eq_nocase(part, str_cstr(parts[k])))
                return 1;
        i = j + 1;
    }
    return 0;
}

/* For each function of the file: is every reference to it in vendor-only code? One pass over
 * the names, made on first use. */
static void build_fn_only(const pysrc *p)
{
    struct pysrc_memo *m = p->memo;
    m->fns_built = 1;
    int nf = 0;
    for (ptrdiff_t i = 0; i + 1 < p->n; i++)
        nf += pysrc_is(p, i, "def") && p->t[i + 1].kind == PY_NAME;
    if (!nf || !nameidx_init(&m->fn_ix, m->a, nf))
        return;
    m->fn_only = NEW(m->a, unsigned char, nf);
    if (!m->fn_only)
        return;
    int32_t k = 0;
    for (ptrdiff_t i = 0; i + 1 < p->n; i++)
        if (pysrc_is(p, i, "def") && p->t[i + 1].kind == PY_NAME &&
            nameidx_get(&m->fn_ix, pysrc_text(p, i + 1)) < 0)
            nameidx_put(&m->fn_ix, pysrc_text(p, i + 1), k++, 0);
    for (ptrdiff_t i = 0; i < p->n; i++) {
        if (p->t[i].kind != PY_NAME || (i > 0 && pysrc_is(p, i - 1, "def")))
            continue;
        int32_t f = nameidx_get(&m->fn_ix, pysrc_text(p, i));
        if (f < 0 || m->fn_only[f] == 1)
            continue;
        m->fn_only[f] = vendor_here(p, i) ? 2 : 1;
    }
}

int pysrc_in_vendor_fn(const pysrc *p, ptrdiff_t i)
{
    ensure_vendor(p);
    struct pysrc_memo *m = p->memo;
    if (i < 0 || i >= p->n || !m)
        return 0;
    for (ptrdiff_t h = p->up[i]; h >= 0; h = p->up[h]) {
        if (!pysrc_is(p, h, "def") || h + 1 >= p->n || p->t[h + 1].kind != PY_NAME)
            continue;
        if (!m->fns_built)
            build_fn_only(p);
        int32_t f = m->fn_only ? nameidx_get(&m->fn_ix, pysrc_text(p, h + 1)) : -1;
        if (f >= 0 && m->fn_only[f] == 2)
            return 1;
    }
    return 0;
}

int pysrc_vendor_branch(const pysrc *p, ptrdiff_t i)
{
    if (i < 0 || i >= p->n)
        return 0;
    ensure_vendor(p);
    return vendor_here(p, i);
}

int pysrc_vendor_here(const pysrc *p, ptrdiff_t i)
{
    ensure_vendor(p);
    if (i < 0 || i >= p->n)
        return 0;
    if (p->vendor_file || vendor_here(p, i))
        return 1;
    for (ptrdiff_t h = p->up[i]; h >= 0; h = p->up[h])
        if (pysrc_is(p, h, "def") && h + 1 < p->n && p->t[h + 1].kind == PY_NAME &&
            vendor_fn_name(pysrc_text(p, h + 1)))
            return 1;
    return 0;
}

static int vendor_only(const pysrc *p, ptrdiff_t i);
static void build_fn_only(const pysrc *p);

/* Is the body of the block at header h vendor-only by h or a header around it: a vendor test
 * (header_pred), or a function named for NVIDIA or called only from vendor-only code? Each
 * header's answer is remembered (p->memo), so a file's lines cost one step each. */
static int block_vendor(const pysrc *p, ptrdiff_t h)
{
    struct pysrc_memo *m = p->memo;
    if (!m->vblock)
        m->vblock = NEW(m->a, unsigned char, p->n);
    unsigned char *vb = m->vblock;
    ptrdiff_t stop = h;
    int r = 0;
    for (; stop >= 0; stop = p->up[stop]) {
        if (vb && vb[stop]) {
            r = vb[stop] == 2;
            break;
        }
        int here = header_pred(p, stop, pysrc_pred_vendor, NULL);
        if (!here && pysrc_is(p, stop, "def") && stop + 1 < p->n &&
            p->t[stop + 1].kind == PY_NAME) {
            hp_str name = pysrc_text(p, stop + 1);
            if (vendor_fn_name(name)) {
                here = 1;
            } else {
                if (!m->fns_built)
                    build_fn_only(p);
                int32_t f = m->fn_only ? nameidx_get(&m->fn_ix, name) : -1;
                here = f >= 0 && m->fn_only[f] == 2;
            }
        }
        if (here) {
            r = 1;
            break;
        }
    }
    /* every header from h up to where the walk stopped has its answer: r, since the ones
     * below the stop said no themselves */
    if (vb) {
        for (ptrdiff_t k = h; k >= 0 && k != stop; k = p->up[k])
            vb[k] = (unsigned char)(r ? 2 : 1);
        if (stop >= 0)
            vb[stop] = (unsigned char)(r ? 2 : 1);
    }
    return r;
}

int pysrc_vendor_only(const pysrc *p, ptrdiff_t i)
{
    ensure_vendor(p);
    if (i < 0 || i >= p->n)
        return 0;
    if (p->vendor_file)
        return 1;
    struct pysrc_memo *m = p->memo;
    if (m && !m->vonly)
        m->vonly = NEW(m->a, unsigned char, p->n);
    if (!m || !m->vonly)
        return vendor_only(p, i);
    ptrdiff_t ls = p->lstart[i];
    if (!m->vonly[ls]) {
        int r = header_pred(p, ls, pysrc_pred_vendor, NULL) || after_vendor_exit(p, ls) ||
                block_vendor(p, p->up[ls]);
        m->vonly[ls] = (unsigned char)(r ? 2 : 1);
    }
    return m->vonly[ls] == 2;
}

static int vendor_only(const pysrc *p, ptrdiff_t i)
{
    if (vendor_here(p, i))
        return 1;
    struct pysrc_memo *m = p->memo;
    for (ptrdiff_t h = p->up[i]; h >= 0; h = p->up[h]) {
        if (!pysrc_is(p, h, "def") || h + 1 >= p->n || p->t[h + 1].kind != PY_NAME)
            continue;
        hp_str name = pysrc_text(p, h + 1);
        if (vendor_fn_name(name))
            return 1;
        if (!m)
            return 0;
        if (!m->fns_built)
            build_fn_only(p);
        int32_t f = m->fn_only ? nameidx_get(&m->fn_ix, name) : -1;
        if (f >= 0 && m->fn_only[f] == 2)
            return 1;
    }
    return 0;
}

/* Is the condition [b, e) a test for Windows: 1 (sys.platform == "win32",
 * sys.platform.startswith("win"), os.name == "nt", platform.system() == "Windows"), -1 for its
 * negation (!=, not), 0 for neither or for an or-chain? */
static int windows_test(const pysrc *p, ptrdiff_t b, ptrdiff_t e)
{
    int r = 0;
    for (ptrdiff_t k = b; k < e; k++) {
        if (pysrc_is(p, k, "or"))
            return 0;
        if (p->t[k].kind != PY_STRING)
            continue;
        hp_str v = pylex_string_body(p->src, &p->t[k]);
        int neg = pysrc_op(p, k - 1, PO_NE) || pysrc_is(p, b, "not");
        if ((str_eq(v, S("win32")) || str_eq(v, S("cygwin"))) && k >= 2 &&
            (pysrc_op(p, k - 1, PO_EQ) || pysrc_op(p, k - 1, PO_NE)) && pysrc_is(p, k - 2, "platform"))
            r = neg ? -1 : 1;
        else if (str_eq(v, S("nt")) && k >= 2 &&
                 (pysrc_op(p, k - 1, PO_EQ) || pysrc_op(p, k - 1, PO_NE)) && pysrc_is(p, k - 2, "name"))
            r = neg ? -1 : 1;
        else if (str_eq(v, S("Windows")) && k >= 4 &&
                 (pysrc_op(p, k - 1, PO_EQ) || pysrc_op(p, k - 1, PO_NE)) &&
                 pysrc_op(p, k - 2, ')') && pysrc_is(p, k - 4, "system"))
            r = neg ? -1 : 1;
        else if (str_eq(v, S("win")) && pysrc_op(p, k - 1, '(') && pysrc_is(p, k - 2, "startswith"))
            r = pysrc_is(p, b, "not") ? -1 : 1;
        else if (str_eq(v, S("msvc")) && k >= 2 &&
                 (pysrc_op(p, k - 1, PO_EQ) || pysrc_op(p, k - 1, PO_NE)) &&
                 pysrc_is(p, k - 2, "compiler_type"))
            r = neg ? -1 : 1; /* distutils' compiler: MSVC builds are Windows builds */
    }
    return r;
}

/* For a condition [b, e) that is one name (or not NAME): the Windows test every assignment of
 * the name in the file holds (windows = os.name == "nt"), one at least, as windows_test
 * answers it (negated under not); 0 otherwise. */
static int windows_name(const pysrc *p, ptrdiff_t b, ptrdiff_t e)
{
    int neg = 0;
    if (e - b == 2 && pysrc_is(p, b, "not"))
        neg = 1, b++;
    if (e - b != 1 || p->t[b].kind != PY_NAME)
        return 0;
    hp_str name = pysrc_text(p, b);
    int r = 0;
    for (ptrdiff_t k = 0; k + 2 < p->n; k++) {
        if (p->t[k].kind != PY_NAME || !pysrc_op(p, k + 1, '=') || p->lstart[k] != k ||
            !str_eq(pysrc_text(p, k), name))
            continue;
        int w = windows_test(p, k + 2, p->lend[k]);
        if (!w || (r && w != r))
            return 0;
        r = w;
    }
    return neg ? -r : r;
}

/* Does the body of the block at header h run only on Windows: an if/elif on a Windows test,
 * or the else of an if on its negation? */
static int windows_block(const pysrc *p, ptrdiff_t h)
{
    ptrdiff_t e = p->lend[h];
    if (pysrc_is(p, h, "if") || pysrc_is(p, h, "elif")) {
        ptrdiff_t ce = e > h + 1 && pysrc_op(p, e - 1, ':') ? e - 1 : e;
        return windows_test(p, h + 1, e) > 0 || windows_name(p, h + 1, ce) > 0;
    }
    if (pysrc_is(p, h, "else")) {
        ptrdiff_t c = p->prev[h];
        if (c < 0 || !pysrc_is(p, c, "if"))
            return 0;
        ptrdiff_t ce = p->lend[c] > c + 1 && pysrc_op(p, p->lend[c] - 1, ':') ? p->lend[c] - 1
                                                                          : p->lend[c];
        return windows_test(p, c + 1, p->lend[c]) < 0 || windows_name(p, c + 1, ce) < 0;
    }
    return 0;
}

int pysrc_windows_only(const pysrc *p, ptrdiff_t i)
{
    if (i < 0 || i >= p->n)
        return 0;
    struct pysrc_memo *m = p->memo;
    if (m && !m->winhdr)
        m->winhdr = NEW(m->a, unsigned char, p->n);
    for (ptrdiff_t h = p->up[p->lstart[i]]; h >= 0; h = p->up[h]) {
        if (m && m->winhdr && m->winhdr[h])
            return m->winhdr[h] == 2;
        int w = windows_block(p, h);
        if (m && m->winhdr && w)
            m->winhdr[h] = 2;
        if (w)
            return 1;
    }
    return 0;
}

ptrdiff_t pysrc_tok_at(const pysrc *p, ptrdiff_t off)
{
    ptrdiff_t lo = 0, hi = p->n;
    while (lo < hi) {
        ptrdiff_t mid = lo + (hi - lo) / 2;
        if (p->t[mid].off + p->t[mid].len <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->n && p->t[lo].off <= off ? lo : -1;
}

/* ------------------------------------------------------------------ Triton forks' features */

/* Features of Triton forks that upstream Triton's triton.language lacks (warp specialization
 * in Meta's NVIDIA fork: tl.async_task, tl.async_tasks). */
static const char *const fork_features[] = {"async_task", "async_tasks"};

/* Is token k hasattr(triton.language, "<fork feature>") (through an alias: hasattr(tl, ...))?
 * Returns the string token, or -1. */
static ptrdiff_t fork_probe(const pysrc *p, ptrdiff_t k)
{
    if (!pysrc_is(p, k, "hasattr") || !pysrc_op(p, k + 1, '(') || pysrc_op(p, k - 1, '.'))
        return -1;
    char q[64];
    ptrdiff_t j = pysrc_qualname(p, k + 2, q, sizeof q);
    if (j == k + 2 || strcmp(q, "triton.language") != 0 || !pysrc_op(p, j, ',') ||
        j + 1 >= p->n || p->t[j + 1].kind != PY_STRING || !pysrc_op(p, j + 2, ')'))
        return -1;
    hp_str v = pylex_string_body(p->src, &p->t[j + 1]);
    for (size_t f = 0; f < sizeof fork_features / sizeof *fork_features; f++)
        if (str_eq(v, str_cstr(fork_features[f])))
            return j + 1;
    return -1;
}

/* The module-level names bound to a fork probe alone or in an and-chain
 * (has_ws = hasattr(tl, "async_task")), made once. */
static void build_forks(const pysrc *p)
{
    struct pysrc_memo *m = p->memo;
    if (m->forks_built)
        return;
    m->forks_built = 1;
    for (ptrdiff_t s = 0; s + 2 < p->n && m->nfork < 8; s++) {
        if (p->lstart[s] != s || p->up[s] >= 0 || p->t[s].kind != PY_NAME ||
            !pysrc_op(p, s + 1, '='))
            continue;
        ptrdiff_t e = p->lend[s], probe = -1;
        for (ptrdiff_t k = s + 2; k < e; k++) {
            if (pysrc_is(p, k, "or") || pysrc_is(p, k, "not") || pysrc_is(p, k, "if")) {
                probe = -1;
                break;
            }
            ptrdiff_t t = fork_probe(p, k);
            if (t >= 0 && probe < 0)
                probe = t;
        }
        if (probe >= 0) {
            m->fork_name[m->nfork] = pysrc_text(p, s);
            m->fork_probe[m->nfork++] = (int32_t)probe;
        }
    }
    for (ptrdiff_t k = 0; k < p->n && !m->forkany; k++)
        m->forkany = pysrc_is(p, k, "hasattr") && fork_probe(p, k) >= 0;
}

/* The fork probe that token k is, or names (a name build_forks found), as a string token, or
 * -1. */
static ptrdiff_t fork_tok(const pysrc *p, ptrdiff_t k)
{
    ptrdiff_t t = fork_probe(p, k);
    if (t >= 0 || p->t[k].kind != PY_NAME || pysrc_op(p, k - 1, '.'))
        return t;
    const struct pysrc_memo *m = p->memo;
    hp_str w = pysrc_text(p, k);
    for (int f = 0; m && f < m->nfork; f++)
        if (str_eq(w, m->fork_name[f]))
            return m->fork_probe[f];
    return -1;
}

/* Does the condition [b, e) require a fork's feature (sign 1: if has_ws:, assert has_ws,
 * if hasattr(tl, "async_task") and x:) or its absence (sign -1: if not has_ws:)? An or-chain
 * requires neither. Returns the probe's string token, or -1. */
static ptrdiff_t fork_cond(const pysrc *p, ptrdiff_t b, ptrdiff_t e, int sign)
{
    ptrdiff_t r = -1;
    for (ptrdiff_t k = b; k < e; k++) {
        if (pysrc_is(p, k, "or"))
            return -1;
        if (pysrc_op(p, k, ',') && pysrc_is(p, b - 1, "assert"))
            break; /* the message */
        ptrdiff_t t = fork_tok(p, k);
        if (t < 0)
            continue;
        int neg = pysrc_is(p, k - 1, "not");
        if ((sign > 0) != !neg)
            return -1;
        r = t;
    }
    return r;
}

static ptrdiff_t fork_fn(const pysrc *p, ptrdiff_t d);

/* The fork probe that line start s is under: the body of an if/elif that requires the
 * feature, the else of an if on its absence, after an exit on its absence (if not has_ws:
 * return []) or an assert of it earlier in the block, at s's level or an enclosing one; or
 * in a function that only such code refers to. -1 when none. */
static ptrdiff_t fork_line(const pysrc *p, ptrdiff_t s, int depth)
{
    for (ptrdiff_t l = s; l >= 0;) {
        ptrdiff_t after = l;
        int k = 0;
        for (ptrdiff_t j = p->prev[l]; j >= 0 && k < 64; after = j, j = p->prev[j], k++) {
            ptrdiff_t t;
            if (pysrc_is(p, j, "assert") && (t = fork_cond(p, j + 1, p->lend[j], 1)) >= 0)
                return t;
            if (pysrc_is(p, j, "if") && !pysrc_is(p, after, "else") &&
                !pysrc_is(p, after, "elif") && exits(p, j) &&
                (t = fork_cond(p, j + 1, p->lend[j], -1)) >= 0)
                return t;
        }
        ptrdiff_t h = p->up[l];
        if (h < 0)
            break;
        ptrdiff_t t = -1;
        if (pysrc_is(p, h, "if") || pysrc_is(p, h, "elif"))
            t = fork_cond(p, h + 1, p->lend[h], 1);
        else if (pysrc_is(p, h, "else") && p->prev[h] >= 0 && pysrc_is(p, p->prev[h], "if"))
            t = fork_cond(p, p->prev[h] + 1, p->lend[p->prev[h]], -1);
        else if (pysrc_is(p, h, "def") && p->up[h] < 0 && depth < 2)
            t = fork_fn(p, h);
        if (t >= 0)
            return t;
        l = p->lstart[h];
    }
    return -1;
}

/* Is the module-level function at def h referred to (outside itself) only from code under a
 * fork probe, and at least once? Returns the probe, or -1; remembered per def. */
static ptrdiff_t fork_fn(const pysrc *p, ptrdiff_t h)
{
    struct pysrc_memo *m = p->memo;
    if (!m || h + 1 >= p->n || p->t[h + 1].kind != PY_NAME)
        return -1;
    if (!m->forkfn)
        m->forkfn = NEW(m->a, int32_t, p->n);
    if (m->forkfn && m->forkfn[h])
        return m->forkfn[h] > 0 ? m->forkfn[h] - 1 : -1;
    hp_str name = pysrc_text(p, h + 1);
    ptrdiff_t bb, be, r = -1;
    if (!pysrc_block(p, h, &bb, &be))
        return -1;
    if (m->forkfn)
        m->forkfn[h] = -1; /* no while asking: a function that refers to itself */
    for (ptrdiff_t k = 0; k < p->n; k++) {
        if (k == h + 1 || (k >= bb && k < be) || p->t[k].kind != PY_NAME ||
            pysrc_op(p, k - 1, '.') || !str_eq(pysrc_text(p, k), name))
            continue;
        ptrdiff_t t = fork_line(p, p->lstart[k], 1);
        if (t < 0)
            return -1;
        r = t;
    }
    if (m->forkfn && r >= 0)
        m->forkfn[h] = (int32_t)r + 1;
    return r;
}

ptrdiff_t pysrc_fork_only(const pysrc *p, ptrdiff_t i)
{
    if (i < 0 || i >= p->n || !p->memo)
        return -1;
    build_forks(p);
    if (!p->memo->forkany)
        return -1;
    return fork_line(p, p->lstart[i], 0);
}

/* ------------------------------------------------------------------ constexpr flags left off */

/* Is tokens [b, e) False, None or 0? */
static int false_lit(const pysrc *p, ptrdiff_t b, ptrdiff_t e)
{
    long long v;
    return pysrc_const(p, b, e, "False") || pysrc_const(p, b, e, "None") ||
           (pysrc_int(p, b, e, &v) && v == 0);
}

/* The end of the value that starts at token b inside brackets or on a line: the first ',',
 * closing bracket or NEWLINE at its depth. */
static ptrdiff_t value_end(const pysrc *p, ptrdiff_t b)
{
    ptrdiff_t j = b;
    while (j < p->n && p->t[j].kind != PY_NEWLINE && !pysrc_op(p, j, ',') &&
           !pysrc_op(p, j, ')') && !pysrc_op(p, j, ']') && !pysrc_op(p, j, '}')) {
        if (is_open(&p->t[j]) && p->match[j] > j)
            j = p->match[j];
        j++;
    }
    return j;
}

/* Does the annotation [b, e) name constexpr (tl.constexpr, triton.language.constexpr)? */
static int names_constexpr(const pysrc *p, ptrdiff_t b, ptrdiff_t e)
{
    for (ptrdiff_t k = b; k < e; k++)
        if (pysrc_is(p, k, "constexpr"))
            return 1;
    return 0;
}

/* The def whose parameter list holds token k, or -1. */
static ptrdiff_t param_of(const pysrc *p, ptrdiff_t k)
{
    ptrdiff_t d = p->lstart[k];
    if (!pysrc_is(p, d, "def") || !pysrc_op(p, d + 2, '('))
        return -1;
    return k > d + 2 && k < p->match[d + 2] ? d : -1;
}

/* Is every value the file gives the variable name False, None or 0, and one at least: its
 * assignments (name = v, name: T = v), keyword arguments and parameter defaults (name=v; a
 * keyword name=name passes the same variable on)? A binding check cannot read (a parameter
 * without a default, other than a kernel's constexpr one, whose kernel's calls the caller
 * reads; a loop or with target, a tuple assignment, an augmented assignment, a string that
 * names it, as in a config dict) answers no. */
static int always_false(const pysrc *p, hp_str name)
{
    int seen = 0;
    for (ptrdiff_t k = 0; k < p->n; k++) {
        if (p->t[k].kind == PY_STRING) {
            if (str_eq(pylex_string_body(p->src, &p->t[k]), name))
                return 0;
            continue;
        }
        if (p->t[k].kind != PY_NAME || !str_eq(pysrc_text(p, k), name) ||
            pysrc_op(p, k - 1, '.'))
            continue;
        if (pysrc_is(p, k - 1, "for") || pysrc_is(p, k - 1, "as") ||
            pysrc_is(p, k - 1, "global") || pysrc_is(p, k - 1, "nonlocal") ||
            pysrc_op(p, k + 1, PO_WALRUS) || pysrc_op(p, k + 1, PO_AUGASSIGN) ||
            (p->lstart[k] == k && pysrc_op(p, k + 1, ',')))
            return 0;
        ptrdiff_t d = param_of(p, k);
        ptrdiff_t v = -1;
        if (pysrc_op(p, k + 1, '=')) {
            v = k + 2;
        } else if (pysrc_op(p, k + 1, ':') && (d >= 0 || p->lstart[k] == k)) {
            ptrdiff_t ae = value_end(p, k + 2);
            if (d >= 0 && names_constexpr(p, k + 2, ae) && !pysrc_op(p, ae, '='))
                continue; /* a kernel's parameter: its calls bind it */
            if (pysrc_op(p, ae, '='))
                v = ae + 1;
            else if (d >= 0)
                return 0;
            else
                continue; /* a bare annotation binds nothing */
        } else if (d >= 0 && (pysrc_op(p, k + 1, ',') || pysrc_op(p, k + 1, ')'))) {
            return 0; /* a parameter without a default: its callers decide */
        } else {
            continue; /* a use */
        }
        ptrdiff_t ve = p->lstart[k] == k && d < 0 ? p->lend[k] : value_end(p, v);
        if (ve - v == 1 && str_eq(pysrc_text(p, v), name) && d < 0)
            continue; /* name=name: the same variable passed on */
        if (!false_lit(p, v, ve))
            return 0;
        seen = 1;
    }
    return seen;
}

/* Is the argument [b, e) a value that is always false: a literal, or a variable whose every
 * binding in the file is one? */
static int arg_false(const pysrc *p, ptrdiff_t b, ptrdiff_t e)
{
    if (false_lit(p, b, e))
        return 1;
    return e - b == 1 && p->t[b].kind == PY_NAME && always_false(p, pysrc_text(p, b));
}

/* For the def at d with parameter name (annotated constexpr): is the value every call of the
 * function in the file passes for it (or its default) always false, with one call at least?
 * A reference to the function other than a call (kernel[grid](...), kernel(...)) answers no. */
static int calls_pass_false(const pysrc *p, ptrdiff_t d, hp_str name)
{
    if (d + 2 >= p->n || p->t[d + 1].kind != PY_NAME || !pysrc_op(p, d + 2, '('))
        return 0;
    pysrc_arg par[64];
    int np = pysrc_args(p, d + 2, par, 64);
    if (np > 64)
        return 0;
    int pi = -1;
    for (int k = 0; k < np; k++)
        if (par[k].star || pysrc_op(p, par[k].b, '/'))
            break;
        else if (str_eq(pysrc_text(p, par[k].b), name))
            pi = k;
    if (pi < 0 || !names_constexpr(p, par[pi].b, par[pi].e))
        return 0;
    ptrdiff_t dflt = -1;
    for (ptrdiff_t j = par[pi].b; j < par[pi].e; j++)
        if (pysrc_op(p, j, '='))
            dflt = j + 1;
    hp_str fn = pysrc_text(p, d + 1);
    int calls = 0;
    for (ptrdiff_t k = 0; k < p->n; k++) {
        if (k == d + 1 || p->t[k].kind != PY_NAME || !str_eq(pysrc_text(p, k), fn) ||
            pysrc_op(p, k - 1, '.'))
            continue;
        ptrdiff_t o = k + 1;
        if (pysrc_op(p, o, '[') && p->match[o] > o)
            o = p->match[o] + 1;
        if (!pysrc_op(p, o, '('))
            return 0;
        pysrc_arg a[64];
        int na = pysrc_args(p, o, a, 64);
        if (na > 64)
            return 0;
        int kw = -1, pos = 0, at = -1;
        for (int j = 0; j < na; j++) {
            if (a[j].star)
                return 0;
            if (a[j].kw >= 0 && str_eq(pysrc_text(p, a[j].kw), name))
                kw = j;
            else if (a[j].kw < 0 && pos++ == pi)
                at = j;
        }
        if (kw >= 0 ? !arg_false(p, a[kw].vb, a[kw].e)
                    : at >= 0 ? !arg_false(p, a[at].b, a[at].e)
                              : dflt < 0 || !false_lit(p, dflt, par[pi].e))
            return 0;
        calls++;
    }
    return calls > 0;
}

/* Is the condition [b, e) name, or an and-chain holding it (no or, no not)? Returns the
 * name's token, or -1. */
static ptrdiff_t and_flag(const pysrc *p, ptrdiff_t b, ptrdiff_t e)
{
    if (e > b && pysrc_op(p, e - 1, ':'))
        e--;
    strip_parens(p, &b, &e);
    ptrdiff_t flag = -1;
    for (ptrdiff_t s = b; s < e;) {
        ptrdiff_t t = s;
        while (t < e && !pysrc_is(p, t, "and")) {
            if (pysrc_is(p, t, "or") || pysrc_is(p, t, "not"))
                return -1;
            if (is_open(&p->t[t]) && p->match[t] > t)
                t = p->match[t];
            t++;
        }
        if (flag < 0 && t - s == 1 && p->t[s].kind == PY_NAME)
            flag = s;
        s = t + 1;
    }
    return flag;
}

ptrdiff_t pysrc_constexpr_off(const pysrc *p, ptrdiff_t i)
{
    if (i < 0 || i >= p->n || !p->memo)
        return -1;
    struct pysrc_memo *m = p->memo;
    if (!m->cxoff)
        m->cxoff = NEW(m->a, int32_t, p->n);
    for (ptrdiff_t h = p->up[p->lstart[i]]; h >= 0; h = p->up[h]) {
        if (!pysrc_is(p, h, "if") && !pysrc_is(p, h, "elif"))
            continue;
        if (m->cxoff && m->cxoff[h]) {
            if (m->cxoff[h] > 0)
                return m->cxoff[h] - 1;
            continue;
        }
        ptrdiff_t f = and_flag(p, h + 1, p->lend[h]), r = -1;
        if (f >= 0) {
            ptrdiff_t d = p->up[h];
            while (d >= 0 && !pysrc_is(p, d, "def"))
                d = p->up[d];
            if (d >= 0 && calls_pass_false(p, d, pysrc_text(p, f)))
                r = f;
        }
        if (m->cxoff)
            m->cxoff[h] = r >= 0 ? (int32_t)r + 1 : -1;
        if (r >= 0)
            return r;
    }
    return -1;
}
