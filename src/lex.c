/* lex.c: C, C++ and CUDA tokenizer. Every byte sequence is accepted; nothing is read past len. */
#include "lex.h"

#include <pthread.h>
#include <string.h>

#include "banned.h"

/* Character classes for the first byte of a token. */
enum {
    C_OTHER = 0, /* starts TK_UNKNOWN */
    C_SPACE,     /* space, tab, vertical tab, form feed, CR */
    C_NL,
    C_IDENT,     /* letter, '_', '$', byte >= 0x80 */
    C_DIGIT,
    C_QUOTE,     /* " */
    C_APOS,      /* ' */
    C_SLASH,
    C_HASH,
    C_LT,
    C_GT,
    C_DOT,
    C_PUNCT,     /* other operators and separators */
    C_BACKSLASH
};

static unsigned char cls[256];
static unsigned char is_idch[256]; /* identifier continuation */
static pthread_once_t cls_once = PTHREAD_ONCE_INIT;

static void init_tables(void)
{
    for (int c = 0; c < 256; c++) {
        unsigned char k = C_OTHER;
        if (c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r')
            k = C_SPACE;
        else if (c == '\n')
            k = C_NL;
        else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' ||
                 c >= 0x80)
            k = C_IDENT;
        else if (c >= '0' && c <= '9')
            k = C_DIGIT;
        else if (c == '"')
            k = C_QUOTE;
        else if (c == '\'')
            k = C_APOS;
        else if (c == '/')
            k = C_SLASH;
        else if (c == '#')
            k = C_HASH;
        else if (c == '<')
            k = C_LT;
        else if (c == '>')
            k = C_GT;
        else if (c == '.')
            k = C_DOT;
        else if (c == '\\')
            k = C_BACKSLASH;
        else if (strchr("+-*%&|^!~=?:;,()[]{}", c) && c != 0)
            k = C_PUNCT;
        cls[c] = k;
        is_idch[c] = (unsigned char)(k == C_IDENT || k == C_DIGIT);
    }
}

typedef struct lexer {
    const unsigned char *s;
    ptrdiff_t len;
    ptrdiff_t i;
    arena *a;
    tok *toks;
    ptrdiff_t n, cap;
    int in_pp;        /* inside a directive */
    int pp_include;   /* the directive is #include and its operand is next */
    int pp_want_name; /* the token after '#' names the directive */
    int bol;          /* no token yet on this line */
    int space;        /* whitespace seen since the last token */
    int newline;      /* a newline seen since the last token */
    int launch_open;  /* <<< not yet closed (counted apart inside a directive) */
    int launch_saved; /* the count outside the current directive */
    int unterminated;
    ptrdiff_t pp_hash; /* index of the current directive's '#' token */
} lexer;

static void push(lexer *L, tok_kind kind, ptrdiff_t off, ptrdiff_t len, unsigned sub,
                 unsigned extra)
{
    if (L->n == L->cap) {
        ptrdiff_t ncap = L->cap * 2;
        L->toks = arena_grow(L->a, L->toks, L->cap * (ptrdiff_t)sizeof(tok),
                             ncap * (ptrdiff_t)sizeof(tok), _Alignof(tok));
        if (!L->toks) { /* only without a recovery point: give up on the rest */
            L->cap = 0;
            L->n = 0;
            L->i = L->len;
            return;
        }
        L->cap = ncap;
    }
    tok *t = &L->toks[L->n++];
    t->off = (int32_t)off;
    t->len = (int32_t)len;
    t->kind = (uint8_t)kind;
    t->sub = (uint16_t)sub;
    t->flags = (uint8_t)(extra | (L->bol ? TF_BOL : 0) | (L->space ? TF_SPACE : 0) |
                         (L->in_pp ? TF_PP : 0) | (L->newline ? TF_NEWLINE : 0));
    if (kind != TK_COMMENT && kind != TK_PP_END)
        L->bol = 0;
    L->space = 0;
    L->newline = 0;
}

