/* xlate.h: CUDA-to-HIP translation of one buffer: tokens in, edits and findings out. */
#ifndef HP_XLATE_H
#define HP_XLATE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "diag.h"
#include "hipport.h"
#include "lex.h"
#include "map.h"

/* A replacement of src[off, off+len) by text; len 0 inserts. */
typedef struct edit {
    int32_t off;
    int32_t len;
    int32_t seq;   /* order among edits at the same offset */
    hp_str text;
} edit;

typedef struct xlate {
    arena *a;
    const hp_translate_opts *o;
    hp_ctx *ctx;            /* whose arena a is */
    int hipv;               /* target HIP version */
    int device_family;      /* the family index of the device functions' table */
    int launch_rewritten[2]; /* --launch=ggl rewrote the outermost launch now open (outside,
                              * inside a directive) */
    const char *path;
    const char *src;
    ptrdiff_t len;
    ptrdiff_t bom;          /* 3 when the buffer starts with a UTF-8 BOM */
    tok *t;                 /* tokens (t[nt] is TK_EOF) */
    ptrdiff_t nt;
    edit *e;
    ptrdiff_t ne, cape;
    diag_list d;
    hp_tstats st;
    hp_str *unsup;          /* names left untranslated */
    int nunsup, capunsup;
    const char *nl;         /* the file's line ending */
    int is_cu;              /* .cu: nvcc includes the runtime implicitly */
    int is_header;          /* .cuh, .h, .hpp, ... */
    int device_code;        /* device keywords, launches or built-in variables seen */
    int runtime_included;   /* hip/hip_runtime.h is (or will be) included */
    int needs_compat;       /* hipport_compat.h is needed */
    int compat_included;
    hp_str *own_names;      /* guard macros this file #defines, device names it declares */
    int nown;
    struct xargs_pending *pend; /* calls whose arguments are rewritten at the end (xlate_args.c) */
    int npend, cappend;
    int fp8_noted;          /* the FP8 format finding was made */
    int image_noted;        /* the image-instructions finding was made */
    int uses_cstring;       /* calls a <string.h> function */
    int cstring_for_lib;    /* includes a library header that needs <string.h> first */
    int cstring_included;   /* includes <cstring> or <string.h> itself */
    struct overload *ovl;   /* functions declared with CUDA types in their parameters */
    int novl;
    unsigned br_group[64], br_branch[64]; /* the #if branches after the first br_d */
    int br_depth;           /* directives, at offset br_off (branches_at) */
    ptrdiff_t br_d, br_off;
    int32_t *ovl_head;      /* per hash slot of their names, the last overload, or -1 */
    ptrdiff_t ovl_cap;      /* slots (a power of two, at least twice novl), or 0 */
    ptrdiff_t ovl_open;     /* the parameter list last looked at ('('), or 0 */
    int uses_math;          /* calls isfinite, isnan, isinf or isnormal unqualified */
    int math_included;      /* includes <math.h> itself */
    int uses_half;          /* names half, half2, __half or __half2 as a type */
    int half_var;           /* declares or assigns something named half or half2 */
    int fp16_included;      /* includes <hip/hip_fp16.h> (or cuda_fp16.h) itself */
    int interop_first;      /* includes hip_gl_interop.h before any HIP runtime header */
    int warp_sync_define;   /* HIP_ENABLE_WARP_SYNC_BUILTINS is needed (HIP 6.2 to 6.x) */
    int cg_scanned;         /* cg_alias has been filled */
    hp_str cg_alias[4];     /* names of cooperative_groups: namespace X = cooperative_groups; */
    int ncg_alias;
    int cg_named;           /* the file names cooperative groups: 1 yes, -1 no, 0 not known yet */
    const struct warp_env *env; /* masks #defined by the headers the file includes, or NULL
                                 * (warp_env.h) */
    int deviceptr_seen;     /* CUdeviceptr occurs (its arithmetic is checked from there on) */
    lex_idx *idx;           /* earlier occurrences of identifiers (NULL: plain scans) */
    const int32_t *dirs;    /* the tokens starting directives ('#'), in order */
    ptrdiff_t ndirs;
    struct warp_idx *warp;  /* xlate_warp.c's indexes of the file's macros and constants (built
                             * on first use), or NULL */
    hp_conv *conv;          /* converted references (with o->record_names) */
    int nconv, capconv;
    hp_str *tkern;          /* the names of the template __global__ functions the file declares
                             * (launch.c, on the first launch) */
    int ntkern, tkern_scanned;
    int complex_family;     /* the family index of cuComplex's table */
    int roc_complex;        /* with --roc: whose complex types cuComplex's become
                             * (ROC_CPLX_* of translate.c) */
    int cublas_family;      /* the family index of cuBLAS's table */
    unsigned char *dev_launch; /* per token: inside a device function (in_device_function) */
    int cublas_legacy;      /* the file calls cuBLAS's legacy API (cublas.h, no handle) */
    int caffe2;             /* the file is Caffe2's: 1 yes, -1 no, 0 not known yet */
} xlate;


