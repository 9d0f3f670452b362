/* pytorch.c: PyTorch extension mode beside the pytorch rows of data/cuda2hip/pytorch.tsv.
 *
 * PyTorch's hipify has two generations. Up to PyTorch 2.10 it renames c10/ATen's CUDA classes
 * and functions to HIP spellings, the device guards and streams to "MasqueradingAsCUDA" classes
 * (c10::cuda::CUDAGuard is c10::hip::HIPGuardMasqueradingAsCUDA); hipify 2.0 (PyTorch 2.11)
 * keeps the CUDA spellings and only moves headers from cuda/ to hip/. The rows carry the
 * hipify 2.0 spelling and, flagged masq, the older one; the rules here are the parts that are
 * not one name for one name. */
#include "pytorch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "os.h"
#include "str.h"

#include "banned.h"

static int masquerade(const xlate *x)
{
    return x->o->pytorch == HP_PYTORCH_MASQUERADE;
}

hp_str pytorch_ident(xlate *x, ptrdiff_t i, const map_row *r, hp_str to)
{
    if (!masquerade(x) || !(r->flags & MAP_F(masq)) || !r->legacy_len)
        return to;
    /* Only the allocator's get and recordStream go through the masquerading allocator; the
     * rest of CUDACachingAllocator:: is HIPCachingAllocator:: */
    hp_str name = xlate_text(x, i);
    ptrdiff_t sc = xlate_next(x, i), m = xlate_next(x, sc);
    if (xlate_punct(x, sc, P_SCOPE) && m < x->nt && x->t[m].kind == TK_IDENT) {
        int cca = str_eqc(name, "CUDACachingAllocator");
        if (cca && xlate_is(x, m, "get"))
            return S("HIPCachingAllocatorMasqueradingAsCUDA");
        if ((cca || str_eqc(name, "CUDAAllocator")) && xlate_is(x, m, "recordStream")) {
            xlate_edit(x, x->t[m].off, x->t[m].len, S("recordStreamMasqueradingAsCUDA"));
            return S("HIPCachingAllocatorMasqueradingAsCUDA");
        }
    }
    return map_legacy(r);
}

int pytorch_cuda_ns(const xlate *x, ptrdiff_t i)
{
    if (!masquerade(x))
        return 0;
    ptrdiff_t p = xlate_prev(x, i);
    if (xlate_punct(x, p, P_SCOPE) && xlate_is(x, xlate_prev(x, p), "c10"))
        return 1; /* c10::cuda is c10::hip */
    ptrdiff_t n = xlate_next(x, i), m = xlate_next(x, n);
    if (!xlate_punct(x, n, P_SCOPE) || m >= x->nt || x->t[m].kind != TK_IDENT)
        return 0;
    static const char *const c10_funcs[] = {"compat", "current_device", "set_device",
                                            "device_synchronize", "get_cuda_check_prefix"};
    for (size_t k = 0; k < sizeof c10_funcs / sizeof *c10_funcs; k++)
        if (xlate_is(x, m, c10_funcs[k]))
            return 1;
    hp_str w = xlate_text(x, m);
    const map_row *r = map_find(w.s, w.len);
    return r && (r->flags & MAP_F(pytorch)) && (r->flags & MAP_F(masq)) &&
           r->kind != MAP_K_macro && r->kind != MAP_K_header;
}

hp_str pytorch_header(arena *a, hp_str path)
{
    static const char *const prefixes[] = {
        "ATen/cuda/",           "ATen/native/cuda/",      "ATen/native/nested/cuda/",
        "ATen/native/quantized/cuda/", "ATen/native/sparse/cuda/",
        "ATen/native/transformers/cuda/", "THC/"};
    int hit = 0;
    for (size_t k = 0; k < sizeof prefixes / sizeof *prefixes && !hit; k++)
        hit = str_starts(path, str_cstr(prefixes[k]));
    if (!hit && str_starts(path, S("THC")) && !str_starts(path, S("THCP")) &&
        str_chr(path, '/') < 0)
        hit = 1;
    if (!hit)
        return str_make("", 0);
    return str_cstr(pytorch_rename(a, arena_strndup(a, path.s, path.len)));
}

/* s with cuda, CUDA and THC replaced by hip, HIP and THH, one after the other as PyTorch's
 * str.replace calls do. */
