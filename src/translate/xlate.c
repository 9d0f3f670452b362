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

int xlate_args(const xlate *x, ptrdiff_t open, lex_args *out)
{
    return lex_args_of(x->t, x->nt, open, out);
}

int xlate_split(const xlate *x, ptrdiff_t open, ptrdiff_t close, lex_args *out)
{
    return lex_args_split(x->t, x->nt, open, close, out);
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
typedef struct type_seek {
    const xlate *x;
    hp_str type;
} type_seek;

static int type_hit(void *ctx, ptrdiff_t p)
{
    type_seek *d = ctx;
    d->type = type_before(d->x, p);
    return d->type.len > 0;
}

hp_str xlate_declared_type(const xlate *x, ptrdiff_t obj)
{
    type_seek d = {x, {"", 0}};
    if (lex_find_back_memo(x->idx, 0, x->src, x->t, x->nt, obj, obj, 0, type_hit, &d) <
        0)
        return str_make("", 0);
    return d.type;
}
