/* lex.c: C, C++ and CUDA tokenizer. Every byte sequence is accepted; nothing is read past len. */
#include "lex.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "hash.h"

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
    C_PUNCT1,    /* ( ) [ ] { } ; , ? ~: always one character */
    C_PUNCT,     /* other operators: + - * % & | ^ ! = : */
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
        else if (c != 0 && strchr("()[]{};,?~", c))
            k = C_PUNCT1;
        else if (c != 0 && strchr("+-*%&|^!=:", c))
            k = C_PUNCT;
        cls[c] = k;
        is_idch[c] = (unsigned char)(k == C_IDENT || k == C_DIGIT);
    }
}

/* The scanners below are pure: they read s[0..n) and return a position. */

/* Length of a line splice (backslash, optional spaces, newline) at i, or 0. */
static inline ptrdiff_t splice_len(const unsigned char *s, ptrdiff_t n, ptrdiff_t i)
{
    if (i >= n || s[i] != '\\')
        return 0;
    ptrdiff_t j = i + 1;
    while (j < n && (s[j] == ' ' || s[j] == '\t'))
        j++;
    if (j < n && s[j] == '\r')
        j++;
    if (j < n && s[j] == '\n')
        return j + 1 - i;
    return 0;
}

/* The lexer's scanners of the commonest tokens are inlined into it whatever the compiler
 * weighs: a call per identifier costs more than the scan. The lexer is
 * inlined twice (lex_all, lex_all_marked), which is past what GCC inlines on its own. */
#if defined(__GNUC__)
#define LEX_INLINE inline __attribute__((always_inline))
#else
#define LEX_INLINE inline
#endif

/* Scans a quoted literal starting at the opening quote q; returns the end (exclusive). */
static ptrdiff_t scan_quoted(const unsigned char *s, ptrdiff_t n, ptrdiff_t q,
                             unsigned char quote, int *unterm)
{
    ptrdiff_t i = q + 1;
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
        ptrdiff_t sp = splice_len(s, n, i);
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
static ptrdiff_t scan_raw(const unsigned char *s, ptrdiff_t n, ptrdiff_t q, int *unterm)
{
    ptrdiff_t i = q + 1;
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

static LEX_INLINE ptrdiff_t scan_ident(const unsigned char *s, ptrdiff_t n, ptrdiff_t i)
{
#ifdef __SSE2__
    /* sixteen bytes at a time: the end is found with no branch per byte */
    while (i + 16 <= n) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        __m128i lower = _mm_or_si128(v, _mm_set1_epi8(0x20));
        __m128i alpha = _mm_and_si128(_mm_cmpgt_epi8(lower, _mm_set1_epi8('a' - 1)),
                                      _mm_cmplt_epi8(lower, _mm_set1_epi8('z' + 1)));
        __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
                                      _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
        __m128i other = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('_')),
                                     _mm_cmpeq_epi8(v, _mm_set1_epi8('$')));
        __m128i high = _mm_cmplt_epi8(v, _mm_setzero_si128()); /* bytes >= 0x80 */
        __m128i id = _mm_or_si128(_mm_or_si128(alpha, digit), _mm_or_si128(other, high));
        unsigned m = ~(unsigned)_mm_movemask_epi8(id) & 0xffffu;
        if (m)
            return i + __builtin_ctz(m);
        i += 16;
    }
#endif
    /* four bytes a check of the bound while they are there */
    for (; i + 4 <= n; i += 4) {
        if (!is_idch[s[i]])
            return i;
        if (!is_idch[s[i + 1]])
            return i + 1;
        if (!is_idch[s[i + 2]])
            return i + 2;
        if (!is_idch[s[i + 3]])
            return i + 3;
    }
    while (i < n && is_idch[s[i]])
        i++;
    return i;
}

