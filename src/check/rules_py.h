/* rules_py.h: the files of the Python and build languages: their kinds, from their names. The
 * families over them are rules_triton.h, rules_pytorch.h and rules_build.h. */
#ifndef HP_RULES_PY_H
#define HP_RULES_PY_H

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

#endif
