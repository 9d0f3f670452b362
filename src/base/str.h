/* str.h: byte slices (hp_str) and small helpers over them. */
#ifndef HP_STR_H
#define HP_STR_H

#include <stddef.h>
#include <string.h>

#include "hipport.h"

#define S(lit) ((hp_str){(lit), (ptrdiff_t)sizeof(lit) - 1})

static inline hp_str str_make(const char *s, ptrdiff_t len)
{
    hp_str r = {s, len};
    return r;
}

static inline hp_str str_cstr(const char *s)
{
    hp_str r = {s, s ? (ptrdiff_t)strlen(s) : 0};
    return r;
}

static inline int str_eq(hp_str a, hp_str b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.s, b.s, (size_t)a.len) == 0);
}

static inline int str_eqc(hp_str a, const char *c)
{
    return str_eq(a, str_cstr(c));
}

static inline int str_starts(hp_str a, hp_str prefix)
{
    return a.len >= prefix.len && memcmp(a.s, prefix.s, (size_t)prefix.len) == 0;
}

static inline int str_ends(hp_str a, hp_str suffix)
{
    return a.len >= suffix.len &&
           memcmp(a.s + a.len - suffix.len, suffix.s, (size_t)suffix.len) == 0;
}

static inline hp_str str_cut(hp_str a, ptrdiff_t from, ptrdiff_t to)
{
    hp_str r = {a.s + from, to - from};
    return r;
}

static inline int str_is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static inline hp_str str_trim(hp_str a)
{
    while (a.len && str_is_space(a.s[0])) {
        a.s++;
        a.len--;
    }
    while (a.len && str_is_space(a.s[a.len - 1]))
        a.len--;
    return a;
}

/* Index of the first c in a, or -1. */
static inline ptrdiff_t str_chr(hp_str a, char c)
{
    const char *p = a.len ? memchr(a.s, c, (size_t)a.len) : NULL;
    return p ? p - a.s : -1;
}

/* Index of needle in a, or -1. */
ptrdiff_t str_find(hp_str a, hp_str needle);
/* Case-insensitive ASCII comparison. */
int str_eq_nocase(hp_str a, hp_str b);
/* The first offset of needle in a, ASCII letters compared without case; -1 if none. */
ptrdiff_t str_find_nocase(hp_str a, hp_str needle);
/* FNV-1a hash, the one used by the generated tables. */
unsigned str_hash(const char *s, ptrdiff_t len, unsigned seed);
/* Length of the valid UTF-8 sequence at s[0..n), or 0 when it is not one. */
int str_utf8_len(const unsigned char *s, ptrdiff_t n);
/* Shell-style glob ('*', '?', '[...]'); '*' and '?' do not match '/' when pathname is set. */
int str_glob(hp_str pat, hp_str s, int pathname);
/* 0 when a '[' of pat has no closing ']' (str_glob would take it as a literal '['). */
int str_glob_valid(hp_str pat);

#endif
