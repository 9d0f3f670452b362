/* rules_build.c: rules BLD001-BLD003 (and TRI011's environment variables) over CMake files,
 * Makefiles, shell scripts, Dockerfiles, pyproject.toml and the strings of setup.py. Each file
 * becomes statements of words; the checks run on words. */
#include <string.h>

#include "cmake_cuda_tab.h"
#include "nameidx.h"
#include "nvcc_flags_tab.h"
#include "offload_archs_tab.h"
#include "rule_ids.h"
#include "pyrules.h"
#include "rules.h"
#include "rules_build.h"
#include "rules_triton.h"
#include "str.h"

#include "banned.h"

typedef struct bword {
    int32_t off, len;
    int32_t text; /* CMake: inside the text of message() or a cache entry's help string */
} bword;

/* One statement: a CMake command, a logical line of a Makefile, script or Dockerfile, or the
 * strings of one Python logical line. */
typedef struct bstmt {
    bword *w;
    int n, cap;
    int cmd;      /* CMake: the command name is word 0 */
    int nvcc;     /* mentions nvcc or CUDA, so ambiguous nvcc flags count */
    int guard;    /* inside a branch that picks the GPU vendor */
    int python;   /* words come from Python strings (no assignments) */
} bstmt;

/* What a Makefile branch is for (bctx.nv_gpu). */
enum { MB_GPU = 1, MB_WINDOWS = 2, MB_PROBE = 3 };

typedef struct bctx {
    pyrules *r;
    arena *a;
    const char *src;
    ptrdiff_t len;
    pyfile_kind kind;
    int hip_file;        /* the file already builds for HIP somewhere */
    int cuda_side;       /* a CMake file whose sources a HIP build file elsewhere in the tree
                            takes: it is the NVIDIA side of a build that has an AMD side */
    int bld002_n;        /* BLD002 findings so far of settings that make the build CUDA-only:
                            the first is the warning, repeats notes */
    int nv_libs;         /* CMake code builds on CUTLASS or NVSHMEM (BLD002 are notes) */
    int prim_file;       /* the file names rocPRIM, hipCUB or rocThrust (ROCM006) */
    int dry;             /* note the highest severity BLD001 would report (dry_sev) instead */
    hp_severity dry_sev;
    int cu_branch;       /* shell: inside a case branch labelled with CUDA versions (cu118) */
    int nv_gpu;          /* Makefile: inside a branch that selects one NVIDIA GPU
                            (ifeq ($(GPU),H100)): MB_GPU; or a Windows build (ifeq
                            ($(OS),Windows_NT)): MB_WINDOWS; or one that needs an NVIDIA GPU
                            found by nvidia-smi (ifneq ($(GPU_CC),) where GPU_CC comes from
                            it): MB_PROBE */
    hp_str probe_var[8]; /* Makefile: variables set only from nvidia-smi / __nvcc_device_query
                            or where it was found */
    int nprobe;
    int cuda_script;     /* Python: a packaging script driven by CUDA version labels */
    int dead_fn;         /* setup.py: inside a module-level function the file never names */
    const char *nv_env;  /* Python: inside an if on an nvcc setting of the environment
                            (CUDAHOSTCXX, NVCC_*): the variable's name */
    int old_torch;       /* Python: inside an if that holds only for PyTorch 1.x */
    int cuda_named;      /* a shell script or Dockerfile named for CUDA (cuda_named) */
    int beside_setup;    /* a Makefile beside a setup.py that builds the extensions itself, or
                            a CMake file beside a setup.py that builds them for ROCm */
    int amd_defs;        /* Python: the file defines a class or function named for AMD
                            (py_nv_twin): 0 not known yet, 1 no, 2 yes */
    int errexit;         /* shell: the script stops at a failing command (set -e) */
    int has_list;        /* an AMD target list is set */
    int tl_consumer;     /* the statement's target lists so far: Radeon targets (gfx10-12) */
    int tl_other;        /* ... and other targets or variables */
    ptrdiff_t tl_off;    /* ... the first of them */
    int tl_len;
    ptrdiff_t hip_use;   /* offset of the first HIP use (for a missing list), or -1 */
    int hip_use_len;
    int nv_root;         /* the CMake file is the root of an NVIDIA-only project that no AMD
                            build of the tree reaches (rules_cfg.proj): one warning says so */
    void (*on_stmt)(struct bctx *c, bstmt *st); /* the tree pass's statement handler
                                                   (rules_build_facts) instead of the rules */
    void *ud;            /* its state */
} bctx;

static hp_str wtext(const bctx *c, bword w)
{
    hp_str s = {c->src + w.off, w.len};
    return s;
}

static void push_word(bctx *c, bstmt *st, ptrdiff_t off, ptrdiff_t len)
{
    if (len <= 0)
        return;
    if (st->n == st->cap) {
        int ncap = st->cap ? st->cap * 2 : 32;
        st->w = arena_grow(c->a, st->w, (ptrdiff_t)st->cap * (ptrdiff_t)sizeof(bword),
                           (ptrdiff_t)ncap * (ptrdiff_t)sizeof(bword), _Alignof(bword));
        if (!st->w) {
            st->n = st->cap = 0;
            return;
        }
        st->cap = ncap;
    }
    st->w[st->n].off = (int32_t)off;
    st->w[st->n].len = (int32_t)len;
    st->w[st->n].text = 0;
    st->n++;
}

static int is_sep(const bctx *c, ptrdiff_t i, ptrdiff_t e, const char *seps)
{
    char ch = c->src[i];
    if (str_is_space(ch) || ch == '"' || ch == '\'' || ch == '`' || (ch && strchr(seps, ch)))
        return 1;
    /* CMake generator expressions: $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo> */
    return c->kind == PYK_CMAKE && ch == ':' && i + 1 < e && c->src[i + 1] == '-';
}

/* Splits src[b, e) into words at whitespace, quotes and the separators in seps. */
static void split_words(bctx *c, bstmt *st, ptrdiff_t b, ptrdiff_t e, const char *seps)
{
    ptrdiff_t i = b;
    while (i < e) {
        while (i < e && is_sep(c, i, e, seps))
            i++;
        ptrdiff_t j = i;
        while (j < e && !is_sep(c, j, e, seps))
            j++;
        /* a generator expression's closing '>' is not part of the flag */
        ptrdiff_t k = j;
        while (c->kind == PYK_CMAKE && k > i && c->src[k - 1] == '>')
            k--;
        push_word(c, st, i, k - i);
        i = j;
    }
}

static int mentions_nocase(hp_str s, const char *needle)
{
    return str_find_nocase(s, str_cstr(needle)) >= 0;
}

static int vendor_words(hp_str s)
{
    return mentions_nocase(s, "cuda") || mentions_nocase(s, "nvcc") ||
           mentions_nocase(s, "nvidia") || mentions_nocase(s, "hip") ||
           mentions_nocase(s, "rocm") || mentions_nocase(s, "amd");
}

static int hip_words(hp_str s)
{
    return mentions_nocase(s, "hip") || mentions_nocase(s, "rocm") ||
           mentions_nocase(s, "amdgpu") || mentions_nocase(s, "offload-arch");
}

/* ------------------------------------------------------------------ checks on words */

static int is_target_var(hp_str s)
{
    static const char *const vars[] = {"AMDGPU_TARGETS", "GPU_TARGETS", "CMAKE_HIP_ARCHITECTURES",
                                       "HIP_ARCHITECTURES", "PYTORCH_ROCM_ARCH",
                                       "HCC_AMDGPU_TARGET", "GPU_ARCHS", "AMDGPU_ARCH"};
    for (size_t k = 0; k < sizeof vars / sizeof *vars; k++)
        if (str_eqc(s, vars[k]))
            return 1;
    return 0;
}

static int known_gfx(hp_str s)
{
    for (int k = 0; k < offload_archs_rows_COUNT; k++)
        if (str_eqc(s, offload_archs_rows[k][0]))
            return 1;
    return 0;
}

/* Checks one AMD target name at src[off, off+len). */
static void check_target(bctx *c, ptrdiff_t off, ptrdiff_t len)
{
    hp_str s = {c->src + off, len};
    if (len <= 0)
        return;
    c->has_list = 1; /* a list taken from a variable counts as a list */
    if (c->tl_consumer + c->tl_other == 0) {
        c->tl_off = off;
        c->tl_len = (int)len;
    }
    if (RULES_STARTS(s, "gfx10") || RULES_STARTS(s, "gfx11") || RULES_STARTS(s, "gfx12"))
        c->tl_consumer++;
    else
        c->tl_other++;
    if (str_chr(s, '$') >= 0 || str_chr(s, '{') >= 0 || str_chr(s, '<') >= 0 ||
        str_chr(s, '@') >= 0)
        return;
    hp_str base = s;
    ptrdiff_t colon = str_chr(s, ':');
    if (colon >= 0)
        base.len = colon;
    arena *a = c->a;
    if (RULES_EQ(base, "native")) {
        pyrules_add(c->r, off, len, RID_BLD003, HP_SEV_WARNING,
                    "target 'native' builds only for the GPU of the build machine; the binary "
                    "fails elsewhere with hipErrorNoBinaryForGpu",
                    "list every GPU the binary must run on, e.g. gfx90a;gfx942;gfx950");
    } else if (RULES_EQ(base, "gfx940") || RULES_EQ(base, "gfx941")) {
        const char *m = arena_printf(a, "target '%.*s' is an early MI300 stepping: production "
                                        "MI300A/MI300X/MI325X report gfx942 and will not load it, "
                                        "and ROCm 7.0's libraries no longer ship code for it",
                                     (int)base.len, base.s);
        pyrules_add(c->r, off, len, RID_BLD003, HP_SEV_WARNING, m, "use gfx942");
    } else if (RULES_STARTS(base, "sm_") || RULES_STARTS(base, "compute_") ||
               RULES_STARTS(base, "sm") ) {
        const char *m = arena_printf(a, "'%.*s' is an NVIDIA architecture in an AMD target list",
                                     (int)base.len, base.s);
        pyrules_add(c->r, off, len, RID_BLD003, HP_SEV_ERROR, m,
                    "name AMD targets: gfx90a (MI200), gfx942 (MI300), gfx950 (MI350), gfx1100 "
                    "(RX 7900)");
    } else if (!known_gfx(base) && !RULES_EQ(base, "all") && !RULES_EQ(base, "default")) {
        const char *m = arena_printf(a, "'%.*s' is not an AMD GPU target", (int)base.len,
                                     base.s);
        pyrules_add(c->r, off, len, RID_BLD003, HP_SEV_WARNING, m,
                    "use LLVM AMDGPU names such as gfx90a, gfx942, gfx950, gfx1100, gfx1201");
    } else if (colon >= 0) {
        /* target-ID features: xnack+/- and sramecc+/- only */
        hp_str rest = {s.s + colon + 1, s.len - colon - 1};
        while (rest.len > 0) {
            ptrdiff_t k = str_chr(rest, ':');
            hp_str f = {rest.s, k >= 0 ? k : rest.len};
            if (!RULES_EQ(f, "xnack+") && !RULES_EQ(f, "xnack-") && !RULES_EQ(f, "sramecc+") &&
                !RULES_EQ(f, "sramecc-")) {
                const char *m = arena_printf(a, "'%.*s' is not a target feature (xnack+, "
                                                "xnack-, sramecc+ or sramecc-)",
                                             (int)f.len, f.s);
                pyrules_add(c->r, f.s - c->src, f.len, RID_BLD003, HP_SEV_WARNING, m,
                            "write the target as gfx90a, gfx90a:xnack+ or gfx90a:xnack-");
            }
            if (k < 0)
                break;
            rest.s += k + 1;
            rest.len -= k + 1;
        }
    }
}

/* A list of targets at src[off, off+len) separated by ';', ',' or spaces. */
static void check_target_list(bctx *c, ptrdiff_t off, ptrdiff_t len)
{
    ptrdiff_t i = off, e = off + len;
    while (i < e) {
        while (i < e && (c->src[i] == ';' || c->src[i] == ',' || str_is_space(c->src[i]) ||
                         c->src[i] == '"' || c->src[i] == '\''))
            i++;
        ptrdiff_t j = i;
        while (j < e && c->src[j] != ';' && c->src[j] != ',' && !str_is_space(c->src[j]) &&
               c->src[j] != '"' && c->src[j] != '\'')
            j++;
        if (j > i)
            check_target(c, i, j - i);
        i = j;
    }
}

/* After the target lists of a statement: a list of Radeon targets alone (gfx10xx, gfx11xx,
 * gfx12xx) has no code for the Instinct GPUs, which a ROCm build is mostly for. */
static void consumer_only(bctx *c)
{
    if (c->tl_consumer > 0 && c->tl_other == 0)
        pyrules_add(c->r, c->tl_off, c->tl_len, RID_BLD003, HP_SEV_WARNING,
                    "the AMD target list names only Radeon GPUs (gfx10xx, gfx11xx, gfx12xx): "
                    "the build has no code for the Instinct GPUs (gfx90a MI200, gfx942 "
                    "MI300, gfx950 MI355) and fails there with hipErrorNoBinaryForGpu",
                    "add gfx90a;gfx942;gfx950 where the build must run on Instinct GPUs");
    c->tl_consumer = c->tl_other = 0;
}

static int is_assign_op(hp_str s)
{
    return RULES_EQ(s, "=") || RULES_EQ(s, ":=") || RULES_EQ(s, "?=") || RULES_EQ(s, "+=") ||
           RULES_EQ(s, "::=");
}

static void bld003_lists(bctx *c, const bstmt *st);

/* BLD003: target lists in the statement. */
static void bld003(bctx *c, const bstmt *st)
{
    c->tl_consumer = c->tl_other = 0;
    bld003_lists(c, st);
    consumer_only(c);
}

static void bld003_lists(bctx *c, const bstmt *st)
{
    for (int i = 0; i < st->n; i++) {
        hp_str s = wtext(c, st->w[i]);
        hp_str arg;
        if (RULES_STARTS(s, "--offload-arch=") || RULES_STARTS(s, "-offload-arch=")) {
            ptrdiff_t eq = str_chr(s, '=');
            check_target_list(c, s.s - c->src + eq + 1, s.len - eq - 1);
            continue;
        }
        if (RULES_STARTS(s, "--amdgpu-target=") || RULES_STARTS(s, "-amdgpu-target=")) {
            c->has_list = 1;
            pyrules_add(c->r, s.s - c->src, str_chr(s, '=') + 1, RID_BLD003, HP_SEV_WARNING,
                        "--amdgpu-target is deprecated and newer compilers reject it",
                        "use --offload-arch=gfx942 (one per target)");
            ptrdiff_t eq = str_chr(s, '=');
            check_target_list(c, s.s - c->src + eq + 1, s.len - eq - 1);
            continue;
        }
        /* NAME=value, -DNAME=value, -DNAME:STRING=value */
        hp_str name = s;
        if (RULES_STARTS(name, "-D")) {
            name.s += 2;
            name.len -= 2;
        }
        ptrdiff_t eq = str_chr(name, '=');
        if (eq > 0) {
            hp_str n = {name.s, eq};
            ptrdiff_t colon = str_chr(n, ':');
            if (colon > 0)
                n.len = colon;
            if (is_target_var(n)) {
                arg.s = name.s + eq + 1;
                arg.len = name.len - eq - 1;
                if (arg.len == 0) {
                    /* NAME="a;b": the value comes as the following words, up to the
                     * closing quote (NAME="$ARCHS" .. : cmake's source directory is no
                     * target); NAME= before a space is empty */
                    ptrdiff_t q = s.s - c->src + s.len, qe = q;
                    if (q < c->len && (c->src[q] == '"' || c->src[q] == '\'')) {
                        qe = q + 1;
                        while (qe < c->len && c->src[qe] != c->src[q] && c->src[qe] != '\n')
                            qe++;
                    }
                    while (i + 1 < st->n && st->w[i + 1].off < qe &&
                           str_chr(wtext(c, st->w[i + 1]), '=') < 0) {
                        check_target_list(c, st->w[i + 1].off, st->w[i + 1].len);
                        i++;
                    }
                } else {
                    check_target_list(c, arg.s - c->src, arg.len);
                }
                continue;
            }
        }
        if (!is_target_var(s) || st->python)
            continue;
        c->has_list = 1;
        /* set(NAME a b ...), list(APPEND NAME a ...), set_target_properties(t PROPERTIES
         * NAME "a;b"), NAME := a b, ENV NAME a */
        int j = i + 1;
        hp_str cmd = st->cmd ? wtext(c, st->w[0]) : S("");
        int one = 0;
        if (j < st->n && is_assign_op(wtext(c, st->w[j]))) {
            j++;
        } else if (st->cmd && str_eq_nocase(cmd, S("set")) && i == 1) {
        } else if (st->cmd && str_eq_nocase(cmd, S("list")) && i == 2) {
        } else if (st->cmd && (str_eq_nocase(cmd, S("set_target_properties")) ||
                               str_eq_nocase(cmd, S("set_property")) ||
                               str_eq_nocase(cmd, S("set_source_files_properties")))) {
            one = 1;
        } else if (!(c->kind == PYK_DOCKER && i == 1)) {
            continue;
        }
        if (one) {
            if (j < st->n)
                check_target_list(c, st->w[j].off, st->w[j].len);
            continue;
        }
        for (; j < st->n; j++) {
            hp_str v = wtext(c, st->w[j]);
            if (RULES_EQ(v, "CACHE") || RULES_EQ(v, "PARENT_SCOPE") || RULES_EQ(v, "FORCE"))
                break;
            check_target_list(c, st->w[j].off, st->w[j].len);
        }
        break;
    }
}

