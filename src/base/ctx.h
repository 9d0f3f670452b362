/* ctx.h: the per-thread context behind hp_ctx. */
#ifndef HP_CTX_H
#define HP_CTX_H

#include "arena.h"
#include "hipport.h"

struct hp_ctx {
    arena a; /* everything a result points to */
};

#endif