/* Length of a line splice (backslash, optional spaces, newline) at i, or 0. */
static ptrdiff_t splice_len(const lexer *L, ptrdiff_t i)
{
    if (i >= L->len || L->s[i] != '\\')
        return 0;
    ptrdiff_t j = i + 1;
    while (j < L->len && (L->s[j] == ' ' || L->s[j] == '\t'))
        j++;
    if (j < L->len && L->s[j] == '\r')
        j++;
    if (j < L->len && L->s[j] == '\n')
        return j + 1 - i;
    return 0;
}

static void end_directive(lexer *L, ptrdiff_t at)
{
    if (!L->in_pp)
        return;
    push(L, TK_PP_END, at, 0, 0, 0);
    L->in_pp = 0;
    L->launch_open = L->launch_saved;
    L->pp_include = 0;
    L->pp_want_name = 0;
}

/* Scans a quoted literal starting at the opening quote q; returns the end (exclusive). */
static ptrdiff_t scan_quoted(lexer *L, ptrdiff_t q, unsigned char quote, int *unterm)
{
    const unsigned char *s = L->s;
    ptrdiff_t i = q + 1, n = L->len;
    for (;;) {
        /* Fast scan to the next interesting byte. */
        while (i < n && s[i] != quote && s[i] != '\\' && s[i] != '\n')
            i++;
        if (i >= n) {
            *unterm = 1;
            return n;
        }
        if (s[i] == quote)
            return i + 1;
        if (s[i] == '\n') {
            *unterm = 1;
            /* The newline is not part of the literal; a CR before it is. */
            return i;
        }
        /* backslash: a splice or an escape; either way skip the next byte (CRLF: two) */
        ptrdiff_t sp = splice_len(L, i);
        if (sp) {
            i += sp;
            continue;
        }
        i += 2;
        if (i > n) {
            *unterm = 1;
            return n;
        }
    }
}

/* Raw string R"delim( ... )delim" starting at the quote q. Returns the end, or -1 if the
 * delimiter is malformed (then the literal is lexed as an ordinary string). */
static ptrdiff_t scan_raw(lexer *L, ptrdiff_t q, int *unterm)
{
    const unsigned char *s = L->s;
    ptrdiff_t i = q + 1, n = L->len;
    ptrdiff_t d0 = i;
    while (i < n && i - d0 <= 16 && s[i] != '(') {
        unsigned char c = s[i];
        if (c == ' ' || c == ')' || c == '\\' || c == '\t' || c == '\v' || c == '\f' ||
            c == '\n' || c == '\r' || c == '"')
            return -1;
        i++;
    }
    if (i >= n || s[i] != '(' || i - d0 > 16)
        return -1;
    ptrdiff_t dlen = i - d0;
    i++;
    for (; i < n; i++) {
        if (s[i] != ')')
            continue;
        if (i + 1 + dlen < n && memcmp(s + i + 1, s + d0, (size_t)dlen) == 0 &&
            s[i + 1 + dlen] == '"')
            return i + 2 + dlen;
    }
    *unterm = 1;
    return n;
}

static ptrdiff_t scan_ident(const lexer *L, ptrdiff_t i)
{
    const unsigned char *s = L->s;
    ptrdiff_t n = L->len;
    while (i < n && is_idch[s[i]])
        i++;
    return i;
}

static ptrdiff_t scan_number(const lexer *L, ptrdiff_t i)
{
    const unsigned char *s = L->s;
    ptrdiff_t n = L->len;
    i++;
    while (i < n) {
        unsigned char c = s[i];
        if (is_idch[c] || c == '.') {
            if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') && i + 1 < n &&
                (s[i + 1] == '+' || s[i + 1] == '-'))
                i += 2;
            else
                i++;
        } else if (c == '\'' && i + 1 < n && is_idch[s[i + 1]]) {
            i += 2; /* digit separator */
        } else {
            break;
        }
    }
    return i;
}

