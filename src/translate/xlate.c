/* xlate.c: what the translation's plug-ins (launches, arguments, warp builtins, PyTorch, inline
 * assembly, annotations) and its driver (translate.c) share: the tokens of the buffer being
 * translated, the edits against it, messages, and the declared type of a variable. It knows
 * nothing of the plug-ins or the driver. */
#include "xlate.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "str.h"

#include "banned.h"

/* ------------------------------------------------------------------ token helpers */

hp_str xlate_text(const xlate *x, ptrdiff_t i)
{
    hp_str s = {x->src + x->t[i].off, x->t[i].len};
    return s;
}

int xlate_is(const xlate *x, ptrdiff_t i, const char *text)
{
    if (i < 0 || i >= x->nt)
        return 0;
    size_t n = strlen(text);
    return x->t[i].len == (int32_t)n && memcmp(x->src + x->t[i].off, text, n) == 0;
}

int xlate_punct(const xlate *x, ptrdiff_t i, unsigned code)
{
    return i >= 0 && i < x->nt && x->t[i].kind == TK_PUNCT && x->t[i].sub == code;
}

ptrdiff_t xlate_next(const xlate *x, ptrdiff_t i)
{
    return lex_next(x->t, x->nt, i);
}

ptrdiff_t xlate_prev(const xlate *x, ptrdiff_t i)
{
    return lex_prev(x->t, x->nt, i);
}

ptrdiff_t xlate_match(const xlate *x, ptrdiff_t open)
{
    return lex_match(x->t, x->nt, open);
}

/* Is the '<' at i the start of a template argument list? Heuristic: preceded by an
 * identifier, and a matching '>' comes before anything that cannot be inside one. */
static ptrdiff_t template_close(const xlate *x, ptrdiff_t i, ptrdiff_t limit)
{
    ptrdiff_t p = xlate_prev(x, i);
    if (p < 0 || x->t[p].kind != TK_IDENT)
        return -1;
    int depth = 0;
    for (ptrdiff_t j = i; j < limit; j = xlate_next(x, j)) {
        const tok *k = &x->t[j];
        if (k->kind == TK_PP_END)
            return -1;
        if (k->kind != TK_PUNCT)
            continue;
        switch (k->sub) {
        case '<':
            depth++;
            break;
        case '>':
            if (--depth == 0)
                return j;
            break;
        case P_SHR:
            depth -= 2;
            if (depth <= 0)
                return depth == 0 ? j : -1;
            break;
        case '(':
        case '[':
        case '{': {
            ptrdiff_t m = xlate_match(x, j);
            if (m < 0)
                return -1;
            j = m;
            break;
        }
        case ';':
        case '}':
        case ')':
        case ']':
        case P_ANDAND:
        case P_OROR:
            return -1;
        default:
            break;
        }
    }
    return -1;
}

int xlate_args(const xlate *x, ptrdiff_t open, xargs *out)
{
    ptrdiff_t close = xlate_match(x, open);
    if (close < 0) {
        memset(out, 0, sizeof *out);
        out->open = open;
        out->close = -1;
        return 0;
    }
    return xlate_split(x, open, close, out);
}

int xlate_split(const xlate *x, ptrdiff_t open, ptrdiff_t close, xargs *out)
{
    memset(out, 0, sizeof *out);
    out->open = open;
    out->close = close;
    ptrdiff_t start = xlate_next(x, open);
    if (start == close)
        return 1;
    ptrdiff_t last = open;
    for (ptrdiff_t i = start; i <= close; i = xlate_next(x, i)) {
        const tok *k = &x->t[i];
        if (i == close || (k->kind == TK_PUNCT && k->sub == ',')) {
            if (out->n < 32) {
                out->first[out->n] = start;
                out->last[out->n] = last;
                out->n++;
            }
            start = xlate_next(x, i);
            last = i;
            continue;
        }
        if (k->kind == TK_PUNCT && lex_closer(k->sub)) {
            ptrdiff_t m = xlate_match(x, i);
            if (m < 0)
                return 0;
            i = m;
        } else if (k->kind == TK_PUNCT && k->sub == '<') {
            ptrdiff_t m = template_close(x, i, close);
            if (m >= 0)
                i = m;
        }
        last = i;
    }
    return 1;
}

/* ------------------------------------------------------------------ edits and findings */

void xlate_edit(xlate *x, ptrdiff_t off, ptrdiff_t len, hp_str text)
{
    if (x->ne == x->cape) {
        ptrdiff_t ncap = x->cape ? x->cape * 2 : 64;
        x->e = arena_grow(x->a, x->e, x->cape * (ptrdiff_t)sizeof(edit),
                          ncap * (ptrdiff_t)sizeof(edit), _Alignof(edit));
        x->cape = ncap;
    }
    edit *e = &x->e[x->ne];
    e->off = (int32_t)off;
    e->len = (int32_t)len;
    e->seq = (int32_t)x->ne;
    e->text = text;
    x->ne++;
}

void xlate_insert(xlate *x, ptrdiff_t off, const char *text)
{
    xlate_edit(x, off, 0, str_cstr(text));
}

