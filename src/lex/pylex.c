/* pylex.c: Python tokenizer. Strings of every prefix and quote kind, PEP 701 f-strings (nested
 * quotes and braces in replacement fields), line joins, INDENT/DEDENT. Every byte sequence is
 * accepted and nothing is read past len. */
#include "pylex.h"

#include <string.h>

#include "banned.h"

/* Character classes for the first byte of a token. */
enum {
    C_OTHER = 0, /* starts PY_UNKNOWN */
    C_SPACE,     /* space, tab, form feed, vertical tab, lone CR */
    C_NL,
    C_IDENT,     /* letter, '_', byte >= 0x80 */
    C_DIGIT,
    C_QUOTE,     /* ' or " */
    C_HASH,
    C_DOT,
    C_OPEN,      /* ( [ { */
    C_CLOSE,     /* ) ] } */
    C_OP,        /* other operator characters */
    C_AT,
    C_BACKSLASH
};

static const unsigned char *cls_table(void)
{
    /* Built at compile time: the table is small enough to spell out by ranges. */
    static const unsigned char t[256] = {
        [' '] = C_SPACE, ['\t'] = C_SPACE, ['\f'] = C_SPACE, ['\v'] = C_SPACE,
        ['\r'] = C_SPACE, ['\n'] = C_NL,
        ['a'] = C_IDENT, ['b'] = C_IDENT, ['c'] = C_IDENT, ['d'] = C_IDENT, ['e'] = C_IDENT,
        ['f'] = C_IDENT, ['g'] = C_IDENT, ['h'] = C_IDENT, ['i'] = C_IDENT, ['j'] = C_IDENT,
        ['k'] = C_IDENT, ['l'] = C_IDENT, ['m'] = C_IDENT, ['n'] = C_IDENT, ['o'] = C_IDENT,
        ['p'] = C_IDENT, ['q'] = C_IDENT, ['r'] = C_IDENT, ['s'] = C_IDENT, ['t'] = C_IDENT,
        ['u'] = C_IDENT, ['v'] = C_IDENT, ['w'] = C_IDENT, ['x'] = C_IDENT, ['y'] = C_IDENT,
        ['z'] = C_IDENT,
        ['A'] = C_IDENT, ['B'] = C_IDENT, ['C'] = C_IDENT, ['D'] = C_IDENT, ['E'] = C_IDENT,
        ['F'] = C_IDENT, ['G'] = C_IDENT, ['H'] = C_IDENT, ['I'] = C_IDENT, ['J'] = C_IDENT,
        ['K'] = C_IDENT, ['L'] = C_IDENT, ['M'] = C_IDENT, ['N'] = C_IDENT, ['O'] = C_IDENT,
        ['P'] = C_IDENT, ['Q'] = C_IDENT, ['R'] = C_IDENT, ['S'] = C_IDENT, ['T'] = C_IDENT,
        ['U'] = C_IDENT, ['V'] = C_IDENT, ['W'] = C_IDENT, ['X'] = C_IDENT, ['Y'] = C_IDENT,
        ['Z'] = C_IDENT, ['_'] = C_IDENT,
        ['0'] = C_DIGIT, ['1'] = C_DIGIT, ['2'] = C_DIGIT, ['3'] = C_DIGIT, ['4'] = C_DIGIT,
        ['5'] = C_DIGIT, ['6'] = C_DIGIT, ['7'] = C_DIGIT, ['8'] = C_DIGIT, ['9'] = C_DIGIT,
        ['\''] = C_QUOTE, ['"'] = C_QUOTE, ['#'] = C_HASH, ['.'] = C_DOT,
        ['('] = C_OPEN, ['['] = C_OPEN, ['{'] = C_OPEN,
        [')'] = C_CLOSE, [']'] = C_CLOSE, ['}'] = C_CLOSE,
        ['+'] = C_OP, ['-'] = C_OP, ['*'] = C_OP, ['/'] = C_OP, ['%'] = C_OP, ['&'] = C_OP,
        ['|'] = C_OP, ['^'] = C_OP, ['~'] = C_OP, ['<'] = C_OP, ['>'] = C_OP, ['='] = C_OP,
        ['!'] = C_OP, [':'] = C_OP, [';'] = C_OP, [','] = C_OP,
        ['@'] = C_AT, ['\\'] = C_BACKSLASH,
        /* bytes >= 0x80: see is_ident_start() */
    };
    return t;
}

