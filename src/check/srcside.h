/* srcside.h: the sources a setup.py with an AMD branch hands to its extensions only on its
 * NVIDIA side (the tree's first pass), and the glob patterns such scripts name. */
#ifndef HP_SRCSIDE_H
#define HP_SRCSIDE_H

#include <stddef.h>

#include "arena.h"
#include "str.h"

/* The keys of a setup.py that names the AMD side (pysrc_mentions_amd), "KIND:PATH", PATH
 * lexically normalized against the script's directory:
 *   SRCSIDE_KEY_SRC   a source file named (as a literal, or os.path.join of literals and
 *                     names assigned from them) only in NVIDIA-side code: a branch of an if
 *                     chain that has an AMD branch, other than that branch, or under a test
 *                     that excludes AMD (`if not IS_ROCM and ...`) or requires CUDA
 *                     (`if use_cuda:` with use_cuda = torch.version.cuda ...), or assigned to
 *                     a name that only such code reads; and nowhere else in the script
 *   SRCSIDE_KEY_GLOB  a glob pattern (glob.glob's argument) that reaches the sources so
 *   SRCSIDE_KEY_ANY   a glob pattern or source named elsewhere (not only for exclusion)
 * NULL and *n = 0 for other files. Memory in a. */
#define SRCSIDE_KEY_SRC "cuda-src"
#define SRCSIDE_KEY_GLOB "cuda-glob"
#define SRCSIDE_KEY_ANY "any-glob"
hp_str *srcside_setup(arena *a, const char *path, const char *src, ptrdiff_t len, int *n);

/* Does path match the glob pattern (`*` and `?` within a component, `**` any number of
 * components)? */
int srcside_glob_match(hp_str pat, hp_str path);

#endif
