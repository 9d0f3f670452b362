/* nameidx.h: an index of names (hp_str slices) to small integers, built once in an arena:
 * open addressing on hp_hash, at most half full, so that a look-up is one or two probes. The
 * caller says which value a name keeps when it is put twice (the first or the last). */
#ifndef HP_NAMEIDX_H
#define HP_NAMEIDX_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "str.h"

typedef struct nameidx {
    hp_str *key;    /* the names (len 0: an empty slot) */
    int32_t *val;
    ptrdiff_t cap;  /* a power of two, at least twice the names the index was made for */
} nameidx;

/* An index for up to n names. Returns 0 when the arena has no room (the index is then empty:
 * every look-up answers -1, and puts do nothing). */
int nameidx_init(nameidx *ix, arena *a, ptrdiff_t n);
/* Puts name (len >= 1) with value v; a name already there keeps its value unless replace. */
void nameidx_put(nameidx *ix, hp_str name, int32_t v, int replace);
/* The value of name, or -1. */
int32_t nameidx_get(const nameidx *ix, hp_str name);

#endif
