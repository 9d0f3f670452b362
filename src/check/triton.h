/* triton.h: discovery of Triton kernels (@triton.jit, with @triton.autotune and
 * @triton.heuristics), triton.Config(...) configs and kernel[grid](...) launch sites. */
#ifndef HP_TRITON_H
#define HP_TRITON_H

#include <stdint.h>

#include "arena.h"
#include "pysrc.h"

/* Compile options a config or a launch may set. */
enum tri_opt_id {
    TO_NUM_WARPS,
    TO_NUM_STAGES,
    TO_NUM_CTAS,
    TO_MAXNREG,
    TO_WAVES_PER_EU,
    TO_NONKDIM,  /* matrix_instr_nonkdim */
    TO_KPACK,
    TO_COUNT
};

const char *triton_opt_name(int id); /* "num_warps", ... */

typedef struct tri_opt {
    int32_t key;    /* keyword token, or the string key in a Config's dict; -1 when absent */
    int32_t vb, ve; /* value tokens */
} tri_opt;

enum tri_site_kind { TS_CONFIG, TS_LAUNCH };

typedef struct tri_site {
    int kind;     /* TS_* */
    int32_t tok;  /* first token of triton.Config, or of the launched kernel's name */
    int32_t open; /* '(' of the call */
    int kernel;   /* index of the kernel in this file, or -1 */
    tri_opt opt[TO_COUNT];
} tri_site;

typedef struct tri_kernel {
    hp_str name;
    int32_t def;         /* the 'def' token */
    int32_t params;      /* '(' of the parameter list */
    int32_t first_deco;  /* '@' of the first decorator */
    int32_t jit;         /* '@' of the jit decorator */
    int32_t autotune;    /* '(' of @triton.autotune(...), or -1 */
    int32_t heuristics;  /* '(' of @triton.heuristics(...), or -1 */
    int32_t body_b, body_e; /* body tokens */
} tri_kernel;

typedef struct tri_file {
    tri_kernel *k;
    int nk;
    tri_site *s;
    int ns;
} tri_file;

/* Finds the kernels, configs and launches of p. Returns 0 when memory ran out. */
int triton_scan(arena *a, const pysrc *p, tri_file *out);
/* The kernel whose body holds token i, or -1. */
int triton_kernel_at(const tri_file *f, ptrdiff_t i);
/* Is the canonical name one of Triton's jit decorators? */
int triton_is_jit(const char *qual);

#endif