static unsigned directive_code(const unsigned char *s, ptrdiff_t len)
{
#define IS(lit) (len == (ptrdiff_t)sizeof(lit) - 1 && memcmp(s, lit, sizeof(lit) - 1) == 0)
    if (IS("include") || IS("include_next") || IS("import"))
        return PP_INCLUDE;
    if (IS("define"))
        return PP_DEFINE;
    if (IS("undef"))
        return PP_UNDEF;
    if (IS("if"))
        return PP_IF;
    if (IS("ifdef"))
        return PP_IFDEF;
    if (IS("ifndef"))
        return PP_IFNDEF;
    if (IS("elif") || IS("elifdef") || IS("elifndef"))
        return PP_ELIF;
    if (IS("else"))
        return PP_ELSE;
    if (IS("endif"))
        return PP_ENDIF;
    if (IS("pragma"))
        return PP_PRAGMA;
    if (IS("error") || IS("warning"))
        return PP_ERROR;
    if (IS("line"))
        return PP_LINE;
#undef IS
    return PP_NONE;
}

/* Is s[i..j) a string or char prefix (u8, u, U, L, R, u8R, uR, UR, LR)? raw set for R forms. */
static int literal_prefix(const unsigned char *s, ptrdiff_t i, ptrdiff_t j, int *raw)
{
    ptrdiff_t len = j - i;
    *raw = 0;
    if (len < 1 || len > 3)
        return 0;
    if (s[j - 1] == 'R') {
        *raw = 1;
        len--;
        j--;
        if (len == 0)
            return 1;
    }
    if (len == 1)
        return s[i] == 'u' || s[i] == 'U' || s[i] == 'L';
    if (len == 2)
        return s[i] == 'u' && s[i + 1] == '8';
    return 0;
}

static void lex_punct(lexer *L, ptrdiff_t i)
{
    const unsigned char *s = L->s;
    ptrdiff_t n = L->len;
    unsigned char c = s[i];
    unsigned char c1 = i + 1 < n ? s[i + 1] : 0;
    unsigned char c2 = i + 2 < n ? s[i + 2] : 0;
    unsigned code = c;
    ptrdiff_t len = 1;
    switch (c) {
    case '-':
        if (c1 == '>') {
            if (c2 == '*') {
                code = P_ARROWSTAR;
                len = 3;
            } else {
                code = P_ARROW;
                len = 2;
            }
        } else if (c1 == '-') {
            code = P_DEC;
            len = 2;
        } else if (c1 == '=') {
            code = P_ASSIGN_OP;
            len = 2;
        }
        break;
    case '+':
        if (c1 == '+') {
            code = P_INC;
            len = 2;
        } else if (c1 == '=') {
            code = P_ASSIGN_OP;
            len = 2;
        }
        break;
    case ':':
        if (c1 == ':') {
            code = P_SCOPE;
            len = 2;
        }
        break;
    case '&':
        if (c1 == '&') {
            code = P_ANDAND;
            len = 2;
        } else if (c1 == '=') {
            code = P_ASSIGN_OP;
            len = 2;
        }
        break;
    case '|':
        if (c1 == '|') {
            code = P_OROR;
            len = 2;
        } else if (c1 == '=') {
            code = P_ASSIGN_OP;
            len = 2;
        }
        break;
    case '=':
        if (c1 == '=') {
            code = P_EQ;
            len = 2;
        }
        break;
    case '!':
        if (c1 == '=') {
            code = P_NE;
            len = 2;
        }
        break;
    case '*':
    case '%':
    case '^':
        if (c1 == '=') {
            code = P_ASSIGN_OP;
            len = 2;
        }
        break;
    case '/':
        if (c1 == '=') {
            code = P_ASSIGN_OP;
            len = 2;
        }
        break;
    case '.':
        if (c1 == '.' && c2 == '.') {
            code = P_ELLIPSIS;
            len = 3;
        } else if (c1 == '*') {
            code = P_DOTSTAR;
            len = 2;
        }
        break;
    case '#':
        if (c1 == '#') {
            code = P_HASHHASH;
            len = 2;
        }
        break;
    case '<':
        if (c1 == '<') {
            if (c2 == '<') {
                /* operator<<<T> is operator<< followed by a template argument list */
                int after_operator = 0;
                if (L->n > 0) {
                    const tok *p = &L->toks[L->n - 1];
                    after_operator = p->kind == TK_IDENT && p->len == 8 &&
                                     memcmp(s + p->off, "operator", 8) == 0;
                }
                if (!after_operator) {
                    push(L, TK_LAUNCH_OPEN, i, 3, 0, 0);
                    L->launch_open++;
                    L->i = i + 3;
                    return;
                }
                code = P_SHL;
                len = 2;
            } else if (c2 == '=') {
                code = P_ASSIGN_OP;
                len = 3;
            } else {
                code = P_SHL;
                len = 2;
            }
        } else if (c1 == '=') {
            if (c2 == '>') {
                code = P_SPACESHIP;
                len = 3;
            } else {
                code = P_LE;
                len = 2;
            }
        }
        break;
    case '>':
        if (c1 == '>') {
            if (c2 == '>' && L->launch_open > 0) {
                push(L, TK_LAUNCH_CLOSE, i, 3, 0, 0);
                L->launch_open--;
                L->i = i + 3;
                return;
            }
            if (c2 == '=') {
                code = P_ASSIGN_OP;
                len = 3;
            } else {
                code = P_SHR;
                len = 2;
            }
        } else if (c1 == '=') {
            code = P_GE;
            len = 2;
        }
        break;
    default:
        break;
    }
    push(L, TK_PUNCT, i, len, code, 0);
    L->i = i + len;
}

