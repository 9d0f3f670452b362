/* ppeval.c: evaluating #if conditions with three-valued logic (true, false, undecided). Object-
 * like macros are expanded from their known values; `defined` consults what is known; an
 * identifier nobody told us about leaves the condition undecided, unless the rest decides it
 * (0 && X is false, 1 || X is true). Arithmetic wraps instead of overflowing; a division by
 * zero, a floating constant or a malformed expression is undecided, never an error. */
#include "ppeval.h"

#include <string.h>

#include "str.h"

#include "banned.h"

enum { A_NUM, A_UNK, A_OP };

typedef struct atom {
    int kind;
    long long v;  /* A_NUM */
    unsigned op;  /* A_OP: the punctuator code */
} atom;

typedef struct atoms {
    arena *a;
    atom *v;
    int n, cap;
    int bad;      /* malformed, or too deep */
} atoms;

static void push(atoms *s, int kind, long long v, unsigned op)
{
    if (s->n == s->cap) {
        int ncap = s->cap ? s->cap * 2 : 32;
        s->v = arena_grow(s->a, s->v, (ptrdiff_t)s->cap * (ptrdiff_t)sizeof(atom),
                          (ptrdiff_t)ncap * (ptrdiff_t)sizeof(atom), _Alignof(atom));
        s->cap = ncap;
    }
    s->v[s->n].kind = kind;
    s->v[s->n].v = v;
    s->v[s->n].op = op;
    s->n++;
}

static const ppmac *find(const ppenv *e, hp_str name)
{
    for (int i = e->n - 1; i >= 0; i--)
        if (str_eq(e->m[i].name, name))
            return &e->m[i];
    return NULL;
}

void ppeval_env_set(ppenv *e, hp_str name, int state, int funclike, hp_str value)
{
    for (int i = 0; i < e->n; i++)
        if (str_eq(e->m[i].name, name)) {
            e->m[i].state = state;
            e->m[i].funclike = funclike;
            e->m[i].value = value;
            return;
        }
    if (e->n == e->cap) {
        int ncap = e->cap ? e->cap * 2 : 16;
        e->m = arena_grow(e->a, e->m, (ptrdiff_t)e->cap * (ptrdiff_t)sizeof(ppmac),
                          (ptrdiff_t)ncap * (ptrdiff_t)sizeof(ppmac), _Alignof(ppmac));
        e->cap = ncap;
    }
    ppmac *m = &e->m[e->n++];
    m->name = name;
    m->state = state;
    m->funclike = funclike;
    m->value = value;
}

static int ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_';
}

void ppeval_env_init(ppenv *e, arena *a, const char *const *macros, int n)
{
    memset(e, 0, sizeof *e);
    e->a = a;
    for (int i = 0; i < n; i++) {
        const char *m = macros[i];
        if (!m || m[0] != '-' || (m[1] != 'D' && m[1] != 'U'))
            continue;
        const char *p = m + 2, *q = p;
        while (ident_char(*q))
            q++;
        if (q == p)
            continue;
        hp_str name = str_make(p, q - p);
        if (m[1] == 'U') {
            ppeval_env_set(e, name, 0, 0, str_make("", 0));
        } else if (*q == '(') {
            ppeval_env_set(e, name, 1, 1, str_make("", 0));
        } else if (*q == '=') {
            ppeval_env_set(e, name, 1, 0, str_cstr(q + 1));
        } else if (*q == 0) {
            ppeval_env_set(e, name, 1, 0, S("1")); /* -DNAME defines it as 1 */
        }
    }
}

/* The next token of the directive after i that is not a comment, or -1 at its end. */
static ptrdiff_t dnext(const tok *t, ptrdiff_t nt, ptrdiff_t i)
{
    for (i++; i < nt; i++) {
        if (t[i].kind == TK_PP_END || t[i].kind == TK_EOF)
            return -1;
        if (t[i].kind != TK_COMMENT)
            return i;
    }
    return -1;
}

static hp_str text(const char *src, const tok *k)
{
    return str_make(src + k->off, k->len);
}

