/* srcside.c: which sources a setup.py with an AMD branch gives its extensions only on the
 * NVIDIA side: string literals of source files and glob patterns, the names assigned from
 * them, and the if chains around them. */
#include <string.h>

#include "pysrc.h"
#include "rules_build.h"
#include "srcside.h"

#include "banned.h"

typedef struct sctx {
    arena *a;
    const pysrc *p;
    const char *path;
    hp_str *v;
    int n, cap;
} sctx;

static void push(sctx *c, const char *kind, hp_str s)
{
    if (c->n == c->cap) {
        int nc = c->cap ? 2 * c->cap : 16;
        hp_str *nv = arena_grow(c->a, c->v, (ptrdiff_t)c->cap * (ptrdiff_t)sizeof *nv,
                                (ptrdiff_t)nc * (ptrdiff_t)sizeof *nv, _Alignof(hp_str));
        if (!nv)
            return;
        c->v = nv;
        c->cap = nc;
    }
    char *k = arena_printf(c->a, "%s:%.*s", kind, (int)s.len, s.s);
    c->v[c->n++] = str_cstr(k);
}

static int ends_with(hp_str s, const char *suf)
{
    ptrdiff_t l = (ptrdiff_t)strlen(suf);
    return s.len >= l && memcmp(s.s + s.len - l, suf, (size_t)l) == 0;
}

/* Does the text name a C++ or CUDA source, or a pattern of them? */
static int source_text(hp_str s)
{
    static const char *const exts[] = {".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", "*"};
    if (!s.len || s.len > 512 || memchr(s.s, '\n', (size_t)s.len) || memchr(s.s, ' ', (size_t)s.len))
        return 0;
    ptrdiff_t base = s.len; /* a name before the extension: ".cu" alone is no source */
    while (base > 0 && s.s[base - 1] != '/')
        base--;
    for (size_t k = 0; k < sizeof exts / sizeof *exts; k++)
        if (ends_with(s, exts[k]) && s.len - base > (ptrdiff_t)strlen(exts[k]))
            return 1;
    return 0;
}

/* ------------------------------------------------------------------ the side of a token */

/* The end of the condition of the header at h: its ':' (or its line's end). */
static ptrdiff_t cond_end(const pysrc *p, ptrdiff_t h)
{
    ptrdiff_t j = h + 1;
    while (j < p->n && p->t[j].kind != PY_NEWLINE && !pysrc_op(p, j, ':')) {
        if (p->match[j] > j)
            j = p->match[j];
        j++;
    }
    return j;
}

/* The right side of the last `name = ...` at module or function level before token at:
 * [*b, *e); 0 when there is none. */
static int assigned(const pysrc *p, hp_str name, ptrdiff_t at, ptrdiff_t *b, ptrdiff_t *e)
{
    int found = 0;
    for (ptrdiff_t k = 0; k + 1 < p->n && k < at; k++) {
        if (p->lstart[k] != k || p->t[k].kind != PY_NAME || !pysrc_op(p, k + 1, '='))
            continue;
        if (!str_eq(pysrc_text(p, k), name))
            continue;
        *b = k + 2;
        *e = pysrc_line_end(p, k);
        found = 1;
    }
    return found;
}

static int cond_side(const pysrc *p, ptrdiff_t b, ptrdiff_t e, int depth);
static int nvidia_side_d(const pysrc *p, ptrdiff_t i, int depth);

/* The side a name used as a test stands for: +1 when every assignment that can make it true
 * is NVIDIA-side code or a test that requires NVIDIA (use_cuda = torch.version.cuda and ...;
 * use_cutlass = True only inside `if use_cuda:`), -1 when each requires AMD, 0 otherwise. */