void lex_all(arena *a, const char *src, ptrdiff_t len, lex_out *out)
{
    pthread_once(&cls_once, init_tables);
    lexer L;
    memset(&L, 0, sizeof L);
    L.s = (const unsigned char *)src;
    L.len = len;
    L.a = a;
    L.cap = len / 5 + 64;
    L.toks = arena_alloc_nozero(a, (ptrdiff_t)sizeof(tok), _Alignof(tok), L.cap);
    if (!L.toks)
        L.cap = 0;
    L.bol = 1;
    if (len >= 3 && memcmp(src, "\xef\xbb\xbf", 3) == 0)
        L.i = 3; /* a UTF-8 byte order mark is not a token */
    const unsigned char *s = L.s;
    ptrdiff_t n = len;

    while (L.i < n && L.cap) {
        ptrdiff_t i = L.i;
        unsigned char c = s[i];
        switch (cls[c]) {
        case C_SPACE:
            i++;
            while (i < n && cls[s[i]] == C_SPACE)
                i++;
            L.space = 1;
            L.i = i;
            break;
        case C_NL:
            end_directive(&L, i);
            L.i = i + 1;
            L.bol = 1;
            L.space = 1;
            L.newline = 1;
            break;
        case C_BACKSLASH: {
            ptrdiff_t sp = splice_len(&L, i);
            if (sp) {
                L.i = i + sp;
                L.space = 1;
            } else {
                push(&L, TK_UNKNOWN, i, 1, 0, 0);
                L.i = i + 1;
            }
            break;
        }
        case C_IDENT: {
            ptrdiff_t j = scan_ident(&L, i + 1);
            int raw;
            if (j < n && (s[j] == '"' || s[j] == '\'') && literal_prefix(s, i, j, &raw) &&
                !(raw && s[j] == '\'')) {
                int unterm = 0;
                ptrdiff_t e = -1;
                if (raw)
                    e = scan_raw(&L, j, &unterm);
                if (e < 0)
                    e = scan_quoted(&L, j, s[j], &unterm);
                if (e < n && cls[s[e]] == C_IDENT && !unterm)
                    e = scan_ident(&L, e + 1); /* user-defined literal suffix */
                L.unterminated |= unterm;
                push(&L, s[j] == '"' ? TK_STRING : TK_CHAR, i, e - i, 0,
                     unterm ? TF_UNTERM : 0);
                L.i = e;
                break;
            }
            if (L.pp_want_name) {
                L.pp_want_name = 0;
                unsigned code = directive_code(s + i, j - i);
                L.toks[L.pp_hash].sub = (uint16_t)code;
                L.pp_include = code == PP_INCLUDE;
                push(&L, TK_IDENT, i, j - i, 0, 0);
                L.i = j;
                break;
            }
            push(&L, TK_IDENT, i, j - i, 0, 0);
            L.pp_include = 0;
            L.i = j;
            break;
        }
        case C_DIGIT: {
            ptrdiff_t j = scan_number(&L, i);
            push(&L, TK_NUMBER, i, j - i, 0, 0);
            L.pp_want_name = 0;
            L.i = j;
            break;
        }
        case C_DOT:
            if (i + 1 < n && cls[s[i + 1]] == C_DIGIT) {
                ptrdiff_t j = scan_number(&L, i);
                push(&L, TK_NUMBER, i, j - i, 0, 0);
                L.i = j;
            } else {
                lex_punct(&L, i);
            }
            break;
        case C_QUOTE:
        case C_APOS: {
            int unterm = 0;
            ptrdiff_t e = scan_quoted(&L, i, c, &unterm);
            if (e < n && cls[s[e]] == C_IDENT && !unterm)
                e = scan_ident(&L, e + 1);
            L.unterminated |= unterm;
            push(&L, c == '"' ? TK_STRING : TK_CHAR, i, e - i, 0, unterm ? TF_UNTERM : 0);
            L.pp_include = 0;
            L.i = e;
            break;
        }
        case C_SLASH:
            if (i + 1 < n && s[i + 1] == '/') {
                /* line comment; a splice continues it */
                ptrdiff_t j = i + 2;
                for (;;) {
                    const unsigned char *nl = memchr(s + j, '\n', (size_t)(n - j));
                    if (!nl) {
                        j = n;
                        break;
                    }
                    j = nl - s;
                    ptrdiff_t k = j;
                    if (k > i + 2 && s[k - 1] == '\r')
                        k--;
                    while (k > i + 2 && (s[k - 1] == ' ' || s[k - 1] == '\t'))
                        k--;
                    if (k > i + 2 && s[k - 1] == '\\') {
                        j++;
                        continue;
                    }
                    break;
                }
                /* A CR before the newline stays outside the comment (as whitespace). */
                ptrdiff_t e = j;
                if (e > i + 2 && e < n && s[e - 1] == '\r')
                    e--;
                push(&L, TK_COMMENT, i, e - i, 0, 0);
                L.i = e;
                L.space = 1;
            } else if (i + 1 < n && s[i + 1] == '*') {
                ptrdiff_t j = i + 2;
                int unterm = 1;
                while (j < n) {
                    const unsigned char *st = memchr(s + j, '*', (size_t)(n - j));
                    if (!st) {
                        j = n;
                        break;
                    }
                    j = st - s + 1;
                    if (j < n && s[j] == '/') {
                        j++;
                        unterm = 0;
                        break;
                    }
                }
                if (unterm)
                    j = n;
                L.unterminated |= unterm;
                int had_nl = memchr(s + i, '\n', (size_t)(j - i)) != NULL;
                push(&L, TK_COMMENT, i, j - i, 0, unterm ? TF_UNTERM : 0);
                if (had_nl && !L.in_pp)
                    L.newline = 1;
                L.i = j;
                L.space = 1;
            } else {
                lex_punct(&L, i);
            }
            break;
        case C_HASH:
            if (L.bol && !L.in_pp) {
                L.in_pp = 1;
                L.launch_saved = L.launch_open;
                L.launch_open = 0;
                L.pp_hash = L.n;
                L.pp_want_name = 1;
                L.pp_include = 0;
                push(&L, TK_PP_HASH, i, 1, PP_NONE, 0);
                L.i = i + 1;
            } else {
                lex_punct(&L, i);
            }
            break;
        case C_LT:
            if (L.pp_include) {
                ptrdiff_t j = i + 1;
                while (j < n && s[j] != '>' && s[j] != '\n')
                    j++;
                if (j < n && s[j] == '>') {
                    push(&L, TK_HEADER, i, j + 1 - i, 0, 0);
                    L.pp_include = 0;
                    L.i = j + 1;
                    break;
                }
            }
            lex_punct(&L, i);
            break;
        case C_GT:
        case C_PUNCT:
            lex_punct(&L, i);
            break;
        default:
            push(&L, TK_UNKNOWN, i, 1, 0, 0);
            L.i = i + 1;
            break;
        }
        if (L.pp_want_name && L.n > 0 && L.toks[L.n - 1].kind != TK_PP_HASH &&
            L.toks[L.n - 1].kind != TK_COMMENT)
            L.pp_want_name = 0;
    }
    end_directive(&L, n);
    push(&L, TK_EOF, n, 0, 0, 0);
    if (L.cap == 0) { /* allocation failed without a recovery point */
        out->toks = NULL;
        out->n = 0;
        out->unterminated = 0;
        return;
    }
    L.n--;
    out->toks = L.toks;
    out->n = L.n;
    out->unterminated = L.unterminated;
}