/* A finding's message or fix, printed into the arena; "" where the caller only counts the
 * findings (hp_translate_opts.count_only). */
const char *xlate_msg(xlate *x, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Entry points of the rewrite modules, called by xlate.c. */
void xlate_edit(xlate *x, ptrdiff_t off, ptrdiff_t len, hp_str text);
void xlate_insert(xlate *x, ptrdiff_t off, const char *text);
ptrdiff_t xlate_next(const xlate *x, ptrdiff_t i);  /* next significant token */
ptrdiff_t xlate_prev(const xlate *x, ptrdiff_t i);  /* previous significant token, or -1 */
ptrdiff_t xlate_match(const xlate *x, ptrdiff_t open); /* matching close bracket, or -1 */
int xlate_is(const xlate *x, ptrdiff_t i, const char *text);
int xlate_punct(const xlate *x, ptrdiff_t i, unsigned code);
hp_str xlate_text(const xlate *x, ptrdiff_t i);
/* The type word of the nearest preceding declaration of the variable at token i ("T v",
 * "T *v", "T &v"), or an empty slice. */
hp_str xlate_declared_type(const xlate *x, ptrdiff_t i);

/* Arguments of a call split at depth-0 commas (lex_args_of). */
int xlate_args(const xlate *x, ptrdiff_t open, lex_args *out);
/* The same for the tokens strictly between open and close: a launch configuration. */
int xlate_split(const xlate *x, ptrdiff_t open, ptrdiff_t close, lex_args *out);

/* Argument-level rewrites and library notes (xlate_args.c). xlate_args_rewrite records the call at
 * token i (renamed by row r to `to`) and returns the name to use (an overload chosen by argument
 * count may change it); xlate_args_finish rewrites the recorded calls once all tokens are seen. */
hp_str xlate_args_rewrite(xlate *x, ptrdiff_t i, const map_row *r, hp_str to, int use_roc);
void xlate_args_finish(xlate *x);
int xlate_args_row_count(void);
const char *xlate_args_row_key(int i);
void xlate_lib_note(xlate *x, ptrdiff_t i, const map_row *r);
/* An asm statement at token i (asm, __asm__): special-register reads rewritten, other PTX
 * reported (xlate_asm.c). */
void xlate_asm(xlate *x, ptrdiff_t i);
int xlate_thrust_ns(const xlate *x, ptrdiff_t i); /* is the namespace at i after thrust::? */

/* Warp builtins and cooperative groups' reduce (xlate_warp.c). xlate_warp_call handles a call of a
 * row flagged mask and returns the name to write; xlate_warp_cg_ident rewrites cg::reduce and its
 * operators (returns 1 when it did). */
hp_str xlate_warp_call(xlate *x, ptrdiff_t i, const map_row *r);
int xlate_warp_cg_ident(xlate *x, ptrdiff_t i);
/* A group's shuffle member (tile.shfl_xor(v, m), shfl_up, shfl_down, shfl) of a value that is
 * not known to be arithmetic: rewritten to hipport_cg's (1), whose words move any type; and
 * cg::binary_partition, reported below HIP 7.2. */
int xlate_warp_tile_shfl(xlate *x, ptrdiff_t i);
/* The k-th name xlate_warp_cg_ident looks for (from 0), or NULL past the last. */
const char *xlate_warp_cg_name(int k);
/* MASK_FULL32 or MASK_FULL64 when x's file #defines name as a full warp mask, else 0. */
int xlate_warp_macro_mask(xlate *x, hp_str name);
struct warp_idx *xlate_warp_index(xlate *x, pthread_mutex_t *lock);

/* Kernel launches (launch.c). Returns the token index to continue at. */
ptrdiff_t launch_rewrite(xlate *x, ptrdiff_t open);

#endif