void ppeval_env_directive(ppenv *e, const char *src, const tok *t, ptrdiff_t nt, ptrdiff_t h,
                     int sure)
{
    ptrdiff_t kw = dnext(t, nt, h);
    ptrdiff_t name = kw < 0 ? -1 : dnext(t, nt, kw);
    if (name < 0 || t[name].kind != TK_IDENT)
        return;
    hp_str n = text(src, &t[name]);
    if (!sure) {
        ppeval_env_set(e, n, -1, 0, str_make("", 0));
        return;
    }
    if (t[h].sub == PP_UNDEF) {
        ppeval_env_set(e, n, 0, 0, str_make("", 0));
        return;
    }
    ptrdiff_t v = dnext(t, nt, name);
    if (v >= 0 && t[v].kind == TK_PUNCT && t[v].sub == '(' &&
        t[v].off == t[name].off + t[name].len) {
        ppeval_env_set(e, n, 1, 1, str_make("", 0));
        return;
    }
    ptrdiff_t last = v;
    for (ptrdiff_t k = v; k >= 0; k = dnext(t, nt, k))
        last = k;
    hp_str value = v < 0 ? str_make("", 0)
                         : str_make(src + t[v].off, t[last].off + t[last].len - t[v].off);
    ppeval_env_set(e, n, 1, 0, value);
}

static void expand(atoms *s, const ppenv *e, const char *src, const tok *t, ptrdiff_t nt,
                   ptrdiff_t from, int depth);

/* Skips a parenthesised argument list that starts at i (if any); returns the last token used. */
static ptrdiff_t skip_args(const tok *t, ptrdiff_t nt, ptrdiff_t i, atoms *s)
{
    ptrdiff_t n = dnext(t, nt, i);
    if (n < 0 || t[n].kind != TK_PUNCT || t[n].sub != '(')
        return i;
    int d = 0;
    for (ptrdiff_t k = n; k >= 0; k = dnext(t, nt, k)) {
        if (t[k].kind == TK_PUNCT && t[k].sub == '(')
            d++;
        else if (t[k].kind == TK_PUNCT && t[k].sub == ')' && --d == 0)
            return k;
    }
    s->bad = 1;
    return nt;
}

static void expand_macro(atoms *s, const ppenv *e, hp_str value, int depth)
{
    if (depth >= 16) {
        s->bad = 1;
        return;
    }
    lex_out lx;
    lex_all(s->a, value.s, value.len, &lx);
    if (lx.n == 0) {
        push(s, A_UNK, 0, 0); /* an empty macro: not a value */
        return;
    }
    /* the value's tokens, as one pseudo-directive: from -1 so that dnext starts at 0 */
    expand(s, e, value.s, lx.toks, lx.n, -1, depth + 1);
}

static void expand(atoms *s, const ppenv *e, const char *src, const tok *t, ptrdiff_t nt,
                   ptrdiff_t from, int depth)
{
    for (ptrdiff_t i = dnext(t, nt, from); i >= 0 && !s->bad; i = dnext(t, nt, i)) {
        const tok *k = &t[i];
        hp_str w = text(src, k);
        switch (k->kind) {
        case TK_IDENT: {
            if (str_eqc(w, "defined")) {
                ptrdiff_t n = dnext(t, nt, i);
                int paren = n >= 0 && t[n].kind == TK_PUNCT && t[n].sub == '(';
                if (paren)
                    n = dnext(t, nt, n);
                if (n < 0 || t[n].kind != TK_IDENT) {
                    s->bad = 1;
                    return;
                }
                const ppmac *m = find(e, text(src, &t[n]));
                if (m && m->state >= 0)
                    push(s, A_NUM, m->state, 0);
                else
                    push(s, A_UNK, 0, 0);
                if (paren) {
                    n = dnext(t, nt, n);
                    if (n < 0 || t[n].kind != TK_PUNCT || t[n].sub != ')') {
                        s->bad = 1;
                        return;
                    }
                }
                i = n;
                break;
            }
            if (str_eqc(w, "true") || str_eqc(w, "false")) {
                push(s, A_NUM, w.s[0] == 't', 0);
                break;
            }
            const ppmac *m = find(e, w);
            if (m && m->state == 1 && !m->funclike) {
                push(s, A_OP, 0, '(');
                expand_macro(s, e, m->value, depth);
                push(s, A_OP, 0, ')');
            } else if (m && m->state == 0) {
                push(s, A_NUM, 0, 0); /* an undefined name is 0 in #if */
            } else {
                push(s, A_UNK, 0, 0);
                i = skip_args(t, nt, i, s); /* NAME(args) of an unknown macro */
            }
            break;
        }
        case TK_NUMBER: {
            unsigned long long v;
            int bits;
            if (lex_int_literal(w, &v, &bits))
                push(s, A_NUM, (long long)v, 0);
            else
                push(s, A_UNK, 0, 0);
            break;
        }
        case TK_CHAR:
            push(s, A_UNK, 0, 0);
            break;
        case TK_PUNCT:
            push(s, A_OP, 0, k->sub);
            break;
        default:
            s->bad = 1;
            return;
        }
        if (i >= nt)
            return;
    }
}

