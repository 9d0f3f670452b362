/* pyrules.h: what the Triton, PyTorch and build-file rule families share on top of the check
 * engine (rules.h): the engine's file context, the arena, and the AMD target groups of the run
 * (several rules depend on more than wave64/wave32: FNUZ vs OCP fp8, XF32, kpack). */
#ifndef HP_PYRULES_H
#define HP_PYRULES_H

#include <stddef.h>

#include "hipport.h"
#include "pysrc.h"
#include "rules.h"

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
    rctx *c;          /* the engine's file context: findings, options */
    arena *a;         /* the file's arena (messages) */
    unsigned targets; /* TGT_* bits of the run's targets */
    unsigned long on; /* which of this file's TRI/PT/BLD rules are enabled (pyrules_bit) */
    int test_code;    /* the file is test code (test_*.py, conftest.py, imports pytest): what
                         it gates picks tests, not the code under test */
    const pysrc *src; /* the Python file, or NULL: a finding in its Windows-only code is a
                         note (pysrc_windows_only) */
    const char *nv_dialect; /* the NVIDIA-only Triton dialect the file imports ("Gluon's NVIDIA
                               dialect", "TLX"), or NULL: its findings are notes */
    int fnuz;         /* the file names an FNUZ fp8 type or the AMD side (fnuz_file): 0 not
                         known yet, 1 no, 2 yes */
    int refuses_rocm; /* the module refuses ROCm (rules_py.c, refuses_rocm): its findings are
                         notes */
} pyrules;

/* The bit of a TRI, PT or BLD rule id in pyrules.on (TRI001..TRI012, PT001..PT005,
 * BLD001..BLD004), or -1 for another id. */
int pyrules_bit(const char *id);
/* Fills r->on from the engine's rule selection. */
void pyrules_load(pyrules *r);

/* The target group of one gfx name ("gfx942", "gfx90a:xnack-"); 0 if unknown. */
unsigned pyrules_target_of(const char *gfx, ptrdiff_t len);
/* The groups of a comma-separated target list (TGT_ALL when none is known). */
unsigned pyrules_targets_of(const char *list);

static inline unsigned pyrules_targets(const pyrules *r)
{
    return r->targets ? r->targets : TGT_ALL;
}

static inline int pyrules_on(const pyrules *r, const char *rule)
{
    int b = pyrules_bit(rule);
    return b >= 0 ? (int)((r->on >> b) & 1u) : rules_on(r->c, rule);
}

/* Reports a finding at byte offset off covering n bytes with an explicit severity (msg and
 * fix: static or arena; fix NULL takes the rule's); in the Windows-only code of a Python file
 * (r->src) an error or warning becomes a note: ROCm for Instinct GPUs runs on Linux; in a file
 * of an NVIDIA-only Triton dialect (r->nv_dialect) too, its message saying so. */
void pyrules_add(pyrules *r, ptrdiff_t off, ptrdiff_t n, const char *rule, hp_severity sev,
                 const char *msg, const char *fix);
/* The same over the Python tokens [b, e) of p (one token when e <= b). */
void pyrules_add_span(pyrules *r, const pysrc *p, ptrdiff_t b, ptrdiff_t e, const char *rule,
                      hp_severity sev, const char *msg, const char *fix);

/* How an fp8 dtype name at tokens [b, e) is used where it fixes no compute format (PT005,
 * TRI004): PYFP8_COMPARED when a dtype is compared with it (dtype == tl.float8e5, x.dtype in
 * (torch.float8_e4m3fn, ...)), which recognises the format data came in; PYFP8_NEUTRAL when it
 * sits in a display that names both families (a torch-to-Triton dtype map: float8_e4m3fn ->
 * float8e4nv beside float8_e4m3fnuz -> float8e4b8), reinterprets bits (.view(dtype)), asks
 * finfo/iinfo, or is in code of a format that fixes the type itself (a file, directory, class
 * or function named for NVFP4 or MX: nvfp4, mxfp8, mx_formats, class MXTensor); 0 otherwise. */
enum { PYFP8_COMPARED = 1, PYFP8_NEUTRAL = 2 };
int pyrules_fp8_use(const pyrules *r, const pysrc *p, ptrdiff_t b, ptrdiff_t e);

#endif