const char *xlate_msg(xlate *x, const char *fmt, ...)
{
    if (x->d.bare)
        return "";
    va_list ap;
    va_start(ap, fmt);
    const char *p = arena_vprintf(x->a, fmt, ap);
    va_end(ap);
    return p;
}

/* The token before the name at p, past '*' and '&' (-1 at the start). */
static ptrdiff_t before_declarator(const xlate *x, ptrdiff_t p)
{
    ptrdiff_t q = xlate_prev(x, p);
    while (q >= 0 && (xlate_punct(x, q, '*') || xlate_punct(x, q, '&')))
        q = xlate_prev(x, q);
    return q;
}

/* The identifier before the name at p, past '*' and '&' ("T obj", "T *obj", "T &obj"), or an
 * empty slice. */
static hp_str type_word(const xlate *x, ptrdiff_t p)
{
    ptrdiff_t q = before_declarator(x, p);
    if (q >= 0 && x->t[q].kind == TK_IDENT)
        return xlate_text(x, q);
    return str_make("", 0);
}

/* The type of a later declarator in a list (`float acc = 0, val = 0;`: val is a float): back
 * over the list at bracket depth 0 to the statement's start, then the first declarator's type
 * word. Lists longer than 256 tokens, and commas inside brackets (arguments, initializer
 * lists), give nothing. */
static hp_str list_type(const xlate *x, ptrdiff_t comma)
{
    int depth = 0;
    ptrdiff_t start = -1, q = comma;
    for (int steps = 0; steps < 256; steps++) {
        ptrdiff_t r = xlate_prev(x, q);
        if (r < 0) {
            start = q;
            break;
        }
        const tok *k = &x->t[r];
        if (k->kind == TK_PUNCT) {
            unsigned c = k->sub;
            if (c == ')' || c == ']') {
                depth++;
            } else if (c == '(' || c == '[') {
                if (depth-- == 0)
                    return str_make("", 0);
            } else if (depth == 0 && (c == ';' || c == '{' || c == '}')) {
                start = q;
                break;
            }
        } else if (k->kind != TK_IDENT && k->kind != TK_NUMBER && k->kind != TK_STRING &&
                   k->kind != TK_CHAR) {
            return str_make("", 0);
        }
        q = r;
    }
    if (start < 0)
        return str_make("", 0);
    /* [qualifiers] type [* &] name, then '=', ',', '[', '(' or '{' */
    ptrdiff_t name = -1, q2 = start;
    int words = 0;
    while (q2 < comma) {
        const tok *k = &x->t[q2];
        if (k->kind == TK_IDENT) {
            name = q2;
            words++;
        } else if (!xlate_punct(x, q2, '*') && !xlate_punct(x, q2, '&')) {
            break;
        }
        q2 = xlate_next(x, q2);
    }
    if (words < 2 || !(xlate_punct(x, q2, '=') || xlate_punct(x, q2, ',') ||
                       xlate_punct(x, q2, '[') || xlate_punct(x, q2, '(') ||
                       xlate_punct(x, q2, '{')))
        return str_make("", 0);
    return type_word(x, name);
}

/* The type word before the declared name at p, or an empty slice. */
static hp_str type_before(const xlate *x, ptrdiff_t p)
{
    ptrdiff_t q = before_declarator(x, p);
    if (q >= 0 && x->t[q].kind == TK_IDENT)
        return xlate_text(x, q);
    if (xlate_punct(x, q, ','))
        return list_type(x, q);
    return str_make("", 0);
}

/* The type named in the nearest preceding declaration of the object at token obj, or an
 * empty slice. */
hp_str xlate_declared_type(const xlate *x, ptrdiff_t obj)
{
    hp_str name = xlate_text(x, obj);
    lex_idx *ix = x->idx;
    if (ix && x->t[obj].kind == TK_IDENT && !(x->t[obj].flags & TF_PP)) {
        /* Outside directives the walk below visits every earlier token outside directives:
         * the candidates are the identifiers among them with the same text. */
        if (ix->prev) {
            for (ptrdiff_t p = ix->prev[obj]; p >= 0; p = ix->prev[p]) {
                if (x->t[p].flags & TF_PP)
                    continue;
                hp_str ty = type_before(x, p);
                if (ty.len)
                    return ty;
            }
            return str_make("", 0);
        }
        for (ptrdiff_t p = obj - 1; p >= 0; p--) {
            const tok *k = &x->t[p];
            if (k->kind != TK_IDENT || k->len != name.len || (k->flags & TF_PP) ||
                memcmp(x->src + k->off, name.s, (size_t)name.len) != 0)
                continue;
            hp_str ty = type_before(x, p);
            if (ty.len) {
                lex_idx_charge(ix, obj - p);
                return ty;
            }
        }
        lex_idx_charge(ix, obj);
        return str_make("", 0);
    }
    for (ptrdiff_t p = xlate_prev(x, obj); p >= 0; p = xlate_prev(x, p)) {
        if (x->t[p].kind != TK_IDENT || !str_eq(xlate_text(x, p), name))
            continue;
        hp_str ty = type_word(x, p);
        if (ty.len)
            return ty;
    }
    return str_make("", 0);
}
