/* str.c: slice helpers that are too large to inline. */
#include "str.h"

#include "hash.h"

#include "banned.h"

ptrdiff_t str_find(hp_str a, hp_str needle)
{
    if (needle.len == 0)
        return 0;
    for (ptrdiff_t i = 0; i + needle.len <= a.len; i++) {
        const char *p = memchr(a.s + i, needle.s[0], (size_t)(a.len - needle.len - i + 1));
        if (!p)
            return -1;
        i = p - a.s;
        if (memcmp(p, needle.s, (size_t)needle.len) == 0)
            return i;
    }
    return -1;
}

static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

int str_eq_nocase(hp_str a, hp_str b)
{
    if (a.len != b.len)
        return 0;
    for (ptrdiff_t i = 0; i < a.len; i++)
        if (lower(a.s[i]) != lower(b.s[i]))
            return 0;
    return 1;
}

ptrdiff_t str_find_nocase(hp_str a, hp_str needle)
{
    if (needle.len == 0)
        return 0;
    char lo = lower(needle.s[0]);
    char up = lo >= 'a' && lo <= 'z' ? (char)(lo - 'a' + 'A') : lo;
    hp_str rest = {needle.s + 1, needle.len - 1};
    for (ptrdiff_t i = 0; i + needle.len <= a.len; i++)
        if ((a.s[i] == lo || a.s[i] == up) &&
            str_eq_nocase((hp_str){a.s + i + 1, rest.len}, rest))
            return i;
    return -1;
}

unsigned str_hash(const char *s, ptrdiff_t len, unsigned seed)
{
    return hp_hash(s, len, seed);
}

/* Matches a bracket expression at pat[*pi] against c; advances *pi past ']'. */
static int glob_class(hp_str pat, ptrdiff_t *pi, char c, int *ok)
{
    ptrdiff_t i = *pi + 1;
    int neg = 0, match = 0;
    if (i < pat.len && (pat.s[i] == '!' || pat.s[i] == '^')) {
        neg = 1;
        i++;
    }
    ptrdiff_t first = i;
    for (; i < pat.len && (pat.s[i] != ']' || i == first); i++) {
        char lo = pat.s[i], hi = lo;
        if (i + 2 < pat.len && pat.s[i + 1] == '-' && pat.s[i + 2] != ']') {
            hi = pat.s[i + 2];
            i += 2;
        }
        if ((unsigned char)c >= (unsigned char)lo && (unsigned char)c <= (unsigned char)hi)
            match = 1;
    }
    if (i >= pat.len) { /* no closing bracket: '[' is literal */
        *ok = 0;
        return c == '[';
    }
    *ok = 1;
    *pi = i;
    return match != neg;
}

int str_glob_valid(hp_str pat)
{
    for (ptrdiff_t p = 0; p < pat.len; p++) {
        if (pat.s[p] != '[')
            continue;
        ptrdiff_t q = p;
        int ok;
        glob_class(pat, &q, 'a', &ok);
        if (!ok)
            return 0;
        p = q;
    }
    return 1;
}

int str_glob(hp_str pat, hp_str s, int pathname)
{
    ptrdiff_t p = 0, i = 0, star_p = -1, star_i = 0;
    while (i < s.len) {
        if (p < pat.len) {
            char pc = pat.s[p];
            if (pc == '*') {
                /* '**' matches across '/' */
                if (p + 1 < pat.len && pat.s[p + 1] == '*') {
                    while (p < pat.len && pat.s[p] == '*')
                        p++;
                    if (p < pat.len && pat.s[p] == '/')
                        p++;
                    star_p = p;
                    star_i = i;
                    pathname = pathname ? 2 : 0;
                    continue;
                }
                star_p = ++p;
                star_i = i;
                continue;
            }
            if (pc == '?' && !(pathname == 1 && s.s[i] == '/')) {
                p++;
                i++;
                continue;
            }
            if (pc == '[') {
                ptrdiff_t q = p;
                int ok;
                int m = glob_class(pat, &q, s.s[i], &ok);
                if (m && !(pathname == 1 && s.s[i] == '/')) {
                    p = ok ? q + 1 : p + 1;
                    i++;
                    continue;
                }
            } else if (pc == '\\' && p + 1 < pat.len) {
                if (pat.s[p + 1] == s.s[i]) {
                    p += 2;
                    i++;
                    continue;
                }
            } else if (pc != '?' && pc == s.s[i]) {
                p++;
                i++;
                continue;
            }
        }
        if (star_p >= 0 && !(pathname == 1 && s.s[star_i] == '/')) {
            p = star_p;
            i = ++star_i;
            continue;
        }
        return 0;
    }
    while (p < pat.len && pat.s[p] == '*')
        p++;
    return p == pat.len;
}

int str_utf8_len(const unsigned char *s, ptrdiff_t n)
{
    if (n <= 0)
        return 0;
    unsigned c = s[0];
    int len;
    unsigned min;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
        min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        min = 0x10000;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    unsigned cp = c & (0x3fu >> (len - 1));
    for (int k = 1; k < len; k++) {
        if ((s[k] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[k] & 0x3fu);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}
