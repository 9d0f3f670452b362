/* pytorch.h: PyTorch extension mode: the rules beside the pytorch rows of the name tables (the
 * two generations of PyTorch's hipify, header paths under ATen/cuda, the namespace cuda), the
 * file renaming of PyTorch's hipify, and finding the installed PyTorch. */
#ifndef HP_PYTORCH_H
#define HP_PYTORCH_H

#include "arena.h"
#include "hipport.h"
#include "xlate.h"

/* The spelling of the pytorch row r at identifier i for the generation x->o->pytorch (to is
 * the row's hip spelling). Adds the edits of qualified forms (CUDACachingAllocator::get). */
hp_str pytorch_ident(xlate *x, ptrdiff_t i, const map_row *r, hp_str to);

/* Is the namespace name `cuda` at i one that the older generation renames to `hip`
 * (c10::cuda::..., cuda::CUDAGuard, cuda::getCurrentCUDAStream, ...)? */
int pytorch_cuda_ns(const xlate *x, ptrdiff_t i);

/* The include path PyTorch's hipify gives a header of ATen/cuda, ATen/native/cuda, ... or THC
 * (ATen/cuda/CUDAContext.h is ATen/hip/HIPContext.h); an empty slice for other paths. */
hp_str pytorch_header(arena *a, hp_str path);

/* PyTorch's name for a project file (relative path, '/'-separated) in extension mode: cuda and
 * CUDA become hip and HIP in directories and the stem, .cu becomes .hip, and a name that did
 * not change gets "_hip" before its extension. */
char *pytorch_rename(arena *a, const char *rel);

/* Looks for torch/version.py in the directories dirs[0..n) (site-packages style) and fills
 * out; 1 when found. */
int pytorch_find_in(arena *a, const char *const *dirs, int n, hp_pytorch_info *out);

#endif
