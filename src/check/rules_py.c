/* rules_py.c: how the Python and build-file languages and the triton, pytorch and bld rule
 * families plug into the check engine: which files they claim, their token streams (comments
 * for hipport-ignore), the Python index built once per file, and the family entry points. */
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
    c->lang_data = d;
}

static const pydata *pyrules_init(pyrules *r, rctx *c)
{
    r->c = c;
    r->a = c->a;
    r->targets = pyrules_targets_of(c->cfg->targets);
    pyrules_load(r);
    const pydata *d = c->lang == RL_PYTHON ? c->lang_data : NULL;
    return d && d->ok ? d : NULL;
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