/* Is the value of an -arch style flag an NVIDIA architecture? */
static int nv_arch(hp_str v)
{
    return RULES_STARTS(v, "sm_") || RULES_STARTS(v, "compute_") || RULES_STARTS(v, "lto_") ||
           RULES_EQ(v, "native") || RULES_EQ(v, "all") || RULES_EQ(v, "all-major");
}

/* What follows the last '/' of a word (a command's name without its directory). */
static hp_str last_component(hp_str s)
{
    for (ptrdiff_t k = s.len; k > 0; k--)
        if (s.s[k - 1] == '/')
            return str_make(s.s + k, s.len - k);
    return s;
}

/* The nvcc_flags row that word i starts, or -1 (sets *span: bytes to underline). */
static int flag_row(const bctx *c, const bstmt *st, int i, ptrdiff_t *span)
{
    hp_str s = wtext(c, st->w[i]);
    if (s.len < 2 && !RULES_EQ(s, "nvcc"))
        return -1;
    hp_str base = s.s[0] != '-' ? last_component(s) : s;
    for (int r = 0; r < nvcc_flags_rows_COUNT; r++) {
        const char *const *row = nvcc_flags_rows[r];
        hp_str f = str_cstr(row[0]);
        if (strcmp(row[2], "nvcc") == 0 && !st->nvcc)
            continue;
        const char *form = row[1];
        if (strcmp(form, "exact") == 0) {
            if (str_eq(strcmp(row[0], "nvcc") == 0 ? base : s, f)) {
                *span = s.len;
                return r;
            }
            continue;
        }
        if (!str_starts(s, f))
            continue;
        hp_str val = {0, 0};
        if (s.len == f.len) {
            if (i + 1 < st->n)
                val = wtext(c, st->w[i + 1]);
        } else if (s.s[f.len] == '=') {
            val.s = s.s + f.len + 1;
            val.len = s.len - f.len - 1;
        } else {
            continue;
        }
        if (strcmp(form, "arch") == 0 && !nv_arch(val))
            continue;
        *span = s.len == f.len ? f.len : s.len;
        return r;
    }
    return -1;
}

/* Does the compiler word at i (nvcc, or hipcc for BLD003; a line of a Makefile, script or
 * Dockerfile) run the compiler: is
 * it followed by an option (nvcc --version too: it fails where there is no nvcc) or a source or object file, or is it the value of an assignment
 * (NVCC ?= nvcc, used as $(NVCC) later)? A path that is only tested ([ -x .../nvcc ]),
 * listed (ls), made executable (chmod), written (cat > .../nvcc, a mock in a test) or handed
 * to another command as an argument compiles nothing. */
static int runs_nvcc(const bctx *c, const bstmt *st, int i)
{
    if (i > 0 && is_assign_op(wtext(c, st->w[i - 1])))
        return 1;
    if (i + 1 >= st->n)
        return 0;
    hp_str nx = wtext(c, st->w[i + 1]);
    if (nx.len > 1 && nx.s[0] == '-')
        return 1;
    static const char *const exts[] = {".cu", ".c", ".cc", ".cpp", ".cxx", ".o", ".obj", ".ptx"};
    for (size_t k = 0; k < sizeof exts / sizeof exts[0]; k++) {
        hp_str e = str_cstr(exts[k]);
        if (nx.len > e.len && str_eq(str_make(nx.s + nx.len - e.len, e.len), e))
            return 1;
    }
    return nx.len > 0 && nx.s[0] == '$'; /* nvcc $(FLAGS) ..., nvcc ${SRC} */
}

/* Is word i of st where no AMD compiler sees it: a CMake setting of the CUDA language alone
 * (CMAKE_CUDA_FLAGS, CUDA_NVCC_FLAGS, a $<COMPILE_LANGUAGE:CUDA> generator expression; BLD002
 * reports a build that is CUDA-only), or, for the word nvcc, a message or a look-up of the
 * compiler ($(error ...), which nvcc, command -v nvcc, echo) rather than a compilation? */
static int not_compiled_by_amd(const bctx *c, const bstmt *st, int i, int nvcc_word)
{
    if (st->cmd) {
        if (st->w[i].text)
            return 1;
        for (int k = 0; k < st->n; k++) {
            hp_str w = wtext(c, st->w[k]);
            if (RULES_EQ(w, "CMAKE_CUDA_FLAGS") || RULES_STARTS(w, "CMAKE_CUDA_FLAGS_") ||
                RULES_EQ(w, "CUDA_NVCC_FLAGS") || RULES_STARTS(w, "CUDA_NVCC_FLAGS_"))
                return 1;
        }
        /* a generator expression still open at the word, on its line, whose text so far
         * (its condition) names the CUDA language: $<$<COMPILE_LANGUAGE:CUDA>:... word */
        ptrdiff_t at = st->w[i].off, b = at;
        while (b > 0 && c->src[b - 1] != '\n')
            b--;
        hp_str before = str_make(c->src + b, at - b);
        ptrdiff_t open[16];
        int nopen = 0;
        for (ptrdiff_t k = 0; k < before.len; k++) {
            if (before.s[k] == '$' && k + 1 < before.len && before.s[k + 1] == '<') {
                if (nopen < 16)
                    open[nopen] = k;
                nopen++;
            } else if (before.s[k] == '>' && nopen > 0) {
                nopen--;
            }
        }
        for (int k = 0; k < nopen && k < 16; k++) {
            hp_str expr = str_cut(before, open[k], before.len);
            if (str_find(expr, S("COMPILE_LANGUAGE:CUDA")) >= 0 ||
                str_find(expr, S("COMPILE_LANG_AND_ID:CUDA")) >= 0)
                return 1;
        }
        return 0;
    }
    if (!nvcc_word || st->python)
        return 0;
    if (!runs_nvcc(c, st, i))
        return 1;
    ptrdiff_t at = st->w[i].off, b = at;
    while (b > 0 && c->src[b - 1] != '\n')
        b--;
    hp_str before = str_make(c->src + b, at - b);
    if (str_find(before, S("$(error")) >= 0 || str_find(before, S("$(warning")) >= 0 ||
        str_find(before, S("$(info")) >= 0)
        return 1;
    for (int k = 0; k < i; k++) {
        hp_str w = wtext(c, st->w[k]);
        if (RULES_STARTS(w, "$(error") || RULES_STARTS(w, "$(warning") ||
            RULES_STARTS(w, "$(info") || RULES_EQ(w, "echo") || RULES_EQ(w, "printf") ||
            RULES_EQ(w, "which") || RULES_STARTS(w, "$(shell which") ||
            (RULES_EQ(w, "command") && k + 1 < st->n &&
             RULES_EQ(wtext(c, st->w[k + 1]), "-v")))
            return 1;
    }
    return 0;
}

/* The severity of a flag's row (its fifth column): error where clang stops on the flag,
 * lower where it only warns "argument unused" and compiles on. */
static hp_severity flag_sev(const char *const *row)
{
    if (strcmp(row[4], "note") == 0)
        return HP_SEV_NOTE;
    return strcmp(row[4], "warning") == 0 ? HP_SEV_WARNING : HP_SEV_ERROR;
}

static const char *flag_message(const bctx *c, ptrdiff_t off, ptrdiff_t span,
                                const char *const *row)
{
    /* a CUDA library: the link, not the compiler, fails */
    if (flag_sev(row) == HP_SEV_ERROR && strncmp(row[0], "-lcuda", 6) == 0)
        return arena_printf(c->a, "CUDA library '%.*s': ROCm has no such library, so the link "
                                  "fails (cannot find it); instead: %s",
                            (int)span, c->src + off, row[3]);
    if (flag_sev(row) == HP_SEV_ERROR)
        return arena_printf(c->a, "nvcc-only flag '%.*s': AMD's compilers (hipcc, amdclang++) "
                                  "do not take it; instead: %s",
                            (int)span, c->src + off, row[3]);
    return arena_printf(c->a, "nvcc-only flag '%.*s': AMD's compilers (hipcc, amdclang++) "
                              "misread it and only warn, so what it asks for is lost; "
                              "instead: %s",
                        (int)span, c->src + off, row[3]);
}

/* -Xcompiler (separate from its value) before a single host flag (-fPIC): clang warns that
 * '-Xcompiler' is unused and takes the next flag as its own. Joined (-Xcompiler=-fPIC), before a
 * comma list (-fPIC,-Wall) or before a word that is no option (/Zc:...), clang stops. */
static int xcompiler_host(hp_str flag, hp_str val)
{
    return RULES_EQ(flag, "-Xcompiler") && val.len > 1 && val.s[0] == '-' &&
           str_chr(val, ',') < 0 && str_chr(val, ' ') < 0 && str_chr(val, '\t') < 0;
}

/* Is the nvcc at word i a version probe whose status cannot fail the script: nvcc --version
 * (or -V) piped into a filter that picks the version string (grep, sed, awk, cut, head, tail),
 * or followed on its line by "|| true" / "|| :"? */
static int nvcc_probe(const bctx *c, const bstmt *st, int i)
{
    if (st->python || i + 1 >= st->n)
        return 0;
    hp_str o = wtext(c, st->w[i + 1]);
    if (!RULES_EQ(o, "--version") && !RULES_EQ(o, "-V"))
        return 0;
    ptrdiff_t k = o.s - c->src + o.len, e = k;
    while (e < c->len && c->src[e] != '\n')
        e++;
    hp_str rest = str_make(c->src + k, e - k);
    /* a command of its own in a script that goes on past a failing command (no set -e):
     * it only logs the version */
    if (c->kind == PYK_SHELL && !c->errexit && i == 0 && str_trim(rest).len == 0)
        return 2;
    if (str_find(rest, S("|| true")) >= 0 || str_find(rest, S("||true")) >= 0 ||
        str_find(rest, S("|| :")) >= 0)
        return 1;
    ptrdiff_t j = 0;
    while (j < rest.len && (str_is_space(rest.s[j]) || rest.s[j] == '2' || rest.s[j] == '>' ||
                            rest.s[j] == '&' || rest.s[j] == '1'))
        j++; /* 2>&1 */
    if (j >= rest.len || rest.s[j] != '|' || (j + 1 < rest.len && rest.s[j + 1] == '|'))
        return 0;
    j++;
    while (j < rest.len && str_is_space(rest.s[j]))
        j++;
    hp_str f = str_cut(rest, j, rest.len);
    static const char *const filters[] = {"grep", "sed", "awk", "cut", "head", "tail"};
    for (size_t q = 0; q < sizeof filters / sizeof *filters; q++) {
        hp_str w = str_cstr(filters[q]);
        if (str_starts(f, w) && (f.len == w.len || str_is_space(f.s[w.len])))
            return 1;
    }
    return 0;
}

static void add_flag(bctx *c, const bstmt *st, int i, ptrdiff_t span, const char *const *row,
                     hp_str val)
{
    const char *m, *fix = arena_printf(c->a, "%s", row[3]);
    hp_severity sev = flag_sev(row);
    int probe = strcmp(row[0], "nvcc") == 0 ? nvcc_probe(c, st, i) : 0;
    if (probe) {
        sev = HP_SEV_NOTE;
        m = probe == 2 ? "nvcc --version here only logs the CUDA version, and the script goes "
                         "on past a failing command (no set -e): a machine without nvcc logs "
                         "an error and continues"
                       : "nvcc --version here only reads the CUDA version (its status cannot "
                         "fail the script): on a machine without nvcc the value is empty";
    } else if (strcmp(row[0], "nvcc") == 0 && st->cmd &&
               str_eq_nocase(wtext(c, st->w[0]), S("find_program"))) {
        /* a look-up compiles nothing: where it fails the build quietly leaves out the GPU */
        sev = HP_SEV_WARNING;
        m = "find_program() looks for nvcc: GPU support is enabled only when nvcc is found, so "
            "an AMD machine silently gets a build without it";
        fix = "add HIP detection (find_package(hip), check_language(HIP)) beside the nvcc "
              "look-up";
    } else if (strcmp(row[0], "nvcc") == 0) {
        m = st->python ? "nvcc is the CUDA compiler: AMD builds compile with hipcc"
                       : "nvcc is the CUDA compiler: AMD builds compile with hipcc or "
                         "amdclang++ -x hip";
    } else if ((RULES_EQ(wtext(c, st->w[i]), "-Xcompiler") && val.len > 1 &&
                (val.s[0] == '/' || (val.len > 2 && val.s[0] == '"' && val.s[1] == '/'))) ||
               (RULES_STARTS(wtext(c, st->w[i]), "-Xcompiler=/") &&
                (val = str_cut(wtext(c, st->w[i]), 11, wtext(c, st->w[i]).len)).len > 1)) {
        /* /Zc:__cplusplus, /std:c++20, /bigobj: options of MSVC, so nvcc's host compiler is
         * MSVC and the build a Windows one */
        sev = HP_SEV_NOTE;
        m = arena_printf(c->a, "nvcc-only flag '-Xcompiler' before an MSVC option ('%.*s'): "
                               "this is a Windows build, and ROCm for AMD Instinct GPUs runs "
                               "on Linux only",
                         (int)val.len, val.s);
    } else if (xcompiler_host(wtext(c, st->w[i]), val)) {
        sev = HP_SEV_NOTE;
        m = arena_printf(c->a, "nvcc-only flag '-Xcompiler': clang only warns that it is unused "
                               "and takes the flag after it ('%.*s') as its own host flag, so "
                               "the build goes on; instead: %s",
                         (int)val.len, val.s, row[3]);
    } else if (RULES_EQ(wtext(c, st->w[i]), "-Xcudafe") && val.len > 1 && val.s[0] == '-') {
        /* clang takes -X<word> as a linker option it ignores ("argument unused"); what fails
         * is the front-end option after it (--diag_suppress=177: "unknown argument") */
        m = arena_printf(c->a, "nvcc-only flags '-Xcudafe %.*s': clang only warns that "
                               "'-Xcudafe' is unused, then stops on '%.*s' (unknown argument); "
                               "instead: drop both words from AMD builds, or write %s",
                         (int)val.len, val.s, (int)val.len, val.s, row[3]);
        fix = arena_printf(c->a, "drop both words from AMD builds, or write %s", row[3]);
    } else {
        m = flag_message(c, st->w[i].off, span, row);
    }
    if (c->nv_gpu && sev > HP_SEV_NOTE) {
        sev = HP_SEV_NOTE;
        m = arena_printf(c->a, "%s (%s)", m,
                         c->nv_gpu == MB_WINDOWS
                             ? "in a branch for Windows builds: ROCm for AMD Instinct GPUs "
                               "runs on Linux only"
                         : c->nv_gpu == MB_PROBE
                             ? "in a branch taken only where nvidia-smi finds an NVIDIA GPU: "
                               "on an AMD machine the probe comes back empty"
                             : "in a branch that selects one NVIDIA GPU: only that GPU's "
                               "build runs it; a port adds its own branch");
    }
    if (c->dead_fn && sev > HP_SEV_NOTE) {
        sev = HP_SEV_NOTE;
        m = arena_printf(c->a, "%s (in a function that the file never calls or names, so it "
                               "never runs)",
                         m);
    }
    if (c->beside_setup && sev > HP_SEV_NOTE) {
        sev = HP_SEV_NOTE;
        m = arena_printf(c->a, "%s (a Makefile beside a setup.py that builds the extensions "
                               "itself and runs no make: the package builds through setup.py, "
                               "the port there)",
                         m);
    }
    if (c->cuda_named && sev > HP_SEV_NOTE) {
        sev = HP_SEV_NOTE;
        m = arena_printf(c->a, "%s (in a script named for CUDA: the CUDA side of the build, "
                               "which a port pairs with a ROCm one)",
                         m);
    }
    if (c->old_torch && sev > HP_SEV_NOTE) {
        sev = HP_SEV_NOTE;
        m = arena_printf(c->a, "%s (only with a PyTorch 1.x: ROCm 7 builds of PyTorch are 2.x)",
                         m);
    }
    if (c->nv_env && sev > HP_SEV_NOTE) {
        sev = HP_SEV_NOTE;
        m = arena_printf(c->a, "%s (only when %s is set: an nvcc setting of the environment, "
                               "which a ROCm build does not set; guard it with not "
                               "torch.version.hip to be sure)",
                         m, c->nv_env);
    }
    if (c->cu_branch || c->cuda_script) {
        sev = HP_SEV_NOTE;
        m = arena_printf(c->a, "%s (%s)", m,
                         c->cu_branch ? "in a case branch for a CUDA version: only CUDA builds "
                                        "run it"
                                      : "in a packaging script driven by CUDA version labels: "
                                        "only CUDA builds run it");
    }
    if (c->dry)
        c->dry_sev = sev > c->dry_sev ? sev : c->dry_sev;
    else
        pyrules_add(c->r, st->w[i].off, span, RID_BLD001, sev, m, fix);
}

