/* rules_py.c: the driver of the Triton, PyTorch and build-file families: which files they
 * read, target groups, and the finding helper they share. */
#include <string.h>

#include "pyrules.h"
#include "rules_py.h"
#include "str.h"

#include "banned.h"

hp_finding *pyrules_add(pyrules *r, ptrdiff_t off, ptrdiff_t n, const char *rule,
                        hp_severity sev, const char *msg, const char *fix)
{
    if (n < 0)
        n = 0;
    if (n > 1 << 20)
        n = 1 << 20;
    return diag_add(r->d, off, (int)n, rule, sev, msg, fix);
}

unsigned pyrules_target_of(const char *gfx, ptrdiff_t len)
{
    hp_str s = {gfx, len};
    ptrdiff_t colon = str_chr(s, ':');
    if (colon >= 0)
        s.len = colon;
    if (!str_starts(s, S("gfx")) || s.len < 4)
        return 0;
    hp_str v = {s.s + 3, s.len - 3};
    if (str_starts(v, S("9-4-generic")) || str_starts(v, S("940")) || str_starts(v, S("941")) ||
        str_starts(v, S("942")))
        return TGT_GFX942;
    if (str_starts(v, S("950")))
        return TGT_GFX950;
    if (v.s[0] == '9')
        return TGT_CDNA12;
    if (str_starts(v, S("12")))
        return TGT_GFX12;
    if (str_starts(v, S("10")) || str_starts(v, S("11")))
        return TGT_RDNA;
    return 0;
}

static int name_is(const char *base, const char *name)
{
    return strcmp(base, name) == 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

pyfile_kind rules_py_kind(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (name_is(base, "setup.py"))
        return PYK_SETUP;
    if (ends_with(base, ".py") || ends_with(base, ".pyw"))
        return PYK_PYTHON;
    if (name_is(base, "pyproject.toml"))
        return PYK_PYPROJECT;
    if (name_is(base, "CMakeLists.txt") || ends_with(base, ".cmake"))
        return PYK_CMAKE;
    if (name_is(base, "Makefile") || name_is(base, "makefile") || name_is(base, "GNUmakefile") ||
        strncmp(base, "Makefile.", 9) == 0 || ends_with(base, ".mk"))
        return PYK_MAKE;
    if (ends_with(base, ".sh") || ends_with(base, ".bash"))
        return PYK_SHELL;
    if (name_is(base, "Dockerfile") || strncmp(base, "Dockerfile.", 11) == 0 ||
        ends_with(base, ".dockerfile") || name_is(base, "Containerfile"))
        return PYK_DOCKER;
    return PYK_NONE;
}

int rules_py_file(pyrules *r, arena *a, pyfile_kind kind, const char *src, ptrdiff_t len)
{
    if (kind == PYK_PYTHON || kind == PYK_SETUP) {
        pysrc p;
        if (!pysrc_init(&p, a, src, len))
            return 0;
        tri_file tf;
        if (!triton_scan(a, &p, &tf))
            return 0;
        rules_triton(r, &p, &tf);
        rules_pytorch(r, &p);
        rules_build_py(r, &p, kind == PYK_SETUP);
        return 1;
    }
    if (kind != PYK_NONE)
        rules_build(r, kind, src, len);
    return 1;
}