/* ---------------------------------------------------------------- the parser */

typedef struct val {
    int known;
    long long v;
} val;

typedef struct parser {
    const atoms *s;
    int i;
    int bad;
} parser;

static int peek_op(const parser *p, unsigned op)
{
    return p->i < p->s->n && p->s->v[p->i].kind == A_OP && p->s->v[p->i].op == op;
}

static val known(long long v)
{
    val r = {1, v};
    return r;
}

static val unknown(void)
{
    val r = {0, 0};
    return r;
}

static val parse_cond(parser *p, int depth);

static val parse_unary(parser *p, int depth)
{
    if (depth > 200 || p->i >= p->s->n) {
        p->bad = 1;
        return unknown();
    }
    const atom *a = &p->s->v[p->i++];
    if (a->kind == A_NUM)
        return known(a->v);
    if (a->kind == A_UNK)
        return unknown();
    switch (a->op) {
    case '(': {
        val v = parse_cond(p, depth + 1);
        if (!peek_op(p, ')')) {
            p->bad = 1;
            return unknown();
        }
        p->i++;
        return v;
    }
    case '!': {
        val v = parse_unary(p, depth + 1);
        return v.known ? known(!v.v) : v;
    }
    case '~': {
        val v = parse_unary(p, depth + 1);
        return v.known ? known((long long)~(unsigned long long)v.v) : v;
    }
    case '-': {
        val v = parse_unary(p, depth + 1);
        return v.known ? known((long long)(0ull - (unsigned long long)v.v)) : v;
    }
    case '+':
        return parse_unary(p, depth + 1);
    default:
        p->bad = 1;
        return unknown();
    }
}

static int prec(unsigned op)
{
    switch (op) {
    case '*': case '/': case '%': return 10;
    case '+': case '-': return 9;
    case P_SHL: case P_SHR: return 8;
    case '<': case '>': case P_LE: case P_GE: return 7;
    case P_EQ: case P_NE: return 6;
    case '&': return 5;
    case '^': return 4;
    case '|': return 3;
    case P_ANDAND: return 2;
    case P_OROR: return 1;
    default: return 0;
    }
}

static val apply(unsigned op, val a, val b)
{
    if (op == P_ANDAND) {
        if ((a.known && !a.v) || (b.known && !b.v))
            return known(0);
        return a.known && b.known ? known(1) : unknown();
    }
    if (op == P_OROR) {
        if ((a.known && a.v) || (b.known && b.v))
            return known(1);
        return a.known && b.known ? known(0) : unknown();
    }
    if (!a.known || !b.known)
        return unknown();
    unsigned long long x = (unsigned long long)a.v, y = (unsigned long long)b.v;
    switch (op) {
    case '*': return known((long long)(x * y));
    case '+': return known((long long)(x + y));
    case '-': return known((long long)(x - y));
    case '/':
    case '%':
        if (b.v == 0 || (b.v == -1 && a.v == (long long)(1ull << 63)))
            return unknown();
        return known(op == '/' ? a.v / b.v : a.v % b.v);
    case P_SHL:
        return b.v < 0 || b.v > 63 ? unknown() : known((long long)(x << b.v));
    case P_SHR:
        return b.v < 0 || b.v > 63 ? unknown() : known(a.v >> b.v);
    case '<': return known(a.v < b.v);
    case '>': return known(a.v > b.v);
    case P_LE: return known(a.v <= b.v);
    case P_GE: return known(a.v >= b.v);
    case P_EQ: return known(a.v == b.v);
    case P_NE: return known(a.v != b.v);
    case '&': return known((long long)(x & y));
    case '^': return known((long long)(x ^ y));
    case '|': return known((long long)(x | y));
    default: return unknown();
    }
}

static val parse_binary(parser *p, int minprec, int depth)
{
    val lhs = parse_unary(p, depth + 1);
    while (!p->bad && p->i < p->s->n && p->s->v[p->i].kind == A_OP) {
        unsigned op = p->s->v[p->i].op;
        int pr = prec(op);
        if (pr == 0 || pr < minprec)
            break;
        p->i++;
        val rhs = parse_binary(p, pr + 1, depth + 1);
        lhs = apply(op, lhs, rhs);
    }
    return lhs;
}

