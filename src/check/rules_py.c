/* rules_py.c: how the Python and build-file languages and the triton, pytorch and bld rule
 * families plug into the check engine: which files they claim, their token streams (comments
 * for hipport-ignore), the Python index built once per file, and the family entry points. */
#include <stdio.h>
#include <string.h>

#include "pyrules.h"
#include "rules.h"
#include "rules_build.h"
#include "rules_py.h"
#include "rules_pytorch.h"
#include "rules_triton.h"
#include "run.h"
#include "str.h"

#include "banned.h"

static int name_is(const char *base, const char *name)
{
    return strcmp(base, name) == 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

pyfile_kind rules_py_kind(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (name_is(base, "setup.py"))
        return PYK_SETUP;
    if (ends_with(base, ".py") || ends_with(base, ".pyw"))
        return PYK_PYTHON;
    if (name_is(base, "pyproject.toml"))
        return PYK_PYPROJECT;
    if (name_is(base, "CMakeLists.txt") || ends_with(base, ".cmake"))
        return PYK_CMAKE;
    if (strncmp(base, "Makefile", 8) == 0 || strncmp(base, "makefile", 8) == 0 ||
        name_is(base, "GNUmakefile") || ends_with(base, ".mk"))
        return PYK_MAKE;
    if (ends_with(base, ".sh") || ends_with(base, ".bash"))
        return PYK_SHELL;
    if (strncmp(base, "Dockerfile", 10) == 0 || ends_with(base, ".dockerfile") ||
        strncmp(base, "Containerfile", 13) == 0)
        return PYK_DOCKER;
    return PYK_NONE;
}

int rules_python_claims(const char *path, const hp_run_opts *r)
{
    (void)r;
    pyfile_kind k = rules_py_kind(path);
    return k == PYK_PYTHON || k == PYK_SETUP;
}

int rules_build_claims(const char *path, const hp_run_opts *r)
{
    (void)r;
    pyfile_kind k = rules_py_kind(path);
    return k != PYK_NONE && k != PYK_PYTHON && k != PYK_SETUP;
}

/* ------------------------------------------------------------------ token streams */

/* Python tokens as the engine's tok records. Names, numbers, strings, operators and comments
 * keep their places; NEWLINE, INDENT and DEDENT are left out (the families read the Python
 * index instead). */
static void python_toks(arena *a, const pylex_out *ppx, ptrdiff_t len, lex_out *out)
{
    pylex_out px = *ppx;
    memset(out, 0, sizeof *out);
    tok *t = NEW(a, tok, px.n + 1);
    if (!px.toks || !t)
        return;
    ptrdiff_t n = 0;
    for (ptrdiff_t i = 0; i < px.n; i++) {
        const pytok *p = &px.toks[i];
        tok_kind k;
        switch (p->kind) {
        case PY_NAME:
            k = TK_IDENT;
            break;
        case PY_NUMBER:
            k = TK_NUMBER;
            break;
        case PY_STRING:
            k = TK_STRING;
            break;
        case PY_COMMENT:
            k = TK_COMMENT;
            break;
        case PY_OP:
        case PY_DECORATOR:
            k = TK_PUNCT;
            break;
        case PY_UNKNOWN:
            k = TK_UNKNOWN;
            break;
        default:
            continue;
        }
        t[n].off = p->off;
        t[n].len = p->len;
        t[n].kind = (uint8_t)k;
        t[n].sub = k == TK_PUNCT && p->sub < 256 ? p->sub : 0;
        t[n].flags = (uint8_t)(((p->flags & PF_BOL) ? TF_BOL : 0) |
                               ((p->flags & PF_SPACE) ? TF_SPACE : 0) |
                               ((p->flags & PF_NEWLINE) ? TF_NEWLINE : 0) |
                               ((p->flags & PF_UNTERM) ? TF_UNTERM : 0));
        n++;
    }
    t[n].off = (int32_t)len;
    t[n].len = 0;
    t[n].kind = TK_EOF;
    t[n].flags = 0;
    t[n].sub = 0;
    out->toks = t;
    out->n = n;
    out->unterminated = px.unterminated;
}

/* Python files are tokenized once, by rules_python_prepare, which makes both the engine's
 * tokens and the Python index from the same tokens: here nothing is. */
void rules_python_lex(arena *a, const char *src, ptrdiff_t len, lex_out *out)
{
    (void)a;
    (void)src;
    (void)len;
    memset(out, 0, sizeof *out);
}

/* Build files: only their comments matter to the engine ('#' at the start of a line or after
 * a blank, outside quotes; CMake's #[[ ]] bracket comments). */
void rules_build_lex(arena *a, const char *src, ptrdiff_t len, lex_out *out)
{
    memset(out, 0, sizeof *out);
    ptrdiff_t cap = 16, n = 0;
    tok *t = NEW(a, tok, cap);
    if (!t)
        return;
    int bol = 1, quote = 0;
    ptrdiff_t i = 0;
    while (i < len) {
        char ch = src[i];
        if (ch == '\n') {
            bol = 1;
            quote = 0;
            i++;
            continue;
        }
        if (quote) {
            if (ch == quote)
                quote = 0;
            else if (ch == '\\')
                i++;
            i++;
            continue;
        }
        if (ch == '"' || ch == '\'') {
            quote = ch;
            bol = 0;
            i++;
            continue;
        }
        if (ch == '#' && (i == 0 || str_is_space(src[i - 1]))) {
            ptrdiff_t e;
            ptrdiff_t j = i + 1;
            int eqs = -1;
            if (j < len && src[j] == '[') {
                ptrdiff_t k = j + 1;
                while (k < len && src[k] == '=')
                    k++;
                if (k < len && src[k] == '[')
                    eqs = (int)(k - j - 1);
            }
            e = len;
            if (eqs >= 0) {
                for (ptrdiff_t k = j; k < len; k++) {
                    if (src[k] != ']')
                        continue;
                    ptrdiff_t m = k + 1;
                    int q = 0;
                    while (m < len && src[m] == '=' && q < eqs) {
                        m++;
                        q++;
                    }
                    if (q == eqs && m < len && src[m] == ']') {
                        e = m + 1;
                        break;
                    }
                }
            } else {
                const char *nl = memchr(src + i, '\n', (size_t)(len - i));
                e = nl ? nl - src : len;
                if (e > i + 1 && src[e - 1] == '\r')
                    e--;
            }
            if (n + 1 >= cap) {
                ptrdiff_t ncap = cap * 2;
                t = arena_grow(a, t, cap * (ptrdiff_t)sizeof(tok), ncap * (ptrdiff_t)sizeof(tok),
                               _Alignof(tok));
                if (!t)
                    return;
                cap = ncap;
            }
            t[n].off = (int32_t)i;
            t[n].len = (int32_t)(e - i);
            t[n].kind = TK_COMMENT;
            t[n].sub = 0;
            t[n].flags = (uint8_t)(bol ? TF_BOL : 0);
            n++;
            i = e;
            continue;
        }
        if (!str_is_space(ch))
            bol = 0;
        i++;
    }
    t[n].off = (int32_t)len;
    t[n].len = 0;
    t[n].kind = TK_EOF;
    t[n].flags = 0;
    t[n].sub = 0;
    out->toks = t;
    out->n = n;
}

/* ------------------------------------------------------------------ families */

typedef struct pydata {
    pysrc p;
    tri_file tf;
    int ok;
} pydata;

void rules_python_prepare(rctx *c)
{
    pydata *d = NEW(c->a, pydata, 1);
    if (!d)
        return;
    pylex_out px;
    pylex_all(c->a, c->src, c->len, &px);
    lex_out lx;
    python_toks(c->a, &px, c->len, &lx);
    c->t = lx.toks;
    c->nt = lx.n;
    c->dirs = lx.dirs;
    c->ndirs = lx.ndirs;
    d->ok = pysrc_init_lexed(&d->p, c->a, c->src, c->len, &px) && triton_scan(c->a, &d->p, &d->tf);
    /* a module that the tree imports only from code one vendor runs (rules_cfg.vendor_mods) */
    if (d->ok && c->cfg->vendor_mods && c->path &&
        nameidx_get(c->cfg->vendor_mods, rules_python_module(c->path)) >= 0)
        d->p.vendor_file = 1;
    if (d->ok)
        d->p.nv_fns = c->cfg->nv_preds;
    c->lang_data = d;
}

hp_str rules_python_module(const char *path)
{
    hp_str p = str_cstr(path);
    ptrdiff_t k = p.len;
    while (k > 0 && p.s[k - 1] != '/')
        k--;
    hp_str base = str_cut(p, k, p.len);
    if (RULES_EQ(base, "__init__.py") && k > 1) {
        ptrdiff_t e = k - 1, b = e;
        while (b > 0 && p.s[b - 1] != '/')
            b--;
        return str_cut(p, b, e);
    }
    if (base.len > 3 && memcmp(base.s + base.len - 3, ".py", 3) == 0)
        return str_cut(base, 0, base.len - 3);
    return str_make(base.s, 0);
}

typedef struct imports {
    arena *a;
    hp_str *v;
    uint8_t *vendor;
    int n, cap;
} imports;

/* Adds each '.'-separated component of s. */
static void import_add(imports *im, hp_str s, int vendor)
{
    ptrdiff_t i = 0;
    while (i < s.len) {
        ptrdiff_t j = i;
        while (j < s.len && s.s[j] != '.')
            j++;
        if (j > i) {
            if (im->n == im->cap) {
                int nc = im->cap ? 2 * im->cap : 16;
                hp_str *nv = arena_grow(im->a, im->v, (ptrdiff_t)im->cap * (ptrdiff_t)sizeof *nv,
                                        (ptrdiff_t)nc * (ptrdiff_t)sizeof *nv, _Alignof(hp_str));
                uint8_t *nb = arena_grow(im->a, im->vendor, im->cap, nc, 1);
                if (!nv || !nb)
                    return;
                im->v = nv;
                im->vendor = nb;
                im->cap = nc;
            }
            im->v[im->n] = str_cut(s, i, j);
            im->vendor[im->n++] = (uint8_t)(vendor != 0);
        }
        i = j + 1;
    }
}

static int ident_byte(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_' || (unsigned char)ch >= 0x80;
}

/* Does a line of src begin with "import" or "from" after indentation, or does src call
 * import_module() or __import__()? Only such imports can be in code one vendor runs. */
static int deep_imports(hp_str s)
{
    if (str_find(s, S("import_module")) >= 0 || str_find(s, S("__import__")) >= 0)
        return 1;
    for (ptrdiff_t i = 0; i < s.len; i++) {
        if (i > 0 && s.s[i - 1] != '\n')
            continue;
        ptrdiff_t k = i;
        while (k < s.len && (s.s[k] == ' ' || s.s[k] == '\t'))
            k++;
        hp_str rest = str_cut(s, k, s.len);
        if (k > i && (RULES_STARTS(rest, "import") || RULES_STARTS(rest, "from")))
            return 1;
    }
    return 0;
}

/* The imports of a file whose imports all start a line (deep_imports is 0), without the
 * Python index: every name of such a line and of its bracketed or backslash continuation,
 * past "as" aliases, none in code one vendor runs. A line of a string that begins so adds
 * names too, which only keeps findings. */
static void flat_imports(imports *im, hp_str s)
{
    for (ptrdiff_t i = 0; i < s.len; i++) {
        if (i > 0 && s.s[i - 1] != '\n')
            continue;
        hp_str rest = str_cut(s, i, s.len);
        if (!RULES_STARTS(rest, "import") && !RULES_STARTS(rest, "from"))
            continue;
        int depth = 0, alias = 0;
        ptrdiff_t k = i;
        while (k < s.len) {
            char ch = s.s[k];
            if (ch == '(') {
                depth++;
            } else if (ch == ')') {
                depth--;
            } else if (ch == '\\' && k + 1 < s.len && s.s[k + 1] == '\n') {
                k++;
            } else if ((ch == '\n' && depth <= 0) || ch == ';' || ch == '#') {
                break;
            } else if (ident_byte(ch)) {
                ptrdiff_t e = k;
                while (e < s.len && (ident_byte(s.s[e]) || s.s[e] == '.'))
                    e++;
                hp_str w = str_cut(s, k, e);
                if (RULES_EQ(w, "as"))
                    alias = 1;
                else if (alias)
                    alias = 0;
                else if (!RULES_EQ(w, "import") && !RULES_EQ(w, "from"))
                    import_add(im, w, 0);
                k = e;
                continue;
            }
            k++;
        }
        i = k > i ? k - 1 : i;
    }
}

/* The file's parse, made on first need (see rules_python_imports). */
static const pysrc *shared_parse(arena *a, const char *src, ptrdiff_t len, pysrc *ps, int *ready)
{
    if (!*ready) {
        if (!pysrc_init(ps, a, src, len))
            return NULL;
        *ready = 1;
    }
    return ps;
}

hp_str *rules_python_imports(arena *a, const char *src, ptrdiff_t len, int *n, uint8_t **vendor,
                             pysrc *ps, int *ready)
{
    *n = 0;
    *vendor = NULL;
    hp_str all = str_make(src, len);
    if (str_find(all, S("import")) < 0)
        return NULL;
    imports im = {a, NULL, NULL, 0, 0};
    if (!deep_imports(all)) {
        flat_imports(&im, all);
        *n = im.n;
        *vendor = im.vendor;
        return im.v;
    }
    const pysrc *pp = shared_parse(a, src, len, ps, ready);
    if (!pp)
        return NULL;
    const pysrc p = *pp;
    for (ptrdiff_t i = 0; i < p.n; i++) {
        if (p.t[i].kind != PY_NAME)
            continue;
        int from = pysrc_is(&p, i, "from"), imp = pysrc_is(&p, i, "import");
        if ((from || imp) && p.lstart[i] == i) {
            int v = pysrc_vendor_here(&p, i);
            ptrdiff_t e = p.lend[i];
            /* the names up to the end of the line, past "as x" aliases */
            for (ptrdiff_t k = i + 1; k < e; k++) {
                if (p.t[k].kind != PY_NAME || pysrc_is(&p, k, "import"))
                    continue;
                if (pysrc_is(&p, k, "as")) {
                    k++;
                    continue;
                }
                import_add(&im, pysrc_text(&p, k), v);
            }
            i = e;
        } else if ((pysrc_is(&p, i, "import_module") || pysrc_is(&p, i, "__import__")) &&
                   pysrc_op(&p, i + 1, '(') && i + 2 < p.n && p.t[i + 2].kind == PY_STRING) {
            import_add(&im, pylex_string_body(p.src, &p.t[i + 2]), pysrc_vendor_here(&p, i));
        }
    }
    *n = im.n;
    *vendor = im.vendor;
    return im.v;
}

/* A name a predicate is given: is_, has_, supports_, can_, use_ (with a leading '_' too). */
static int predicate_name(hp_str s)
{
    if (s.len && s.s[0] == '_')
        s = str_cut(s, 1, s.len);
    return RULES_STARTS(s, "is_") || RULES_STARTS(s, "has_") || RULES_STARTS(s, "supports_") ||
           RULES_STARTS(s, "can_") || RULES_STARTS(s, "use_");
}

hp_str *rules_python_nv_preds(arena *a, const char *src, ptrdiff_t len, int *n, uint8_t **pred,
                              pysrc *ps, int *ready)
{
    *n = 0;
    *pred = NULL;
    hp_str all = str_make(src, len);
    if (str_find(all, S("version.cuda")) < 0 || str_find(all, S("def ")) < 0)
        return NULL;
    const pysrc *pp = shared_parse(a, src, len, ps, ready);
    if (!pp)
        return NULL;
    const pysrc p = *pp;
    int cuda = 1, cap = 0;
    for (ptrdiff_t i = 0; i + 1 < p.n; i++)
        cap += pysrc_is(&p, i, "def") && p.t[i + 1].kind == PY_NAME;
    hp_str *v = cap ? NEW(a, hp_str, cap) : NULL;
    uint8_t *pr = cap ? NEW(a, uint8_t, cap) : NULL;
    if (!v || !pr)
        return NULL;
    for (ptrdiff_t i = 0; i + 1 < p.n; i++) {
        if (!pysrc_is(&p, i, "def") || p.t[i + 1].kind != PY_NAME)
            continue;
        hp_str name = pysrc_text(&p, i + 1);
        int yes = cuda && pysrc_nv_predicate(&p, i);
        if (!yes && !predicate_name(name))
            continue;
        v[*n] = name;
        pr[(*n)++] = (uint8_t)yes;
    }
    *pred = pr;
    return v;
}

/* Is the file test code: named test_*.py, *_test.py or conftest.py, or importing pytest at its
 * top level (the helpers of a test suite: tests/unit/util.py)? A capability gate there picks
 * which tests run, or with which parameters: on AMD at worst a test is skipped or run where it
 * need not be, which no port of the code under test changes. */
static int test_code(const char *path, const pysrc *p)
{
    if (path) {
        const char *b = strrchr(path, '/');
        hp_str n = str_cstr(b ? b + 1 : path);
        if (RULES_STARTS(n, "test_") || str_ends(n, S("_test.py")) || RULES_EQ(n, "conftest.py"))
            return 1;
        /* CI scripts: .github/scripts/ci_gpu.py */
        if (strncmp(path, ".github/", 8) == 0 || strstr(path, "/.github/"))
            return 1;
    }
    for (ptrdiff_t i = 0; i + 1 < p->n; i++)
        if (p->lstart[i] == i && p->up[i] < 0 &&
            ((pysrc_is(p, i, "import") && pysrc_is(p, i + 1, "pytest")) ||
             (pysrc_is(p, i, "from") && pysrc_is(p, i + 1, "pytest"))))
            return 1;
    return 0;
}

/* Is the dotted module name s (NUL-terminated) of an NVIDIA-only Triton dialect: Gluon's NVIDIA
 * dialect (triton.experimental.gluon.language.nvidia and its hopper, blackwell, ampere
 * modules) or TLX (triton.language.extra.tlx, or tlx on its own)? Returns its name, or NULL. */
static const char *nv_dialect_module(hp_str s)
{
    static const struct {
        const char *mod, *name;
    } d[] = {{"triton.experimental.gluon.language.nvidia", "Gluon's NVIDIA dialect"},
             {"triton.language.extra.tlx", "TLX"},
             {"tlx", "TLX"}};
    for (size_t k = 0; k < sizeof d / sizeof *d; k++) {
        hp_str w = str_cstr(d[k].mod);
        if (str_starts(s, w) && (s.len == w.len || s.s[w.len] == '.'))
            return d[k].name;
    }
    return NULL;
}

/* The dotted name at token i (NAME ('.' NAME)*) into buf; returns the token after it. */
static ptrdiff_t dotted(const pysrc *p, ptrdiff_t i, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    while (i < p->n && p->t[i].kind == PY_NAME) {
        hp_str w = pysrc_text(p, i);
        if (n + (size_t)w.len + 2 > cap)
            break;
        if (n)
            buf[n++] = '.';
        memcpy(buf + n, w.s, (size_t)w.len);
        n += (size_t)w.len;
        buf[n] = 0;
        if (!pysrc_op(p, i + 1, '.'))
            return i + 1;
        i += 2;
    }
    return i;
}

/* The NVIDIA-only Triton dialect that the import line at token i brings in (import
 * triton.language.extra.tlx as tlx, from triton.experimental.gluon.language.nvidia.hopper
 * import tma, from triton.experimental.gluon.language import nvidia), or NULL. */
static const char *nv_dialect_import(const pysrc *p, ptrdiff_t i)
{
    char buf[256], sub[320];
    ptrdiff_t e = p->lend[i];
    if (pysrc_is(p, i, "import")) {
        for (ptrdiff_t k = i + 1; k < e; k++) {
            if (k != i + 1 && !pysrc_op(p, k - 1, ','))
                continue;
            ptrdiff_t j = dotted(p, k, buf, sizeof buf);
            const char *d = j > k ? nv_dialect_module(str_cstr(buf)) : NULL;
            if (d)
                return d;
        }
        return NULL;
    }
    ptrdiff_t j = dotted(p, i + 1, buf, sizeof buf);
    if (j == i + 1 || !pysrc_is(p, j, "import"))
        return NULL;
    const char *d = nv_dialect_module(str_cstr(buf));
    for (ptrdiff_t k = j + 1; !d && k < e; k++) {
        if (p->t[k].kind != PY_NAME || pysrc_op(p, k - 1, '.') || pysrc_is(p, k - 1, "as") ||
            pysrc_is(p, k, "as"))
            continue;
        hp_str w = pysrc_text(p, k);
        int n = snprintf(sub, sizeof sub, "%s.%.*s", buf, (int)w.len, w.s);
        if (n > 0 && (size_t)n < sizeof sub)
            d = nv_dialect_module(str_cstr(sub));
    }
    return d;
}

/* Does the try block whose header is token h bind nothing in its except arms (they print,
 * warn, pass or raise): its imports are then the module's, with no fallback? */
static int try_without_fallback(const pysrc *p, ptrdiff_t h)
{
    for (ptrdiff_t k = h + 1; k < p->n; k++) {
        ptrdiff_t up = p->up[k];
        if (p->t[k].kind == PY_INDENT || p->t[k].kind == PY_DEDENT)
            continue;
        if (up < 0 && p->lstart[k] == k && !pysrc_is(p, k, "except"))
            return 1;
        if (up >= 0 && p->up[up] < 0 && pysrc_is(p, up, "except") && p->lstart[k] == k) {
            for (ptrdiff_t j = k; j < p->lend[k]; j++)
                if (pysrc_op(p, j, '=') || pysrc_is(p, j, "import") || pysrc_is(p, j, "def"))
                    return 0;
        }
    }
    return 1;
}

/* Does the module import an NVIDIA-only Triton dialect at its top level, outside any if and
 * outside a try with a fallback? Its kernels are written for NVIDIA GPUs (Hopper's wgmma and
 * TMA, warp specialization); an AMD port uses other code. Returns the dialect's name or NULL. */
static const char *nv_dialect_file(const pysrc *p)
{
    for (ptrdiff_t i = 0; i + 1 < p->n; i++) {
        if (p->lstart[i] != i || (!pysrc_is(p, i, "import") && !pysrc_is(p, i, "from")))
            continue;
        ptrdiff_t h = p->up[i];
        if (h >= 0 && (p->up[h] >= 0 || !pysrc_is(p, h, "try") || !try_without_fallback(p, h)))
            continue;
        const char *d = nv_dialect_import(p, i);
        if (d)
            return d;
    }
    return NULL;
}

/* Does the module refuse ROCm: a return or raise whose message says the feature is not
 * supported ("not supported", "unsupported", "does not support") on ROCm, HIP or AMD, or
 * stands under an AMD test (if IS_ROCM: return "Marlin kernel is not supported ...")? Its
 * code then never runs on an AMD build. */
static int refuses_rocm(const pysrc *p)
{
    for (ptrdiff_t i = 0; i < p->n; i++) {
        if (p->t[i].kind != PY_STRING)
            continue;
        hp_str v = pylex_string_body(p->src, &p->t[i]);
        if (!pysrc_contains_nocase(v, "not supported") && !pysrc_contains_nocase(v, "unsupported") &&
            !pysrc_contains_nocase(v, "does not support"))
            continue;
        ptrdiff_t ls = p->lstart[i];
        if (!pysrc_is(p, ls, "return") && !pysrc_is(p, ls, "raise"))
            continue;
        int amd_msg = pysrc_contains_nocase(v, "rocm") || pysrc_contains_nocase(v, "amd") ||
                      pysrc_contains_nocase(v, " hip");
        ptrdiff_t h = p->up[ls];
        int amd_if = h >= 0 && (pysrc_is(p, h, "if") || pysrc_is(p, h, "elif")) &&
                     pysrc_pred_amd(p, h + 1, p->lend[h], NULL);
        if (amd_msg || amd_if)
            return 1;
    }
    return 0;
}

static const pydata *pyrules_init(pyrules *r, rctx *c)
{
    r->c = c;
    r->a = c->a;
    r->targets = pyrules_targets_of(c->cfg->targets);
    r->test_code = 0;
    r->src = NULL;
    r->nv_dialect = NULL;
    r->fnuz = 0;
    r->refuses_rocm = 0;
    pyrules_load(r);
    const pydata *d = c->lang == RL_PYTHON ? c->lang_data : NULL;
    if (!d || !d->ok)
        return NULL;
    r->src = &d->p;
    r->test_code = test_code(c->path, &d->p);
    r->refuses_rocm = refuses_rocm(&d->p);
    r->nv_dialect = nv_dialect_file(&d->p);
    return d;
}

void rules_triton_run(rctx *c)
{
    pyrules r;
    const pydata *d = pyrules_init(&r, c);
    if (d)
        rules_triton(&r, &d->p, &d->tf);
}

void rules_pytorch_run(rctx *c)
{
    pyrules r;
    const pydata *d = pyrules_init(&r, c);
    if (d) {
        rules_pytorch(&r, &d->p);
    } else if (c->lang == RL_CPP) {
        lex_out lx = {.toks = c->t, .n = c->nt};
        rules_pytorch_cxx(&r, c->src, c->len, &lx, c->hot, c->nhot);
    }
}

unsigned rules_pytorch_names(const rctx *c, hp_str s, int number)
{
    (void)c;
    if (number)
        return 0;
    return rules_pytorch_cxx_names(s);
}

void rules_bld_run(rctx *c)
{
    pyrules r;
    const pydata *d = pyrules_init(&r, c);
    if (d)
        rules_build_py(&r, &d->p, rules_py_kind(c->path) == PYK_SETUP);
    else if (c->lang == RL_BUILD)
        rules_build(&r, rules_py_kind(c->path), c->src, c->len);
}
