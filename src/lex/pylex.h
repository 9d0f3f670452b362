/* pylex.h: Python tokens as slices of the file buffer, with NEWLINE, INDENT and DEDENT as
 * Python's own tokenizer makes them. Accepts any bytes; nothing is read past the end. */
#ifndef HP_PYLEX_H
#define HP_PYLEX_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "hipport.h"

typedef enum py_kind {
    PY_EOF = 0,
    PY_NAME,      /* identifier or keyword (bytes >= 0x80 count as letters) */
    PY_NUMBER,
    PY_STRING,    /* every prefix and quote kind; an f-string is one token; sub = PS_* */
    PY_OP,        /* operator or delimiter; sub = the character, or a PO_* code */
    PY_COMMENT,   /* '#' up to the end of the line (a CR before the newline excluded) */
    PY_NEWLINE,   /* end of a logical line: the newline byte, or empty at the end of file */
    PY_INDENT,    /* empty, before the first token of a deeper logical line */
    PY_DEDENT,    /* empty, one per indentation level closed */
    PY_DECORATOR, /* the '@' that starts a logical line */
    PY_UNKNOWN    /* a byte that starts no token (a stray backslash, '$', '?', NUL...) */
} py_kind;

enum py_flag {
    PF_BOL = 1,     /* first token of its physical line */
    PF_SPACE = 2,   /* whitespace, a comment or a line join precedes it */
    PF_UNTERM = 4,  /* unterminated string */
    PF_NEWLINE = 8  /* a physical newline precedes it (since the previous token) */
};

/* String tokens: sub holds these bits and the prefix length in bits 8-9. */
enum py_str_bits {
    PS_RAW = 1,
    PS_BYTES = 2,
    PS_F = 4,      /* f-string (or a t-string, which scans the same) */
    PS_TRIPLE = 8,
    PS_DQUOTE = 16 /* quoted with " rather than ' */
};
#define PS_PREFIX_LEN(sub) (((sub) >> 8) & 3)

enum py_op_code {
    PO_POW = 256,  /* ** */
    PO_FLOORDIV,   /* // */
    PO_SHL,        /* << */
    PO_SHR,        /* >> */
    PO_LE,
    PO_GE,
    PO_EQ,
    PO_NE,         /* != (and the old <>) */
    PO_ARROW,      /* -> */
    PO_WALRUS,     /* := */
    PO_AUGASSIGN,  /* += -= *= /= //= %= @= &= |= ^= >>= <<= **= */
    PO_ELLIPSIS
};

typedef struct pytok {
    int32_t off;   /* byte offset in the buffer */
    int32_t len;   /* bytes */
    uint8_t kind;  /* py_kind */
    uint8_t flags; /* py_flag */
    uint16_t sub;  /* operator code or string bits */
} pytok;

typedef struct pylex_out {
    pytok *toks;      /* n tokens followed by one PY_EOF */
    ptrdiff_t n;      /* tokens before PY_EOF */
    int unterminated; /* some string runs to the end of its line or of the file */
} pylex_out;

/* Tokenizes src[0..len). len must be below 2 GiB. Allocates only the token array and the
 * indentation stack. A UTF-8 byte order mark is skipped. */
void pylex_all(arena *a, const char *src, ptrdiff_t len, pylex_out *out);

/* The text of a token. */
static inline hp_str pytok_text(const char *src, const pytok *t)
{
    hp_str r = {src + t->off, t->len};
    return r;
}

/* The contents of a string token, without prefix and quotes (an unterminated string keeps
 * everything after its opening quote). */
hp_str pylex_string_body(const char *src, const pytok *t);

#endif