static int name_side(const pysrc *p, hp_str name, int depth)
{
    int nv = 0, amd = 0, other = 0;
    for (ptrdiff_t k = 0; k + 1 < p->n; k++) {
        if (p->lstart[k] != k || p->t[k].kind != PY_NAME || !pysrc_op(p, k + 1, '=') ||
            !str_eq(pysrc_text(p, k), name))
            continue;
        ptrdiff_t rb = k + 2, re = pysrc_line_end(p, k);
        if (re - rb == 1 && (pysrc_is(p, rb, "False") || pysrc_is(p, rb, "None")))
            continue;
        if (re - rb == 1 && p->t[rb].kind == PY_NUMBER && p->t[rb].len == 1 &&
            p->src[p->t[rb].off] == '0')
            continue;
        int x = cond_side(p, rb, re, depth + 1);
        if (x > 0 || nvidia_side_d(p, k, depth + 1))
            nv++;
        else if (x < 0)
            amd++;
        else
            other++;
    }
    if (other || (nv && amd))
        return 0;
    return nv ? 1 : amd ? -1 : 0;
}

/* A conjunct [b, e): +1 when it requires the NVIDIA side (a CUDA test, or `not` of an AMD
 * test), -1 when it requires AMD, 0 otherwise. */
static int conjunct(const pysrc *p, ptrdiff_t b, ptrdiff_t e, int depth)
{
    while (b < e && pysrc_op(p, b, '(') && p->match[b] == e - 1) {
        b++;
        e--;
    }
    if (b >= e || depth > 4)
        return 0;
    int neg = 0;
    if (pysrc_is(p, b, "not")) {
        neg = 1;
        b++;
    }
    for (ptrdiff_t k = b; k < e; k++) { /* an `or` inside: no side */
        if (pysrc_is(p, k, "or"))
            return 0;
        if (p->match[k] > k)
            k = p->match[k];
    }
    int none = 0; /* `X is None` */
    if (e - b >= 3 && pysrc_is(p, e - 1, "None") && pysrc_is(p, e - 2, "is"))
        none = 1;
    if (pysrc_pred_amd(p, b, e, NULL))
        return (neg != none) ? 1 : -1;
    /* os.getenv("CUDA_VERSION"), os.environ.get("CUDA_HOME"): a CUDA build's setting, unset on
     * ROCm */
    if (!neg && !none && pysrc_cuda_env_read(p, b, e))
        return 1;
    if (pysrc_pred_vendor(p, b, e, NULL))
        return (neg || none) ? 0 : 1;
    if (e - b == 1 && p->t[b].kind == PY_NAME) {
        int a = name_side(p, pysrc_text(p, b), depth);
        return neg ? (a < 0 ? 1 : 0) : a;
    }
    return 0;
}

/* The side of an and-chain [b, e) (no or at its level): +1 NVIDIA, -1 AMD, 0 either. */
static int and_side(const pysrc *p, ptrdiff_t b, ptrdiff_t e, int depth)
{
    int side = 0;
    ptrdiff_t s = b;
    for (ptrdiff_t k = b; k <= e; k++) {
        if (k == e || pysrc_is(p, k, "and")) {
            int x = conjunct(p, s, k, depth);
            if (x < 0)
                return -1;
            if (x > 0)
                side = 1;
            s = k + 1;
        } else if (p->match[k] > k) {
            k = p->match[k];
        }
    }
    return side;
}

/* The side a condition [b, e) requires: +1 NVIDIA, -1 AMD, 0 either. An or-chain requires a
 * side when every one of its operands does (os.getenv("CUDA_VERSION") or torch.version.cuda:
 * neither is set on ROCm). */
static int cond_side(const pysrc *p, ptrdiff_t b, ptrdiff_t e, int depth)
{
    int side = 0, n = 0;
    ptrdiff_t s = b;
    for (ptrdiff_t k = b; k <= e; k++) {
        if (k == e || pysrc_is(p, k, "or")) {
            int x = and_side(p, s, k, depth);
            if (!x || (n && x != side))
                return 0;
            side = x;
            n++;
            s = k + 1;
        } else if (p->match[k] > k) {
            k = p->match[k];
        }
    }
    return side;
}

/* The side of the branch whose header is h (an if, elif or else): +1 when the AMD build
 * never takes it, -1 when only it does, 0 otherwise. */
