/* buf.h: growable byte buffer backed by an arena. */
#ifndef HP_BUF_H
#define HP_BUF_H

#include <stddef.h>

#include "arena.h"
#include "hipport.h"

typedef struct buf {
    char *data;    /* bytes, not NUL-terminated unless buf_cstr() was called */
    ptrdiff_t len; /* bytes used */
    ptrdiff_t cap; /* bytes allocated */
    arena *a;      /* where the bytes live; NULL: malloc/realloc (buf_init_heap) */
    int failed;    /* some bytes were dropped for want of memory */
} buf;

void buf_init(buf *b, arena *a, ptrdiff_t cap);
/* A buffer in malloc'd memory, grown by realloc (a large one moves by remapping, not by
 * copying): for output that is handed over whole, as data, which the caller frees. */
void buf_init_heap(buf *b, ptrdiff_t cap);
/* Hands over a heap buffer's bytes, NUL-terminated (caller frees); NULL if memory ran out. */
char *buf_take(buf *b);
void buf_reserve(buf *b, ptrdiff_t extra);
void buf_add(buf *b, const void *p, ptrdiff_t n);
void buf_adds(buf *b, const char *s); /* NULL adds nothing */
void buf_addstr(buf *b, hp_str s);
void buf_addc(buf *b, char c);
void buf_addf(buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void buf_addint(buf *b, long long v);
/* Appends s as the body of a JSON string (no quotes); invalid UTF-8 becomes U+FFFD. */
void buf_add_json(buf *b, hp_str s);
/* The same, quoted ("" for NULL). */
void buf_add_jstr(buf *b, const char *s);
/* RFC 3986 percent-encoding: unreserved characters and '/' kept, every other byte %XX. */
void buf_add_pct(buf *b, const char *s);
/* Is s (NUL-terminated) valid UTF-8? */
int buf_is_utf8(const char *s);
const char *buf_cstr(buf *b);
hp_str buf_str(const buf *b);

#endif
