/* warp_env.h: the full-warp-mask macros of the headers a file includes, and the run's cache of
 * those headers (warp_env.c). */
#ifndef HP_WARP_ENV_H
#define HP_WARP_ENV_H

#include "arena.h"
#include "hipport.h"
#include "lex.h"
#include "nameidx.h"

/* Full-mask macros found in the headers a file includes (xlate_warp.c). */
typedef struct warp_env {
    hp_str *names;
    unsigned char *kind; /* MASK_FULL32 or MASK_FULL64 (xlate_warp.c) */
    int n, cap;
    hp_str *cuda_names;  /* CUDA-like names its headers mention (warp_env_cuda_like_name) */
    int ncuda, capcuda;
    nameidx cuda_ix;     /* cuda_names -> their index (rebuilt as the list grows) */
    nameidx ix;          /* names -> their index (rebuilt as the list grows) */
    /* Functions and macros its headers define only under '#ifdef __cuda_cuda_h__' (cuda.h's
     * include guard, which no HIP defines): the helper, the header and the #ifdef's line. */
    hp_str *guarded;
    const char **guarded_file;
    int *guarded_line;
    int nguarded, capguarded;
    nameidx guarded_ix;
    hp_str *plain;       /* the macros its headers define outside such a test */
    int nplain, capplain;
    nameidx plain_ix;
    lex_out lx;          /* the file's own tokens, lexed on the way with translate_filter's marks
                            (translate reuses them); lx.toks is NULL where it was not lexed */
} warp_env;

/* Whether the directive at h tests cuda.h's include guard alone: #ifdef __cuda_cuda_h__ or
 * #if defined(__cuda_cuda_h__). */
struct xlate;
int warp_env_tests_cuda_guard(const struct xlate *x, ptrdiff_t h);
/* Follows the conditional directive whose '#' is token i: *depth is the nesting, *open_at the
 * depth of the open group that tests cuda.h's guard (-1: none; the #else of that test closes
 * it). Returns 1 where i opens such a group. */
int warp_env_guard_step(const struct xlate *x, ptrdiff_t i, int *depth, int *open_at);

/* Whether an identifier has the shape of a CUDA API name (cudaX, cuX, CU_, CUDA_, cublas, ...),
 * whether or not the tables know it. */
int warp_env_cuda_like_name(hp_str s);

/* Headers read and lexed once per run, shared by the threads of a run (NULL: none). The
 * bytes of a header are taken to stay the same while the run lasts; budget bounds the memory
 * the cache holds (headers past it are read again by each includer). */
typedef struct warp_env_cache warp_env_cache;
/* The most memory a run's header cache holds: beyond it, headers are read by each includer. */
#define HEADER_CACHE_BYTES ((ptrdiff_t)128 << 20)
warp_env_cache *warp_env_cache_new(ptrdiff_t budget);
void warp_env_cache_free(warp_env_cache *c);

/* Follows the quoted #includes of the file at path (relative to the including file, up to a
 * depth) and collects the object-like macros whose value is a full warp mask. The file itself
 * is lexed with filter's marks, which the translation of it then reuses (env->lx). */
void warp_env_collect(arena *a, const char *path, const char *src, ptrdiff_t len,
                      const lex_filter *filter, warp_env *env, warp_env_cache *cache);
#endif
