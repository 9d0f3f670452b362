/* pyrules.h: what the Triton, PyTorch and build-file rule families share: where findings go,
 * which rules are on, and which AMD GPUs the run targets. */
#ifndef HP_PYRULES_H
#define HP_PYRULES_H

#include <stddef.h>

#include "diag.h"
#include "hipport.h"

/* AMD target groups (a target list maps onto these; severities depend on them). */
enum pyrules_target {
    TGT_CDNA12 = 1,  /* gfx906, gfx908, gfx90a: wave64, no fp8 */
    TGT_GFX942 = 2,  /* MI300/MI325: wave64, FNUZ fp8, XF32 */
    TGT_GFX950 = 4,  /* MI350/MI355: wave64, OCP fp8, 160 KiB LDS */
    TGT_RDNA = 8,    /* gfx10, gfx11: wave32 */
    TGT_GFX12 = 16,  /* RDNA4: wave32, OCP fp8 */
    TGT_ALL = 31
};
#define TGT_WAVE64 (TGT_CDNA12 | TGT_GFX942 | TGT_GFX950)
#define TGT_WAVE32 (TGT_RDNA | TGT_GFX12)

typedef struct pyrules {
    diag_list *d;
    int (*enabled)(void *ud, const char *rule); /* NULL: every rule is on */
    void *ud;
    unsigned targets;                           /* TGT_* bits; 0 means TGT_ALL */
} pyrules;

/* The target group of one gfx name ("gfx942", "gfx90a:xnack-"); 0 if unknown. */
unsigned pyrules_target_of(const char *gfx, ptrdiff_t len);

static inline unsigned pyrules_targets(const pyrules *r)
{
    return r->targets ? r->targets : TGT_ALL;
}

static inline int pyrules_on(const pyrules *r, const char *rule)
{
    return !r->enabled || r->enabled(r->ud, rule);
}

/* Adds a finding at byte offset off covering n bytes (msg and fix: static or arena). */
hp_finding *pyrules_add(pyrules *r, ptrdiff_t off, ptrdiff_t n, const char *rule,
                        hp_severity sev, const char *msg, const char *fix);

#endif