static void bld001(bctx *c, const bstmt *st)
{
    for (int i = 0; i < st->n; i++) {
        ptrdiff_t span = 0;
        int r = flag_row(c, st, i, &span);
        if (r < 0)
            continue;
        const char *const *row = nvcc_flags_rows[r];
        if (not_compiled_by_amd(c, st, i, strcmp(row[0], "nvcc") == 0))
            continue;
        add_flag(c, st, i, span, row, i + 1 < st->n ? wtext(c, st->w[i + 1]) : S(""));
    }
}

/* The cmake_cuda row for a word, or -1. */
static int cmake_row(hp_str s)
{
    for (int r = 0; r < cmake_cuda_rows_COUNT; r++) {
        hp_str k = str_cstr(cmake_cuda_rows[r][0]);
        if (k.len && k.s[k.len - 1] == '*') {
            k.len--;
            if (str_starts(s, k) && s.len > k.len)
                return r;
        } else if (str_eq(s, k)) {
            return r;
        }
    }
    return -1;
}

/* Does the cmake_cuda row name a setting that makes the build CUDA-only: the CUDA language
 * (project(), enable_language(), LANGUAGE CUDA, find_package(CUDA)), CUDA architectures, the
 * CUDA compiler, the CUDA toolkit's targets, FindCUDA's CUDA targets? Flags, the CUDA
 * standard, separable compilation and FindCUDA's arch-flag helper only tune a CUDA build. */
static int bld002_primary(int r)
{
    static const char *const tune[] = {"CMAKE_CUDA_FLAGS",
                                       "CMAKE_CUDA_FLAGS_*",
                                       "CMAKE_CUDA_STANDARD",
                                       "CMAKE_CUDA_STANDARD_REQUIRED",
                                       "CMAKE_CUDA_SEPARABLE_COMPILATION",
                                       "CUDA_SEPARABLE_COMPILATION",
                                       "CUDA_NVCC_FLAGS",
                                       "cuda_select_nvcc_arch_flags"};
    for (size_t k = 0; k < sizeof tune / sizeof *tune; k++)
        if (strcmp(cmake_cuda_rows[r][0], tune[k]) == 0)
            return 0;
    return 1;
}

static void bld002(bctx *c, const bstmt *st)
{
    if (!st->cmd || st->n == 0)
        return;
    hp_str cmd = wtext(c, st->w[0]);
    for (int i = 0; i < st->n; i++) {
        hp_str s = wtext(c, st->w[i]);
        int r = -1;
        const char *m = NULL;
        if (st->w[i].text)
            continue;
        if (i == 0) {
            if (str_eq_nocase(s, S("enable_language"))) {
                /* enable_language(CXX) is no CUDA setting: only the CUDA language counts */
                for (int k = 1; k < st->n && r < 0; k++)
                    if (str_eqc(wtext(c, st->w[k]), "CUDA")) {
                        r = cmake_row(S("enable_language"));
                        m = "enable_language(CUDA) builds the sources with nvcc only";
                        i = k;
                    }
                if (r < 0)
                    i = st->n;
            } else {
                char low[40];
                if (s.len < (ptrdiff_t)sizeof low) {
                    for (ptrdiff_t k = 0; k < s.len; k++)
                        low[k] = (char)(s.s[k] >= 'A' && s.s[k] <= 'Z' ? s.s[k] + 32 : s.s[k]);
                    r = cmake_row(str_make(low, s.len));
                }
            }
        } else if (RULES_EQ(s, "CUDA")) {
            /* project(... CUDA), LANGUAGE CUDA, find_package(CUDA) */
            hp_str prev = wtext(c, st->w[i - 1]);
            if (str_eq_nocase(cmd, S("project")) || RULES_EQ(prev, "LANGUAGE") ||
                str_eq_nocase(cmd, S("find_package")) || RULES_EQ(prev, "LANGUAGES")) {
                r = cmake_row(str_eq_nocase(cmd, S("find_package")) ? S("CUDAToolkit") : S("CUDA"));
                if (str_eq_nocase(cmd, S("find_package")))
                    m = "find_package(CUDA) is the deprecated FindCUDA module and finds nvcc only";
                else if (RULES_EQ(prev, "LANGUAGE"))
                    m = "sources marked LANGUAGE CUDA are compiled by nvcc only";
                else
                    m = "project() enables the CUDA language only";
            }
        } else {
            r = cmake_row(s);
            if (r >= 0 && RULES_EQ(s, "CUDA"))
                r = -1;
        }
        if (r < 0)
            continue;
        if (!m)
            m = arena_printf(c->a, "'%.*s' exists only for CUDA builds", (int)s.len, s.s);
        const char *fix = arena_printf(c->a, "add a HIP build: %s", cmake_cuda_rows[r][1]);
        /* the hazard is the file's build being CUDA-only: one warning on the first setting
         * that makes it so says it, and the other CUDA-only settings of the same file (and
         * those that only tune a CUDA build: flags, separable compilation) are notes that
         * list what the HIP branch needs */
        int primary = bld002_primary(r);
        hp_severity sev = c->bld002_n || c->nv_libs || !primary ? HP_SEV_NOTE : HP_SEV_WARNING;
        c->bld002_n += primary;
        if (c->beside_setup && sev > HP_SEV_NOTE) {
            sev = HP_SEV_NOTE;
            m = arena_printf(c->a, "%s (a setup.py beside this CMake file builds the package "
                                   "for ROCm: this CMake route is CUDA-only)",
                             m);
        }
        pyrules_add(c->r, st->w[i].off, st->w[i].len, RID_BLD002, sev, m, fix);
    }
}

static void tri011(bctx *c, const bstmt *st)
{
    for (int i = 0; i < st->n; i++) {
        int row = rules_triton_env_row(wtext(c, st->w[i]));
        if (row < 0)
            continue;
        hp_str s = wtext(c, st->w[i]);
        ptrdiff_t eq = str_chr(s, '=');
        pyrules_add(c->r, st->w[i].off, eq >= 0 ? eq : s.len, RID_TRI011, HP_SEV_NOTE,
                    rules_triton_env_message(c->a, row), rules_triton_env_fix(row));
    }
}

/* Notes HIP use, for the missing-target-list check. */
static void note_hip_use(bctx *c, const bstmt *st)
{
    for (int i = 0; i < st->n && c->hip_use < 0; i++) {
        hp_str s = wtext(c, st->w[i]);
        hp_str base = last_component(s);
        int use = 0;
        if (st->cmd) {
            hp_str cmd = wtext(c, st->w[0]);
            use = i > 0 && RULES_EQ(s, "HIP") &&
                  (str_eq_nocase(cmd, S("project")) || str_eq_nocase(cmd, S("enable_language")));
        } else if (!st->python) {
            /* only where it runs: [ -e /opt/rocm/bin/hipcc ] compiles nothing */
            use = (RULES_EQ(base, "hipcc") || RULES_EQ(base, "amdclang++")) &&
                  runs_nvcc(c, st, i);
        }
        if (use) {
            c->hip_use = st->w[i].off;
            c->hip_use_len = st->w[i].len;
        }
    }
}

/* BLD004: ROCm tools that ROCm 7 removed (hipcc.pl) or deprecated (roc-obj-ls, roc-obj-extract,
 * roc-obj). */
static void bld004(bctx *c, const bstmt *st)
{
    for (int i = 0; i < st->n; i++) {
        hp_str s = wtext(c, st->w[i]);
        hp_str base = last_component(s);
        ptrdiff_t off = base.s - c->src;
        if (RULES_EQ(base, "hipcc.pl"))
            pyrules_add(c->r, off, base.len, RID_BLD004, HP_SEV_ERROR,
                        "'hipcc.pl' is gone from ROCm 7.0: hipcc is a compiled program now",
                        "call hipcc (or amdclang++ -x hip) instead");
        else if (RULES_EQ(base, "roc-obj-ls") || RULES_EQ(base, "roc-obj-extract") ||
                 RULES_EQ(base, "roc-obj"))
            pyrules_add(c->r, off, base.len, RID_BLD004, HP_SEV_WARNING,
                        arena_printf(c->a, "'%.*s' is deprecated in ROCm 7 and goes in a later "
                                           "release",
                                     (int)base.len, base.s),
                        "list the GPU code of a binary with llvm-objdump --offloading (or "
                        "hipport targets); extract it with llvm-objdump --offloading or "
                        "clang-offload-bundler --unbundle");
    }
}

/* ROCM006: a C++ standard before C++17 where rocPRIM, hipCUB or rocThrust are built with:
 * their 4.0 releases (ROCm 7.0) stop with "#error rocPRIM requires at least C++17". */
static int old_std(hp_str v)
{
    return RULES_EQ(v, "98") || RULES_EQ(v, "03") || RULES_EQ(v, "11") || RULES_EQ(v, "14") ||
           RULES_EQ(v, "0x") || RULES_EQ(v, "1y");
}

static void rocm006(bctx *c, const bstmt *st)
{
    for (int i = 0; i < st->n; i++) {
        hp_str w = wtext(c, st->w[i]);
        hp_str v = {0, 0};
        ptrdiff_t at = st->w[i].off, len = w.len;
        if (RULES_STARTS(w, "-std=c++") || RULES_STARTS(w, "--std=c++") ||
            RULES_STARTS(w, "-std=gnu++") || RULES_STARTS(w, "--std=gnu++")) {
            ptrdiff_t k = str_chr(w, '+');
            v = str_cut(w, k + 2, w.len);
        } else if (st->cmd && i + 1 < st->n &&
                   (RULES_EQ(w, "CMAKE_CXX_STANDARD") || RULES_EQ(w, "CMAKE_HIP_STANDARD") ||
                    RULES_EQ(w, "CXX_STANDARD") || RULES_EQ(w, "HIP_STANDARD"))) {
            v = wtext(c, st->w[i + 1]);
            at = st->w[i + 1].off;
            len = v.len;
        } else {
            continue;
        }
        if (!old_std(v))
            continue;
        pyrules_add(c->r, at, len, RID_ROCM006, rules_sev_since(c->r->c, 700),
                    arena_printf(c->a, "C++%.*s: rocPRIM, hipCUB and rocThrust 4.0 (ROCm 7.0) "
                                       "need C++17 and stop with \"rocPRIM requires at least "
                                       "C++17\"",
                                 (int)v.len, v.s),
                    NULL);
    }
}

static void run_stmt(bctx *c, bstmt *st)
{
    pyrules *r = c->r;
    if (st->n == 0)
        return;
    for (int i = 0; i < st->n && !st->nvcc; i++) {
        hp_str s = wtext(c, st->w[i]);
        if (s.len && s.s[0] != '-' && (mentions_nocase(s, "nvcc") || mentions_nocase(s, "cuda")))
            st->nvcc = 1;
    }
    if (c->nv_root && st->cmd && str_eq_nocase(wtext(c, st->w[0]), S("project")) &&
        pyrules_on(r, RID_BLD002)) {
        c->nv_root = 0;
        rules_report_at(r->c, RID_BLD002, st->w[0].off, st->w[0].len, HP_SEV_WARNING,
                        RF_NOWAVE | RF_KEEP,
                        r->c->cfg->amd_path
                            ? "an NVIDIA-only CMake project: it builds on CUTLASS or NVSHMEM, "
                              "NVIDIA's CUDA libraries with no HIP build, and no AMD build of "
                              "the tree reaches it; the tree builds for AMD elsewhere, so the "
                              "findings in its C++ sources and build files are notes"
                            : "an NVIDIA-only CMake project: it builds on CUTLASS or NVSHMEM, "
                              "NVIDIA's CUDA libraries with no HIP build, and no AMD build of "
                              "the tree reaches it; the findings in its C++ sources are notes",
                        "leave it to NVIDIA builds, or port it by replacing those libraries "
                        "(Composable Kernel, hipBLASLt, rocSHMEM) and adding a HIP build");
    }
    int vendor_branch = (st->guard && c->hip_file) || c->cuda_side;
    if (pyrules_on(r, RID_BLD001) && !vendor_branch)
        bld001(c, st);
    if (pyrules_on(r, RID_BLD002) && !c->hip_file && c->kind == PYK_CMAKE)
        bld002(c, st);
    if (pyrules_on(r, RID_BLD003))
        bld003(c, st);
    else
        for (int i = 0; i < st->n; i++)
            if (is_target_var(wtext(c, st->w[i])))
                c->has_list = 1;
    if (pyrules_on(r, RID_TRI011) && !st->python)
        tri011(c, st);
    if (pyrules_on(r, RID_BLD004))
        bld004(c, st);
    if (c->prim_file && rules_on(r->c, RID_ROCM006))
        rocm006(c, st);
    note_hip_use(c, st);
    st->n = 0;
    st->nvcc = 0;
}

/* ------------------------------------------------------------------ CMake */

/* A bracket "[=*[" at i: returns the number of '=' and sets *open_len, or -1. */
static int bracket_open(const bctx *c, ptrdiff_t i, ptrdiff_t *open_len)
{
    if (i >= c->len || c->src[i] != '[')
        return -1;
    ptrdiff_t j = i + 1;
    while (j < c->len && c->src[j] == '=')
        j++;
    if (j >= c->len || c->src[j] != '[')
        return -1;
    *open_len = j + 1 - i;
    return (int)(j - i - 1);
}

/* End of a bracket argument or comment body starting at i with eqs '='. */
static ptrdiff_t bracket_end(const bctx *c, ptrdiff_t i, int eqs, ptrdiff_t *body_end)
{
    for (ptrdiff_t j = i; j < c->len; j++) {
        if (c->src[j] != ']')
            continue;
        ptrdiff_t k = j + 1;
        int n = 0;
        while (k < c->len && c->src[k] == '=' && n < eqs) {
            k++;
            n++;
        }
        if (n == eqs && k < c->len && c->src[k] == ']') {
            *body_end = j;
            return k + 1;
        }
    }
    *body_end = c->len;
    return c->len;
}

/* Skips a '#' comment at i (line or bracket); returns the index after it. */
static ptrdiff_t cmake_comment(const bctx *c, ptrdiff_t i)
{
    ptrdiff_t ol, be;
    int eqs = bracket_open(c, i + 1, &ol);
    if (eqs >= 0)
        return bracket_end(c, i + 1 + ol, eqs, &be);
    const char *nl = memchr(c->src + i, '\n', (size_t)(c->len - i));
    return nl ? nl - c->src : c->len;
}

