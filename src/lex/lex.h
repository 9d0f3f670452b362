/* lex.h: C, C++ and CUDA tokens as slices of the file buffer. Accepts any bytes. */
#ifndef HP_LEX_H
#define HP_LEX_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "str.h"

typedef enum tok_kind {
    TK_EOF = 0,
    TK_IDENT,
    TK_NUMBER,
    TK_STRING,   /* any prefix, raw strings, user-defined suffix included */
    TK_CHAR,
    TK_COMMENT,  /* // or block comment, delimiters included */
    TK_PUNCT,    /* sub = the character, or a P_* code for multi-character operators */
    TK_PP_HASH,  /* the '#' that starts a directive; sub = PP_* */
    TK_PP_END,   /* zero-length token at the newline that ends a directive */
    TK_HEADER,   /* <path> in #include (angle brackets included) */
    TK_LAUNCH_OPEN,  /* <<< */
    TK_LAUNCH_CLOSE, /* >>> matching an open <<< */
    TK_UNKNOWN   /* a byte that starts no token */
} tok_kind;

enum tok_flag {
    TF_BOL = 1,       /* first token of its line */
    TF_SPACE = 2,     /* whitespace or a comment precedes it */
    TF_PP = 4,        /* inside a preprocessor directive */
    TF_UNTERM = 8,    /* unterminated string, char or comment */
    TF_NEWLINE = 16   /* a newline precedes it (since the previous token) */
};

enum punct_code {
    P_ARROW = 256, /* -> */
    P_SCOPE,       /* :: */
    P_SHL,         /* << */
    P_SHR,         /* >> */
    P_LE,
    P_GE,
    P_EQ,
    P_NE,
    P_ANDAND,
    P_OROR,
    P_INC,
    P_DEC,
    P_ASSIGN_OP,   /* += -= *= /= %= &= |= ^= <<= >>= */
    P_ELLIPSIS,
    P_HASHHASH,
    P_DOTSTAR,
    P_ARROWSTAR,
    P_SPACESHIP
};

enum pp_code {
    PP_NONE = 0, /* '#' alone or an unknown directive */
    PP_INCLUDE,  /* include, include_next, import */
    PP_DEFINE,
    PP_UNDEF,
    PP_IF,
    PP_IFDEF,
    PP_IFNDEF,
    PP_ELIF,     /* elif, elifdef, elifndef */
    PP_ELSE,
    PP_ENDIF,
    PP_PRAGMA,
    PP_ERROR,    /* error, warning */
    PP_LINE
};

typedef struct tok {
    int32_t off;   /* byte offset in the buffer */
    int32_t len;   /* bytes */
    uint8_t kind;  /* tok_kind */
    uint8_t flags; /* tok_flag */
    uint16_t sub;  /* punctuator or directive code */
} tok;

typedef struct lex_out {
    tok *toks;      /* n tokens followed by one TK_EOF */
    ptrdiff_t n;    /* tokens before TK_EOF */
    int unterminated; /* some comment or literal runs to the end of its line or file */
    int32_t *dirs;    /* the indices of the TK_PP_HASH tokens, in order (NULL when ndirs is 0) */
    ptrdiff_t ndirs;
    int32_t *marks;   /* lex_all_marked's marks (lex_marked), in order; NULL from lex_all */
    ptrdiff_t nmarks;
} lex_out;

/* Tokenizes src[0..len). len must be below 2 GiB. Allocates only the token array (and the
 * directives' list). */
void lex_all(arena *a, const char *src, ptrdiff_t len, lex_out *out);

/* The directives of src[0..len) (each with its continuation lines and the comments it spans),
 * each ended by a newline, and nothing else, into a buffer of the arena (*outlen bytes; NULL
 * when memory runs out): lexing it gives the directives lex_all finds in src, for a pass that
 * reads nothing but directives. */
char *lex_directives(arena *a, const char *src, ptrdiff_t len, ptrdiff_t *outlen);

/* A negative filter over names, in the name tables' format (gentab, hash.h): two bits of each
 * name's shape (hp_shape_bit). A name is possibly among those the filter was built from only
 * where both bits are set; a name of more than 255 bytes always passes. (The tables' filter
 * tests the first two bytes first: in the lexer, that test turns away almost no name the
 * shape would let through, and its table costs more in the cache than it saves.) */
typedef struct lex_filter {
    const unsigned char *shape; /* 1 << HP_SHAPE_BITS bits */
} lex_filter;

/* Whether the filter lets the name through (len >= 1). */
int lex_filter_pass(const lex_filter *f, const unsigned char *name, ptrdiff_t len);

/* Whether t is one of the tokens lex_all_marked marks: an identifier the filter lets through,
 * or a token that is structure rather than text (TK_PP_HASH, TK_PP_END, TK_LAUNCH_OPEN,
 * TK_LAUNCH_CLOSE). src is the lexed buffer. */
int lex_marked(const lex_filter *f, const char *src, const tok *t);

/* lex_all, and the tokens lex_marked picks, in out->marks: a pass that looks only at some
 * names, at directives and at launches visits these and not the whole array. Where the filter
 * is built from the names and the pass does nothing for any other token, visiting the marks
 * gives what visiting every token does. */
void lex_all_marked(arena *a, const char *src, ptrdiff_t len, const lex_filter *f,
                    lex_out *out);

/* Earlier occurrences of identifiers, for searches that walk back from a use to a declaration.
 * Such a search first scans the tokens plainly (cheap, and usually short); once the scans of a
 * file have visited more tokens than the file holds, prev[] is built in one pass, and each
 * search then visits only the identifiers with the text it wants. */