static inline unsigned cls_of(const unsigned char *t, unsigned char c)
{
    return c >= 0x80 ? C_IDENT : t[c];
}

static inline int is_idch(const unsigned char *t, unsigned char c)
{
    unsigned k = cls_of(t, c);
    return k == C_IDENT || k == C_DIGIT;
}

typedef struct pylexer {
    const unsigned char *s;
    const unsigned char *cls;
    ptrdiff_t len;
    arena *a;
    pytok *toks;
    ptrdiff_t n, cap;
    int32_t *ind;      /* indentation stack (columns); ind[0] == 0 */
    ptrdiff_t nind, capind;
    ptrdiff_t depth;   /* bracket depth */
    int bol;           /* no token yet on this physical line */
    int space;
    int newline;
    int logical;       /* the current logical line has a token */
    int unterminated;
    int failed;        /* an allocation failed without a recovery point */
} pylexer;

static void push(pylexer *L, py_kind kind, ptrdiff_t off, ptrdiff_t len, unsigned sub,
                 unsigned extra)
{
    if (L->failed)
        return;
    if (L->n == L->cap) {
        ptrdiff_t ncap = L->cap * 2;
        L->toks = arena_grow(L->a, L->toks, L->cap * (ptrdiff_t)sizeof(pytok),
                             ncap * (ptrdiff_t)sizeof(pytok), _Alignof(pytok));
        if (!L->toks) {
            L->failed = 1;
            return;
        }
        L->cap = ncap;
    }
    pytok *t = &L->toks[L->n++];
    t->off = (int32_t)off;
    t->len = (int32_t)len;
    t->kind = (uint8_t)kind;
    t->sub = (uint16_t)sub;
    t->flags = (uint8_t)(extra | (L->bol ? PF_BOL : 0) | (L->space ? PF_SPACE : 0) |
                         (L->newline ? PF_NEWLINE : 0));
    if (kind == PY_COMMENT || kind == PY_INDENT || kind == PY_DEDENT)
        return;
    L->bol = 0;
    L->space = 0;
    L->newline = 0;
}

static int push_indent(pylexer *L, int32_t col)
{
    if (L->nind == L->capind) {
        ptrdiff_t ncap = L->capind * 2;
        L->ind = arena_grow(L->a, L->ind, L->capind * (ptrdiff_t)sizeof(int32_t),
                            ncap * (ptrdiff_t)sizeof(int32_t), _Alignof(int32_t));
        if (!L->ind) {
            L->failed = 1;
            return 0;
        }
        L->capind = ncap;
    }
    L->ind[L->nind++] = col;
    return 1;
}

/* Is s[i..j) a string prefix (r, b, u, f, t and the two-letter raw combinations)? Sets the
 * PS_* bits. */
static int string_prefix(const unsigned char *s, ptrdiff_t i, ptrdiff_t j, unsigned *bits)
{
    ptrdiff_t n = j - i;
    if (n < 1 || n > 2)
        return 0;
    unsigned b = 0;
    int r = 0, other = 0;
    for (ptrdiff_t k = i; k < j; k++) {
        unsigned char c = (unsigned char)(s[k] | 0x20);
        if (c == 'r') {
            if (r)
                return 0;
            r = 1;
            b |= PS_RAW;
        } else if (c == 'b' || c == 'f' || c == 't' || c == 'u') {
            if (other)
                return 0;
            other = c;
            if (c == 'b')
                b |= PS_BYTES;
            else if (c == 'f' || c == 't')
                b |= PS_F;
        } else {
            return 0;
        }
    }
    if (other == 'u' && r)
        return 0; /* "ur" was Python 2 only */
    *bits = b;
    return 1;
}