static int branch_side(const pysrc *p, ptrdiff_t h, int depth)
{
    int own = 0;
    if (pysrc_is(p, h, "if") || pysrc_is(p, h, "elif"))
        own = cond_side(p, h + 1, cond_end(p, h), depth);
    if (own)
        return own;
    /* the other branches of its chain: one that tests for AMD makes this one NVIDIA's */
    ptrdiff_t first = h;
    while (!pysrc_is(p, first, "if") && p->prev[first] >= 0 &&
           (pysrc_is(p, p->prev[first], "if") || pysrc_is(p, p->prev[first], "elif")))
        first = p->prev[first];
    if (!pysrc_is(p, first, "if"))
        return 0;
    for (ptrdiff_t k = first; k >= 0 && k < p->n;) {
        if (k != h && (pysrc_is(p, k, "if") || pysrc_is(p, k, "elif")) &&
            cond_side(p, k + 1, cond_end(p, k), depth) < 0)
            return 1;
        ptrdiff_t nx = -1; /* the next sibling: the line whose prev is k */
        for (ptrdiff_t j = k + 1; j < p->n; j++)
            if (p->lstart[j] == j && p->prev[j] == k) {
                nx = j;
                break;
            }
        if (nx < 0 || !(pysrc_is(p, nx, "elif") || pysrc_is(p, nx, "else")))
            break;
        k = nx;
    }
    return 0;
}

/* Is token i in a branch the AMD build never takes? */
static int nvidia_side_d(const pysrc *p, ptrdiff_t i, int depth)
{
    if (depth > 4)
        return 0;
    for (ptrdiff_t h = p->up[i]; h >= 0; h = p->up[h]) {
        if (pysrc_is(p, h, "if") || pysrc_is(p, h, "elif") || pysrc_is(p, h, "else")) {
            int s = branch_side(p, h, depth);
            if (s)
                return s > 0;
        }
    }
    return 0;
}

static int nvidia_side(const pysrc *p, ptrdiff_t i)
{
    return nvidia_side_d(p, i, 0);
}

/* ------------------------------------------------------------------ path expressions */

/* The path expression [b, e) as text relative to the script's directory ("" for the
 * directory itself), or a slice with s NULL when it is not known. */
static hp_str eval_path(sctx *c, ptrdiff_t b, ptrdiff_t e, int depth)
{
    const pysrc *p = c->p;
    hp_str fail = {NULL, 0};
    while (b < e && pysrc_op(p, b, '(') && p->match[b] == e - 1) {
        b++;
        e--;
    }
    if (b >= e || depth > 8)
        return fail;
    if (e - b == 1 && p->t[b].kind == PY_STRING) {
        hp_str body;
        if ((p->t[b].sub & PS_F) || !pysrc_str(p, b, e, &body))
            return fail;
        return body;
    }
    if (e - b == 1 && pysrc_is(p, b, "__file__"))
        return S("setup.py");
    if (e - b == 1 && p->t[b].kind == PY_NAME) {
        ptrdiff_t rb, re;
        if (!assigned(p, pysrc_text(p, b), b, &rb, &re))
            return fail;
        return eval_path(c, rb, re, depth + 1);
    }
    char qn[64];
    ptrdiff_t after = pysrc_qualname(p, b, qn, (ptrdiff_t)sizeof qn);
    hp_str q = str_cstr(qn);
    /* the script itself and the directory it runs in */
    if (after == e && ends_with(q, "curdir"))
        return S(".");
    if (after <= b || after >= e || !pysrc_op(p, after, '(') || p->match[after] != e - 1)
        return fail;
    if (ends_with(q, "path.dirname")) { /* its argument less its last component */
        pysrc_arg args[2];
        if (pysrc_args(p, after, args, 2) != 1)
            return fail;
        hp_str x = eval_path(c, args[0].vb, args[0].e, depth + 1);
        if (!x.s)
            return fail;
        ptrdiff_t k = x.len;
        while (k > 0 && x.s[k - 1] != '/')
            k--;
        return str_make(x.s, k > 0 ? k - 1 : 0);
    }
    if (ends_with(q, "path.join")) {
        pysrc_arg args[16];
        int na = pysrc_args(p, after, args, 16);
        if (na <= 0 || na > 16)
            return fail;
        char *out = NULL;
        ptrdiff_t ol = 0;
        for (int k = 0; k < na; k++) {
            if (args[k].kw >= 0 || args[k].star)
                return fail;
            hp_str x = eval_path(c, args[k].vb, args[k].e, depth + 1);
            if (!x.s)
                return fail;
            if (x.len && x.s[0] == '/')
                return fail;
            char *nx = arena_printf(c->a, "%.*s%s%.*s", (int)ol, out ? out : "",
                                    ol && x.len ? "/" : "", (int)x.len, x.s);
            out = nx;
            ol = (ptrdiff_t)strlen(nx);
        }
        return str_make(out ? out : "", ol);
    }
    if (str_eq(q, S("str")) || str_eq(q, S("os.path.abspath")) ||
        str_eq(q, S("os.path.realpath"))) {
        pysrc_arg args[2];
        if (pysrc_args(p, after, args, 2) != 1)
            return fail;
        return eval_path(c, args[0].vb, args[0].e, depth + 1);
    }
    return fail;
}