static ptrdiff_t scan_number(const unsigned char *s, ptrdiff_t n, ptrdiff_t i)
{
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

/* The end of a // comment starting at i; a splice continues it. A CR before the newline stays
 * outside the comment (as whitespace). */
static LEX_INLINE ptrdiff_t scan_line_comment(const unsigned char *s, ptrdiff_t n, ptrdiff_t i)
{
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
    if (j > i + 2 && j < n && s[j - 1] == '\r')
        j--;
    return j;
}

/* The end of a block comment starting at i (n if unterminated). */
static LEX_INLINE ptrdiff_t scan_block_comment(const unsigned char *s, ptrdiff_t n, ptrdiff_t i,
                                    int *unterm)
{
    ptrdiff_t j = i + 2;
    while (j < n) {
        const unsigned char *st = memchr(s + j, '*', (size_t)(n - j));
        if (!st)
            break;
        j = st - s + 1;
        if (j < n && s[j] == '/')
            return j + 1;
    }
    *unterm = 1;
    return n;
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

/* What "<<<" and ">>>" may be; the caller decides with the lexer's state. */
enum { P_MAYBE_LAUNCH_OPEN = 1000, P_MAYBE_LAUNCH_CLOSE };

/* The operator starting at s[i] (not one of C_PUNCT1): its code, and its length in *plen. */
static LEX_INLINE unsigned punct(const unsigned char *s, ptrdiff_t n, ptrdiff_t i,
                                 ptrdiff_t *plen)
{
    unsigned char c = s[i];
    unsigned char c1 = i + 1 < n ? s[i + 1] : 0;
    unsigned char c2 = i + 2 < n ? s[i + 2] : 0;
    *plen = 2;
    switch (c) {
    case '-':
        if (c1 == '>') {
            if (c2 == '*') {
                *plen = 3;
                return P_ARROWSTAR;
            }
            return P_ARROW;
        }
        if (c1 == '-')
            return P_DEC;
        if (c1 == '=')
            return P_ASSIGN_OP;
        break;
    case '+':
        if (c1 == '+')
            return P_INC;
        if (c1 == '=')
            return P_ASSIGN_OP;
        break;
    case ':':
        if (c1 == ':')
            return P_SCOPE;
        break;
    case '&':
        if (c1 == '&')
            return P_ANDAND;
        if (c1 == '=')
            return P_ASSIGN_OP;
        break;
    case '|':
        if (c1 == '|')
            return P_OROR;
        if (c1 == '=')
            return P_ASSIGN_OP;
        break;
    case '=':
        if (c1 == '=')
            return P_EQ;
        break;
    case '!':
        if (c1 == '=')
            return P_NE;
        break;
    case '*':
    case '%':
    case '^':
    case '/':
        if (c1 == '=')
            return P_ASSIGN_OP;
        break;
    case '.':
        if (c1 == '.' && c2 == '.') {
            *plen = 3;
            return P_ELLIPSIS;
        }
        if (c1 == '*')
            return P_DOTSTAR;
        break;
    case '#':
        if (c1 == '#')
            return P_HASHHASH;
        break;
    case '<':
        if (c1 == '<') {
            if (c2 == '<') {
                *plen = 3;
                return P_MAYBE_LAUNCH_OPEN;
            }
            if (c2 == '=') {
                *plen = 3;
                return P_ASSIGN_OP;
            }
            return P_SHL;
        }
        if (c1 == '=') {
            if (c2 == '>') {
                *plen = 3;
                return P_SPACESHIP;
            }
            return P_LE;
        }
        break;
    case '>':
        if (c1 == '>') {
            if (c2 == '>') {
                *plen = 3;
                return P_MAYBE_LAUNCH_CLOSE;
            }
            if (c2 == '=') {
                *plen = 3;
                return P_ASSIGN_OP;
            }
            return P_SHR;
        }
        if (c1 == '=')
            return P_GE;
        break;
    default:
        break;
    }
    *plen = 1;
    return c;
}

/* A launch spelled with blanks inside its chevrons, which nvcc accepts: "<< <" (at the "<<"
 * at i; the token before is the kernel) and, inside an open launch, "> >>", ">> >" or
 * "> > >" followed by '(' (at the first '>'). The length of the whole spelling, or 0. No
 * expression can go on after "<<" with a '<', so the first is never an operator. */
static ptrdiff_t spaced_launch_open(const unsigned char *s, ptrdiff_t n, ptrdiff_t i,
                                    const tok *prev)
{
    if (!prev || !(prev->kind == TK_IDENT || (prev->kind == TK_PUNCT && prev->sub == '>')))
        return 0;
    ptrdiff_t j = i + 2;
    while (j < n && (s[j] == ' ' || s[j] == '\t'))
        j++;
    if (j == i + 2 || j >= n || s[j] != '<' || (j + 1 < n && (s[j + 1] == '<' || s[j + 1] == '=')))
        return 0;
    return j + 1 - i;
}

static ptrdiff_t spaced_launch_close(const unsigned char *s, ptrdiff_t n, ptrdiff_t i)
{
    ptrdiff_t j = i;
    int gts = 0, gaps = 0;
    while (j < n && gts < 3) {
        if (s[j] == '>') {
            gts++;
            j++;
        } else if ((s[j] == ' ' || s[j] == '\t') && gts > 0) {
            while (j < n && (s[j] == ' ' || s[j] == '\t'))
                j++;
            gaps++;
        } else {
            return 0;
        }
    }
    if (gts < 3 || gaps == 0 || (j < n && s[j] == '>'))
        return 0;
    ptrdiff_t end = j;
    while (j < n && (s[j] == ' ' || s[j] == '\t'))
        j++;
    return j < n && s[j] == '(' ? end - i : 0;
}

/* Doubles the token array; 0 when memory runs out (only without a recovery point). */
static int grow(arena *a, tok **toks, ptrdiff_t *cap)
{
    ptrdiff_t ncap = *cap * 2;
    tok *t = arena_grow(a, *toks, *cap * (ptrdiff_t)sizeof(tok), ncap * (ptrdiff_t)sizeof(tok),
                        _Alignof(tok));
    if (!t)
        return 0;
    *toks = t;
    *cap = ncap;
    return 1;
}

/* The lexer keeps its state in locals, so that the compiler can hold it in registers:
 * fl collects the flags of the next token (TF_BOL, TF_SPACE, TF_NEWLINE) and pp is TF_PP
 * inside a directive. A token clears fl; a comment or the end of a directive keeps TF_BOL
 * (a '#' after a comment still starts a directive). Only the first token after '#' (comments
 * aside) can name the directive: any other token clears pp_want_name. */
#define EMIT(kind_, off_, len_, sub_, extra_, keep_)                                         \
    do {                                                                                    \
        if (nt == cap && !grow(a, &toks, &cap))                                             \
            goto oom;                                                                       \
        tok *t_ = &toks[nt++];                                                              \
        t_->off = (int32_t)(off_);                                                          \
        t_->len = (int32_t)(len_);                                                          \
        t_->kind = (uint8_t)(kind_);                                                        \
        t_->sub = (uint16_t)(sub_);                                                         \
        t_->flags = (uint8_t)((extra_) | fl | pp);                                          \
        fl &= (keep_);                                                                      \
    } while (0)
#define PUSH(kind, off, len, sub, extra)                                                     \
    do {                                                                                    \
        EMIT(kind, off, len, sub, extra, 0u);                                               \
        pp_want_name = 0;                                                                   \
    } while (0)
#define PUSH_KEEPBOL(kind, off, len, sub, extra) EMIT(kind, off, len, sub, extra, TF_BOL)
/* The next token, when it is an identifier or a one-character punctuator (three tokens in
 * four), is lexed without a trip through the switch: each token's own branches learn what
 * tends to follow it, where the switch's one indirect jump mispredicts often. */
#define FOLLOW()                                                                            \
    do {                                                                                    \
        if (i < n) {                                                                        \
            c = s[i];                                                                       \
            if (cls[c] == C_IDENT)                                                          \
                goto ident;                                                                 \
            if (cls[c] == C_PUNCT1)                                                         \
                goto punct1;                                                                \
        }                                                                                   \
    } while (0)
/* One blank after a token is taken with it, saving a trip through the dispatch. */
#define ONE_BLANK()                                                                         \
    do {                                                                                    \
        if (i < n && s[i] == ' ') {                                                         \
            fl |= TF_SPACE;                                                                 \
            i++;                                                                            \
        }                                                                                   \
    } while (0)

/* One branch on both bits, which few names pass. */
static LEX_INLINE unsigned filter_pass(const lex_filter *f, const unsigned char *p, ptrdiff_t len)
{
    return hp_shape_test(f->shape, (const char *)p, len) | (len > 255);
}

int lex_filter_pass(const lex_filter *f, const unsigned char *name, ptrdiff_t len)
{
    return len >= 1 && filter_pass(f, name, len);
}

int lex_marked(const lex_filter *f, const char *src, const tok *t)
{
    switch (t->kind) {
    case TK_IDENT:
        return t->len >= 1 && filter_pass(f, (const unsigned char *)src + t->off, t->len);
    case TK_PP_HASH:
    case TK_PP_END:
    case TK_LAUNCH_OPEN:
    case TK_LAUNCH_CLOSE:
        return 1;
    default:
        return 0;
    }
}

/* The marks are listed on the stack while the token array grows, then on the heap (which the
 * arena could not give without moving the token array): a big file's hundred thousand marks
 * are not found again by a pass over millions of tokens. */
#define MARKBUF 4096 /* tests/unit/test_lex.c goes past it */

/* Twice the room for marks, moved off the stack buffer or grown on the heap; 0 where memory
 * runs out. */
static int grow_marks(int32_t **marks, ptrdiff_t *cap, const int32_t *stackbuf)
{
    if (*cap > PTRDIFF_MAX / 8)
        return 0;
    int32_t *m = *marks == stackbuf ? malloc((size_t)*cap * 2 * sizeof *m)
                                    : realloc(*marks, (size_t)*cap * 2 * sizeof *m);
    if (!m)
        return 0;
    if (*marks == stackbuf)
        memcpy(m, stackbuf, (size_t)*cap * sizeof *m);
    *marks = m;
    *cap *= 2;
    return 1;
}

/* Marks the token just pushed (with a filter). */
#define MARK()                                                                              \
    do {                                                                                    \
        if (f) {                                                                            \
            if (nmarks == markcap && !grow_marks(&marks, &markcap, markbuf))                \
                goto oom;                                                                   \
            marks[nmarks++] = (int32_t)(nt - 1);                                            \
        }                                                                                   \
    } while (0)

/* The lexer, once with a filter (lex_all_marked) and once without (lex_all, where f is NULL
 * and the marks' code goes away). */
static LEX_INLINE void lex_run(arena *a, const char *src, ptrdiff_t len, const lex_filter *f,
                               lex_out *out)
{
    pthread_once(&cls_once, init_tables);
    int32_t markbuf[MARKBUF];
    int32_t *marks = markbuf;
    ptrdiff_t nmarks = 0, markcap = MARKBUF;
    /* Memory that runs out fails here, not in the arena: the marks on the heap are freed first,
     * then the arena's recovery point (if any) is taken. */
    jmp_buf *recover = a->oom;
    a->oom = NULL;
    const unsigned char *s = (const unsigned char *)src;
    const ptrdiff_t n = len;
    ptrdiff_t cap = len / 5 + 64, nt = 0;
    tok *toks = arena_alloc_nozero(a, (ptrdiff_t)sizeof(tok), _Alignof(tok), cap);
    if (!toks)
        goto oom;
    unsigned fl = TF_BOL, pp = 0;
    int pp_include = 0;   /* the directive is #include and its operand is next */
    int pp_want_name = 0; /* the token after '#' names the directive */
    int launch_open = 0;  /* <<< not yet closed (counted apart inside a directive) */
    int launch_saved = 0; /* the count outside the current directive */
    int unterminated = 0;
    ptrdiff_t pp_hash = 0; /* index of the current directive's '#' token */
    int32_t dirbuf[1024];  /* the first directives' '#' tokens */
    ptrdiff_t ndirs = 0;
    ptrdiff_t i = 0;
    if (len >= 3 && memcmp(src, "\xef\xbb\xbf", 3) == 0)
        i = 3; /* a UTF-8 byte order mark is not a token */

    while (i < n) {
        unsigned char c = s[i];
        switch (cls[c]) {
        case C_SPACE:
            i++;
            while (i < n && cls[s[i]] == C_SPACE)
                i++;
            fl |= TF_SPACE;
            FOLLOW();
            break;
        case C_NL:
            if (pp) {
                PUSH_KEEPBOL(TK_PP_END, i, 0, 0, 0);
                MARK();
                pp = 0;
                launch_open = launch_saved;
                pp_include = 0;
                pp_want_name = 0;
            }
            fl = TF_BOL | TF_SPACE | TF_NEWLINE;
            i++;
            /* the next line's indentation */
            while (i < n && cls[s[i]] == C_SPACE)
                i++;
            FOLLOW();
            break;
        case C_IDENT:
        ident: {
            ptrdiff_t j = scan_ident(s, n, i + 1);
            int raw;
            if (j < n && (s[j] == '"' || s[j] == '\'') && literal_prefix(s, i, j, &raw) &&
                !(raw && s[j] == '\'')) {
                int unterm = 0;
                ptrdiff_t e = -1;
                if (raw)
                    e = scan_raw(s, n, j, &unterm);
                if (e < 0)
                    e = scan_quoted(s, n, j, s[j], &unterm);
                if (e < n && cls[s[e]] == C_IDENT && !unterm)
                    e = scan_ident(s, n, e + 1); /* user-defined literal suffix */
                unterminated |= unterm;
                PUSH(s[j] == '"' ? TK_STRING : TK_CHAR, i, e - i, 0, unterm ? TF_UNTERM : 0);
                i = e;
                break;
            }
            if (pp_want_name) {
                pp_want_name = 0;
                unsigned code = directive_code(s + i, j - i);
                toks[pp_hash].sub = (uint16_t)code;
                pp_include = code == PP_INCLUDE;
            } else {
                pp_include = 0;
            }
            PUSH(TK_IDENT, i, j - i, 0, 0);
            if (f && filter_pass(f, s + i, j - i))
                MARK();
            i = j;
            ONE_BLANK();
            FOLLOW();
            break;
        }
        case C_PUNCT1:
        punct1:
            PUSH(TK_PUNCT, i, 1, c, 0);
            i++;
            ONE_BLANK();
            FOLLOW();
            break;
        case C_DIGIT: {
            ptrdiff_t j = scan_number(s, n, i);
            PUSH(TK_NUMBER, i, j - i, 0, 0);
            pp_want_name = 0;
            i = j;
            break;
        }
        case C_QUOTE:
        case C_APOS: {
            int unterm = 0;
            ptrdiff_t e = scan_quoted(s, n, i, c, &unterm);
            if (e < n && cls[s[e]] == C_IDENT && !unterm)
                e = scan_ident(s, n, e + 1);
            unterminated |= unterm;
            PUSH(c == '"' ? TK_STRING : TK_CHAR, i, e - i, 0, unterm ? TF_UNTERM : 0);
            pp_include = 0;
            i = e;
            break;
        }
        case C_SLASH:
            if (i + 1 < n && s[i + 1] == '/') {
                ptrdiff_t e = scan_line_comment(s, n, i);
                PUSH_KEEPBOL(TK_COMMENT, i, e - i, 0, 0);
                i = e;
                fl |= TF_SPACE;
                break;
            }
            if (i + 1 < n && s[i + 1] == '*') {
                int unterm = 0;
                ptrdiff_t j = scan_block_comment(s, n, i, &unterm);
                unterminated |= unterm;
                int had_nl = memchr(s + i, '\n', (size_t)(j - i)) != NULL;
                PUSH_KEEPBOL(TK_COMMENT, i, j - i, 0, unterm ? TF_UNTERM : 0);
                if (had_nl && !pp)
                    fl |= TF_NEWLINE;
                fl |= TF_SPACE;
                i = j;
                break;
            }
            goto operator;
        case C_HASH:
            if ((fl & TF_BOL) && !pp) {
                pp = TF_PP;
                launch_saved = launch_open;
                launch_open = 0;
                pp_hash = nt;
                pp_include = 0;
                if (ndirs < (ptrdiff_t)(sizeof dirbuf / sizeof *dirbuf))
                    dirbuf[ndirs] = (int32_t)nt;
                ndirs++;
                PUSH(TK_PP_HASH, i, 1, PP_NONE, 0);
                MARK();
                pp_want_name = 1;
                i++;
                break;
            }
            goto operator;
        case C_LT:
            if (pp_include) {
                ptrdiff_t j = i + 1;
                while (j < n && s[j] != '>' && s[j] != '\n')
                    j++;
                if (j < n && s[j] == '>') {
                    PUSH(TK_HEADER, i, j + 1 - i, 0, 0);
                    pp_include = 0;
                    i = j + 1;
                    break;
                }
            }
            goto operator;
        case C_DOT:
            if (i + 1 < n && cls[s[i + 1]] == C_DIGIT) {
                ptrdiff_t j = scan_number(s, n, i);
                PUSH(TK_NUMBER, i, j - i, 0, 0);
                i = j;
                break;
            }
            goto operator;
        case C_GT:
        case C_PUNCT:
        operator: {
            ptrdiff_t plen;
            unsigned code = punct(s, n, i, &plen);
            if (code == P_MAYBE_LAUNCH_OPEN) {
                /* operator<<<T> is operator<< followed by a template argument list */
                const tok *p = nt > 0 ? &toks[nt - 1] : NULL;
                if (!(p && p->kind == TK_IDENT && p->len == 8 &&
                      memcmp(s + p->off, "operator", 8) == 0)) {
                    PUSH(TK_LAUNCH_OPEN, i, 3, 0, 0);
                    MARK();
                    launch_open++;
                    i += 3;
                    break;
                }
                code = P_SHL;
                plen = 2;
            } else if (code == P_MAYBE_LAUNCH_CLOSE) {
                if (launch_open > 0) {
                    PUSH(TK_LAUNCH_CLOSE, i, 3, 0, 0);
                    MARK();
                    launch_open--;
                    i += 3;
                    break;
                }
                code = P_SHR;
                plen = 2;
            } else if (code == P_SHL || ((code == '>' || code == P_SHR) && launch_open > 0)) {
                /* the rare launches with blanks inside the chevrons */
                ptrdiff_t l = code == P_SHL ? spaced_launch_open(s, n, i, nt ? &toks[nt - 1] : NULL)
                                            : spaced_launch_close(s, n, i);
                if (l) {
                    PUSH(code == P_SHL ? TK_LAUNCH_OPEN : TK_LAUNCH_CLOSE, i, l, 0, 0);
                    MARK();
                    launch_open += code == P_SHL ? 1 : -1;
                    i += l;
                    break;
                }
            }
            PUSH(TK_PUNCT, i, plen, code, 0);
            i += plen;
            ONE_BLANK();
            FOLLOW();
            break;
        }
        case C_BACKSLASH: {
            ptrdiff_t sp = splice_len(s, n, i);
            if (sp) {
                i += sp;
                fl |= TF_SPACE;
                break;
            }
            PUSH(TK_UNKNOWN, i, 1, 0, 0);
            i++;
            break;
        }
        default:
            PUSH(TK_UNKNOWN, i, 1, 0, 0);
            i++;
            break;
        }
    }
    if (pp) {
        PUSH_KEEPBOL(TK_PP_END, n, 0, 0, 0);
        MARK();
        pp = 0;
    }
    PUSH(TK_EOF, n, 0, 0, 0);
    out->toks = toks;
    out->n = nt - 1;
    out->unterminated = unterminated;
    out->dirs = NULL;
    out->ndirs = 0;
    if (ndirs) {
        /* after the token array has stopped growing, so that it grew alone in its block */
        int32_t *d = arena_alloc_nozero(a, (ptrdiff_t)sizeof(int32_t), _Alignof(int32_t), ndirs);
        if (!d)
            goto oom;
        if (ndirs <= (ptrdiff_t)(sizeof dirbuf / sizeof *dirbuf)) {
            memcpy(d, dirbuf, (size_t)ndirs * sizeof *d);
        } else {
            ptrdiff_t k = 0;
            for (ptrdiff_t h = 0; h < nt && k < ndirs; h++)
                if (toks[h].kind == TK_PP_HASH)
                    d[k++] = (int32_t)h;
        }
        out->dirs = d;
        out->ndirs = ndirs;
    }
    out->marks = NULL;
    out->nmarks = 0;
    if (f) {
        int32_t *m = arena_alloc_nozero(a, (ptrdiff_t)sizeof(int32_t), _Alignof(int32_t),
                                        nmarks + 1);
        if (!m)
            goto oom;
        memcpy(m, marks, (size_t)nmarks * sizeof *m);
        out->marks = m;
        out->nmarks = nmarks;
        if (marks != markbuf)
            free(marks);
    }
    a->oom = recover;
    return;
oom:
    if (marks != markbuf)
        free(marks);
    a->oom = recover;
    if (recover)
        longjmp(*recover, 1);
    out->toks = NULL;
    out->n = 0;
    out->unterminated = 0;
    out->dirs = NULL;
    out->ndirs = 0;
    out->marks = NULL;
    out->nmarks = 0;
}

void lex_all(arena *a, const char *src, ptrdiff_t len, lex_out *out)
{
    lex_run(a, src, len, NULL, out);
}

void lex_all_marked(arena *a, const char *src, ptrdiff_t len, const lex_filter *f,
                    lex_out *out)
{
    lex_run(a, src, len, f, out);
}

#undef MARK
#undef PUSH
#undef PUSH_KEEPBOL
#undef EMIT

void lex_idx_init(lex_idx *ix, arena *a, const char *src, const tok *t, ptrdiff_t nt)
{
    memset(ix, 0, sizeof *ix);
    ix->a = a;
    ix->src = src;
    ix->t = t;
    ix->nt = nt;
    ix->budget = nt + 1024;
}

void lex_idx_charge(lex_idx *ix, ptrdiff_t steps)
{
    if (ix->prev)
        return;
    ix->budget -= steps;
    if (ix->budget >= 0)
        return;
    /* one pass: an open-addressing table holds the last occurrence of each name */
    ptrdiff_t nid = 0;
    for (ptrdiff_t i = 0; i < ix->nt; i++)
        nid += ix->t[i].kind == TK_IDENT;
    ptrdiff_t cap = 64;
    while (cap < 2 * nid)
        cap *= 2;
    int32_t *last = arena_alloc_nozero(ix->a, (ptrdiff_t)sizeof(int32_t), _Alignof(int32_t), cap);
    int32_t *prev = arena_alloc_nozero(ix->a, (ptrdiff_t)sizeof(int32_t), _Alignof(int32_t),
                                       ix->nt + 1);
    if (!last || !prev)
        return; /* only without a recovery point: the scans go on */
    memset(last, 0xff, (size_t)cap * sizeof *last);
    const tok *t = ix->t;
    const char *src = ix->src;
    for (ptrdiff_t i = 0; i < ix->nt; i++) {
        prev[i] = -1;
        if (t[i].kind != TK_IDENT)
            continue;
        const char *w = src + t[i].off;
        ptrdiff_t wl = t[i].len;
        uint32_t h = hp_hash(w, wl, 0);
        ptrdiff_t j = (ptrdiff_t)(h & (uint32_t)(cap - 1));
        while (last[j] >= 0) {
            const tok *o = &t[last[j]];
            if (o->len == wl && memcmp(src + o->off, w, (size_t)wl) == 0)
                break;
            j = (j + 1) & (cap - 1);
        }
        prev[i] = last[j];
        last[j] = (int32_t)i;
    }
    prev[ix->nt] = -1;
    ix->prev = prev;
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

ptrdiff_t lex_template_close(const tok *t, ptrdiff_t nt, ptrdiff_t i, ptrdiff_t limit)
{
    int depth = 0;
    int steps = 0;
    for (ptrdiff_t j = i; j < nt && (limit < 0 || j < limit); j = lex_next(t, nt, j)) {
        if (++steps > 256)
            return -1;
        const tok *k = &t[j];
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
        case '[': {
            ptrdiff_t m = lex_match(t, nt, j);
            if (m < 0)
                return -1;
            j = m;
            break;
        }
        case ';':
        case '{':
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

int lex_args_split(const tok *t, ptrdiff_t nt, ptrdiff_t open, ptrdiff_t close, lex_args *out)
{
    memset(out, 0, sizeof *out);
    out->open = open;
    out->close = close;
    ptrdiff_t start = lex_next(t, nt, open);
    if (start == close)
        return 1;
    ptrdiff_t last = open;
    for (ptrdiff_t i = start; i <= close && i < nt; i = lex_next(t, nt, i)) {
        const tok *k = &t[i];
        if (i == close || (k->kind == TK_PUNCT && k->sub == ',')) {
            if (out->n < LEX_MAXARGS) {
                out->first[out->n] = start;
                out->last[out->n] = last;
                out->n++;
            }
            if (i == close)
                break;
            start = lex_next(t, nt, i);
            last = i;
            continue;
        }
        if (k->kind == TK_PUNCT && lex_closer(k->sub)) {
            ptrdiff_t m = lex_match(t, nt, i);
            if (m < 0)
                return 0;
            i = m;
        } else if (k->kind == TK_PUNCT && k->sub == '<') {
            ptrdiff_t p = lex_prev(t, nt, i);
            ptrdiff_t m = p >= 0 && t[p].kind == TK_IDENT ? lex_template_close(t, nt, i, close) : -1;
            if (m >= 0)
                i = m;
        }
        last = i;
    }
    return 1;
}

int lex_args_of(const tok *t, ptrdiff_t nt, ptrdiff_t open, lex_args *out)
{
    ptrdiff_t close = lex_match(t, nt, open);
    if (close < 0) {
        memset(out, 0, sizeof *out);
        out->open = open;
        out->close = -1;
        return 0;
    }
    return lex_args_split(t, nt, open, close, out);
}

int lex_int_literal(hp_str s, unsigned long long *v, int *bits)
{
    ptrdiff_t i = 0;
    int base = 10;
    if (s.len >= 2 && s.s[0] == '0' && (s.s[1] == 'x' || s.s[1] == 'X')) {
        base = 16;
        i = 2;
    } else if (s.len >= 2 && s.s[0] == '0' && (s.s[1] == 'b' || s.s[1] == 'B')) {
        base = 2;
        i = 2;
    } else if (s.len >= 1 && s.s[0] == '0') {
        base = 8; /* the leading 0 is a digit: "0u" is zero */
    }
    unsigned long long x = 0;
    int digits = 0, overflow = 0;
    for (; i < s.len; i++) {
        char ch = s.s[i];
        int d;
        if (ch == '\'')
            continue;
        if (ch >= '0' && ch <= '9')
            d = ch - '0';
        else if (base == 16 && ch >= 'a' && ch <= 'f')
            d = ch - 'a' + 10;
        else if (base == 16 && ch >= 'A' && ch <= 'F')
            d = ch - 'A' + 10;
        else
            break;
        if (d >= base)
            return 0;
        if (x > (~0ull - (unsigned)d) / (unsigned)base)
            overflow = 1;
        x = x * (unsigned)base + (unsigned)d;
        digits++;
    }
    if (!digits || overflow)
        return 0;
    int u = 0, l = 0;
    for (; i < s.len; i++) {
        char ch = s.s[i];
        if (ch == 'u' || ch == 'U')
            u = 1;
        else if (ch == 'l' || ch == 'L' || ch == 'z' || ch == 'Z')
            l++;
        else
            return 0; /* a float, or a user-defined suffix */
    }
    if (l)
        *bits = 64;
    else if (base == 10 && !u)
        *bits = x <= 0x7fffffffull ? 32 : 64;
    else
        *bits = x <= 0xffffffffull ? 32 : 64;
    *v = x;
    return 1;
}

ptrdiff_t lex_find_back(lex_idx *ix, const char *src, const tok *t, ptrdiff_t nt, ptrdiff_t ident,
                        ptrdiff_t from, ptrdiff_t floor, int (*hit)(void *ctx, ptrdiff_t j),
                        void *ctx)
{
    if (ident < 0 || ident >= nt || t[ident].kind != TK_IDENT || from > nt)
        return -1;
    const char *name = src + t[ident].off;
    int32_t len = t[ident].len;
    if (ix && !(t[from].flags & TF_PP)) {
        /* Outside directives a plain walk would visit every earlier token outside directives:
         * the candidates are the identifiers among them with the same text. */
        if (ix->prev) {
            for (ptrdiff_t j = ix->prev[ident]; j >= floor; j = ix->prev[j])
                if (j < from && !(t[j].flags & TF_PP) && hit(ctx, j))
                    return j;
            return -1;
        }
        for (ptrdiff_t j = from - 1; j >= floor; j--) {
            const tok *k = &t[j];
            if (k->kind != TK_IDENT || k->len != len || (k->flags & TF_PP) ||
                memcmp(src + k->off, name, (size_t)len) != 0)
                continue;
            if (hit(ctx, j)) {
                lex_idx_charge(ix, from - j);
                return j;
            }
        }
        lex_idx_charge(ix, from - floor);
        return -1;
    }
    for (ptrdiff_t j = lex_prev(t, nt, from); j >= floor; j = lex_prev(t, nt, j)) {
        const tok *k = &t[j];
        if (k->kind == TK_IDENT && k->len == len && memcmp(src + k->off, name, (size_t)len) == 0 &&
            hit(ctx, j))
            return j;
    }
    return -1;
}

ptrdiff_t lex_find_back_memo(lex_idx *ix, int slot, const char *src, const tok *t,
                             ptrdiff_t nt, ptrdiff_t ident, ptrdiff_t from, ptrdiff_t floor,
                             int (*hit)(void *ctx, ptrdiff_t j), void *ctx)
{
    if (!ix || !ix->prev || ident < 0 || ident >= nt || t[ident].kind != TK_IDENT ||
        from > nt || from < 0 || (t[from].flags & TF_PP))
        return lex_find_back(ix, src, t, nt, ident, from, floor, hit, ctx);
    if (!ix->memo[slot])
        ix->memo[slot] = arena_alloc(ix->a, (ptrdiff_t)sizeof(lex_memo),
                                     (ptrdiff_t)_Alignof(lex_memo), nt + 1);
    lex_memo *m = ix->memo[slot];
    if (!m)
        return lex_find_back(ix, src, t, nt, ident, from, floor, hit, ctx);
    /* m[j], when its key is this search's (floor, and from unless the search starts at
     * ident, where every earlier token is before from): the nearest hit at or before j on
     * j's chain (-1: none); key 0 is no answer */
    int32_t kf = (int32_t)floor + 1, kl = from == ident ? -1 : (int32_t)from;
    ptrdiff_t j = ix->prev[ident];
    while (j >= floor && !(m[j].floor == kf && m[j].lim == kl) &&
           !(j < from && !(t[j].flags & TF_PP) && hit(ctx, j)))
        j = ix->prev[j];
    int known = j >= floor && m[j].floor == kf && m[j].lim == kl;
    int32_t r = j < floor ? -1 : known ? m[j].hit : (int32_t)j;
    for (ptrdiff_t k = ix->prev[ident]; k >= floor && k != j; k = ix->prev[k])
        m[k] = (lex_memo){r, kf, kl};
    if (j >= floor)
        m[j] = (lex_memo){r, kf, kl};
    if (r >= 0 && known)
        hit(ctx, r);
    return r;
}

/* The next byte at or after i that can start or end something a directive-only reader must see
 * (a newline, a comment, a literal, a splice), or n. */
static LEX_INLINE ptrdiff_t next_stop(const unsigned char *s, ptrdiff_t n, ptrdiff_t i)
{
#ifdef __SSE2__
    while (i + 16 <= n) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        __m128i m = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')), _mm_cmpeq_epi8(v, _mm_set1_epi8('/'))),
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                      _mm_cmpeq_epi8(v, _mm_set1_epi8('\''))),
                         _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
        unsigned bits = (unsigned)_mm_movemask_epi8(m);
        if (bits)
            return i + __builtin_ctz(bits);
        i += 16;
    }
#endif
    while (i < n && s[i] != '\n' && s[i] != '/' && s[i] != '"' && s[i] != '\'' && s[i] != '\\')
        i++;
    return i;
}

char *lex_directives(arena *a, const char *src, ptrdiff_t len, ptrdiff_t *outlen)
{
    pthread_once(&cls_once, init_tables);
    *outlen = 0;
    char *out = arena_alloc_nozero(a, 1, 1, len + 1);
    if (!out)
        return NULL;
    const unsigned char *s = (const unsigned char *)src;
    ptrdiff_t n = len, i = 0, o = 0, dir = -1, lo = 0;
    int unterm = 0;
    if (len >= 3 && memcmp(src, "\xef\xbb\xbf", 3) == 0)
        i = 3;
    for (;;) {
        /* the start of a line: blanks, block comments and splices keep it a start (as in
         * the lexer), and a '#' there begins a directive */
        for (;;) {
            while (i < n && cls[s[i]] == C_SPACE)
                i++;
            ptrdiff_t sp;
            if (i + 1 < n && s[i] == '/' && s[i + 1] == '*')
                i = scan_block_comment(s, n, i, &unterm);
            else if ((sp = splice_len(s, n, i)) > 0)
                i += sp;
            else
                break;
        }
        if (i < n && s[i] == '#')
            dir = i;
        /* the rest of the line */
        for (;;) {
            i = next_stop(s, n, i);
            if (i >= n)
                goto done;
            unsigned char c = s[i];
            if (c == '\n') {
                if (dir >= 0) {
                    memcpy(out + o, s + dir, (size_t)(i + 1 - dir));
                    o += i + 1 - dir;
                    dir = -1;
                }
                lo = ++i;
                break;
            }
            if (c == '/') {
                if (i + 1 < n && s[i + 1] == '/')
                    i = scan_line_comment(s, n, i);
                else if (i + 1 < n && s[i + 1] == '*')
                    i = scan_block_comment(s, n, i, &unterm);
                else
                    i++;
            } else if (c == '\\') {
                ptrdiff_t sp = splice_len(s, n, i);
                i += sp ? sp : 1;
            } else {
                /* a literal, or a digit separator: the name or number just before says */
                ptrdiff_t b = i;
                while (b > lo && is_idch[s[b - 1]])
                    b--;
                int raw = 0;
                if (b < i && cls[s[b]] == C_DIGIT) {
                    ptrdiff_t e = scan_number(s, n, b);
                    i = e > i ? e : i + 1;
                } else if (b < i && literal_prefix(s, b, i, &raw) && !(raw && c == '\'')) {
                    ptrdiff_t e = raw ? scan_raw(s, n, i, &unterm) : -1;
                    i = e < 0 ? scan_quoted(s, n, i, c, &unterm) : e;
                } else {
                    i = scan_quoted(s, n, i, c, &unterm);
                }
            }
            lo = i;
        }
    }
done:
    if (dir >= 0) {
        memcpy(out + o, s + dir, (size_t)(n - dir));
        o += n - dir;
        out[o++] = '\n';
    }
    *outlen = o;
    return out;
}