void lines_build(arena *a, const char *src, ptrdiff_t len, lines *l)
{
    ptrdiff_t cnt = 1;
    for (const char *p = src, *e = src + len; p < e;) {
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        if (!nl)
            break;
        cnt++;
        p = nl + 1;
    }
    l->start = NEW(a, int32_t, cnt);
    l->n = cnt;
    if (!l->start) {
        l->n = 0;
        return;
    }
    ptrdiff_t k = 0;
    l->start[k++] = 0;
    for (const char *p = src, *e = src + len; p < e && k < cnt;) {
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        if (!nl)
            break;
        l->start[k++] = (int32_t)(nl + 1 - src);
        p = nl + 1;
    }
}

ptrdiff_t lines_find(const lines *l, ptrdiff_t off)
{
    ptrdiff_t lo = 0, hi = l->n - 1;
    if (hi < 0)
        return 0;
    while (lo < hi) {
        ptrdiff_t mid = lo + (hi - lo + 1) / 2;
        if (l->start[mid] <= off)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}


ptrdiff_t lex_match(const tok *t, ptrdiff_t nt, ptrdiff_t open)
{
    if (open < 0 || open >= nt || t[open].kind != TK_PUNCT)
        return -1;
    unsigned stack[256];
    int depth = 0;
    unsigned want = lex_closer(t[open].sub);
    if (!want)
        return -1;
    stack[depth++] = want;
    for (ptrdiff_t i = lex_next(t, nt, open); i < nt; i = lex_next(t, nt, i)) {
        const tok *k = &t[i];
        if (k->kind == TK_PP_END)
            return -1;
        if (k->kind != TK_PUNCT)
            continue;
        unsigned c = lex_closer(k->sub);
        if (c) {
            if (depth == (int)(sizeof stack / sizeof *stack))
                return -1;
            stack[depth++] = c;
        } else if (k->sub == ')' || k->sub == ']' || k->sub == '}') {
            if (stack[depth - 1] != k->sub)
                return -1; /* unbalanced: give up rather than guess */
            if (--depth == 0)
                return i;
        }
    }
    return -1;
}

ptrdiff_t lex_match_back(const tok *t, ptrdiff_t nt, ptrdiff_t close)
{
    if (close < 0 || close >= nt || t[close].kind != TK_PUNCT)
        return -1;
    unsigned want = t[close].sub;
    if (want != ')' && want != ']' && want != '}')
        return -1;
    unsigned stack[256];
    int depth = 0;
    stack[depth++] = want;
    for (ptrdiff_t i = lex_prev(t, nt, close); i >= 0; i = lex_prev(t, nt, i)) {
        const tok *k = &t[i];
        if (k->kind != TK_PUNCT)
            continue;
        unsigned c = k->sub;
        if (c == ')' || c == ']' || c == '}') {
            if (depth == (int)(sizeof stack / sizeof *stack))
                return -1;
            stack[depth++] = c;
        } else if (c == '(' || c == '[' || c == '{') {
            if (lex_closer(c) != stack[depth - 1])
                return -1;
            if (--depth == 0)
                return i;
        }
    }
    return -1;
}