/* The tree path of text x relative to the script. */
static hp_str tree_path(sctx *c, hp_str x)
{
    const char *slash = strrchr(c->path, '/');
    ptrdiff_t d = slash ? slash - c->path : 0;
    char *s = arena_printf(c->a, "%.*s%s%.*s", (int)d, c->path, d ? "/" : "", (int)x.len, x.s);
    return rules_build_path(c->a, s);
}

/* ------------------------------------------------------------------ the script */

/* How token i's value is used: the name its line assigns, when the line is `name = ...` and
 * i is on its right side; -1 otherwise. */
static ptrdiff_t assigned_name(const pysrc *p, ptrdiff_t i)
{
    ptrdiff_t s = p->lstart[i];
    if (s + 1 < i && p->t[s].kind == PY_NAME && pysrc_op(p, s + 1, '='))
        return s;
    return -1;
}

/* Is the name at token k read only for exclusion (`x not in name`, `a - set(name)`)? */
static int exclusion_use(const pysrc *p, ptrdiff_t k)
{
    if (k >= 2 && pysrc_is(p, k - 1, "in") && pysrc_is(p, k - 2, "not"))
        return 1;
    ptrdiff_t j = k - 1;
    while (j >= 0 && (pysrc_op(p, j, '(') || pysrc_is(p, j, "set") || pysrc_is(p, j, "list")))
        j--;
    return j >= 0 && pysrc_op(p, j, '-');
}

/* Where the value at token i goes: 1 only NVIDIA-side code uses it, 0 elsewhere too, -1 only
 * exclusions read it. */
static int value_side(const pysrc *p, ptrdiff_t i, int depth)
{
    if (nvidia_side(p, i))
        return 1;
    ptrdiff_t s = assigned_name(p, i);
    if (s < 0 || depth > 2)
        return 0;
    hp_str name = pysrc_text(p, s);
    int uses = 0, nv = 0, excl = 0;
    for (ptrdiff_t k = 0; k < p->n; k++) {
        if (k == s || p->t[k].kind != PY_NAME || !str_eq(pysrc_text(p, k), name))
            continue;
        if (k > 0 && pysrc_op(p, k - 1, '.'))
            continue;
        if (p->lstart[k] == k && pysrc_op(p, k + 1, '=')) /* another assignment */
            continue;
        ptrdiff_t as = assigned_name(p, k); /* name = f(name): the value stays in it */
        if (as >= 0 && str_eq(pysrc_text(p, as), name))
            continue;
        uses++;
        if (exclusion_use(p, k))
            excl++;
        else if (nvidia_side(p, k) || value_side(p, k, depth + 1) == 1)
            nv++;
    }
    if (!uses)
        return 0;
    if (excl == uses)
        return -1;
    return nv + excl == uses && nv > 0;
}

static int glob_call(const pysrc *p, ptrdiff_t open)
{
    if (open < 1 || !pysrc_op(p, open, '('))
        return 0;
    ptrdiff_t k = open - 1;
    return pysrc_is(p, k, "glob") || pysrc_is(p, k, "iglob");
}

