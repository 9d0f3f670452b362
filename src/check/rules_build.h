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

#endif