static int ident_ch(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_';
}

/* Is the quoted argument that follows the words of st so far a help string: the docstring of
 * set(VAR value CACHE TYPE "help") or of option(NAME "help" ...)? Its words are prose
 * ("architecture for -gencode"), not flags. */
static int cmake_doc_arg(const bctx *c, const bstmt *st)
{
    if (st->n == 0)
        return 0;
    hp_str cmd = wtext(c, st->w[0]);
    if (str_eq_nocase(cmd, S("option")))
        return st->n == 2;
    if (!str_eq_nocase(cmd, S("set")) || st->n < 3)
        return 0;
    hp_str ty = wtext(c, st->w[st->n - 1]);
    return RULES_EQ(wtext(c, st->w[st->n - 2]), "CACHE") &&
           (RULES_EQ(ty, "STRING") || RULES_EQ(ty, "BOOL") || RULES_EQ(ty, "PATH") ||
            RULES_EQ(ty, "FILEPATH") || RULES_EQ(ty, "INTERNAL"));
}

static void scan_cmake(bctx *c)
{
    bstmt st;
    memset(&st, 0, sizeof st);
    st.cmd = 1;
    unsigned char vstack[64]; /* if() nesting: does the branch test the vendor? */
    int vsp = 0;
    ptrdiff_t i = 0;
    const char *s = c->src;
    while (i < c->len) {
        char ch = s[i];
        if (ch == '#') {
            i = cmake_comment(c, i);
            continue;
        }
        if (!ident_ch(ch) || (ch >= '0' && ch <= '9')) {
            i++;
            continue;
        }
        ptrdiff_t nb = i;
        while (i < c->len && ident_ch(s[i]))
            i++;
        ptrdiff_t ne = i;
        while (i < c->len && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i >= c->len || s[i] != '(')
            continue;
        st.n = 0;
        push_word(c, &st, nb, ne - nb);
        /* arguments up to the matching ')' */
        int depth = 1;
        i++;
        while (i < c->len && depth > 0) {
            ch = s[i];
            if (ch == '#') {
                i = cmake_comment(c, i);
            } else if (ch == '(') {
                depth++;
                i++;
            } else if (ch == ')') {
                depth--;
                i++;
            } else if (ch == '"') {
                ptrdiff_t j = i + 1;
                while (j < c->len && s[j] != '"')
                    j += s[j] == '\\' ? 2 : 1;
                if (j > c->len)
                    j = c->len;
                int first = st.n, doc = cmake_doc_arg(c, &st);
                split_words(c, &st, i + 1, j, ";");
                for (int k = first; doc && k < st.n; k++)
                    st.w[k].text = 1;
                i = j + 1;
            } else if (ch == '[') {
                ptrdiff_t ol, be;
                int eqs = bracket_open(c, i, &ol);
                if (eqs < 0) {
                    i++;
                    continue;
                }
                ptrdiff_t end = bracket_end(c, i + ol, eqs, &be);
                split_words(c, &st, i + ol, be, ";");
                i = end;
            } else if (str_is_space(ch)) {
                i++;
            } else {
                ptrdiff_t j = i;
                while (j < c->len && !str_is_space(s[j]) && s[j] != '(' && s[j] != ')' &&
                       s[j] != '"' && s[j] != '#') {
                    if (s[j] == '\\' && j + 1 < c->len)
                        j++;
                    j++;
                }
                if (j > c->len)
                    j = c->len;
                split_words(c, &st, i, j, ";");
                i = j;
            }
        }
        hp_str name = {s + nb, ne - nb};
        if (str_eq_nocase(name, S("message")))
            for (int k = 1; k < st.n; k++)
                st.w[k].text = 1;
        int vendor = 0;
        for (int k = 1; k < st.n; k++)
            if (vendor_words(wtext(c, st.w[k])))
                vendor = 1;
        if (str_eq_nocase(name, S("if"))) {
            if (vsp < (int)sizeof vstack)
                vstack[vsp] = (unsigned char)vendor;
            vsp++;
        } else if (str_eq_nocase(name, S("elseif"))) {
            if (vsp > 0 && vsp <= (int)sizeof vstack)
                vstack[vsp - 1] = (unsigned char)(vstack[vsp - 1] | vendor);
        } else if (str_eq_nocase(name, S("endif"))) {
            if (vsp > 0)
                vsp--;
        }
        st.guard = 0;
        for (int k = 0; k < vsp && k < (int)sizeof vstack; k++)
            st.guard |= vstack[k];
        if (c->on_stmt)
            c->on_stmt(c, &st);
        else
            run_stmt(c, &st);
    }
}

/* ------------------------------------------------------------------ line-based files */

/* Does the line src[b, e) open a case branch: a pattern list ("cu118)", "cu12*)",
 * "cu121"|"cu124")")? 1 where every pattern names a CUDA version label (cu and a digit or a
 * glob), -1 for another branch, 0 for no label. */
static int case_label(const bctx *c, ptrdiff_t b, ptrdiff_t e)
{
    const char *s = c->src;
    while (b < e && str_is_space(s[b]))
        b++;
    if (b < e && s[b] == '(')
        b++;
    int all_cu = 1, n = 0;
    while (b < e) {
        char q = 0;
        if (s[b] == '"' || s[b] == '\'')
            q = s[b++];
        ptrdiff_t k = b;
        while (k < e && (ident_ch(s[k]) || s[k] == '.' || s[k] == '*' || s[k] == '?' ||
                         s[k] == '-' || s[k] == '[' || s[k] == ']'))
            k++;
        if (k == b)
            return 0;
        hp_str pat = str_make(s + b, k - b);
        if (q) {
            if (k >= e || s[k] != q)
                return 0;
            k++;
        }
        n++;
        if (!(pat.len > 2 && pat.s[0] == 'c' && pat.s[1] == 'u' &&
              ((pat.s[2] >= '0' && pat.s[2] <= '9') || pat.s[2] == '*' || pat.s[2] == '?')))
            all_cu = 0;
        while (k < e && (s[k] == ' ' || s[k] == '\t'))
            k++;
        if (k < e && s[k] == ')')
            return n && all_cu ? 1 : -1;
        if (k >= e || s[k] != '|')
            return 0;
        b = k + 1;
        while (b < e && (s[b] == ' ' || s[b] == '\t'))
            b++;
    }
    return 0;
}

/* Is the word an NVIDIA GPU's model or architecture name: A100, H100, H200, B200, B300,
 * GB200, L40, L40S, V100, T4, RTX..., sm_90, sm90a, compute_90? */
static int nv_gpu_name(hp_str w)
{
    static const char *const models[] = {"A100", "A10", "A30", "A40", "A800", "H100", "H800",
                                         "H200", "H20", "GH200", "B100", "B200", "B300", "GB200",
                                         "GB300", "L4", "L40", "L40S", "V100", "T4", "P100"};
    for (size_t k = 0; k < sizeof models / sizeof *models; k++)
        if (str_eq_nocase(w, str_cstr(models[k])))
            return 1;
    if (w.len > 3 && (w.s[0] == 'R' || w.s[0] == 'r') && str_starts(w, S("RTX")))
        return 1;
    hp_str d = {0};
    if (str_starts(w, S("sm_")) || str_starts(w, S("SM_")))
        d = str_cut(w, 3, w.len);
    else if (str_starts(w, S("sm")) || str_starts(w, S("SM")))
        d = str_cut(w, 2, w.len);
    else if (str_starts(w, S("compute_")))
        d = str_cut(w, 8, w.len);
    return d.len >= 2 && d.s[0] >= '1' && d.s[0] <= '9' && d.s[1] >= '0' && d.s[1] <= '9';
}

/* Does the Makefile line src[b, e) test (ifeq, else ifeq) a value against an NVIDIA GPU's
 * name: ifeq ($(GPU_TARGET),H100)? ifneq selects every other GPU and does not count. */
static int make_nv_gpu_test(const bctx *c, ptrdiff_t b, ptrdiff_t e)
{
    hp_str line = str_trim(str_make(c->src + b, e - b));
    if (str_starts(line, S("else")))
        line = str_trim(str_cut(line, 4, line.len));
    if (!str_starts(line, S("ifeq")))
        return 0;
    for (ptrdiff_t i = 4; i < line.len;) {
        while (i < line.len && !ident_ch(line.s[i]))
            i++;
        ptrdiff_t j = i;
        while (j < line.len && ident_ch(line.s[j]))
            j++;
        if (j > i && nv_gpu_name(str_cut(line, i, j)))
            return 1;
        i = j;
    }
    return 0;
}

/* Does s name an NVIDIA-only probe of the machine (nvidia-smi, nvcc's __nvcc_device_query)? */
static int nv_probe_word(hp_str s)
{
    return str_find(s, S("nvidia-smi")) >= 0 || str_find(s, S("__nvcc_device_query")) >= 0;
}

/* The test of a Makefile conditional line [b, e) (ifeq/ifneq/else ifeq ...), the kind of code
 * its body holds (*body) and its else (*els): Windows for ifeq ($(OS),Windows_NT) (the else of
 * ifneq), an NVIDIA machine for ifneq (X,) where X names nvidia-smi or a variable set only from
 * it (the else of ifeq (X,)), one NVIDIA GPU for ifeq ($(GPU),H100). */
static void make_branch_kind(const bctx *c, ptrdiff_t b, ptrdiff_t e, int *body, int *els)
{
    *body = *els = 0;
    hp_str line = str_trim(str_make(c->src + b, e - b));
    if (str_starts(line, S("else")))
        line = str_trim(str_cut(line, 4, line.len));
    int eq = str_starts(line, S("ifeq")), ne = str_starts(line, S("ifneq"));
    if (!eq && !ne)
        return;
    for (ptrdiff_t k = 1; k < line.len; k++)
        if (line.s[k] == '#' && str_is_space(line.s[k - 1])) {
            line = str_trim(str_make(line.s, k)); /* a comment after the test */
            break;
        }
    if (str_find(line, S("Windows_NT")) >= 0 && str_find(line, S("$(OS)")) >= 0) {
        *(eq ? body : els) = MB_WINDOWS;
        return;
    }
    int probe = nv_probe_word(line);
    for (int k = 0; !probe && k < c->nprobe; k++) {
        hp_str v = c->probe_var[k];
        for (ptrdiff_t at = 0; at + v.len + 3 <= line.len && !probe; at++)
            probe = line.s[at] == '$' && (line.s[at + 1] == '(' || line.s[at + 1] == '{') &&
                    str_eq(str_make(line.s + at + 2, v.len), v) &&
                    (line.s[at + 2 + v.len] == ')' || line.s[at + 2 + v.len] == '}');
    }
    if (probe) {
        /* ifneq (X,) holds where X is not empty: where the probe found the GPU */
        hp_str t = line;
        int empty_rhs = t.len >= 2 && t.s[t.len - 1] == ')' && t.s[t.len - 2] == ',';
        if (empty_rhs)
            *(ne ? body : els) = MB_PROBE;
        return;
    }
    if (eq && make_nv_gpu_test(c, b, e))
        *body = MB_GPU;
}

/* The Makefile's variables set only from an NVIDIA probe: each assignment's value runs
 * nvidia-smi or __nvcc_device_query, refers to the variable itself ($(strip $(V))), or sits in
 * a branch that needs the probe to succeed; one such at least. */
static void make_probe_vars(bctx *c)
{
    enum { NV = 128 };
    hp_str name[NV];
    int good[NV], n = 0;
    int probe_depth = 0, depth = 0;
    for (ptrdiff_t i = 0; i < c->len;) {
        ptrdiff_t b = i;
        while (i < c->len && c->src[i] != '\n')
            i++;
        ptrdiff_t e = i++;
        hp_str line = str_trim(str_make(c->src + b, e - b));
        if (str_starts(line, S("ifeq")) || str_starts(line, S("ifneq")) ||
            str_starts(line, S("ifdef")) || str_starts(line, S("ifndef"))) {
            depth++;
            if (!probe_depth && nv_probe_word(line) && str_starts(line, S("ifneq")))
                probe_depth = depth;
            continue;
        }
        if (str_starts(line, S("else"))) {
            if (probe_depth == depth)
                probe_depth = 0;
            continue;
        }
        if (str_starts(line, S("endif"))) {
            if (probe_depth == depth)
                probe_depth = 0;
            depth--;
            continue;
        }
        ptrdiff_t k = 0;
        while (k < line.len && (ident_ch(line.s[k])))
            k++;
        if (k == 0)
            continue;
        hp_str v = str_make(line.s, k);
        hp_str rest = str_trim(str_cut(line, k, line.len));
        if (!(str_starts(rest, S("=")) || str_starts(rest, S(":=")) || str_starts(rest, S("?=")) ||
              str_starts(rest, S("+=")) || str_starts(rest, S("::="))))
            continue;
        int self = 0;
        for (ptrdiff_t at = 0; at + v.len + 3 <= rest.len && !self; at++)
            self = rest.s[at] == '$' && rest.s[at + 1] == '(' &&
                   str_eq(str_make(rest.s + at + 2, v.len), v) && rest.s[at + 2 + v.len] == ')';
        int ok = probe_depth > 0 || nv_probe_word(rest) || self;
        int f = -1;
        for (int q = 0; q < n; q++)
            if (str_eq(name[q], v))
                f = q;
        if (f < 0 && n < NV) {
            f = n++;
            name[f] = v;
            good[f] = 2; /* no assignment seen yet */
        }
        if (f >= 0)
            good[f] = ok && good[f] ? (self && good[f] == 2 ? 2 : 1) : 0;
    }
    c->nprobe = 0;
    for (int q = 0; q < n && c->nprobe < 8; q++)
        if (good[q] == 1)
            c->probe_var[c->nprobe++] = name[q];
}

/* Makefiles, shell scripts, Dockerfiles, pyproject.toml: logical lines (backslash joins),
 * '#' comments at the start of a word, words split at spaces, quotes and shell separators. */
static void scan_lines(bctx *c)
{
    bstmt st;
    memset(&st, 0, sizeof st);
    unsigned char vstack[64], gstack[64], estack[64];
    int vsp = 0;
    if (c->kind == PYK_MAKE)
        make_probe_vars(c);
    const char *s = c->src;
    ptrdiff_t i = 0;
    while (i < c->len) {
        /* one logical line [b, e) with comments cut out word by word */
        ptrdiff_t b = i;
        st.n = 0;
        int quote = 0;
        ptrdiff_t seg = i;
        while (i < c->len) {
            char ch = s[i];
            if (ch == '\\' && i + 1 < c->len && (s[i + 1] == '\n' ||
                                                 (s[i + 1] == '\r' && i + 2 < c->len &&
                                                  s[i + 2] == '\n'))) {
                split_words(c, &st, seg, i, ";|&()<>");
                i += s[i + 1] == '\r' ? 3 : 2;
                seg = i;
                continue;
            }
            if (ch == '\n')
                break;
            if (!quote && (ch == '"' || ch == '\'') && c->kind != PYK_MAKE)
                quote = ch;
            else if (quote && ch == quote)
                quote = 0;
            else if (!quote && ch == '#' && (i == b || str_is_space(s[i - 1]))) {
                split_words(c, &st, seg, i, ";|&()<>");
                while (i < c->len && s[i] != '\n') {
                    /* a comment ends at the newline even after a backslash in a Makefile */
                    i++;
                }
                seg = i;
                break;
            }
            i++;
        }
        split_words(c, &st, seg, i, ";|&()<>");
        if (i < c->len)
            i++;
        if (st.n == 0)
            continue;
        hp_str first = wtext(c, st.w[0]);
        int vendor = 0;
        for (int k = 0; k < st.n; k++)
            if (vendor_words(wtext(c, st.w[k])))
                vendor = 1;
        int opens = 0, closes = 0, middle = 0;
        if (c->kind == PYK_MAKE) {
            opens = RULES_EQ(first, "ifeq") || RULES_EQ(first, "ifneq") ||
                    RULES_EQ(first, "ifdef") || RULES_EQ(first, "ifndef");
            closes = RULES_EQ(first, "endif");
            middle = RULES_EQ(first, "else");
        } else if (c->kind == PYK_SHELL || c->kind == PYK_DOCKER) {
            for (int k = 0; k < st.n; k++) {
                hp_str w = wtext(c, st.w[k]);
                opens += RULES_EQ(w, "if");
                closes += RULES_EQ(w, "fi");
                middle += RULES_EQ(w, "elif");
            }
            if (opens && closes) /* a one-line if ... fi */
                opens = closes = 0;
        }
        int body = 0, els = 0;
        if (c->kind == PYK_MAKE && (opens || middle))
            make_branch_kind(c, b, i, &body, &els);
        if (opens) {
            if (vsp < (int)sizeof vstack) {
                vstack[vsp] = (unsigned char)vendor;
                gstack[vsp] = (unsigned char)body;
                estack[vsp] = (unsigned char)els;
            }
            vsp++;
        } else if (middle && vsp > 0 && vsp <= (int)sizeof vstack) {
            vstack[vsp - 1] = (unsigned char)(vstack[vsp - 1] | vendor);
            /* else: what the tests before it leave; else ifeq X: that too, or X's own */
            int bare = st.n == 1;
            unsigned char left = estack[vsp - 1];
            gstack[vsp - 1] = (unsigned char)(left ? left : bare ? 0 : body);
            if (!left)
                estack[vsp - 1] = (unsigned char)els;
        }
        st.guard = vendor && (opens || middle);
        for (int k = 0; k < vsp && k < (int)sizeof vstack; k++)
            st.guard |= vstack[k];
        if (closes && vsp > 0)
            vsp--;
        /* the body of a branch for one NVIDIA GPU, Windows or an NVIDIA machine (not its
         * test line) */
        c->nv_gpu = 0;
        for (int k = 0; k < vsp && k < (int)sizeof gstack; k++)
            if (gstack[k])
                c->nv_gpu = gstack[k];
        if (opens || middle)
            c->nv_gpu = 0;
        int ends = 0;
        if (c->kind == PYK_SHELL) {
            if (RULES_EQ(first, "esac"))
                c->cu_branch = 0;
            int lab = case_label(c, b, i);
            if (lab)
                c->cu_branch = lab > 0;
            hp_str line = str_make(s + b, i - b);
            ends = str_find(line, S(";;")) >= 0;
        }
        run_stmt(c, &st);
        if (ends)
            c->cu_branch = 0;
    }
}

