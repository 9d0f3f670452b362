/* hash.h: the string hash shared by the table generator and the lookups it feeds. */
#ifndef HP_HASH_H
#define HP_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Little-endian loads whatever the host's byte order, so that a table generated on one
 * machine is read the same way on another. */
static inline uint64_t hp_load64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static inline uint32_t hp_load32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap32(v);
#endif
    return v;
}

static inline uint64_t hp_mix(uint64_t h, uint64_t w)
{
    h = (h ^ w) * 0x100000001b3ull;
    return h ^ (h >> 29);
}

/* Eight bytes a step, the last step overlapping the one before; strings under eight bytes
 * (most identifiers' first bytes are in the first load anyway) in one or two loads. The finish
 * is a 64-bit avalanche folded to 32 bits. */
static inline uint32_t hp_hash(const char *s, ptrdiff_t len, uint32_t seed)
{
    const unsigned char *p = (const unsigned char *)s;
    uint64_t h = 0x9e3779b97f4a7c15ull ^ seed ^ (uint64_t)len * 0xff51afd7ed558ccdull;
    if (len >= 8) {
        const unsigned char *last = p + len - 8;
        for (; p < last; p += 8)
            h = hp_mix(h, hp_load64(p));
        h = hp_mix(h, hp_load64(last));
    } else if (len >= 4) {
        h = hp_mix(h, hp_load32(p) | (uint64_t)hp_load32(p + len - 4) << 32);
    } else if (len > 0) {
        h = hp_mix(h, p[0] | (uint64_t)p[len / 2] << 8 | (uint64_t)p[len - 1] << 16);
    }
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 32;
    return (uint32_t)h;
}

/* The shape of a name (length, first, second, middle and last bytes), mixed: the name tables'
 * negative filter sets two bits per name, at hp_shape_bit(h, 0) and hp_shape_bit(h, 1).
 * Cheaper than hp_hash, and enough to turn away most of a file's identifiers. len >= 1. */
#define HP_SHAPE_BITS 17
static inline uint64_t hp_shape(const char *s, ptrdiff_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    uint64_t v = (uint64_t)p[0] | (uint64_t)p[len > 1] << 8 | (uint64_t)p[len / 2] << 16 |
                 (uint64_t)p[len - 1] << 24 | (uint64_t)len << 32;
    return v * 0x9e3779b97f4a7c15ull;
}

static inline uint32_t hp_shape_bit(uint64_t h, int which)
{
    return (uint32_t)(h >> (which ? 64 - HP_SHAPE_BITS : 40 - HP_SHAPE_BITS)) &
           ((1u << HP_SHAPE_BITS) - 1);
}

/* Sets a name's two bits in a shape filter of 1 << HP_SHAPE_BITS bits. len >= 1. */
static inline void hp_shape_add(unsigned char *bits, const char *s, ptrdiff_t len)
{
    uint64_t h = hp_shape(s, len);
    for (int w = 0; w < 2; w++) {
        uint32_t k = hp_shape_bit(h, w);
        bits[k >> 3] |= (unsigned char)(1u << (k & 7));
    }
}

/* 1 where both of the name's bits are set in the filter; 0 means the name is certainly not
 * one of those added. Without a branch between the two bits. len >= 1. */
static inline unsigned hp_shape_test(const unsigned char *bits, const char *s, ptrdiff_t len)
{
    uint64_t h = hp_shape(s, len);
    uint32_t k0 = hp_shape_bit(h, 0), k1 = hp_shape_bit(h, 1);
    return ((unsigned)bits[k0 >> 3] >> (k0 & 7)) & ((unsigned)bits[k1 >> 3] >> (k1 & 7)) & 1u;
}

#endif
