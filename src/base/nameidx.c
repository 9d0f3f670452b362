/* nameidx.c: an index of names to small integers (nameidx.h). */
#include "nameidx.h"

#include <string.h>

#include "hash.h"

#include "banned.h"

int nameidx_init(nameidx *ix, arena *a, ptrdiff_t n)
{
    memset(ix, 0, sizeof *ix);
    ptrdiff_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    hp_str *key = NEW(a, hp_str, cap);
    int32_t *val = key ? NEW(a, int32_t, cap) : NULL;
    if (!key || !val)
        return 0;
    ix->key = key;
    ix->val = val;
    ix->cap = cap;
    return 1;
}

void nameidx_put(nameidx *ix, hp_str name, int32_t v, int replace)
{
    if (!ix->cap || name.len <= 0)
        return;
    ptrdiff_t m = ix->cap - 1;
    for (ptrdiff_t j = (ptrdiff_t)(hp_hash(name.s, name.len, 0) & (uint32_t)m);; j = (j + 1) & m) {
        if (ix->key[j].len == 0) {
            ix->key[j] = name;
            ix->val[j] = v;
            return;
        }
        if (str_eq(ix->key[j], name)) {
            if (replace)
                ix->val[j] = v;
            return;
        }
    }
}

int32_t nameidx_get(const nameidx *ix, hp_str name)
{
    if (!ix->cap || name.len <= 0)
        return -1;
    ptrdiff_t m = ix->cap - 1;
    for (ptrdiff_t j = (ptrdiff_t)(hp_hash(name.s, name.len, 0) & (uint32_t)m);; j = (j + 1) & m) {
        if (ix->key[j].len == 0)
            return -1;
        if (str_eq(ix->key[j], name))
            return ix->val[j];
    }
}
