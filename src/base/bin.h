/* bin.h: bounds-checked readers over untrusted bytes. Offsets and sizes are uint64_t so that
 * values read from a file can be checked before any arithmetic on them can overflow. */
#ifndef HP_BIN_H
#define HP_BIN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct bin {
    const unsigned char *p;
    ptrdiff_t len;
} bin;

static inline bin bin_make(const void *p, ptrdiff_t len)
{
    bin b = {(const unsigned char *)p, p ? len : 0};
    return b;
}

/* Do n bytes at off lie inside b? (off <= len && n <= len - off, without overflow.) */
static inline int bin_has(bin b, uint64_t off, uint64_t n)
{
    uint64_t len = b.len > 0 ? (uint64_t)b.len : 0;
    return off <= len && n <= len - off;
}

/* The n bytes at off, or an empty slice when they do not fit. */
static inline bin bin_sub(bin b, uint64_t off, uint64_t n)
{
    bin r = {NULL, 0};
    if (bin_has(b, off, n)) {
        r.p = b.p + off;
        r.len = (ptrdiff_t)n;
    }
    return r;
}

/* Everything from off to the end (empty when off is past the end). */
static inline bin bin_from(bin b, uint64_t off)
{
    bin r = {NULL, 0};
    if (bin_has(b, off, 0)) {
        r.p = b.p + off;
        r.len = b.len - (ptrdiff_t)off;
    }
    return r;
}

/* Little- or big-endian integers; 0 when the bytes do not fit (callers check with bin_has
 * first where 0 would be taken for a real value). */
static inline uint64_t bin_uint(bin b, uint64_t off, int size, int le)
{
    if (!bin_has(b, off, (uint64_t)size))
        return 0;
    uint64_t v = 0;
    for (int i = 0; i < size; i++) {
        int k = le ? size - 1 - i : i;
        v = (v << 8) | b.p[off + (uint64_t)k];
    }
    return v;
}

static inline uint16_t bin_u16(bin b, uint64_t off, int le)
{
    return (uint16_t)bin_uint(b, off, 2, le);
}

static inline uint32_t bin_u32(bin b, uint64_t off, int le)
{
    return (uint32_t)bin_uint(b, off, 4, le);
}

static inline uint64_t bin_u64(bin b, uint64_t off, int le)
{
    return bin_uint(b, off, 8, le);
}

static inline uint8_t bin_u8(bin b, uint64_t off)
{
    return bin_has(b, off, 1) ? b.p[off] : 0;
}

/* Does b hold the bytes m[0..n) at off? */
static inline int bin_is(bin b, uint64_t off, const void *m, size_t n)
{
    return bin_has(b, off, n) && memcmp(b.p + off, m, n) == 0;
}

/* The first offset >= from where m[0..n) occurs, or -1. */
static inline int64_t bin_find(bin b, uint64_t from, const void *m, size_t n)
{
    const unsigned char *mm = m;
    if (n == 0 || !bin_has(b, from, n))
        return -1;
    uint64_t last = (uint64_t)b.len - n;
    for (uint64_t i = from; i <= last;) {
        const unsigned char *q = memchr(b.p + i, mm[0], (size_t)(last - i + 1));
        if (!q)
            return -1;
        i = (uint64_t)(q - b.p);
        if (memcmp(q, mm, n) == 0)
            return (int64_t)i;
        i++;
    }
    return -1;
}

/* x rounded up to a multiple of a (a power of two); UINT64_MAX when that overflows. */
static inline uint64_t bin_align(uint64_t x, uint64_t a)
{
    if (x > UINT64_MAX - (a - 1))
        return UINT64_MAX;
    return (x + a - 1) & ~(a - 1);
}

#endif
