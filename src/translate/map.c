/* map.c: lookups in the generated CUDA-to-HIP name tables. */
#include "map.h"

#include <string.h>

#include "hash.h"
#include "map_tab.h"

#include "banned.h"

/* The newest HIP this release of the tables describes: the newest version any row names,
 * and never older than the release the tables were last checked against. The imported rows
 * come from AMD's tables of ROCm 6.3; the hand-written library rows (headers by version, bf16,
 * FP8, FP6/FP4, roctx, RCCL) were checked against HIP 7.0's headers and release facts. */
#define MAP_CHECKED_AGAINST 700

const unsigned char *const map_pair_bits = map_pair;
const unsigned char *const map_shape_bits = map_shape;

const map_row *map_probe(const char *name, ptrdiff_t len)
{
    if (len < 1 || len > 255)
        return NULL;
    uint32_t j = hp_hash(name, len, MAP_SEED) & (MAP_SIZE - 1);
    for (;;) {
        unsigned ix = map_index[j];
        if (!ix)
            return NULL;
        const map_row *r = &map_rows[ix - 1];
        if (r->cuda_len == len && memcmp(map_pool + r->cuda, name, (size_t)len) == 0)
            return r;
        j = (j + 1) & (MAP_SIZE - 1);
    }
}

static hp_str pool_str(uint32_t off, unsigned len)
{
    hp_str s = {map_pool + off, (ptrdiff_t)len};
    return s;
}

hp_str map_cuda(const map_row *r)
{
    return pool_str(r->cuda, r->cuda_len);
}

hp_str map_hip(const map_row *r)
{
    return pool_str(r->hip, r->hip_len);
}

hp_str map_legacy(const map_row *r)
{
    return pool_str(r->legacy, r->legacy_len);
}

hp_str map_roc(const map_row *r)
{
    return pool_str(r->roc, r->roc_len);
}

const char *map_kind_name(int kind)
{
    static const char *const names[] = {
#define X(name) #name,
        MAP_KINDS(X)
#undef X
    };
    return kind >= 0 && kind < MAP_K_COUNT ? names[kind] : "?";
}

int map_family_count(void)
{
    return MAP_NFAMILIES;
}

const char *map_family_name(int family)
{
    return family >= 0 && family < MAP_NFAMILIES ? map_families[family] : NULL;
}

int map_family_index(const char *name)
{
    for (int i = 0; i < MAP_NFAMILIES; i++)
        if (strcmp(map_families[i], name) == 0)
            return i;
    return -1;
}

int map_newest_version(void)
{
    return MAP_NEWEST_SINCE > MAP_CHECKED_AGAINST ? MAP_NEWEST_SINCE : MAP_CHECKED_AGAINST;
}

ptrdiff_t map_nrows(void)
{
    return MAP_NROWS;
}

const map_row *map_row_at(ptrdiff_t i)
{
    return i >= 0 && i < MAP_NROWS ? &map_rows[i] : NULL;
}

int map_max_probe(void)
{
    return MAP_MAX_PROBE;
}

/* ------------------------------------------------------------------ the public API */

int hp_hip_version_newest(void)
{
    return map_newest_version();
}

int hp_family_count(void)
{
    return map_family_count();
}

const char *hp_family_name(int family)
{
    return map_family_name(family);
}

int hp_lookup(const char *name, ptrdiff_t len, hp_mapping *out)
{
    const map_row *r = map_find(name, len);
    if (!r)
        return 0;
    memset(out, 0, sizeof *out);
    out->cuda = map_cuda(r);
    out->hip = map_hip(r);
    out->roc = map_roc(r);
    out->legacy = map_legacy(r);
    out->kind = map_kind_name(r->kind);
    out->family = r->family;
    out->hip_since = r->since;
    out->hip_deprecated = r->deprecated;
    out->hip_removed = r->removed;
    out->flags = 0;
    if (r->flags & MAP_F(experimental))
        out->flags |= HP_MAP_EXPERIMENTAL;
    if (r->flags & MAP_F(symbol))
        out->flags |= HP_MAP_SYMBOL;
    return 1;
}
