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

#endif