static hp_str subst(arena *a, hp_str s)
{
    static const char *const from[] = {"cuda", "CUDA", "THC"};
    static const char *const to[] = {"hip", "HIP", "THH"};
    for (int k = 0; k < 3; k++) {
        hp_str f = str_cstr(from[k]);
        if (str_find(s, f) < 0)
            continue;
        buf b;
        buf_init(&b, a, s.len + 8);
        for (ptrdiff_t i = 0; i < s.len;) {
            if (i + f.len <= s.len && memcmp(s.s + i, f.s, (size_t)f.len) == 0) {
                buf_adds(&b, to[k]);
                i += f.len;
            } else {
                buf_addc(&b, s.s[i++]);
            }
        }
        s = buf_str(&b);
    }
    return s;
}

char *pytorch_rename(arena *a, const char *rel)
{
    hp_str r = str_cstr(rel);
    const char *slash = strrchr(rel, '/');
    hp_str dir = slash ? str_make(rel, slash - rel) : str_make("", 0);
    hp_str base = slash ? str_cstr(slash + 1) : r;
    /* os.path.splitext: the last dot, leading dots excepted */
    ptrdiff_t lead = 0, dot = -1;
    while (lead < base.len && base.s[lead] == '.')
        lead++;
    for (ptrdiff_t k = lead; k < base.len; k++)
        if (base.s[k] == '.')
            dot = k;
    hp_str stem = dot < 0 ? base : str_make(base.s, dot);
    hp_str ext = dot < 0 ? str_make("", 0) : str_make(base.s + dot, base.len - dot);
    if (str_eqc(ext, ".cu"))
        ext = S(".hip");
    hp_str ndir = subst(a, dir), nstem = subst(a, stem);
    int same_name = nstem.len + ext.len == base.len &&
                    memcmp(nstem.s, base.s, (size_t)nstem.len) == 0 &&
                    memcmp(ext.s, base.s + nstem.len, (size_t)ext.len) == 0;
    const char *suffix = str_eq(ndir, dir) && same_name ? "_hip" : "";
    return arena_printf(a, "%.*s%s%.*s%s%.*s", (int)ndir.len, ndir.s, dir.len ? "/" : "",
                        (int)nstem.len, nstem.s, suffix, (int)ext.len, ext.s);
}

/* ------------------------------------------------------------------ finding PyTorch */

const char *hp_pytorch_mode_name(int mode)
{
    return mode == HP_PYTORCH_MASQUERADE ? "masquerade" : mode == HP_PYTORCH_V2 ? "v2" : "off";
}

/* The quoted value of `__version__ = '...'` in a version.py. */
static int parse_version_py(const char *s, ptrdiff_t len, char *out, size_t cap)
{
    hp_str text = str_make(s, len);
    for (ptrdiff_t at = 0; at < len;) {
        ptrdiff_t eol = at;
        while (eol < len && s[eol] != '\n')
            eol++;
        hp_str line = str_cut(text, at, eol);
        at = eol + 1;
        if (!str_starts(line, S("__version__")))
            continue;
        ptrdiff_t q = 11;
        while (q < line.len && line.s[q] != '\'' && line.s[q] != '"')
            q++;
        if (q >= line.len)
            return 0;
        char quote = line.s[q];
        ptrdiff_t e = q + 1;
        while (e < line.len && line.s[e] != quote)
            e++;
        if (e >= line.len || (size_t)(e - q - 1) >= cap)
            return 0;
        memcpy(out, line.s + q + 1, (size_t)(e - q - 1));
        out[e - q - 1] = 0;
        return 1;
    }
    return 0;
}

/* hipify 2.0 ships with PyTorch 2.11: "2.11.0+rocm7.1", "2.12.0a0+git..." */
static int mode_of(const char *version)
{
    char *end;
    long major = strtol(version, &end, 10);
    long minor = *end == '.' ? strtol(end + 1, NULL, 10) : 0;
    if (end == version)
        return HP_PYTORCH_V2;
    return major > 2 || (major == 2 && minor >= 11) ? HP_PYTORCH_V2 : HP_PYTORCH_MASQUERADE;
}

