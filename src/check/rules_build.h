/* rules_build.h: the build-file rule family (BLD), over setup.py, CMake files, Makefiles,
 * shell scripts, Dockerfiles and pyproject.toml. */
#ifndef HP_RULES_BUILD_H
#define HP_RULES_BUILD_H

#include <stddef.h>

#include "pyrules.h"
#include "pysrc.h"
#include "rules_py.h"

/* Rules BLD001-BLD003 over the strings of a Python build script (setup.py). */
void rules_build_py(pyrules *r, const pysrc *p, int setup);
/* The highest severity BLD001 gives a flag in a string among the tokens [b, e) of such a
 * script (HP_SEV_ERROR: a flag clang stops on; HP_SEV_NONE: none it reports). Reports
 * nothing. */
hp_severity rules_build_py_sev(pyrules *r, const pysrc *p, int setup, ptrdiff_t b, ptrdiff_t e);
/* Rules BLD001-BLD003 (and TRI011) over a CMake file, Makefile, shell script, Dockerfile or
 * pyproject.toml. */
void rules_build(pyrules *r, pyfile_kind kind, const char *src, ptrdiff_t len);
/* The tree pass: the directories whose CUDA sources (dir/x.cu, or a glob of them) a CMake
 * file that builds for HIP takes, outside its own directory, resolved against path
 * ("../k-cuda" from src/k-hip/CMakeLists.txt is src/k-cuda); NULL and *n = 0 for other files.
 * Memory in a. */
hp_str *rules_build_hip_dirs(arena *a, const char *path, const char *src, ptrdiff_t len, int *n);
/* The key a directory has in rules_cfg.plat (the tree's names) once some HIP build takes
 * its sources. */
hp_str rules_build_key(arena *a, hp_str dir);
/* path, lexically normalized as the directories of rules_build_facts are. */
hp_str rules_build_path(arena *a, const char *path);
/* Does the build file at path name a HIP build or ROCm (setup.py and pyproject.toml: HIP or
 * ROCm words; CMake: a HIP language, package or platform; others: HIP or ROCm words)? */
int rules_build_names_hip(const char *path, const char *src, ptrdiff_t len);

/* The tree pass's facts about a CMake file, setup.py or pyproject.toml, as keys
 * "KIND:PATH" (PATH a lexically normalized directory, or a source for RB_KEY_CUDA_SRC):
 *   RB_KEY_ROOT      a CMakeLists.txt that calls project()
 *   RB_KEY_NV_ROOT   ... one that enables CUDA, builds on CUTLASS or NVSHMEM
 *                    (cmake_nvidia_libs) and sets up no HIP build
 *   RB_KEY_HIP_AT    a build file that builds for HIP (CMake) or names HIP or ROCm (scripts)
 *   RB_KEY_HIP_ADD   a directory a CMake file that builds for HIP add_subdirectory()s
 *   RB_KEY_HIP_REF   a relative directory a script that names ROCm quotes ("csrc/ext")
 *   RB_KEY_PY_SETUP  the directory of a setup.py
 *   RB_KEY_REF       a directory or file a build file names (quoted in a setup.py or
 *                    pyproject.toml, add_subdirectory() in CMake): "DIR\tNAMED", DIR the
 *                    naming file's directory
 *   RB_KEY_CUDA_SRC  a .cu source a CMake file that builds for HIP names only in branches
 *                    of if() chains that have a HIP branch, other than that branch
 *                    (or under NOT USE_ROCM), and nowhere else; none when the file globs;
 *                    and any source list(REMOVE_ITEM) drops in the HIP branch
 *   RB_KEY_NV_ADD    a directory a CMake file add_subdirectory()s only after stopping any
 *                    configure whose variable is not the CUDA value (if(NOT VAR STREQUAL
 *                    <CUDA value>) message(FATAL_ERROR) or return())
 *   RB_KEY_NV_ADD_IF ... only in the branch of a test VAR STREQUAL <CUDA value>: "VAR\tDIR"
 *   RB_KEY_VENDOR_VAR a variable a CMake file compares with a HIP or ROCm value
 *   RB_KEY_CUDA_CMAKE a setup.py that builds with CMake only under `if DEVICE == 'cuda'`,
 *                    DEVICE a setting read from the environment with 'cuda' its default:
 *                    the CMake build is the CUDA choice of several devices
 *   RB_KEY_SETUP_EXT a setup.py that builds C++/CUDA extensions itself (CUDAExtension,
 *                    cpp_extension) and runs no make: a Makefile beside it is another route
 *   RB_KEY_NV_DSL    a pyproject.toml or setup.py, naming neither HIP nor ROCm, whose required
 *                    dependencies hold NVIDIA's CuTe DSL (rules_build_nv_dsl): a package that
 *                    runs on NVIDIA GPUs only
 * NULL and *n = 0 for other files. Memory in a. */
#define RB_KEY_NV_DSL "nv-dsl"
#define RB_KEY_HIP_LOAD "hip-load"
#define RB_KEY_SETUP_EXT "setup-ext"
/* The sources a Python module that names ROCm builds at run time (torch.utils.cpp_extension's
 * load(...)): RB_KEY_HIP_LOAD keys of the tree paths of its quoted .cu, .cpp, .cc and .hip
 * names, resolved against its directory; NULL for other modules. Memory in a. */
hp_str *rules_build_hip_loads(arena *a, const char *path, const char *src, ptrdiff_t len, int *n);
#define RB_KEY_ROOT "root"
/* The offset in the pyproject.toml or setup.py src of a required dependency on NVIDIA's CuTe
 * DSL (nvidia-cutlass-dsl; in [project] dependencies or install_requires, not an optional
 * extra), or -1; *len its length. */
ptrdiff_t rules_build_nv_dsl(const char *src, ptrdiff_t len, int setup, ptrdiff_t *dlen);
#define RB_KEY_NV_ROOT "nv-root"
#define RB_KEY_HIP_AT "hip-at"
#define RB_KEY_HIP_ADD "hip-add"
#define RB_KEY_HIP_REF "hip-ref"
#define RB_KEY_CUDA_SRC "cuda-src"
#define RB_KEY_PY_SETUP "py-setup"
#define RB_KEY_REF "ref"
#define RB_KEY_NV_ADD "nv-add"
#define RB_KEY_NV_ADD_IF "nv-add-if"
#define RB_KEY_VENDOR_VAR "vendor-var"
#define RB_KEY_CUDA_CMAKE "cuda-cmake"
hp_str *rules_build_facts(arena *a, const char *path, const char *src, ptrdiff_t len, int *n);

/* The values of rules_cfg.proj: what a CMake project root is. */
enum {
    RB_PROJ_OTHER = 0,   /* a project the tree's AMD build may reach */
    RB_PROJ_NVIDIA = 1,  /* NVIDIA-only (RB_KEY_NV_ROOT) and not reached by an AMD build */
    RB_PROJ_NESTED = 2,  /* ... inside another such project */
    RB_PROJ_NVSIDE = 3   /* a directory the tree's CMake adds only in a CUDA configure
                            (RB_KEY_NV_ADD, RB_KEY_NV_ADD_IF), or a project under one */
};

#endif