/* A plain (non-f) string whose opening quote is at q; returns its end (exclusive). */
static ptrdiff_t scan_plain(const pylexer *L, ptrdiff_t q, int triple, int *unterm)
{
    const unsigned char *s = L->s;
    ptrdiff_t n = L->len;
    unsigned char quote = s[q];
    ptrdiff_t i = q + (triple ? 3 : 1);
    while (i < n) {
        unsigned char c = s[i];
        if (c == '\\') {
            i += 2; /* escapes the next byte, a newline or a quote included (raw too) */
            continue;
        }
        if (c == quote) {
            if (!triple)
                return i + 1;
            if (i + 2 < n && s[i + 1] == quote && s[i + 2] == quote)
                return i + 3;
            i++;
            continue;
        }
        if (c == '\n' && !triple) {
            *unterm = 1;
            return i > q + 1 && s[i - 1] == '\r' ? i - 1 : i;
        }
        i++;
    }
    *unterm = 1;
    return n;
}

enum { FR_STR, FR_FIELD, FR_SPEC };

typedef struct fframe {
    unsigned char kind;   /* FR_* */
    unsigned char quote;  /* FR_STR: the quote byte */
    unsigned char triple; /* FR_STR: triple-quoted */
    int depth;            /* FR_FIELD: brackets open inside the field */
} fframe;

#define FSTACK 48 /* nesting beyond this scans inner f-strings as plain strings */

/* Is s[i] the start of a string (with or without prefix)? Sets *q to the quote, *bits. */
static int string_start(const pylexer *L, ptrdiff_t i, ptrdiff_t *q, unsigned *bits)
{
    const unsigned char *s = L->s;
    if (s[i] == '"' || s[i] == '\'') {
        *q = i;
        *bits = 0;
        return 1;
    }
    ptrdiff_t j = i;
    while (j < L->len && j - i < 3 && is_idch(L->cls, s[j]))
        j++;
    if (j < L->len && (s[j] == '"' || s[j] == '\'') && string_prefix(s, i, j, bits)) {
        *q = j;
        return 1;
    }
    return 0;
}

static int is_triple(const pylexer *L, ptrdiff_t q)
{
    return q + 2 < L->len && L->s[q + 1] == L->s[q] && L->s[q + 2] == L->s[q];
}

/* An f-string whose opening quote is at q. Replacement fields are scanned as expressions, so
 * that quotes and braces inside them (PEP 701) do not end the string. A newline outside any
 * bracket ends a single-quoted f-string (unterminated), which keeps one broken f-string from
 * swallowing the rest of the file. */
static ptrdiff_t scan_fstring(const pylexer *L, ptrdiff_t q, int triple, int *unterm)
{
    const unsigned char *s = L->s;
    ptrdiff_t n = L->len;
    fframe st[FSTACK];
    int sp = 0;
    st[sp].kind = FR_STR;
    st[sp].quote = s[q];
    st[sp].triple = (unsigned char)triple;
    st[sp].depth = 0;
    sp++;
    ptrdiff_t i = q + (triple ? 3 : 1);
    while (i < n) {
        fframe *f = &st[sp - 1];
        unsigned char c = s[i];
        if (f->kind != FR_FIELD) {
            int si = sp - 1;
            while (si > 0 && st[si].kind != FR_STR)
                si--;
            fframe *sf = &st[si];
            if (c == '\\') {
                if (i + 1 < n && (s[i + 1] == '{' || s[i + 1] == '}'))
                    i++;
                else
                    i += 2;
                continue;
            }
            if (c == sf->quote &&
                (!sf->triple || (i + 2 < n && s[i + 1] == c && s[i + 2] == c))) {
                i += sf->triple ? 3 : 1;
                sp = si;
                if (sp == 0)
                    return i;
                continue;
            }
            if (c == '\n' && !st[0].triple) {
                *unterm = 1;
                return i > q + 1 && s[i - 1] == '\r' ? i - 1 : i;
            }
            if (c == '{') {
                if (f->kind == FR_STR && i + 1 < n && s[i + 1] == '{') {
                    i += 2;
                    continue;
                }
                if (sp < FSTACK) {
                    st[sp].kind = FR_FIELD;
                    st[sp].depth = 0;
                    sp++;
                }
                i++;
                continue;
            }
            if (c == '}') {
                if (f->kind == FR_SPEC) {
                    sp--; /* the spec replaced its field: the field ends */
                } else if (i + 1 < n && s[i + 1] == '}') {
                    i++;
                }
                i++;
                continue;
            }
            i++;
            continue;
        }
        /* inside a replacement field: an expression */
        switch (c) {
        case '\n':
            if (!st[0].triple && f->depth == 0) {
                *unterm = 1;
                return i > q + 1 && s[i - 1] == '\r' ? i - 1 : i;
            }
            i++;
            continue;
        case '#': {
            const unsigned char *nl = memchr(s + i, '\n', (size_t)(n - i));
            i = nl ? nl - s : n;
            continue;
        }
        case '(':
        case '[':
        case '{':
            f->depth++;
            i++;
            continue;
        case ')':
        case ']':
            if (f->depth)
                f->depth--;
            i++;
            continue;
        case '}':
            if (f->depth)
                f->depth--;
            else
                sp--;
            i++;
            continue;
        case '!':
            i++; /* a conversion (!r) or !=; the name after it scans as an identifier */
            if (i < n && s[i] == '=')
                i++;
            continue;
        case ':':
            if (f->depth == 0)
                f->kind = FR_SPEC;
            i++;
            continue;
        case '\\':
            i += 2;
            continue;
        default:
            break;
        }
        ptrdiff_t sq;
        unsigned bits;
        if ((c == '"' || c == '\'' || cls_of(L->cls, c) == C_IDENT) &&
            string_start(L, i, &sq, &bits)) {
            int tr = is_triple(L, sq);
            if ((bits & PS_F) && sp < FSTACK) {
                st[sp].kind = FR_STR;
                st[sp].quote = s[sq];
                st[sp].triple = (unsigned char)tr;
                st[sp].depth = 0;
                sp++;
                i = sq + (tr ? 3 : 1);
            } else {
                int u = 0;
                i = scan_plain(L, sq, tr, &u);
                if (u) {
                    *unterm = 1;
                    return i;
                }
            }
            continue;
        }
        if (cls_of(L->cls, c) == C_IDENT || cls_of(L->cls, c) == C_DIGIT) {
            while (i < n && is_idch(L->cls, s[i]))
                i++;
            continue;
        }
        i++;
    }
    *unterm = 1;
    return n;
}