hp_str *srcside_setup(arena *a, const char *path, const char *src, ptrdiff_t len, int *n)
{
    *n = 0;
    pysrc p;
    if (!pysrc_init(&p, a, src, len) || !pysrc_mentions_amd(&p))
        return NULL;
    sctx c;
    memset(&c, 0, sizeof c);
    c.a = a;
    c.p = &p;
    c.path = path;
    hp_str *cand = NULL, *seen = NULL;
    int ncand = 0, nseen = 0;
    cand = NEW(a, hp_str, p.n + 1);
    seen = NEW(a, hp_str, p.n + 1);
    for (ptrdiff_t i = 0; i < p.n; i++) {
        hp_str body;
        if (p.t[i].kind != PY_STRING || (p.t[i].sub & PS_F) || !pysrc_str(&p, i, i + 1, &body) ||
            !source_text(body))
            continue;
        /* the whole expression: os.path.join(...) around the literal, glob.glob(...) of it */
        ptrdiff_t b = i, e = i + 1;
        for (int up = 0; up < 4; up++) {
            ptrdiff_t open = -1;
            for (ptrdiff_t k = b - 1; k >= 0 && k >= b - 64; k--)
                if (p.match[k] > k && p.match[k] >= e - 1 && pysrc_op(&p, k, '(')) {
                    open = k;
                    break;
                } else if (p.match[k] >= 0 && p.match[k] < k) {
                    k = p.match[k];
                }
            if (open < 1)
                break;
            char qn[64];
            ptrdiff_t s = open - 1;
            while (s >= 2 && pysrc_op(&p, s - 1, '.') && p.t[s - 2].kind == PY_NAME)
                s -= 2;
            if (pysrc_qualname(&p, s, qn, (ptrdiff_t)sizeof qn) != open ||
                !ends_with(str_cstr(qn), "path.join"))
                break;
            b = s;
            e = p.match[open] + 1;
        }
        int glob = 0;
        if (b > 0 && glob_call(&p, b - 1))
            glob = 1;
        if (!glob && memchr(body.s, '*', (size_t)body.len))
            continue;
        hp_str x = eval_path(&c, b, e, 0);
        if (!x.s || !x.len)
            continue;
        hp_str tp = tree_path(&c, x);
        int side = value_side(&p, i, 0);
        if (side < 0)
            continue;
        if (glob) {
            push(&c, side ? SRCSIDE_KEY_GLOB : SRCSIDE_KEY_ANY, tp);
        } else if (side) {
            cand[ncand++] = tp;
        } else {
            seen[nseen++] = tp;
            push(&c, SRCSIDE_KEY_ANY, tp);
        }
    }
    for (int i = 0; i < ncand; i++) {
        int dup = 0;
        for (int k = 0; k < nseen && !dup; k++)
            dup = str_eq(cand[i], seen[k]);
        for (int k = 0; k < i && !dup; k++)
            dup = str_eq(cand[i], cand[k]);
        if (!dup)
            push(&c, SRCSIDE_KEY_SRC, cand[i]);
    }
    *n = c.n;
    return c.v;
}

/* ------------------------------------------------------------------ globs */

static int match_at(const char *p, const char *pe, const char *s, const char *se)
{
    while (p < pe) {
        if (pe - p >= 2 && p[0] == '*' && p[1] == '*') {
            const char *q = p + 2;
            if (q < pe && *q == '/')
                q++;
            for (const char *t = s;; t++) { /* zero or more whole components */
                if ((t == s || t[-1] == '/') && match_at(q, pe, t, se))
                    return 1;
                if (t >= se)
                    return 0;
            }
        }
        if (*p == '*') {
            for (const char *t = s;; t++) {
                if (match_at(p + 1, pe, t, se))
                    return 1;
                if (t >= se || *t == '/')
                    return 0;
            }
        }
        if (s >= se || (*p != '?' && *p != *s) || (*p == '?' && *s == '/'))
            return 0;
        p++;
        s++;
    }
    return s == se;
}

int srcside_glob_match(hp_str pat, hp_str path)
{
    return match_at(pat.s, pat.s + pat.len, path.s, path.s + path.len);
}