typedef struct lex_idx {
    arena *a;
    const char *src;
    const tok *t;
    ptrdiff_t nt;
    int32_t *prev;    /* per token: the previous TK_IDENT with the same text, or -1; NULL until
                         built */
    ptrdiff_t budget; /* tokens plain scans may still visit before prev is built */
    struct lex_memo *memo[2]; /* lex_find_back_memo's answers, one array per kind of search */
} lex_idx;

/* One remembered answer of lex_find_back_memo, for the search keyed floor and lim. */
typedef struct lex_memo {
    int32_t hit, floor, lim;
} lex_memo;

void lex_idx_init(lex_idx *ix, arena *a, const char *src, const tok *t, ptrdiff_t nt);
/* Records that a plain scan visited `steps` tokens; builds prev when the budget is spent. */
void lex_idx_charge(lex_idx *ix, ptrdiff_t steps);

/* The nearest earlier occurrence of the identifier at token ident, in [floor, from), for which
 * hit(ctx, j) says yes (a declaration, say), or -1. Outside directives it uses ix when given
 * (plain scans charged to its budget, then prev[]); inside a directive it walks the
 * directive's tokens back with lex_prev. Declaration finders share this search and differ in
 * hit. */
ptrdiff_t lex_find_back(lex_idx *ix, const char *src, const tok *t, ptrdiff_t nt, ptrdiff_t ident,
                        ptrdiff_t from, ptrdiff_t floor, int (*hit)(void *ctx, ptrdiff_t j),
                        void *ctx);

/* lex_find_back for a hit that depends only on the token, the floor and (when from is not
 * ident) from: once ix's prev[] is built, the answers are remembered in ix->memo[slot] (made
 * in ix's arena on first use; each kind of search, each hit, has its slot) with the floor and
 * from they were found for, so that the searches of a file with the same floor and from test
 * each token at most once between them. A hit taken from the memo is tested again before it
 * is returned (hit may fill ctx). */
ptrdiff_t lex_find_back_memo(lex_idx *ix, int slot, const char *src, const tok *t,
                             ptrdiff_t nt, ptrdiff_t ident, ptrdiff_t from, ptrdiff_t floor,
                             int (*hit)(void *ctx, ptrdiff_t j), void *ctx);

/* Walking a token array (t[0..nt), t[nt] is TK_EOF) the way the translator and the rules do.
 * The next or previous token that is not a comment: inside a directive the walk stops at its
 * end; outside, the tokens of directives are skipped. */
static inline ptrdiff_t lex_next(const tok *t, ptrdiff_t nt, ptrdiff_t i)
{
    int in_pp = i >= 0 && i < nt && (t[i].flags & TF_PP) && t[i].kind != TK_PP_END;
    for (i++; i < nt; i++) {
        if (t[i].kind == TK_COMMENT)
            continue;
        if (!in_pp && (t[i].flags & TF_PP))
            continue;
        return i;
    }
    return nt;
}

/* The previous one, or -1 (at the start of the directive the walk started in). */
static inline ptrdiff_t lex_prev(const tok *t, ptrdiff_t nt, ptrdiff_t i)
{
    int in_pp = i >= 0 && i < nt && (t[i].flags & TF_PP);
    for (i--; i >= 0; i--) {
        if (t[i].kind == TK_COMMENT)
            continue;
        if (in_pp && (t[i].kind == TK_PP_END || !(t[i].flags & TF_PP)))
            return -1;
        if (!in_pp && (t[i].flags & TF_PP))
            continue;
        return i;
    }
    return -1;
}

/* The closing bracket of an opening one (a TK_PUNCT sub code), or 0. */
static inline unsigned lex_closer(unsigned c)
{
    return c == '(' ? ')' : c == '[' ? ']' : c == '{' ? '}' : 0;
}

/* The bracket that closes the ( [ or { at open, or -1 when brackets do not balance first. */
ptrdiff_t lex_match(const tok *t, ptrdiff_t nt, ptrdiff_t open);
/* The bracket that opens the ) ] or } at close, or -1. */
ptrdiff_t lex_match_back(const tok *t, ptrdiff_t nt, ptrdiff_t close);

/* The '>' (or the '>>' ending two lists) that closes the template argument list opened by the
 * '<' at i, before limit (-1: no limit), or -1. A heuristic that needs no declarations: nested
 * brackets are skipped, and ; { } ) ] && || at depth 0, the end of a directive or 256 tokens
 * say that the '<' is a comparison. Whether a name comes before the '<' is the caller's test. */
ptrdiff_t lex_template_close(const tok *t, ptrdiff_t nt, ptrdiff_t i, ptrdiff_t limit);

/* The arguments of a call or a bracketed list: tokens (first, last) of each, split at commas
 * outside brackets and outside template argument lists (a '<' after a name). */
#define LEX_MAXARGS 32
typedef struct lex_args {
    ptrdiff_t first[LEX_MAXARGS];
    ptrdiff_t last[LEX_MAXARGS]; /* last significant token of the argument; < first if empty */
    int n;                       /* arguments: 0 for an empty list, capped at LEX_MAXARGS */
    ptrdiff_t open, close;
} lex_args;
/* Splits the tokens strictly between open and close; 0 if brackets inside do not balance. */
int lex_args_split(const tok *t, ptrdiff_t nt, ptrdiff_t open, ptrdiff_t close, lex_args *out);
/* The same for the list whose opening bracket is open; 0 (close -1) if it is not closed. */
int lex_args_of(const tok *t, ptrdiff_t nt, ptrdiff_t open, lex_args *out);

/* An integer literal's value and the width of its type where HIP runs (LP64: long is 64 bits):
 * decimal, hex, octal, binary, digit separators, u/l/z suffixes. 0 for a floating constant, a
 * user-defined suffix, an overflow or anything malformed. */
int lex_int_literal(hp_str s, unsigned long long *v, int *bits);

#endif