static hp_str dir_of(arena *a, const char *path, const char *rel, ptrdiff_t rlen);

/* Does the CMake code (not its comments) name CUTLASS or NVSHMEM (find_package(CUTLASS),
 * CUTLASS::CUTLASS, ${NVSHMEM_HOME}, NVSHMEM_ENABLE_...)? Those are NVIDIA's CUDA libraries,
 * with no HIP build: such a project is NVIDIA-only by its code, and porting it means replacing
 * them, not adding a HIP branch to its build. */
static int cmake_nvidia_libs(const bctx *c)
{
    static const char *const libs[] = {"cutlass", "nvshmem"};
    int quote = 0;
    for (ptrdiff_t i = 0; i < c->len; i++) {
        char ch = c->src[i];
        if (ch == '"') {
            quote = !quote;
        } else if (ch == '\\' && quote) {
            i++;
        } else if (ch == '#' && !quote) {
            while (i + 1 < c->len && c->src[i + 1] != '\n')
                i++;
        } else if (ident_ch(ch) && (i == 0 || !ident_ch(c->src[i - 1]))) {
            hp_str rest = str_make(c->src + i, c->len - i);
            for (size_t k = 0; k < sizeof libs / sizeof *libs; k++) {
                hp_str w = str_cstr(libs[k]);
                if (rest.len >= w.len && str_eq_nocase(str_cut(rest, 0, w.len), w))
                    return 1;
            }
        }
    }
    return 0;
}

static int file_has_hip(const bctx *c)
{
    hp_str all = {c->src, c->len};
    if (c->kind == PYK_CMAKE)
        return mentions_nocase(all, "enable_language(hip") ||
               mentions_nocase(all, "language hip") || mentions_nocase(all, "languages hip") ||
               mentions_nocase(all, "find_package(hip") || mentions_nocase(all, "cmake_hip_") ||
               mentions_nocase(all, "hip::") || mentions_nocase(all, "use_rocm") ||
               mentions_nocase(all, "hip_platform") || mentions_nocase(all, " hip)") ||
               mentions_nocase(all, "cxx hip");
    return hip_words(all);
}

static int script_hip(hp_str s);

int rules_build_names_hip(const char *path, const char *src, ptrdiff_t len)
{
    pyfile_kind kind = rules_py_kind(path);
    if (kind == PYK_SETUP || kind == PYK_PYPROJECT)
        return script_hip(str_make(src, len));
    bctx c;
    memset(&c, 0, sizeof c);
    c.src = src;
    c.len = len;
    c.kind = kind;
    return file_has_hip(&c);
}

/* Does the shell script stop at a failing command: set -e (-eu, -euo pipefail, ...), set -o
 * errexit, or -e on its #! line? */
static int shell_errexit(const char *src, ptrdiff_t len)
{
    hp_str s = str_make(src, len);
    ptrdiff_t nl = str_chr(s, '\n');
    hp_str first = str_cut(s, 0, nl < 0 ? s.len : nl);
    if (str_starts(first, S("#!")) && (str_find(first, S(" -e")) >= 0))
        return 1;
    if (str_find(s, S("set -o errexit")) >= 0)
        return 1;
    for (ptrdiff_t at = 0; at < s.len;) {
        ptrdiff_t k = str_find(str_cut(s, at, s.len), S("set -"));
        if (k < 0)
            return 0;
        k += at;
        at = k + 5;
        for (ptrdiff_t j = at; j < s.len && ident_ch(s.s[j]); j++)
            if (s.s[j] == 'e')
                return 1;
    }
    return 0;
}

/* Is the script named for CUDA: a word "cuda" in its file name (install_cuda.sh,
 * cuda-install.sh, Dockerfile.cuda)? It is the CUDA side of the build. */
static int cuda_named(const char *path)
{
    const char *b = strrchr(path, '/');
    hp_str n = str_cstr(b ? b + 1 : path);
    for (ptrdiff_t k = 0; k + 4 <= n.len; k++)
        if (str_eq_nocase(str_make(n.s + k, 4), S("cuda")) &&
            (k == 0 || !((n.s[k - 1] | 0x20) >= 'a' && (n.s[k - 1] | 0x20) <= 'z')) &&
            (k + 4 == n.len || !((n.s[k + 4] | 0x20) >= 'a' && (n.s[k + 4] | 0x20) <= 'z')))
            return 1;
    return 0;
}

void rules_build(pyrules *r, pyfile_kind kind, const char *src, ptrdiff_t len)
{
    bctx c;
    memset(&c, 0, sizeof c);
    c.r = r;
    c.a = r->a;
    c.src = src;
    c.len = len;
    c.kind = kind;
    c.hip_use = -1;
    c.hip_file = file_has_hip(&c);
    int cuda_side = 0;
    if (kind == PYK_CMAKE && !c.hip_file && r->c->cfg && r->c->cfg->plat && r->c->path) {
        hp_str key = rules_build_key(c.a, dir_of(c.a, r->c->path, NULL, 0));
        cuda_side = nameidx_get(r->c->cfg->plat, key) >= 0;
    }
    c.cuda_side = cuda_side;
    c.hip_file |= cuda_side;
    c.nv_libs = kind == PYK_CMAKE && cmake_nvidia_libs(&c);
    if (kind == PYK_SHELL)
        c.errexit = shell_errexit(src, len);
    c.beside_setup = kind == PYK_MAKE && r->c->cfg && r->c->cfg->setup_ext && r->c->path &&
                     nameidx_get(r->c->cfg->setup_ext, dir_of(c.a, r->c->path, NULL, 0)) >= 0;
    if (kind == PYK_CMAKE && !c.hip_file && r->c->cfg && r->c->cfg->setup_hip && r->c->path)
        c.beside_setup = nameidx_get(r->c->cfg->setup_hip, dir_of(c.a, r->c->path, NULL, 0)) >= 0;
    c.cuda_named = (kind == PYK_SHELL || kind == PYK_DOCKER) && r->c->path &&
                   cuda_named(r->c->path);
    if (c.nv_libs && r->c->cfg && r->c->cfg->proj && r->c->path)
        c.nv_root = nameidx_get(r->c->cfg->proj, dir_of(c.a, r->c->path, NULL, 0)) ==
                    RB_PROJ_NVIDIA;
    c.prim_file = pysrc_contains_nocase(str_make(src, len), "rocprim") ||
                  pysrc_contains_nocase(str_make(src, len), "hipcub") ||
                  pysrc_contains_nocase(str_make(src, len), "rocthrust");
    if (kind == PYK_CMAKE)
        scan_cmake(&c);
    else
        scan_lines(&c);
    ptrdiff_t dl, d;
    if (kind == PYK_PYPROJECT && !c.hip_file && pyrules_on(r, RID_BLD002) &&
        (d = rules_build_nv_dsl(src, len, 0, &dl)) >= 0)
        pyrules_add(r, d, dl, RID_BLD002, HP_SEV_WARNING,
                    "nvidia-cutlass-dsl is NVIDIA's CuTe DSL, which has no AMD build: the "
                    "package's kernels run on NVIDIA GPUs only (the findings of its Python files are notes)",
                    "write the kernels for AMD in another language (Triton, HIP) and make the "
                    "dependency an NVIDIA-only extra");
    if (c.hip_use >= 0 && !c.has_list && pyrules_on(r, RID_BLD003))
        pyrules_add(r, c.hip_use, c.hip_use_len, RID_BLD003, HP_SEV_WARNING,
                    "HIP is built here without an AMD target list: the compiler then targets "
                    "only the GPU found on the build machine (or a default), and the binary "
                    "fails elsewhere with hipErrorNoBinaryForGpu",
                    kind == PYK_CMAKE ? "set CMAKE_HIP_ARCHITECTURES (e.g. gfx90a;gfx942;gfx950)"
                                      : "pass --offload-arch=gfx942 once per target GPU");
}

/* ------------------------------------------------------------------ Python build scripts */

/* Is token i in a class or function named for NVIDIA's compiler or GPUs (class NVCC,
 * def build_cuda) in a file that also defines a class or function named for AMD's (class
 * HIPCC, def build_hip)? The file dispatches per vendor, and this is the NVIDIA arm. */
static int py_nv_twin(bctx *c, const pysrc *p, ptrdiff_t i)
{
    int nv = 0;
    for (ptrdiff_t h = p->up[p->lstart[i]]; h >= 0 && !nv; h = p->up[h])
        if ((pysrc_is(p, h, "class") || pysrc_is(p, h, "def")) && h + 1 < p->n &&
            p->t[h + 1].kind == PY_NAME) {
            hp_str n = pysrc_text(p, h + 1);
            nv = mentions_nocase(n, "nvcc") || mentions_nocase(n, "cuda") ||
                 mentions_nocase(n, "nvidia");
        }
    if (!nv)
        return 0;
    if (!c->amd_defs) { /* once per file */
        c->amd_defs = 1;
        for (ptrdiff_t k = 0; k + 1 < p->n && c->amd_defs == 1; k++)
            if ((pysrc_is(p, k, "class") || pysrc_is(p, k, "def")) && p->lstart[k] == k &&
                p->t[k + 1].kind == PY_NAME && pysrc_pred_amd(p, k + 1, k + 2, NULL))
                c->amd_defs = 2;
    }
    return c->amd_defs == 2;
}

/* Is token i in the body of an if that holds only for a PyTorch 1.x: torch.__version__ <
 * "1.N" (or "X.Y" with X < 2), no or? ROCm 7 builds of PyTorch are 2.x, so an AMD build never
 * runs it. */
static int py_old_torch(const pysrc *p, ptrdiff_t i)
{
    for (ptrdiff_t h = p->up[p->lstart[i]]; h >= 0; h = p->up[h]) {
        if (!pysrc_is(p, h, "if") && !pysrc_is(p, h, "elif"))
            continue;
        ptrdiff_t e = p->lend[h];
        for (ptrdiff_t k = h + 1; k + 3 < e; k++) {
            if (pysrc_is(p, k, "or"))
                break;
            if (pysrc_is(p, k, "torch") && pysrc_op(p, k + 1, '.') &&
                pysrc_is(p, k + 2, "__version__") && pysrc_op(p, k + 3, '<') && k + 4 < e &&
                p->t[k + 4].kind == PY_STRING) {
                hp_str v = pylex_string_body(p->src, &p->t[k + 4]);
                if (v.len >= 1 && v.s[0] >= '0' && v.s[0] <= '1' && (v.len == 1 || v.s[1] == '.'))
                    return 1;
                if (str_eq(v, S("2")) || str_eq(v, S("2.0")) || str_eq(v, S("2.0.0")))
                    return 1;
            }
        }
    }
    return 0;
}

/* Is token i inside the arguments of a call to an extension builder, or on a line that names
 * nvcc flags? The tokens of i's logical line before it are looked at once for all the tokens
 * asked about in order: fs keeps how far they were (fs->ls -1 before the first). */
typedef struct flag_scan {
    ptrdiff_t ls;   /* the logical line scanned */
    ptrdiff_t upto; /* its tokens before upto are seen */
    int names;      /* one of them names nvcc flags */
    ptrdiff_t close; /* the furthest close of a builder call opened among them, or -1 */
    int32_t *encl;   /* per token, the innermost '(' or '[' open at it, or -1 (py_enclosing);
                        NULL until a string of the file asks */
} flag_scan;

static int builder_call(const pysrc *p, ptrdiff_t k)
{
    char q[160];
    ptrdiff_t h = k - 1;
    while (h >= 2 && pysrc_op(p, h - 1, '.') && p->t[h - 2].kind == PY_NAME)
        h -= 2;
    pysrc_qualname(p, h, q, sizeof q);
    size_t ql = strlen(q);
    return (ql >= 9 && strcmp(q + ql - 9, "Extension") == 0) ||
           strcmp(q, "torch.utils.cpp_extension.load") == 0 ||
           strcmp(q, "torch.utils.cpp_extension.load_inline") == 0;
}

static int py_flag_context(const pysrc *p, ptrdiff_t i, flag_scan *fs)
{
    ptrdiff_t ls = p->lstart[i];
    if (fs->ls != ls || fs->upto > i) {
        fs->ls = ls;
        fs->upto = ls;
        fs->names = 0;
        fs->close = -1;
    }
    for (ptrdiff_t k = fs->upto; k < i && !fs->names; k++) {
        if (p->t[k].kind == PY_NAME) {
            hp_str s = pysrc_text(p, k);
            if (mentions_nocase(s, "nvcc") || mentions_nocase(s, "cuda_cflags") ||
                mentions_nocase(s, "cuda_flags"))
                fs->names = 1;
        }
        if (p->t[k].kind == PY_STRING &&
            mentions_nocase(pylex_string_body(p->src, &p->t[k]), "nvcc"))
            fs->names = 1;
        if (p->t[k].kind == PY_OP && p->t[k].sub == '(' && p->match[k] > fs->close &&
            k > 0 && p->t[k - 1].kind == PY_NAME && builder_call(p, k))
            fs->close = p->match[k];
        fs->upto = k + 1;
    }
    return fs->names || fs->close > i;
}

/* Is string token i an operand of a test rather than a value: a side of ==, != or of a
 * membership test ("-gencode=..." in flags, flag == "--use_fast_math", x in "..."), or an
 * argument of str.startswith/endswith (one tuple deep) or of list.remove? Such a literal is
 * compared with flags; it is handed to no compiler. */
