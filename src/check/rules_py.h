/* rules_py.h: the files of the Python and build languages: their kinds, from their names. The
 * families over them are rules_triton.h, rules_pytorch.h and rules_build.h. */
#ifndef HP_RULES_PY_H
#define HP_RULES_PY_H

#include <stdint.h>

#include "arena.h"
#include "str.h"

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

/* The tree pass over a Python file: the module names its imports name (each component of
 * "import a.b.c", of "from a.b import c, d" with the imported names, of a relative "from .
 * import c", and of the string given to importlib.import_module() or __import__()), with
 * vendor[k] set when the import is in code only one vendor runs (pysrc_vendor_only). NULL and
 * *n = 0 when there are none. Memory in a. ps is the file's parse, shared by the tree pass's
 * readers of one file: *ready says whether it is made (each makes it on first need). */
hp_str *rules_python_imports(arena *a, const char *src, ptrdiff_t len, int *n, uint8_t **vendor,
                             pysrc *ps, int *ready);
/* The functions the file defines, for the tree's list of NVIDIA-only predicates: each name with
 * *pred[i] 1 where pysrc_nv_predicate holds for its def, 0 for another def of an is_/has_ name
 * (which takes the name off the list); NULL and *n 0 when the file names no
 * torch.version.cuda (most files: they are not parsed again) or defines nothing. */
hp_str *rules_python_nv_preds(arena *a, const char *src, ptrdiff_t len, int *n, uint8_t **pred,
                              pysrc *ps, int *ready);
/* The module a Python file is: its name without ".py", or its directory's for __init__.py. */
hp_str rules_python_module(const char *path);

#endif
