/* map.h: lookups in the generated CUDA-to-HIP name tables (build/gen/map_tab.h). */
#ifndef HP_MAP_H
#define HP_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "hash.h"
#include "hipport.h"
#include "map_defs.h"

typedef struct map_row {
    uint32_t cuda, hip, legacy, roc;            /* offsets into the string pool */
    uint8_t cuda_len, hip_len, legacy_len, roc_len;
    uint16_t since, deprecated, removed;        /* HIP versions, major*100+minor; 0: none */
    uint8_t family;
    uint8_t kind;                               /* MAP_K_* */
    uint16_t flags;                             /* MAP_F_* */
} map_row;

enum map_kind {
#define X(name) MAP_K_##name,
    MAP_KINDS(X)
#undef X
    MAP_K_COUNT
};

enum map_flag_bit {
#define X(name) MAP_FB_##name,
    MAP_FLAGS(X)
#undef X
    MAP_FB_COUNT
};
#define MAP_F(name) (1u << MAP_FB_##name)

/* One bit per byte pair that starts some name (the generated first-two-bytes filter). */
extern const unsigned char *const map_pair_bits;
/* Two bits per name at hp_shape_bit(hp_shape(name), 0 and 1) (the generated shape filter). */
extern const unsigned char *const map_shape_bits;

/* The shape filter alone: 0 means name is certainly not in the tables. len >= 1. */
static inline int map_shape_maybe(const char *name, ptrdiff_t len)
{
    return (int)hp_shape_test(map_shape_bits, name, len);
}

/* Fast negative test: 0 means name is certainly not in the tables. Inline, because most
 * identifiers of a file fail it and a call would cost more than the test: the first two bytes
 * turn away half of them, the name's shape (length, first, second, middle and last bytes)
 * nearly all the rest (over the bench corpus, 2.1 M of 4.4 M identifiers pass the first test
 * and 0.25 M both, nearly all of them names of the tables). */
static inline int map_maybe(const char *name, ptrdiff_t len)
{
    if (len < 1 || len > 255)
        return 0;
    unsigned k = (unsigned)(unsigned char)name[0] << 8 | (len > 1 ? (unsigned char)name[1] : 0u);
    return (map_pair_bits[k >> 3] >> (k & 7) & 1) && map_shape_maybe(name, len);
}

/* The row for a name that passed map_maybe, or NULL. */
const map_row *map_probe(const char *name, ptrdiff_t len);

/* The row for name, or NULL. */
static inline const map_row *map_find(const char *name, ptrdiff_t len)
{
    return map_maybe(name, len) ? map_probe(name, len) : NULL;
}

hp_str map_cuda(const map_row *r);
hp_str map_hip(const map_row *r);
hp_str map_legacy(const map_row *r);
hp_str map_roc(const map_row *r);
const char *map_kind_name(int kind);
int map_family_count(void);
const char *map_family_name(int family);
int map_family_index(const char *name); /* -1 if unknown */
int map_newest_version(void);
ptrdiff_t map_nrows(void);
const map_row *map_row_at(ptrdiff_t i); /* rows sorted by CUDA name */
int map_max_probe(void);

#endif