static int py_compared(const pysrc *p, ptrdiff_t i, const int32_t *encl)
{
    if (pysrc_op(p, i + 1, PO_EQ) || pysrc_op(p, i + 1, PO_NE) || pysrc_is(p, i + 1, "in") ||
        (pysrc_is(p, i + 1, "not") && pysrc_is(p, i + 2, "in")))
        return 1;
    if (pysrc_op(p, i - 1, PO_EQ) || pysrc_op(p, i - 1, PO_NE) || pysrc_is(p, i - 1, "in"))
        return 1;
    /* the innermost '(' or '[' open at i (brackets do not cross logical lines): from encl, or
     * walking back over whole bracket groups, none of which is open at i */
    ptrdiff_t open = -1;
    if (encl) {
        open = encl[i];
    } else {
        for (ptrdiff_t k = i - 1; k >= p->lstart[i]; k--) {
            if (p->t[k].kind != PY_OP)
                continue;
            unsigned o = p->t[k].sub;
            if ((o == ')' || o == ']' || o == '}') && p->match[k] >= 0 && p->match[k] < k) {
                k = p->match[k];
                continue;
            }
            if ((o == '(' || o == '[') && p->match[k] > i) {
                open = k;
                break;
            }
        }
    }
    if (open > 0 && pysrc_op(p, open, '(') && pysrc_op(p, open - 1, '(') &&
        p->match[open - 1] > i)
        open--; /* x.startswith(("-arch", "-gencode")) */
    if (open < 2 || !pysrc_op(p, open, '(') || !pysrc_op(p, open - 2, '.'))
        return 0;
    return pysrc_is(p, open - 1, "startswith") || pysrc_is(p, open - 1, "endswith") ||
           pysrc_is(p, open - 1, "remove");
}

/* py_compared's answers for a whole file in one pass: per token, the innermost '(' or '['
 * (matched after it) open at it, or -1; '{' does not count. NULL when memory ran out. */
static int32_t *py_enclosing(arena *a, const pysrc *p)
{
    int32_t *encl = arena_alloc_nozero(a, (ptrdiff_t)sizeof *encl, _Alignof(int32_t), p->n + 1);
    int32_t *stack = arena_alloc_nozero(a, (ptrdiff_t)sizeof *stack, _Alignof(int32_t), p->n + 1);
    if (!encl || !stack)
        return NULL;
    ptrdiff_t top = 0;
    for (ptrdiff_t i = 0; i < p->n; i++) {
        while (top > 0 && p->match[stack[top - 1]] <= i)
            top--;
        encl[i] = top > 0 ? stack[top - 1] : -1;
        unsigned o = p->t[i].sub;
        if (p->t[i].kind == PY_OP && (o == '(' || o == '[') && p->match[i] > i)
            stack[top++] = (int32_t)i;
    }
    return encl;
}

/* Is the string body a CUDA version label: "cu" and two or three digits (cu118, cu92)? */
static int cu_label(hp_str b)
{
    if (b.len < 4 || b.len > 5 || b.s[0] != 'c' || b.s[1] != 'u')
        return 0;
    for (ptrdiff_t k = 2; k < b.len; k++)
        if (b.s[k] < '0' || b.s[k] > '9')
            return 0;
    return 1;
}

/* Is the script a CUDA packaging script, driven by CUDA version labels: does it refuse to run
 * unless a label starts with "cu" (an if on x[:2] != "cu" or not x.startswith("cu") whose body
 * raises or exits), or does it key its settings by cuXXX labels (two or more compared or used
 * as dict keys: if v == "cu102", v < "cu118", {"cu121": ...})? */
static int cuda_label_script(const pysrc *p)
{
    int keyed = 0;
    for (ptrdiff_t i = 0; i < p->n; i++) {
        if (p->t[i].kind != PY_STRING)
            continue;
        hp_str b = pylex_string_body(p->src, &p->t[i]);
        if (!cu_label(b) && !RULES_EQ(b, "cu"))
            continue;
        int cmp = py_compared(p, i, NULL) || pysrc_op(p, i - 1, '<') || pysrc_op(p, i - 1, '>') ||
                  pysrc_op(p, i - 1, PO_LE) || pysrc_op(p, i - 1, PO_GE);
        if (cu_label(b) && (cmp || pysrc_op(p, i + 1, ':')))
            keyed++;
        if (keyed >= 2)
            return 1;
        if (!RULES_EQ(b, "cu") || !cmp)
            continue;
        ptrdiff_t h = p->lstart[i], bb, be;
        if (!pysrc_is(p, h, "if") || !pysrc_block(p, h, &bb, &be))
            continue;
        int neg = pysrc_op(p, i - 1, PO_NE) || pysrc_op(p, i + 1, PO_NE);
        for (ptrdiff_t k = h; k < i && !neg; k++)
            neg = pysrc_is(p, k, "not");
        if (!neg)
            continue;
        for (ptrdiff_t k = bb; k < be; k++)
            if (pysrc_is(p, k, "raise") || pysrc_is(p, k, "exit") ||
                (pysrc_is(p, k, "sys") && pysrc_op(p, k + 1, '.') && pysrc_is(p, k + 2, "exit")))
                return 1;
    }
    return 0;
}

static void py_init(bctx *c, bstmt *st, pyrules *r, const pysrc *p, int setup)
{
    memset(c, 0, sizeof *c);
    c->r = r;
    c->a = r->a;
    c->src = p->src;
    c->len = p->len;
    c->kind = setup ? PYK_SETUP : PYK_PYTHON;
    c->hip_use = -1;
    c->hip_file = 1;
    c->cuda_script = pyrules_on(r, RID_BLD001) && cuda_label_script(p);
    memset(st, 0, sizeof *st);
    st->python = 1;
}

/* The first word of the logical line that starts at token ls (past INDENT and DEDENT). */
static ptrdiff_t py_first(const pysrc *p, ptrdiff_t ls)
{
    while (ls >= 0 && ls < p->n && (p->t[ls].kind == PY_INDENT || p->t[ls].kind == PY_DEDENT))
        ls++;
    return ls;
}

/* Is the if/elif condition [b, e) a test for one NVIDIA GPU: a device capability (a name
 * with "capab" in it, cc_major, cc_minor, get_device_capability()) compared for equality
 * (==, in, startswith) with numbers, and no ordering (>=, <) and no AMD name? AMD GPUs report
 * other capabilities (9.4 MI300, 9.5 MI350), so they take another branch. */
static int py_nv_cap_test(const pysrc *p, ptrdiff_t b, ptrdiff_t e)
{
    int cap = 0, eq = 0;
    for (ptrdiff_t k = b; k < e; k++) {
        const pytok *t = &p->t[k];
        if (t->kind == PY_NAME) {
            hp_str w = pysrc_text(p, k);
            if (mentions_nocase(w, "capab") || RULES_EQ(w, "cc_major") ||
                RULES_EQ(w, "cc_minor"))
                cap = 1;
            else if (RULES_EQ(w, "startswith") || RULES_EQ(w, "in"))
                eq = 1;
            else if (RULES_EQ(w, "or") || RULES_EQ(w, "not"))
                return 0;
        } else if (t->kind == PY_OP) {
            if (pysrc_op(p, k, PO_EQ))
                eq = 1;
            else if (pysrc_op(p, k, PO_GE) || pysrc_op(p, k, PO_NE) || pysrc_op(p, k, '<') ||
                     pysrc_op(p, k, '>') || (t->sub != PO_EQ && t->sub > 255))
                return 0;
        }
    }
    return cap && eq && !pysrc_pred_amd(p, b, e, NULL);
}

/* The condition of the if/elif line at ls: [*b, *e); 0 for another line. */
static int py_cond(const pysrc *p, ptrdiff_t ls, ptrdiff_t *b, ptrdiff_t *e)
{
    ptrdiff_t f = py_first(p, ls);
    if (f >= p->n || !(pysrc_is(p, f, "if") || pysrc_is(p, f, "elif")))
        return 0;
    ptrdiff_t le = pysrc_line_end(p, f);
    ptrdiff_t k = le;
    while (k > f && !pysrc_op(p, k, ':'))
        k--;
    if (k <= f)
        return 0;
    *b = f + 1;
    *e = k;
    return 1;
}

/* Does the else line at s end an if/elif chain of one-NVIDIA-GPU tests (py_nv_cap_test)
 * with a body that raises or continues? Then an AMD GPU never passes the chain. */
static int py_nv_chain_exit(const pysrc *p, ptrdiff_t s)
{
    ptrdiff_t f = py_first(p, s);
    if (f >= p->n || !pysrc_is(p, f, "else"))
        return 0;
    ptrdiff_t bb, be;
    if (!pysrc_block(p, f, &bb, &be))
        return 0;
    ptrdiff_t g = py_first(p, bb);
    if (g >= be || !(pysrc_is(p, g, "raise") || pysrc_is(p, g, "continue")))
        return 0;
    int n = 0;
    for (ptrdiff_t q = p->prev[s]; q >= 0 && n < 64; q = p->prev[q], n++) {
        ptrdiff_t cb, ce, h = py_first(p, q);
        if (!py_cond(p, q, &cb, &ce) || !py_nv_cap_test(p, cb, ce))
            return 0;
        if (pysrc_is(p, h, "if"))
            return 1;
    }
    return 0;
}

/* Is the name at token x set to True only in branches for one NVIDIA GPU (HAS_SM90 = True in
 * the "9.0" arm), at least once? */
static int py_nv_flag_name(const pysrc *p, ptrdiff_t x, int depth);

/* Is token i in code only one NVIDIA GPU's build runs: in the branch of an if/elif test for
 * it (py_nv_cap_test, or a name py_nv_flag_name holds), or after a chain of such tests whose
 * else raises or continues, in the same or an enclosing block? */
static int py_nv_gpu(const pysrc *p, ptrdiff_t i, int depth)
{
    if (depth > 2)
        return 0;
    int steps = 0;
    for (ptrdiff_t ls = p->lstart[i]; ls >= 0 && steps < 4096;) {
        for (ptrdiff_t s = p->prev[ls]; s >= 0 && steps < 4096; s = p->prev[s], steps++)
            if (py_nv_chain_exit(p, s))
                return 1;
        ptrdiff_t h = p->up[ls];
        if (h < 0)
            break;
        ptrdiff_t cb, ce;
        if (py_cond(p, h, &cb, &ce)) {
            if (py_nv_cap_test(p, cb, ce))
                return 1;
            int names = 0, other = 0;
            for (ptrdiff_t k = cb; k < ce; k++) {
                if (p->t[k].kind != PY_NAME || pysrc_is(p, k, "and") || pysrc_is(p, k, "or"))
                    continue;
                if (py_nv_flag_name(p, k, depth + 1))
                    names++;
                else
                    other++;
            }
            if (names && !other)
                return 1;
        }
        ls = p->lstart[h];
    }
    return 0;
}

/* Is token i in a function defined at the top level of the file whose name no other token of
 * the file has (no call, no reference such as cmdclass={"x": f})? Such code never runs when
 * the file is run. */
static int py_uncalled_fn(const pysrc *p, ptrdiff_t i)
{
    ptrdiff_t h = -1;
    for (ptrdiff_t u = p->up[i]; u >= 0; u = p->up[u])
        h = u;
    if (h < 0 || !pysrc_is(p, h, "def") || h + 1 >= p->n || p->t[h + 1].kind != PY_NAME)
        return 0;
    hp_str name = pysrc_text(p, h + 1);
    for (ptrdiff_t k = 0; k < p->n; k++)
        if (k != h + 1 && p->t[k].kind == PY_NAME && str_eq(pysrc_text(p, k), name))
            return 0;
    return 1;
}

/* Is token i under an if/elif whose condition reads an environment variable that configures
 * nvcc (os.environ.get("CUDAHOSTCXX"), "NVCC_..." in os.environ), with no or and no not in
 * that test's conjunct (not windows and os.environ.get("CUDAHOSTCXX") counts)?
 * Returns the variable's string token, or -1. */
static ptrdiff_t py_nv_env(const pysrc *p, ptrdiff_t i)
{
    int steps = 0;
    for (ptrdiff_t ls = p->lstart[i]; ls >= 0 && steps++ < 64;) {
        ptrdiff_t h = p->up[ls];
        if (h < 0)
            break;
        ptrdiff_t cb, ce;
        if (py_cond(p, h, &cb, &ce)) {
            int env = 0, bad = 0, neg = 0; /* neg: a not in the conjunct so far */
            ptrdiff_t var = -1;
            for (ptrdiff_t k = cb; k < ce; k++) {
                if (pysrc_is(p, k, "or"))
                    bad = 1;
                else if (pysrc_is(p, k, "and"))
                    neg = 0;
                else if (pysrc_is(p, k, "not"))
                    neg = 1;
                else if (pysrc_is(p, k, "environ") || pysrc_is(p, k, "getenv"))
                    env = 1;
                else if (p->t[k].kind == PY_STRING) {
                    hp_str v = pylex_string_body(p->src, &p->t[k]);
                    if (RULES_EQ(v, "CUDAHOSTCXX") || (RULES_STARTS(v, "NVCC_") && v.len > 5)) {
                        var = k;
                        bad |= neg;
                    }
                }
            }
            if (env && !bad && var >= 0)
                return var;
        }
        ls = p->lstart[h];
    }
    return -1;
}

static int py_nv_flag_name(const pysrc *p, ptrdiff_t x, int depth)
{
    hp_str name = pysrc_text(p, x);
    int found = 0;
    for (ptrdiff_t k = 0; k + 2 < p->n; k++) {
        if (p->t[k].kind != PY_NAME || !str_eq(pysrc_text(p, k), name) ||
            !pysrc_op(p, k + 1, '=') || !pysrc_is(p, k + 2, "True"))
            continue;
        if (!py_nv_gpu(p, k, depth))
            return 0;
        found = 1;
    }
    return found;
}

/* The BLD001 and BLD003 findings of string token i of a Python build script. */
static void py_string(bctx *c, bstmt *st, const pysrc *p, ptrdiff_t i, flag_scan *fs,
                      int setup)
{
    pyrules *r = c->r;
    if (!setup && !py_flag_context(p, i, fs))
        return;
    /* a string that is a statement of its own (a docstring, usage text): nothing reads it */
    if (p->lstart[i] == i && p->lend[i] == i + 1)
        return;
    if (!fs->encl)
        fs->encl = py_enclosing(c->a, p);
    if (py_compared(p, i, fs->encl))
        return;
    hp_str body = pylex_string_body(p->src, &p->t[i]);
    st->n = 0;
    split_words(c, st, body.s - p->src, body.s - p->src + body.len, "");
    int n = st->n;
    /* the value of a flag may be the next string of the list: ["-arch", "sm_80"] */
    if (n > 0 && i + 2 < p->n && pysrc_op(p, i + 1, ',') && p->t[i + 2].kind == PY_STRING) {
        hp_str nb = pylex_string_body(p->src, &p->t[i + 2]);
        split_words(c, st, nb.s - p->src, nb.s - p->src + nb.len, "");
        if (st->n > n)
            st->n = n + 1;
    }
    st->nvcc = setup || py_flag_context(p, i, fs);
    st->guard = pysrc_guarded(p, i, pysrc_pred_amd, NULL);
    /* a helper only the CUDA side of a vendor test calls (get_cuda_version() running
     * "nvcc -V" in the else of "if IS_ROCM") is not reached by an AMD build, nor is a
     * setup.py's NVIDIA branch (if use_cuda:, if torch.version.cuda ...: before an elif
     * torch.version.hip:) */
    if (pyrules_on(r, RID_BLD001) && !st->guard && !pysrc_in_vendor_fn(p, i) &&
        !pysrc_vendor_branch(p, i) && !py_nv_twin(c, p, i)) {
        c->nv_gpu = n > 0 && py_nv_gpu(p, i, 0);
        c->dead_fn = n > 0 && setup && py_uncalled_fn(p, i);
        ptrdiff_t ev = n > 0 ? py_nv_env(p, i) : -1;
        c->nv_env = NULL;
        if (ev >= 0) {
            hp_str v = pylex_string_body(p->src, &p->t[ev]);
            c->nv_env = arena_printf(c->a, "%.*s", (int)v.len, v.s);
        }
        c->old_torch = n > 0 && py_old_torch(p, i);
        for (int k = 0; k < n; k++) {
            ptrdiff_t span = 0;
            int row = flag_row(c, st, k, &span);
            if (row < 0)
                continue;
            const char *const *rw = nvcc_flags_rows[row];
            /* "nvcc" as a dict key of extra_compile_args is not a compiler call */
            if (strcmp(rw[0], "nvcc") == 0 && str_chr(wtext(c, st->w[k]), '/') < 0)
                continue;
            /* each string is one argument: the value of a lone "-Xcompiler" is the
             * whole next string of the list */
            hp_str val = {0, 0};
            if (n == 1 && str_eq(body, wtext(c, st->w[0])) && st->n > n)
                val = pylex_string_body(p->src, &p->t[i + 2]);
            add_flag(c, st, k, span, rw, val);
        }
    }
    st->n = n;
    if (pyrules_on(r, RID_BLD003) && !c->dry) {
        for (int k = 0; k < st->n; k++) {
            hp_str w = wtext(c, st->w[k]);
            if (RULES_STARTS(w, "--offload-arch=") || RULES_STARTS(w, "--amdgpu-target=")) {
                bld003(c, st); /* all the string's words at once */
                break;
            }
        }
        /* os.environ["PYTORCH_ROCM_ARCH"] = "gfx90a;native" */
        if (i >= 3 && pysrc_op(p, i - 1, '=') && pysrc_op(p, i - 2, ']') &&
            p->t[i - 3].kind == PY_STRING &&
            is_target_var(pylex_string_body(p->src, &p->t[i - 3]))) {
            c->tl_consumer = c->tl_other = 0;
            check_target_list(c, body.s - p->src, body.len);
            consumer_only(c);
        }
    }
}

