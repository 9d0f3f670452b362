/* rules_py.h: the Triton (TRI), PyTorch (PT) and build-file (BLD) rule families. */
#ifndef HP_RULES_PY_H
#define HP_RULES_PY_H

#include <stddef.h>

#include "lex.h"
#include "pyrules.h"
#include "pysrc.h"
#include "triton.h"

/* Kinds of files the families read. */
typedef enum pyfile_kind {
    PYK_NONE = 0,
    PYK_PYTHON,     /* *.py (setup.py is PYK_SETUP) */
    PYK_SETUP,      /* setup.py */
    PYK_PYPROJECT,  /* pyproject.toml */
    PYK_CMAKE,      /* CMakeLists.txt, *.cmake */
    PYK_MAKE,       /* Makefile, makefile, GNUmakefile, Makefile.*, *.mk */
    PYK_SHELL,      /* *.sh, *.bash */
    PYK_DOCKER      /* Dockerfile, Dockerfile.*, *.dockerfile */
} pyfile_kind;

/* The kind of a file from its name (the last path component is looked at). */
pyfile_kind rules_py_kind(const char *path);

/* Rules TRI001-TRI012. */
void rules_triton(pyrules *r, const pysrc *p, const tri_file *tf);
/* Rules PT001-PT003 and PT005 over Python code. */
void rules_pytorch(pyrules *r, const pysrc *p);
struct rules_hot;
/* Rule PT004 over the C++ tokens of a PyTorch extension source. hot lists the tokens to look
 * at (RH_STR and RH_PYT, see rules.h), or is NULL: every token. */
void rules_pytorch_cxx(pyrules *r, const char *src, ptrdiff_t len, const lex_out *lx,
                       const struct rules_hot *hot, ptrdiff_t nhot);
/* The identifiers PT004 acts on: RH_PYT or 0. */
unsigned rules_pytorch_cxx_names(hp_str s);
/* Rules BLD001-BLD003 over the strings of a Python build script (setup.py). */
void rules_build_py(pyrules *r, const pysrc *p, int setup);
/* Rules BLD001-BLD003 (and TRI011) over a CMake file, Makefile, shell script, Dockerfile or
 * pyproject.toml. */
void rules_build(pyrules *r, pyfile_kind kind, const char *src, ptrdiff_t len);

/* TRI011 table: the row of the Triton environment variable named by body (alone or as
 * NAME=value), or -1; its message and fix. */
int rules_triton_env_row(hp_str body);
const char *rules_triton_env_message(arena *a, int row);
const char *rules_triton_env_fix(int row);

#endif