/* Numbers: digits, letters, '_', '.', and a sign right after an exponent letter of a decimal. */
static ptrdiff_t scan_number(const pylexer *L, ptrdiff_t i)
{
    const unsigned char *s = L->s;
    ptrdiff_t n = L->len;
    int hex = s[i] == '0' && i + 1 < n && (s[i + 1] | 0x20) == 'x';
    i++;
    while (i < n) {
        unsigned char c = s[i];
        if (is_idch(L->cls, c) || c == '.') {
            if (!hex && (c | 0x20) == 'e' && i + 1 < n && (s[i + 1] == '+' || s[i + 1] == '-'))
                i += 2;
            else
                i++;
        } else {
            break;
        }
    }
    return i;
}

/* Pushes the operator at i; returns its length. */
static ptrdiff_t lex_op(pylexer *L, ptrdiff_t i)
{
    const unsigned char *s = L->s;
    ptrdiff_t n = L->len;
    unsigned char c = s[i];
    unsigned char c1 = i + 1 < n ? s[i + 1] : 0;
    unsigned char c2 = i + 2 < n ? s[i + 2] : 0;
    unsigned code = c;
    ptrdiff_t len = 1;
    switch (c) {
    case '*':
    case '/':
    case '<':
    case '>':
        if (c1 == c) {
            code = c == '*' ? PO_POW : c == '/' ? PO_FLOORDIV : c == '<' ? PO_SHL : PO_SHR;
            len = 2;
            if (c2 == '=') {
                code = PO_AUGASSIGN;
                len = 3;
            }
        } else if (c1 == '=') {
            code = c == '<' ? PO_LE : c == '>' ? PO_GE : PO_AUGASSIGN;
            len = 2;
        } else if (c == '<' && c1 == '>') {
            code = PO_NE;
            len = 2;
        }
        break;
    case '-':
        if (c1 == '>') {
            code = PO_ARROW;
            len = 2;
            break;
        }
        /* fall through */
    case '+':
    case '%':
    case '&':
    case '|':
    case '^':
    case '@':
        if (c1 == '=') {
            code = PO_AUGASSIGN;
            len = 2;
        }
        break;
    case '=':
        if (c1 == '=') {
            code = PO_EQ;
            len = 2;
        }
        break;
    case '!':
        if (c1 == '=') {
            code = PO_NE;
            len = 2;
        }
        break;
    case ':':
        if (c1 == '=') {
            code = PO_WALRUS;
            len = 2;
        }
        break;
    case '.':
        if (c1 == '.' && c2 == '.') {
            code = PO_ELLIPSIS;
            len = 3;
        }
        break;
    default:
        break;
    }
    push(L, PY_OP, i, len, code, 0);
    return len;
}