void rules_build_py(pyrules *r, const pysrc *p, int setup)
{
    bctx c;
    bstmt st;
    py_init(&c, &st, r, p, setup);
    flag_scan fs = {-1, 0, 0, -1, NULL};
    for (ptrdiff_t i = 0; i < p->n; i++)
        if (p->t[i].kind == PY_STRING)
            py_string(&c, &st, p, i, &fs, setup);
}

hp_severity rules_build_py_sev(pyrules *r, const pysrc *p, int setup, ptrdiff_t b, ptrdiff_t e)
{
    bctx c;
    bstmt st;
    py_init(&c, &st, r, p, setup);
    c.dry = 1;
    c.dry_sev = HP_SEV_NONE;
    flag_scan fs = {-1, 0, 0, -1, NULL};
    for (ptrdiff_t i = b; i < e && i < p->n && c.dry_sev < HP_SEV_ERROR; i++)
        if (p->t[i].kind == PY_STRING)
            py_string(&c, &st, p, i, &fs, setup);
    return c.dry_sev;
}

/* ------------------------------------------------------------------ CUDA sides of HIP builds */

/* Does the directory out[0, olen) end in a name that ".." can take off (not "..", not the
 * leading "/" or "." of an absolute or relative path)? */
static int last_real(const char *out, ptrdiff_t olen)
{
    ptrdiff_t k = olen;
    while (k > 0 && out[k - 1] != '/')
        k--;
    hp_str last = str_make(out + k, olen - k);
    return last.len > 0 && !RULES_EQ(last, "..") && !(k == 0 && RULES_EQ(last, "."));
}

/* Appends path p[0, n) to the '/'-separated directory in out (length *olen), resolving "."
 * and ".." lexically. */
static void path_push(char *out, ptrdiff_t *olen, const char *p, ptrdiff_t n)
{
    ptrdiff_t i = 0;
    while (i < n) {
        ptrdiff_t j = i;
        while (j < n && p[j] != '/')
            j++;
        hp_str seg = str_make(p + i, j - i);
        if (seg.len == 0 || RULES_EQ(seg, ".")) {
            /* nothing */
        } else if (RULES_EQ(seg, "..") && last_real(out, *olen)) {
            ptrdiff_t k = *olen;
            while (k > 0 && out[k - 1] != '/')
                k--;
            *olen = k > 1 ? k - 1 : k; /* a lone leading '/' stays */
        } else {
            if (*olen > 0 && out[*olen - 1] != '/')
                out[(*olen)++] = '/';
            memcpy(out + *olen, seg.s, (size_t)seg.len);
            *olen += seg.len;
        }
        i = j + 1;
    }
}

/* The directory of path (lexically normalized), in a: from "/" for an absolute path, from "."
 * for a relative one ("./src" for src/k.cu and ./src/k.cu, "." for ./CMakeLists.txt), so that
 * the directory a tree was named by (hipport check .) is never empty and holds the rest. */
static hp_str dir_of(arena *a, const char *path, const char *rel, ptrdiff_t rlen)
{
    ptrdiff_t pl = (ptrdiff_t)strlen(path), d = pl;
    while (d > 0 && path[d - 1] != '/')
        d--;
    char *out = arena_alloc(a, 1, 1, pl + rlen + 3);
    ptrdiff_t n = 0;
    out[n++] = path[0] == '/' ? '/' : '.';
    path_push(out, &n, path, d);
    if (rel)
        path_push(out, &n, rel, rlen);
    return str_make(out, n);
}

hp_str rules_build_path(arena *a, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    return dir_of(a, path, base, (ptrdiff_t)strlen(base));
}

hp_str rules_build_key(arena *a, hp_str dir)
{
    char *s = arena_printf(a, "cuda-dir:%.*s", (int)dir.len, dir.s);
    return str_cstr(s);
}

hp_str *rules_build_hip_dirs(arena *a, const char *path, const char *src, ptrdiff_t len, int *n)
{
    *n = 0;
    if (rules_py_kind(path) != PYK_CMAKE)
        return NULL;
    bctx c;
    memset(&c, 0, sizeof c);
    c.src = src;
    c.len = len;
    c.kind = PYK_CMAKE;
    if (!file_has_hip(&c))
        return NULL;
    hp_str own = dir_of(a, path, NULL, 0);
    hp_str *v = NULL;
    int cap = 0;
    for (ptrdiff_t i = 0; i + 3 <= len; i++) {
        /* a word that names CUDA sources: dir/x.cu, dir/x.cuh, or a glob of them */
        ptrdiff_t e = i + 3;
        if (memcmp(src + i, ".cu", 3) != 0)
            continue;
        if (e < len && src[e] == 'h')
            e++;
        if (e < len && (ident_ch(src[e]) || src[e] == '.'))
            continue;
        ptrdiff_t b = i;
        while (b > 0 && !str_is_space(src[b - 1]) && src[b - 1] != '"' && src[b - 1] != '(' &&
               src[b - 1] != ')' && src[b - 1] != ';')
            b--;
        hp_str w = str_make(src + b, i - b);
        static const char *const pre[] = {"${CMAKE_CURRENT_SOURCE_DIR}/",
                                          "${CMAKE_CURRENT_LIST_DIR}/"};
        for (size_t k = 0; k < sizeof pre / sizeof *pre; k++)
            if (str_starts(w, str_cstr(pre[k])))
                w = str_cut(w, (ptrdiff_t)strlen(pre[k]), w.len);
        ptrdiff_t slash = -1;
        for (ptrdiff_t k = 0; k < w.len; k++)
            if (w.s[k] == '/')
                slash = k;
        if (slash <= 0 || w.s[0] == '/' || str_chr(w, '$') >= 0 || str_chr(w, '#') >= 0)
            continue;
        hp_str d = dir_of(a, path, w.s, slash);
        if (str_eq(d, own) || (*n > 0 && str_eq(d, v[*n - 1])))
            continue;
        if (*n == cap) {
            int nc = cap ? 2 * cap : 8;
            hp_str *nv = arena_grow(a, v, (ptrdiff_t)cap * (ptrdiff_t)sizeof *v,
                                    (ptrdiff_t)nc * (ptrdiff_t)sizeof *v, _Alignof(hp_str));
            if (!nv)
                return v;
            v = nv;
            cap = nc;
        }
        v[(*n)++] = d;
    }
    return v;
}

/* ------------------------------------------------------------------ the tree pass's facts */

typedef struct facts {
    arena *a;
    const char *path;
    hp_str own;         /* the file's directory */
    int hip;            /* the file builds for HIP (file_has_hip) */
    int project;        /* it calls project() */
    int cuda;           /* it enables CUDA (project(... CUDA), enable_language(CUDA)) */
    int pass;           /* 1: which if() chains have a HIP branch; 2: the sources */
    int nchains;
    uint8_t *chain_hip; /* per chain (in order of their if()): a branch tests HIP */
    int capchains;
    int stack[64];      /* open chains: their numbers */
    uint8_t nonhip[64]; /* ... and whether the open branch is not the HIP build's */
    uint8_t inhip[64];  /* ... and whether it is the HIP build's (its test names HIP) */
    hp_str cudavar[64]; /* ... the variable its open branch tests equal to a CUDA value */
    uint8_t notcuda[64]; /* ... its test is NOT VAR STREQUAL <CUDA value> (pass 1) */
    uint8_t fatal[64];   /* ... and that branch stops the configure (FATAL_ERROR, return()) */
    uint8_t cudaonly[65]; /* below the open branch (at 0: the file), after such a stop: only
                             a CUDA configure goes on */
    int sp;
    int glob;           /* a file(GLOB) outside branches the HIP build skips */
    hp_str *v;          /* the keys */
    int n, cap;
    hp_str *cand;       /* sources named only where the HIP build skips, so far */
    int ncand, capcand;
    hp_str *seen;       /* sources named elsewhere */
    int nseen, capseen;
    hp_str *removed;    /* sources list(REMOVE_ITEM) drops in the HIP build's branch */
    int nremoved, capremoved;
} facts;

static void facts_push(facts *f, hp_str **v, int *n, int *cap, hp_str s)
{
    if (*n == *cap) {
        int nc = *cap ? 2 * *cap : 16;
        hp_str *nv = arena_grow(f->a, *v, (ptrdiff_t)*cap * (ptrdiff_t)sizeof **v,
                                (ptrdiff_t)nc * (ptrdiff_t)sizeof **v, _Alignof(hp_str));
        if (!nv)
            return;
        *v = nv;
        *cap = nc;
    }
    (*v)[(*n)++] = s;
}

static void facts_key(facts *f, const char *kind, hp_str dir)
{
    char *k = arena_printf(f->a, "%s:%.*s", kind, (int)dir.len, dir.s);
    facts_push(f, &f->v, &f->n, &f->cap, str_cstr(k));
}

/* RB_KEY_REF: the file's directory, a tab, the directory or file it names. */
static void facts_ref(facts *f, hp_str d)
{
    char *k = arena_printf(f->a, "%s:%.*s\t%.*s", RB_KEY_REF, (int)f->own.len, f->own.s,
                           (int)d.len, d.s);
    facts_push(f, &f->v, &f->n, &f->cap, str_cstr(k));
}

/* Does an if()/elseif() condition test for HIP (1), for its absence (-1: NOT USE_ROCM), or
 * neither (0)? */
static int cond_hip(const bctx *c, const bstmt *st)
{
    int neg = 0;
    for (int k = 1; k < st->n; k++) {
        hp_str w = wtext(c, st->w[k]);
        if (RULES_EQ(w, "NOT"))
            neg = 1;
        else if (mentions_nocase(w, "hip") || mentions_nocase(w, "rocm"))
            return neg ? -1 : 1;
    }
    return 0;
}

/* A path word of a CMake statement, made relative to the file's directory: a plain relative
 * path, or one after ${CMAKE_CURRENT_SOURCE_DIR}/ (also ${CMAKE_SOURCE_DIR}/ in a project's
 * own file); 0 for anything with other variables, globs or an absolute path. */
static int rel_word(const facts *f, hp_str w, hp_str *out)
{
    static const char *const pre[] = {"${CMAKE_CURRENT_SOURCE_DIR}/", "${CMAKE_CURRENT_LIST_DIR}/",
                                      "${CMAKE_SOURCE_DIR}/", "${PROJECT_SOURCE_DIR}/"};
    for (size_t k = 0; k < sizeof pre / sizeof *pre; k++)
        if (str_starts(w, str_cstr(pre[k])) && (k < 2 || f->project))
            w = str_cut(w, (ptrdiff_t)strlen(pre[k]), w.len);
    if (!w.len || w.s[0] == '/' || str_chr(w, '$') >= 0 || str_chr(w, '*') >= 0 ||
        str_chr(w, '?') >= 0)
        return 0;
    *out = w;
    return 1;
}

/* A relative source word r of the file, as a lexically normalized path of the tree. */
static hp_str source_path(facts *f, hp_str r)
{
    ptrdiff_t slash = r.len;
    while (slash > 0 && r.s[slash - 1] != '/')
        slash--;
    hp_str d = dir_of(f->a, f->path, r.s, slash);
    char *p = arena_printf(f->a, "%.*s%s%.*s", (int)d.len, d.s, d.len ? "/" : "",
                           (int)(r.len - slash), r.s + slash);
    return str_cstr(p);
}

/* Does the word name a C, C++ or CUDA source (x.cu, x.cc, x.cpp, x.cxx, x.c)? */
static int cxx_source_word(hp_str w)
{
    static const char *const exts[] = {".cu", ".cc", ".cpp", ".cxx", ".c"};
    for (size_t k = 0; k < sizeof exts / sizeof *exts; k++) {
        ptrdiff_t l = (ptrdiff_t)strlen(exts[k]);
        if (w.len > l && memcmp(w.s + w.len - l, exts[k], (size_t)l) == 0)
            return 1;
    }
    return 0;
}

/* A CMake variable word without ${...} and quotes. */
static hp_str cmake_var_name(hp_str w)
{
    if (w.len > 0 && w.s[0] == '"')
        w = str_cut(w, 1, w.len);
    if (w.len > 0 && w.s[w.len - 1] == '"')
        w.len--;
    if (w.len > 3 && w.s[0] == '$' && w.s[1] == '{' && w.s[w.len - 1] == '}')
        w = str_cut(w, 2, w.len - 1);
    return w;
}

/* Is the value word of a comparison a CUDA value ("cuda", CUDA, ${BUILD_VARIANT_CUDA}): 1, a
 * HIP or ROCm one: 2, neither: 0. */
static int vendor_value(hp_str w)
{
    if (mentions_nocase(w, "rocm") || mentions_nocase(w, "hip"))
        return 2;
    return mentions_nocase(w, "cuda") ? 1 : 0;
}

/* The if()/elseif() condition of st as one comparison VAR STREQUAL <vendor value>, with no
 * OR: *var the variable, *neg whether NOT comes before it; returns vendor_value's answer. */
static int vendor_test(const bctx *c, const bstmt *st, hp_str *var, int *neg)
{
    int r = 0, k0 = -1;
    for (int k = 1; k < st->n; k++) {
        hp_str w = wtext(c, st->w[k]);
        if (RULES_EQ(w, "OR"))
            return 0;
        if (RULES_EQ(w, "STREQUAL") && k > 1 && k + 1 < st->n && k0 < 0) {
            r = vendor_value(wtext(c, st->w[k + 1]));
            k0 = k;
        }
    }
    if (!r)
        return 0;
    *var = cmake_var_name(wtext(c, st->w[k0 - 1]));
    *neg = k0 > 2 && RULES_EQ(wtext(c, st->w[k0 - 2]), "NOT");
    return var->len ? r : 0;
}

/* Pass 1: the vendor tests of an if()/elseif() at level l (RB_KEY_VENDOR_VAR for a HIP or
 * ROCm value; the branch's CUDA variable). */
static void facts_vendor_branch(bctx *c, facts *f, const bstmt *st, int l, int is_if)
{
    hp_str var = {0};
    int neg = 0, v = vendor_test(c, st, &var, &neg);
    f->cudavar[l] = (hp_str){0};
    f->cudaonly[l + 1] = 0;
    if (is_if)
        f->notcuda[l] = f->fatal[l] = 0;
    if (v == 2)
        facts_key(f, RB_KEY_VENDOR_VAR, var);
    else if (v == 1 && !neg)
        f->cudavar[l] = var;
    else if (v == 1 && neg && is_if)
        f->notcuda[l] = 1;
}