static val parse_cond(parser *p, int depth)
{
    if (depth > 200) {
        p->bad = 1;
        return unknown();
    }
    val c = parse_binary(p, 1, depth + 1);
    if (!peek_op(p, '?'))
        return c;
    p->i++;
    val x = parse_cond(p, depth + 1);
    if (!peek_op(p, ':')) {
        p->bad = 1;
        return unknown();
    }
    p->i++;
    val y = parse_cond(p, depth + 1);
    if (c.known)
        return c.v ? x : y;
    if (x.known && y.known && x.v == y.v)
        return x;
    return unknown();
}

int ppeval_directive(ppenv *e, const char *src, const tok *t, ptrdiff_t nt, ptrdiff_t h)
{
    ptrdiff_t kw = dnext(t, nt, h);
    if (kw < 0 || t[kw].kind != TK_IDENT)
        return -1;
    hp_str k = text(src, &t[kw]);
    int neg = str_eqc(k, "ifndef") || str_eqc(k, "elifndef");
    if (neg || str_eqc(k, "ifdef") || str_eqc(k, "elifdef")) {
        ptrdiff_t n = dnext(t, nt, kw);
        if (n < 0 || t[n].kind != TK_IDENT)
            return -1;
        const ppmac *m = find(e, text(src, &t[n]));
        if (!m || m->state < 0)
            return -1;
        return neg ? !m->state : m->state;
    }
    if (!str_eqc(k, "if") && !str_eqc(k, "elif"))
        return -1;
    arena_mark mark = arena_save(e->a); /* the atoms are freed when this returns */
    atoms s;
    memset(&s, 0, sizeof s);
    s.a = e->a;
    expand(&s, e, src, t, nt, kw, 0);
    int r = -1;
    if (!s.bad && s.n > 0) {
        parser p = {&s, 0, 0};
        val v = parse_cond(&p, 0);
        if (!p.bad && p.i == s.n && v.known)
            r = v.v != 0;
    }
    arena_rewind(e->a, mark);
    return r;
}

/* ---------------------------------------------------------------- following the conditionals */

void ppeval_skip_init(ppskip *s, arena *a, const char *const *macros, int n)
{
    memset(s, 0, sizeof *s);
    ppeval_env_init(&s->env, a, macros, n);
}

static int unsure(const ppskip *s)
{
    if (s->overflow)
        return 1;
    for (int i = 0; i < s->depth; i++)
        if (s->st[i].undecided)
            return 1;
    return 0;
}

/* The branch that starts with condition value c (1, 0 or -1) in the innermost conditional. */
static void branch(ppskip *s, int c)
{
    if (c == 1) {
        s->st[s->depth - 1].taken = 1;
        s->skipping = 0;
    } else if (c == 0) {
        s->skipping = 1;
    } else {
        s->st[s->depth - 1].undecided = 1;
        s->skipping = 0;
    }
}

void ppeval_skip_directive(ppskip *s, const char *src, const tok *t, ptrdiff_t nt, ptrdiff_t h)
{
    switch (t[h].sub) {
    case PP_IF:
    case PP_IFDEF:
    case PP_IFNDEF:
        s->dir_skip = s->skipping;
        if (s->overflow || s->depth == (int)(sizeof s->st / sizeof *s->st)) {
            s->overflow++; /* too deep: this conditional's branches are all translated */
            return;
        }
        memset(&s->st[s->depth], 0, sizeof s->st[0]);
        s->st[s->depth].parent_skip = s->skipping;
        s->depth++;
        if (!s->skipping)
            branch(s, ppeval_directive(&s->env, src, t, nt, h));
        return;
    case PP_ELIF:
    case PP_ELSE:
        if (s->overflow || s->depth == 0) {
            s->dir_skip = s->skipping;
            return;
        }
        s->dir_skip = s->st[s->depth - 1].parent_skip;
        if (s->dir_skip)
            s->skipping = 1;
        else if (s->st[s->depth - 1].undecided)
            s->skipping = 0;
        else if (s->st[s->depth - 1].taken)
            s->skipping = 1;
        else
            branch(s, t[h].sub == PP_ELSE ? 1 : ppeval_directive(&s->env, src, t, nt, h));
        return;
    case PP_ENDIF:
        if (s->overflow) {
            s->overflow--;
            s->dir_skip = s->skipping;
            return;
        }
        if (s->depth == 0) {
            s->dir_skip = s->skipping;
            return;
        }
        s->depth--;
        s->skipping = s->dir_skip = s->st[s->depth].parent_skip;
        return;
    case PP_DEFINE:
    case PP_UNDEF:
        s->dir_skip = s->skipping;
        if (!s->skipping)
            ppeval_env_directive(&s->env, src, t, nt, h, !unsure(s));
        return;
    default:
        s->dir_skip = s->skipping;
        return;
    }
}