/* At the start of a logical line (bracket depth 0, no line join): measures the indentation
 * and emits INDENT or DEDENT tokens. Returns the offset of the first non-blank byte. */
static ptrdiff_t line_start(pylexer *L, ptrdiff_t i)
{
    const unsigned char *s = L->s;
    ptrdiff_t n = L->len;
    int32_t col = 0;
    ptrdiff_t j = i;
    while (j < n) {
        unsigned char c = s[j];
        if (c == ' ' || c == '\v')
            col++;
        else if (c == '\t')
            col = (col / 8 + 1) * 8;
        else if (c == '\f')
            col = 0;
        else if (c == '\r' && !(j + 1 < n && s[j + 1] == '\n'))
            col++;
        else
            break;
        if (col > 1 << 24)
            col = 1 << 24;
        j++;
    }
    if (j > i)
        L->space = 1;
    /* Blank and comment-only lines do not change the indentation. */
    if (j >= n || s[j] == '\n' || s[j] == '\r' || s[j] == '#')
        return j;
    if (s[j] == '\\') {
        ptrdiff_t k = j + 1;
        if (k < n && s[k] == '\r')
            k++;
        if (k >= n || s[k] == '\n')
            return j; /* a line join alone on its line */
    }
    int32_t top = L->ind[L->nind - 1];
    if (col > top) {
        if (push_indent(L, col))
            push(L, PY_INDENT, j, 0, 0, 0);
    } else if (col < top) {
        while (L->nind > 1 && L->ind[L->nind - 1] > col) {
            L->nind--;
            push(L, PY_DEDENT, j, 0, 0, 0);
        }
        if (L->ind[L->nind - 1] < col && push_indent(L, col))
            push(L, PY_INDENT, j, 0, 0, 0); /* inconsistent dedent: a new level */
    }
    return j;
}

static ptrdiff_t lex_string(pylexer *L, ptrdiff_t start, ptrdiff_t q, unsigned bits)
{
    int unterm = 0;
    int triple = is_triple(L, q);
    ptrdiff_t e = (bits & PS_F) ? scan_fstring(L, q, triple, &unterm)
                                : scan_plain(L, q, triple, &unterm);
    unsigned sub = bits | (triple ? PS_TRIPLE : 0) | (L->s[q] == '"' ? PS_DQUOTE : 0) |
                   ((unsigned)(q - start) << 8);
    L->unterminated |= unterm;
    push(L, PY_STRING, start, e - start, sub, unterm ? PF_UNTERM : 0);
    return e;
}