static void facts_stmt(bctx *c, bstmt *st)
{
    facts *f = c->ud;
    if (!st->cmd || st->n == 0)
        return;
    hp_str cmd = wtext(c, st->w[0]);
    int sp = f->sp < 64 ? f->sp : 64;
    if (str_eq_nocase(cmd, S("if"))) {
        int id = f->nchains++;
        if (f->pass == 1) {
            if (f->nchains > f->capchains) {
                int nc = f->capchains ? 2 * f->capchains : 32;
                uint8_t *nv = arena_grow(f->a, f->chain_hip, f->capchains, nc, 1);
                if (!nv)
                    return;
                f->chain_hip = nv;
                f->capchains = nc;
            }
            f->chain_hip[id] = cond_hip(c, st) > 0;
        }
        if (f->sp < 64) {
            f->stack[f->sp] = id;
            int h = cond_hip(c, st);
            f->nonhip[f->sp] = (uint8_t)(h < 0 || (f->pass == 2 && h == 0 && f->chain_hip[id]));
            f->inhip[f->sp] = (uint8_t)(h > 0);
            if (f->pass == 1)
                facts_vendor_branch(c, f, st, f->sp, 1);
        }
        f->sp++;
        return;
    }
    if (str_eq_nocase(cmd, S("elseif")) || str_eq_nocase(cmd, S("else"))) {
        if (f->sp <= 0 || f->sp > 64)
            return;
        int id = f->stack[f->sp - 1];
        int h = str_eq_nocase(cmd, S("else")) ? 0 : cond_hip(c, st);
        if (f->pass == 1 && h > 0)
            f->chain_hip[id] = 1;
        f->nonhip[f->sp - 1] = (uint8_t)(h < 0 || (f->pass == 2 && h == 0 && f->chain_hip[id]));
        f->inhip[f->sp - 1] = (uint8_t)(h > 0);
        if (f->pass == 1) {
            f->notcuda[f->sp - 1] = 0;
            facts_vendor_branch(c, f, st, f->sp - 1, 0);
        }
        return;
    }
    if (str_eq_nocase(cmd, S("endif"))) {
        if (f->sp > 0)
            f->sp--;
        /* if(NOT VAR STREQUAL <CUDA value>) message(FATAL_ERROR) endif(): what follows in
         * the enclosing branch runs only in a CUDA configure */
        if (f->pass == 1 && f->sp < 64 && f->notcuda[f->sp] && f->fatal[f->sp])
            f->cudaonly[f->sp] = 1;
        return;
    }
    if (f->pass == 1 && f->sp > 0 && f->sp <= 64 && f->notcuda[f->sp - 1] &&
        (str_eq_nocase(cmd, S("return")) ||
         (str_eq_nocase(cmd, S("message")) && st->n > 1 &&
          (RULES_EQ(wtext(c, st->w[1]), "FATAL_ERROR") ||
           RULES_EQ(wtext(c, st->w[1]), "SEND_ERROR")))))
        f->fatal[f->sp - 1] = 1;
    if (f->pass == 1) {
        if (str_eq_nocase(cmd, S("project"))) {
            f->project = 1;
            for (int k = 1; k < st->n; k++)
                if (RULES_EQ(wtext(c, st->w[k]), "CUDA"))
                    f->cuda = 1;
        } else if (str_eq_nocase(cmd, S("enable_language")) && st->n > 1 &&
                   RULES_EQ(wtext(c, st->w[1]), "CUDA")) {
            f->cuda = 1;
        } else if (str_eq_nocase(cmd, S("add_subdirectory")) && st->n > 1) {
            hp_str w;
            if (rel_word(f, wtext(c, st->w[1]), &w)) {
                hp_str d = dir_of(f->a, f->path, w.s, w.len);
                /* added only in a CUDA configure: the directory is the NVIDIA side */
                int only = 0;
                hp_str var = {0};
                for (int k = 0; k <= sp; k++)
                    only |= f->cudaonly[k];
                for (int k = 0; k < sp && !var.len; k++)
                    var = f->cudavar[k];
                if (only) {
                    facts_key(f, RB_KEY_NV_ADD, d);
                } else if (var.len) {
                    char *k = arena_printf(f->a, "%s:%.*s\t%.*s", RB_KEY_NV_ADD_IF, (int)var.len,
                                           var.s, (int)d.len, d.s);
                    facts_push(f, &f->v, &f->n, &f->cap, str_cstr(k));
                }
                if (f->hip && !only && !var.len)
                    facts_key(f, RB_KEY_HIP_ADD, d);
                facts_ref(f, d);
            }
        }
        return;
    }
    /* pass 2, in a file that builds HIP: the CUDA sources it names, and where */
    int skipped = 0, inhip = 0;
    for (int k = 0; k < sp; k++) {
        skipped |= f->nonhip[k];
        inhip |= f->inhip[k];
    }
    /* list(REMOVE_ITEM VAR src...) in the HIP build's branch: the sources it leaves out */
    if (str_eq_nocase(cmd, S("list")) && st->n > 3 && RULES_EQ(wtext(c, st->w[1]), "REMOVE_ITEM") &&
        inhip && !skipped) {
        for (int k = 3; k < st->n; k++) {
            hp_str w = wtext(c, st->w[k]), r;
            if (!cxx_source_word(w) || !rel_word(f, w, &r))
                continue;
            facts_push(f, &f->removed, &f->nremoved, &f->capremoved, source_path(f, r));
        }
        return;
    }
    if (str_eq_nocase(cmd, S("file")) && st->n > 1 &&
        str_starts(wtext(c, st->w[1]), S("GLOB")) && !skipped)
        f->glob = 1;
    if (str_eq_nocase(cmd, S("message")))
        return;
    for (int k = 1; k < st->n; k++) {
        hp_str w = wtext(c, st->w[k]), r;
        if (w.len < 4 || memcmp(w.s + w.len - 3, ".cu", 3) != 0 || !rel_word(f, w, &r))
            continue;
        hp_str p = source_path(f, r);
        if (skipped)
            facts_push(f, &f->cand, &f->ncand, &f->capcand, p);
        else
            facts_push(f, &f->seen, &f->nseen, &f->capseen, p);
    }
}

/* Does a Python or TOML build script name HIP or ROCm (torch.version.hip, ROCM_HOME,
 * is_hip(), hipcc, --offload-arch)? Stricter than hip_words: "ships" is no HIP build. */
static int script_hip(hp_str s)
{
    static const char *const words[] = {"rocm", "version.hip", "hipcc", "is_hip", "use_hip",
                                        "build_hip", "hip_", "_hip", "amdgpu", "offload-arch",
                                        "__hip_platform"};
    for (size_t k = 0; k < sizeof words / sizeof *words; k++)
        if (mentions_nocase(s, words[k]))
            return 1;
    return 0;
}

/* The indentation of the line that starts at b. */
static ptrdiff_t line_indent(const char *src, ptrdiff_t len, ptrdiff_t b)
{
    ptrdiff_t k = b;
    while (k < len && (src[k] == ' ' || src[k] == '\t'))
        k++;
    return k - b;
}

/* Does a line of a setup.py build with CMake: CMakeExtension, a cmake_build_extension
 * module, a command list that starts with "cmake"? */
static int setup_cmake_line(hp_str line)
{
    return mentions_nocase(line, "cmakeextension") || mentions_nocase(line, "cmake_build") ||
           mentions_nocase(line, "['cmake'") || mentions_nocase(line, "[\"cmake\"");
}

/* Does the setup.py text run CMake (CMakeExtension, cmake) only in the body of an
 * `if ... == 'cuda'` line, the device read from the environment with 'cuda' as its default
 * (os.getenv(NAME, 'cuda'), os.environ.get(NAME, "cuda"))? */
static int setup_cuda_cmake(hp_str s)
{
    if (!mentions_nocase(s, ", 'cuda')") && !mentions_nocase(s, ", \"cuda\")"))
        return 0;
    if (!mentions_nocase(s, "getenv") && !mentions_nocase(s, "environ"))
        return 0;
    int in_body = 0, found = 0;
    ptrdiff_t ind = 0;
    for (ptrdiff_t b = 0; b < s.len;) {
        ptrdiff_t e = b;
        while (e < s.len && s.s[e] != '\n')
            e++;
        hp_str line = str_cut(s, b, e);
        ptrdiff_t li = line_indent(s.s, s.len, b);
        hp_str body = str_trim(line);
        int blank = body.len == 0 || body.s[0] == '#';
        if (in_body && !blank && li <= ind)
            in_body = 0;
        if (!blank && !in_body && setup_cmake_line(body))
            return 0; /* CMake outside such a branch */
        if (in_body && setup_cmake_line(body))
            found = 1;
        if (!in_body && str_starts(body, S("if ")) &&
            (mentions_nocase(body, "== 'cuda'") || mentions_nocase(body, "== \"cuda\""))) {
            in_body = 1;
            ind = li;
        }
        b = e + 1;
    }
    return found;
}

/* Does the setup.py build C++/CUDA extensions itself (CUDAExtension, CppExtension,
 * cpp_extension) and run neither make (no quoted "make" word) nor CMake (no "cmake")? */
static int setup_builds_ext(hp_str s)
{
    if (str_find(s, S("CUDAExtension")) < 0 && str_find(s, S("cpp_extension")) < 0)
        return 0;
    if (str_find_nocase(s, S("cmake")) >= 0)
        return 0; /* it drives CMake: the CMake files are its build */
    for (ptrdiff_t k = 1; k + 4 < s.len; k++)
        if ((s.s[k - 1] == '"' || s.s[k - 1] == '\'') && memcmp(s.s + k, "make", 4) == 0 &&
            !ident_ch(s.s[k + 4]))
            return 0;
    return 1;
}

ptrdiff_t rules_build_nv_dsl(const char *src, ptrdiff_t len, int setup, ptrdiff_t *dlen)
{
    hp_str s = str_make(src, len), dep = S("nvidia-cutlass-dsl");
    *dlen = 0;
    /* the list that holds the requirements: [project] dependencies = [...], install_requires */
    hp_str key = setup ? S("install_requires") : S("dependencies");
    for (ptrdiff_t at = 0; at < s.len;) {
        ptrdiff_t k = str_find(str_cut(s, at, s.len), key);
        if (k < 0)
            return -1;
        k += at;
        at = k + key.len;
        if (k > 0 && (ident_ch(s.s[k - 1]) || s.s[k - 1] == '-' || s.s[k - 1] == '.'))
            continue; /* optional-dependencies, foo_dependencies */
        if (!setup) { /* at the start of a line, in the [project] table */
            ptrdiff_t b = k;
            while (b > 0 && (s.s[b - 1] == ' ' || s.s[b - 1] == '\t'))
                b--;
            if (b > 0 && s.s[b - 1] != '\n')
                continue;
            ptrdiff_t t = b;
            int table_ok = 0;
            while (t > 0) { /* the table header above: the last "[" line */
                ptrdiff_t ls = t - 1;
                while (ls > 0 && s.s[ls - 1] != '\n')
                    ls--;
                if (s.s[ls] == '[') {
                    table_ok = str_starts(str_cut(s, ls, s.len), S("[project]"));
                    break;
                }
                t = ls;
            }
            if (!table_ok)
                continue;
        }
        ptrdiff_t j = at;
        while (j < s.len && (s.s[j] == ' ' || s.s[j] == '\t' || s.s[j] == '='))
            j++;
        if (j >= s.len || s.s[j] != '[')
            continue;
        int depth = 0;
        for (ptrdiff_t q = j; q < s.len; q++) {
            if (s.s[q] == '[')
                depth++;
            else if (s.s[q] == ']' && --depth == 0)
                break;
            else if (s.s[q] == '#' && !setup)
                while (q < s.len && s.s[q] != '\n')
                    q++;
            else if (str_starts(str_cut(s, q, s.len), dep) && q > 0 &&
                     (s.s[q - 1] == '"' || s.s[q - 1] == '\'')) {
                *dlen = dep.len;
                return q;
            }
        }
    }
    return -1;
}

/* A quoted relative path at src[i] ("csrc/ext", 'k.cu': a quote, then up to 255 name, '/',
 * '.' or '-' characters not starting with '/', then the same quote) into *w, else *w empty.
 * Returns where a scan goes on from: the closing quote of a quoted word, valid or not, else i. */
static ptrdiff_t quoted_rel(const char *src, ptrdiff_t len, ptrdiff_t i, hp_str *w)
{
    *w = str_make(src, 0);
    char q = src[i];
    if (q != '"' && q != '\'')
        return i;
    ptrdiff_t j = i + 1;
    while (j < len && j - i < 256 &&
           (ident_ch(src[j]) || src[j] == '/' || src[j] == '.' || src[j] == '-'))
        j++;
    if (j >= len || src[j] != q)
        return i;
    if (j > i + 1 && src[i + 1] != '/')
        *w = str_make(src + i + 1, j - i - 1);
    return j;
}

hp_str *rules_build_hip_loads(arena *a, const char *path, const char *src, ptrdiff_t len, int *n)
{
    *n = 0;
    hp_str all = str_make(src, len);
    if (str_find(all, S("cpp_extension")) < 0 || str_find(all, S("load(")) < 0 ||
        !script_hip(all))
        return NULL;
    facts f;
    memset(&f, 0, sizeof f);
    f.a = a;
    f.path = path;
    static const char *const exts[] = {".cu", ".cpp", ".cc", ".hip"};
    for (ptrdiff_t i = 0; i < len; i++) {
        hp_str w;
        i = quoted_rel(src, len, i, &w);
        for (size_t k = 0; w.len && k < sizeof exts / sizeof *exts; k++)
            if (str_ends(w, str_cstr(exts[k]))) {
                facts_key(&f, RB_KEY_HIP_LOAD, dir_of(a, path, w.s, w.len));
                break;
            }
    }
    *n = f.n;
    return f.v;
}

hp_str *rules_build_facts(arena *a, const char *path, const char *src, ptrdiff_t len, int *n)
{
    *n = 0;
    pyfile_kind kind = rules_py_kind(path);
    facts f;
    memset(&f, 0, sizeof f);
    f.a = a;
    f.path = path;
    f.own = dir_of(a, path, NULL, 0);
    if (kind == PYK_SETUP || kind == PYK_PYPROJECT) {
        int hip = script_hip(str_make(src, len));
        if (kind == PYK_SETUP)
            facts_key(&f, RB_KEY_PY_SETUP, f.own);
        if (kind == PYK_SETUP && setup_cuda_cmake(str_make(src, len)))
            facts_key(&f, RB_KEY_CUDA_CMAKE, f.own);
        if (hip)
            facts_key(&f, RB_KEY_HIP_AT, f.own);
        ptrdiff_t dl;
        if (!hip && rules_build_nv_dsl(src, len, kind == PYK_SETUP, &dl) >= 0)
            facts_key(&f, RB_KEY_NV_DSL, f.own);
        if (kind == PYK_SETUP && setup_builds_ext(str_make(src, len)))
            facts_key(&f, RB_KEY_SETUP_EXT, f.own);
        /* its quoted relative paths: the directories it may build ("csrc/ext") */
        for (ptrdiff_t i = 0; i < len; i++) {
            hp_str w;
            i = quoted_rel(src, len, i, &w);
            if (!w.len)
                continue;
            hp_str d = dir_of(a, path, w.s, w.len);
            if (d.len > f.own.len && w.s[0] != '.' && hip)
                facts_key(&f, RB_KEY_HIP_REF, d);
            /* any build script's reference, "../ext" too */
            if (!str_eq(d, f.own))
                facts_ref(&f, d);
        }
        *n = f.n;
        return f.v;
    }
    if (kind != PYK_CMAKE)
        return NULL;
    bctx c;
    memset(&c, 0, sizeof c);
    c.a = a;
    c.src = src;
    c.len = len;
    c.kind = PYK_CMAKE;
    c.on_stmt = facts_stmt;
    c.ud = &f;
    f.hip = file_has_hip(&c);
    if (f.hip)
        facts_key(&f, RB_KEY_HIP_AT, f.own);
    f.pass = 1;
    scan_cmake(&c);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (f.project && strcmp(base, "CMakeLists.txt") == 0)
        facts_key(&f, !f.hip && f.cuda && cmake_nvidia_libs(&c) ? RB_KEY_NV_ROOT : RB_KEY_ROOT,
                  f.own);
    if (f.hip && f.nchains > 0 && f.capchains >= f.nchains) {
        f.pass = 2;
        f.sp = 0;
        f.nchains = 0;
        scan_cmake(&c);
        for (int i = 0; i < f.ncand && !f.glob; i++) {
            int seen = 0;
            for (int k = 0; k < f.nseen && !seen; k++)
                seen = str_eq(f.cand[i], f.seen[k]);
            for (int k = 0; k < i && !seen; k++)
                seen = str_eq(f.cand[i], f.cand[k]);
            if (!seen)
                facts_key(&f, RB_KEY_CUDA_SRC, f.cand[i]);
        }
        for (int i = 0; i < f.nremoved; i++)
            facts_key(&f, RB_KEY_CUDA_SRC, f.removed[i]);
    }
    *n = f.n;
    return f.v;
}
