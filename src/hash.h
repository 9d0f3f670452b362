/* hash.h: the string hash shared by the table generator and the lookups it feeds. */
#ifndef HP_HASH_H
#define HP_HASH_H

#include <stddef.h>
#include <stdint.h>

static inline uint32_t hp_hash(const char *s, ptrdiff_t len, uint32_t seed)
{
    uint32_t h = 2166136261u ^ seed;
    for (ptrdiff_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    return h;
}

#endif