void pylex_all(arena *a, const char *src, ptrdiff_t len, pylex_out *out)
{
    pylexer L;
    memset(&L, 0, sizeof L);
    L.s = (const unsigned char *)src;
    L.cls = cls_table();
    L.len = len;
    L.a = a;
    L.cap = len / 4 + 64;
    L.toks = arena_alloc_nozero(a, (ptrdiff_t)sizeof(pytok), _Alignof(pytok), L.cap);
    L.capind = 16;
    L.ind = arena_alloc_nozero(a, (ptrdiff_t)sizeof(int32_t), _Alignof(int32_t), L.capind);
    if (!L.toks || !L.ind) {
        memset(out, 0, sizeof *out);
        return;
    }
    L.ind[0] = 0;
    L.nind = 1;
    L.bol = 1;
    const unsigned char *s = L.s;
    const unsigned char *cls = L.cls;
    ptrdiff_t n = len;
    ptrdiff_t i = 0;
    if (n >= 3 && memcmp(src, "\xef\xbb\xbf", 3) == 0)
        i = 3;
    int at_line_start = 1;

    while (i < n && !L.failed) {
        if (at_line_start) {
            at_line_start = 0;
            i = line_start(&L, i);
            continue;
        }
        unsigned char c = s[i];
        switch (cls_of(cls, c)) {
        case C_SPACE:
            i++;
            while (i < n && cls_of(cls, s[i]) == C_SPACE)
                i++;
            L.space = 1;
            continue;
        case C_NL:
            if (L.depth == 0 && L.logical) {
                push(&L, PY_NEWLINE, i, 1, 0, 0);
                L.logical = 0;
            }
            i++;
            L.bol = 1;
            L.space = 1;
            L.newline = 1;
            at_line_start = L.depth == 0;
            continue;
        case C_BACKSLASH: {
            ptrdiff_t j = i + 1;
            if (j < n && s[j] == '\r')
                j++;
            if (j < n && s[j] == '\n') {
                i = j + 1; /* a line join: no NEWLINE, no indentation */
                L.bol = 1;
                L.space = 1;
                L.newline = 1;
                continue;
            }
            push(&L, PY_UNKNOWN, i, 1, 0, 0);
            i++;
            break;
        }
        case C_HASH: {
            const unsigned char *nl = memchr(s + i, '\n', (size_t)(n - i));
            ptrdiff_t e = nl ? nl - s : n;
            if (nl && e > i + 1 && s[e - 1] == '\r')
                e--;
            push(&L, PY_COMMENT, i, e - i, 0, 0);
            L.space = 1;
            i = e;
            continue;
        }
        case C_IDENT: {
            ptrdiff_t j = i + 1;
            while (j < n && is_idch(cls, s[j]))
                j++;
            unsigned bits;
            if (j < n && (s[j] == '"' || s[j] == '\'') && string_prefix(s, i, j, &bits)) {
                i = lex_string(&L, i, j, bits);
                break;
            }
            push(&L, PY_NAME, i, j - i, 0, 0);
            i = j;
            break;
        }
        case C_QUOTE:
            i = lex_string(&L, i, i, 0);
            break;
        case C_DIGIT: {
            ptrdiff_t j = scan_number(&L, i);
            push(&L, PY_NUMBER, i, j - i, 0, 0);
            i = j;
            break;
        }
        case C_DOT:
            if (i + 1 < n && cls_of(cls, s[i + 1]) == C_DIGIT) {
                ptrdiff_t j = scan_number(&L, i);
                push(&L, PY_NUMBER, i, j - i, 0, 0);
                i = j;
            } else {
                i += lex_op(&L, i);
            }
            break;
        case C_OPEN:
            push(&L, PY_OP, i, 1, c, 0);
            L.depth++;
            i++;
            break;
        case C_CLOSE:
            push(&L, PY_OP, i, 1, c, 0);
            if (L.depth > 0)
                L.depth--;
            i++;
            break;
        case C_AT:
            if (!L.logical && L.depth == 0 && !(i + 1 < n && s[i + 1] == '=')) {
                push(&L, PY_DECORATOR, i, 1, '@', 0);
                i++;
            } else {
                i += lex_op(&L, i);
            }
            break;
        case C_OP:
            i += lex_op(&L, i);
            break;
        default:
            push(&L, PY_UNKNOWN, i, 1, 0, 0);
            i++;
            break;
        }
        L.logical = 1;
    }
    if (L.logical)
        push(&L, PY_NEWLINE, n, 0, 0, 0);
    while (L.nind > 1) {
        L.nind--;
        push(&L, PY_DEDENT, n, 0, 0, 0);
    }
    push(&L, PY_EOF, n, 0, 0, 0);
    if (L.failed) {
        memset(out, 0, sizeof *out);
        return;
    }
    L.n--;
    out->toks = L.toks;
    out->n = L.n;
    out->unterminated = L.unterminated;
}

hp_str pylex_string_body(const char *src, const pytok *t)
{
    hp_str r = {src + t->off, 0};
    if (t->kind != PY_STRING)
        return r;
    ptrdiff_t q = PS_PREFIX_LEN(t->sub);
    ptrdiff_t ql = (t->sub & PS_TRIPLE) ? 3 : 1;
    ptrdiff_t b = q + ql, e = t->len;
    if (!(t->flags & PF_UNTERM) && e - ql >= b)
        e -= ql;
    if (b > e)
        b = e;
    r.s = src + t->off + b;
    r.len = e - b;
    return r;
}
