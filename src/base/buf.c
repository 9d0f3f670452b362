/* buf.c: growable byte buffer backed by an arena. */
#include "buf.h"

#include "str.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"

void buf_init(buf *b, arena *a, ptrdiff_t cap)
{
    b->a = a;
    b->len = 0;
    b->failed = 0;
    b->cap = cap > 16 ? cap : 16;
    b->data = arena_alloc_nozero(a, 1, 1, b->cap);
    if (!b->data) {
        b->cap = 0;
        b->failed = 1;
    }
}

void buf_init_heap(buf *b, ptrdiff_t cap)
{
    b->a = NULL;
    b->len = 0;
    b->failed = 0;
    b->cap = cap > 16 ? cap : 16;
    b->data = malloc((size_t)b->cap);
    if (!b->data) {
        b->cap = 0;
        b->failed = 1;
    }
}

char *buf_take(buf *b)
{
    buf_reserve(b, 1);
    if (b->failed || b->a) {
        if (!b->a)
            free(b->data);
        b->data = NULL;
        b->len = b->cap = 0;
        return NULL;
    }
    char *p = b->data;
    p[b->len] = 0;
    b->data = NULL;
    b->len = b->cap = 0;
    return p;
}

void buf_reserve(buf *b, ptrdiff_t extra)
{
    if (b->cap - b->len >= extra)
        return;
    ptrdiff_t cap = b->cap ? b->cap : 16;
    while (cap - b->len < extra)
        cap *= 2;
    char *p = b->a ? arena_grow(b->a, b->data, b->len, cap, 1) : realloc(b->data, (size_t)cap);
    if (!p) {
        b->failed = 1;
        return; /* the arena's recovery point handles this; callers check cap */
    }
    b->data = p;
    b->cap = cap;
}

void buf_add(buf *b, const void *p, ptrdiff_t n)
{
    if (n <= 0)
        return;
    buf_reserve(b, n);
    if (b->cap - b->len < n)
        return;
    memcpy(b->data + b->len, p, (size_t)n);
    b->len += n;
}

void buf_adds(buf *b, const char *s)
{
    if (s)
        buf_add(b, s, (ptrdiff_t)strlen(s));
}

void buf_addstr(buf *b, hp_str s)
{
    buf_add(b, s.s, s.len);
}

void buf_addc(buf *b, char c)
{
    if (b->len < b->cap)
        b->data[b->len++] = c;
    else
        buf_add(b, &c, 1);
}

void buf_addf(buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n <= 0)
        return;
    buf_reserve(b, (ptrdiff_t)n + 1);
    if (b->cap - b->len < (ptrdiff_t)n + 1)
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += n;
}

void buf_addint(buf *b, long long v)
{
    char tmp[24];
    int i = (int)sizeof tmp;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do {
        tmp[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        tmp[--i] = '-';
    buf_add(b, tmp + i, (ptrdiff_t)sizeof tmp - i);
}


void buf_add_json(buf *b, hp_str s)
{
    static const char hex[] = "0123456789abcdef";
    /* 1: a byte that JSON takes as it is (printable ASCII other than '"' and '\\') */
#define SAFE1(c) ((c) >= 0x20 && (c) != '"' && (c) != '\\' && (c) < 0x80)
#define SAFE4(c) SAFE1(c), SAFE1((c) + 1), SAFE1((c) + 2), SAFE1((c) + 3)
#define SAFE16(c) SAFE4(c), SAFE4((c) + 4), SAFE4((c) + 8), SAFE4((c) + 12)
#define SAFE64(c) SAFE16(c), SAFE16((c) + 16), SAFE16((c) + 32), SAFE16((c) + 48)
    static const unsigned char safe[256] = {SAFE64(0), SAFE64(64), SAFE64(128), SAFE64(192)};
#undef SAFE64
#undef SAFE16
#undef SAFE4
#undef SAFE1
    const unsigned char *p = (const unsigned char *)s.s;
    ptrdiff_t start = 0;
    for (ptrdiff_t i = 0; i < s.len;) {
        if (safe[p[i]]) {
            i++;
            while (i < s.len && safe[p[i]])
                i++;
            continue;
        }
        unsigned c = p[i];
        if (c >= 0x80) {
            int n = str_utf8_len(p + i, s.len - i);
            if (n) {
                i += n;
                continue;
            }
        }
        buf_add(b, s.s + start, i - start);
        switch (c) {
        case '"': buf_adds(b, "\\\""); break;
        case '\\': buf_adds(b, "\\\\"); break;
        case '\n': buf_adds(b, "\\n"); break;
        case '\r': buf_adds(b, "\\r"); break;
        case '\t': buf_adds(b, "\\t"); break;
        default:
            if (c < 0x20) {
                char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
                buf_add(b, e, 6);
            } else {
                buf_adds(b, "\xef\xbf\xbd"); /* invalid UTF-8 byte */
            }
        }
        start = ++i;
    }
    buf_add(b, s.s + start, s.len - start);
}

const char *buf_cstr(buf *b)
{
    buf_reserve(b, 1);
    if (b->cap > b->len)
        b->data[b->len] = 0;
    return b->data;
}

hp_str buf_str(const buf *b)
{
    hp_str r = {b->data, b->len};
    return r;
}

void buf_add_jstr(buf *b, const char *s)
{
    buf_addc(b, '"');
    buf_add_json(b, str_cstr(s ? s : ""));
    buf_addc(b, '"');
}

void buf_add_pct(buf *b, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned c = *p;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
            buf_addc(b, (char)c);
        } else {
            char e[3] = {'%', hex[c >> 4], hex[c & 15]};
            buf_add(b, e, 3);
        }
    }
}

int buf_is_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    ptrdiff_t n = (ptrdiff_t)strlen(s);
    for (ptrdiff_t i = 0; i < n;) {
        if (p[i] < 0x80) {
            i++;
            continue;
        }
        int k = str_utf8_len(p + i, n - i);
        if (!k)
            return 0;
        i += k;
    }
    return 1;
}