int pytorch_find_in(arena *a, const char *const *dirs, int n, hp_pytorch_info *out)
{
    memset(out, 0, sizeof *out);
    out->mode = HP_PYTORCH_V2;
    for (int i = 0; i < n; i++) {
        if (!dirs[i] || !dirs[i][0])
            continue;
        const char *path = arena_printf(a, "%s/torch/version.py", dirs[i]);
        ptrdiff_t len;
        char *s = os_slurp(a, path, 1 << 16, &len);
        if (!s || !parse_version_py(s, len, out->version, sizeof out->version))
            continue;
        out->found = 1;
        out->mode = mode_of(out->version);
        snprintf(out->path, sizeof out->path, "%s", path);
        return 1;
    }
    return 0;
}

/* The site-packages directories under prefix (lib/python3*, site- and dist-packages). */
static void site_dirs(arena *a, const char *prefix, const char ***dirs, int *n, int *cap)
{
    if (!prefix || !prefix[0])
        return;
    const char *lib = arena_printf(a, "%s/lib", prefix);
    os_dirent *ents;
    ptrdiff_t ne;
    if (os_list_dir(a, lib, &ents, &ne) != 0)
        return;
    for (ptrdiff_t i = 0; i < ne; i++) {
        if (strncmp(ents[i].name, "python3", 7) != 0)
            continue;
        for (int k = 0; k < 2; k++) {
            if (*n == *cap) {
                int ncap = *cap ? *cap * 2 : 16;
                *dirs = arena_grow(a, (void *)*dirs, (ptrdiff_t)*cap * (ptrdiff_t)sizeof(char *),
                                   (ptrdiff_t)ncap * (ptrdiff_t)sizeof(char *),
                                   _Alignof(char *));
                *cap = ncap;
            }
            (*dirs)[(*n)++] = arena_printf(a, "%s/%s/%s", lib, ents[i].name,
                                           k ? "dist-packages" : "site-packages");
        }
    }
}

void hp_pytorch_detect(const char *pythonpath, hp_pytorch_info *out)
{
    arena a;
    arena_init(&a, 1 << 14);
    const char **dirs = NULL;
    int n = 0, cap = 0;
    /* PYTHONPATH first, as Python searches it */
    for (const char *p = pythonpath; p && *p;) {
        const char *colon = strchr(p, ':');
        size_t l = colon ? (size_t)(colon - p) : strlen(p);
        if (l) {
            if (n == cap) {
                int ncap = cap ? cap * 2 : 16;
                dirs = arena_grow(&a, (void *)dirs, (ptrdiff_t)cap * (ptrdiff_t)sizeof(char *),
                                  (ptrdiff_t)ncap * (ptrdiff_t)sizeof(char *), _Alignof(char *));
                cap = ncap;
            }
            dirs[n++] = arena_strndup(&a, p, (ptrdiff_t)l);
        }
        p = colon ? colon + 1 : p + l;
    }
    const char *home = getenv("HOME");
    site_dirs(&a, getenv("VIRTUAL_ENV"), &dirs, &n, &cap);
    site_dirs(&a, getenv("CONDA_PREFIX"), &dirs, &n, &cap);
    /* the prefix of the first python3 on PATH (a venv or conda env that is first on PATH
     * without being activated, as in container images) */
    for (const char *p = getenv("PATH"); p && *p;) {
        const char *colon = strchr(p, ':');
        size_t l = colon ? (size_t)(colon - p) : strlen(p);
        const char *bin = arena_strndup(&a, p, (ptrdiff_t)l);
        os_stat st;
        if (l && os_stat_path(arena_printf(&a, "%s/python3", bin), 0, &st) == 0 && st.is_reg) {
            const char *slash = strrchr(bin, '/');
            if (slash && slash != bin)
                site_dirs(&a, arena_strndup(&a, bin, slash - bin), &dirs, &n, &cap);
            break;
        }
        p = colon ? colon + 1 : p + l;
    }
    if (home && home[0])
        site_dirs(&a, arena_printf(&a, "%s/.local", home), &dirs, &n, &cap);
    site_dirs(&a, "/usr/local", &dirs, &n, &cap);
    site_dirs(&a, "/usr", &dirs, &n, &cap);
    pytorch_find_in(&a, dirs, n, out);
    arena_release(&a);
}
