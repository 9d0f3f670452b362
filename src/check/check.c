/* check.c: the per-file driver of hipport check: the languages a path belongs to, and for
 * each the families of rules that run on it (rules_*.c), over the engine of rules.c; the
 * public entry points on one buffer. */
#include "rules.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ctx.h"
#include "pyrules.h"
#include "str.h"

#include "banned.h"

/* ------------------------------------------------------------------ the driver */

typedef struct lang_def {
    unsigned bit;
    const char *name;
    int (*claims)(const char *path, const hp_run_opts *r);
    void (*lex)(arena *a, const char *src, ptrdiff_t len, lex_out *out);
    void (*prepare)(rctx *c);
} lang_def;

static const lang_def langs[] = {
#define RULES_LANG(bit, name, claims, lexfn, prepare) {bit, name, claims, lexfn, prepare},
#define RULES_FAMILY(name, langs)
#define RULES_NAMES(name)
#include "rules_list.h"
#undef RULES_LANG
#undef RULES_FAMILY
#undef RULES_NAMES
};

typedef struct family_def {
    const char *name;
    unsigned langs;
    void (*run)(rctx *c);
} family_def;

static const family_def families[] = {
#define RULES_LANG(bit, name, claims, lexfn, prepare)
#define RULES_FAMILY(name, langs) {#name, langs, rules_##name##_run},
#define RULES_NAMES(name)
#include "rules_list.h"
#undef RULES_LANG
#undef RULES_FAMILY
#undef RULES_NAMES
};

/* The families' name predicates, in the list's order (rules_hot.c calls them through c). */
static const rules_names_fn name_fns[] = {
#define RULES_LANG(bit, name, claims, lexfn, prepare)
#define RULES_FAMILY(name, langs)
#define RULES_NAMES(name) rules_##name##_names,
#include "rules_list.h"
#undef RULES_LANG
#undef RULES_FAMILY
#undef RULES_NAMES
    NULL,
};

static const lang_def *lang_for(const char *path, const hp_run_opts *r)
{
    for (size_t i = 0; i < sizeof langs / sizeof *langs; i++)
        if (langs[i].claims(path, r))
            return &langs[i];
    return NULL;
}

unsigned rules_lang_of(const char *path, const hp_run_opts *r)
{
    const lang_def *l = lang_for(path, r);
    return l ? l->bit : 0;
}

int hp_check_wants(const char *name, const hp_run_opts *r)
{
    return lang_for(name, r) != NULL;
}

/* The backends of other accelerators' vendors that trees keep beside their CUDA code (ggml's
 * ggml-sycl, a Python package's backends/_ascend or backends/xpu, triton_ascend, a Triton
 * operator library's runtime/backend/_cambricon beside its _amd): a directory named for one of
 * these words, alone or after a '-' or '_'. The second row are the accelerators of Triton and
 * PyTorch backends by vendor or by device name: Cambricon (MLU), Kunlunxin (Kunlun XPU), Hygon
 * (DCU: HIP-like, but its own build), Moore Threads (MUSA), Iluvatar (CoreX), MetaX (MACA),
 * Enflame (GCU), Tsingmicro, Biren and the AIPU. amd, rocm and hip are not among them, nor
 * nvidia: those are entered. */
static const char *const vendor_words[] = {
    "sycl", "ascend", "npu", "xpu", "cann", "musa", "mlu", "metal", "vulkan", "opencl",
    "hpu", "habana", "gaudi", "tpu", "mps", "openvino", "webgpu", "zdnn",
    "cambricon", "kunlunxin", "kunlun", "hygon", "dcu", "mthreads", "iluvatar", "corex",
    "metax", "maca", "enflame", "gcu", "tsingmicro", "biren", "aipu",
};

const char *rules_other_vendor_dir(void *ud, const char *rel)
{
    (void)ud;
    const char *p = strrchr(rel, '/');
    p = p ? p + 1 : rel;
    size_t n = strlen(p);
    for (size_t i = 0; i < sizeof vendor_words / sizeof *vendor_words; i++) {
        size_t m = strlen(vendor_words[i]);
        if (n < m || strcasecmp(p + n - m, vendor_words[i]) != 0)
            continue;
        if (n == m || p[n - m - 1] == '-' || p[n - m - 1] == '_')
            return "another vendor's backend, by its name: not entered; --other-vendors or "
                   "naming it checks it";
    }
    return NULL;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

static const lang_def *lang_by_bit(unsigned bit)
{
    for (size_t i = 0; i < sizeof langs / sizeof *langs; i++)
        if (langs[i].bit == bit)
            return &langs[i];
    return NULL;
}

/* Does a directory of path hold code for one NVIDIA GPU generation by its name: a component
 * sm90, sm_90a, sm100a, sm120 or sm100_blk64 ("sm", an optional '_', two or three digits, an
 * optional letter, then its end or '_')? */
static int nvidia_arch_dir(const char *path)
{
    const char *end = strrchr(path, '/');
    for (const char *p = path; end && p < end; p++) {
        if (p != path && p[-1] != '/')
            continue;
        if (p[0] != 's' || p[1] != 'm')
            continue;
        const char *q = p + 2;
        if (*q == '_')
            q++;
        int d = 0;
        while (q[d] >= '0' && q[d] <= '9')
            d++;
        if (d < 2 || d > 3)
            continue;
        q += d;
        if (*q >= 'a' && *q <= 'z')
            q++;
        if (*q == '/' || *q == '_')
            return 1;
    }
    /* ... or a word of a component (gemm_sm120, kernels-sm90a), or the CuTe DSL's (cutedsl,
     * cute_dsl: NVIDIA's Python kernel language) */
    for (const char *p = path; end && p < end; p++) {
        if (p != path && p[-1] != '/' && p[-1] != '_' && p[-1] != '-')
            continue;
        if (strncmp(p, "cutedsl", 7) == 0 && (p[7] == '/' || p[7] == '_' || p[7] == '-'))
            return 1;
        if (strncmp(p, "cute_dsl", 8) == 0 && (p[8] == '/' || p[8] == '_' || p[8] == '-'))
            return 1;
        if (p == path || p[-1] == '/' || p[0] != 's' || p[1] != 'm')
            continue;
        int d = 0;
        while (p[2 + d] >= '0' && p[2 + d] <= '9')
            d++;
        const char *q = p + 2 + d;
        if (d < 2 || d > 3)
            continue;
        if (*q >= 'a' && *q <= 'z')
            q++;
        if (*q == '/' || *q == '_' || *q == '-')
            return 1;
    }
    return 0;
}

/* Is the file a copy of HIP's own headers (a directory amd_detail, hip-headers or hipamd on
 * its path, an amd_hip_*.h, or hipRTC's preprocessed hiprtc_runtime.h)? What it defines is
 * HIP itself. */
static int hip_own_header(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    if (strncmp(b, "amd_hip_", 8) == 0 || strcmp(b, "hiprtc_runtime.h") == 0)
        return 1;
    static const char *const dirs[] = {"amd_detail", "hip-headers", "hipamd"};
    for (size_t k = 0; k < sizeof dirs / sizeof *dirs; k++) {
        size_t n = strlen(dirs[k]);
        for (const char *q = strstr(path, dirs[k]); q && q < b; q = strstr(q + 1, dirs[k]))
            if ((q == path || q[-1] == '/') && q[n] == '/')
                return 1;
    }
    return 0;
}

static int split_word(const char *s, ptrdiff_t n)
{
    static const char *const nv[] = {"nvidia", "cuda", "nv", "nvshmem"};
    static const char *const amd[] = {"amd", "hip", "rocm", "rocshmem"};
    for (size_t i = 0; i < sizeof nv / sizeof *nv; i++)
        if ((ptrdiff_t)strlen(nv[i]) == n && strncasecmp(s, nv[i], (size_t)n) == 0)
            return RS_NVIDIA;
    for (size_t i = 0; i < sizeof amd / sizeof *amd; i++)
        if ((ptrdiff_t)strlen(amd[i]) == n && strncasecmp(s, amd[i], (size_t)n) == 0)
            return RS_AMD;
    return 0;
}

int rules_split_keys(arena *a, const char *path, int side, hp_str *out, hp_str *comp, int max)
{
    int n = 0;
    ptrdiff_t len = (ptrdiff_t)strlen(path);
    for (ptrdiff_t b = 0; b < len && n < max;) {
        ptrdiff_t e = b;
        while (e < len && path[e] != '/')
            e++;
        int file = e == len;
        ptrdiff_t dot = -1; /* a file's last extension */
        for (ptrdiff_t q = e - 1; file && q > b; q--)
            if (path[q] == '.') {
                dot = q;
                break;
            }
        for (ptrdiff_t w = b; w < e && n < max;) {
            ptrdiff_t we = w;
            while (we < e && path[we] != '_' && path[we] != '-' && path[we] != '.')
                we++;
            if (we > w && split_word(path + w, we - w) == side) {
                ptrdiff_t end = dot > we ? dot : e;
                ptrdiff_t klen = w + 1 + (end - we);
                char *k = arena_alloc(a, 1, 1, klen + 1);
                for (ptrdiff_t i = 0; i < w; i++)
                    k[i] = (char)tolower((unsigned char)path[i]);
                k[w] = '*';
                for (ptrdiff_t i = we; i < end; i++)
                    k[w + 1 + i - we] = (char)tolower((unsigned char)path[i]);
                if (comp)
                    comp[n] = str_make(path + b, e - b);
                out[n++] = str_make(k, klen);
            }
            w = we < e ? we + 1 : we;
        }
        b = e + 1;
    }
    return n;
}

/* Is path on the NVIDIA side of a tree that keeps both vendors' code in parallel paths: has a
 * component named for NVIDIA a sibling of the same name for AMD (cfg->amd_split)? That
 * sibling's name into *amd. */
static int nvidia_split_path(arena *a, const rules_cfg *cfg, const char *path, hp_str *amd)
{
    if (!cfg->amd_split)
        return 0;
    hp_str k[16];
    int n = rules_split_keys(a, path, RS_NVIDIA, k, NULL, 16);
    for (int i = 0; i < n; i++) {
        int32_t v = nameidx_get(cfg->amd_split, k[i]);
        if (v >= 0 && v < cfg->namd_split) {
            *amd = cfg->amd_split_names[v];
            return 1;
        }
    }
    return 0;
}

HP_NOINLINE static void check(arena *a, const rules_cfg *cfg, const char *path, unsigned lang,
                              const char *src, ptrdiff_t len, hp_check_result *out)
{
    const lang_def *l = lang ? lang_by_bit(lang) : lang_for(path, NULL);
    if (!l)
        return;
    rctx *c = NEW(a, rctx, 1);
    c->a = a;
    c->cfg = cfg;
    c->names = name_fns;
    c->path = path;
    c->src = src;
    c->len = len;
    c->lang = l->bit;
    c->cuda_file = ends_with(path, ".cu") || ends_with(path, ".cuh") || ends_with(path, ".hip");
    diag_init(&c->d, a, path, src, len);
    lex_out lx;
    l->lex(a, src, len, &lx);
    c->t = lx.toks;
    c->nt = lx.n;
    c->dirs = lx.dirs;
    c->ndirs = lx.ndirs;
    if (l->bit == RL_CPP) {
        c->idx = NEW(a, lex_idx, 1);
        lex_idx_init(c->idx, a, src, c->t, c->nt);
    }
    if (l->prepare)
        l->prepare(c);
    /* already HIP: a .hip file, or one that includes a hip/ header */
    c->hip_source = !cfg->assume_cuda && ends_with(path, ".hip");
    for (ptrdiff_t h = 0, i = -1; !c->hip_source && !cfg->assume_cuda;) {
        i = c->hot ? rules_hot_next(c, &h, RH_STR) : i + 1 < c->nt ? i + 1 : -1;
        if (i < 0)
            break;
        if (c->t[i].kind == TK_HEADER && c->t[i].len > 5 &&
            memcmp(c->src + c->t[i].off + 1, "hip/", 4) == 0)
            c->hip_source = 1;
    }
    for (size_t f = 0; f < sizeof families / sizeof *families; f++)
        if (families[f].langs & l->bit)
            families[f].run(c);
    rules_names_scan(c);
    if (l->bit & RL_CPP)
        rules_arch_settle(c);
    int suppressed = 0;
    if (c->d.n)
        rules_apply_ignores(c, &suppressed);
    /* a copy of HIP's own headers defines HIP itself: notes */
    if (c->d.n && hip_own_header(path))
        for (int i = 0; i < c->d.n; i++)
            if (c->d.v[i].severity > HP_SEV_NOTE) {
                c->d.v[i].severity = HP_SEV_NOTE;
                c->d.v[i].message = arena_printf(a, "%s (in a copy of HIP's own headers)",
                                                 c->d.v[i].message);
            }
    /* code below a directory named for one NVIDIA GPU generation is that GPU's: notes */
    if (c->d.n && nvidia_arch_dir(path))
        for (int i = 0; i < c->d.n; i++)
            if (c->d.v[i].severity > HP_SEV_NOTE)
                c->d.v[i].severity = HP_SEV_NOTE;
    /* code on the NVIDIA side of parallel vendor paths (backends/nvidia beside backends/amd,
     * nv_utils.py beside amd_utils.py): the AMD build takes its sibling; notes, saying so */
    hp_str amd;
    if (c->d.n && nvidia_split_path(a, cfg, path, &amd))
        for (int i = 0; i < c->d.n; i++)
            if (c->d.v[i].severity > HP_SEV_NOTE) {
                c->d.v[i].severity = HP_SEV_NOTE;
                c->d.v[i].message =
                    arena_printf(a, "%s (the NVIDIA side: the AMD build takes %.*s beside it)",
                                 c->d.v[i].message, (int)amd.len, amd.s);
            }
    diag_sort(&c->d);
    out->findings = c->d.v;
    out->nfindings = c->d.n;
    out->suppressed = suppressed;
    out->language = l->name;
}

hp_status rules_check(arena *a, const rules_cfg *cfg, const char *path, unsigned lang,
                      const char *src, ptrdiff_t len, hp_check_result *out)
{
    memset(out, 0, sizeof *out);
    if (len > ((ptrdiff_t)1 << 31) - 2)
        return HP_ETOOBIG;
    jmp_buf jb;
    jmp_buf *saved = a->oom;
    a->oom = &jb;
    if (setjmp(jb)) {
        a->oom = saved;
        memset(out, 0, sizeof *out);
        return HP_ENOMEM;
    }
    check(a, cfg, path ? path : "<input>", lang, src ? src : "", len, out);
    a->oom = saved;
    return HP_OK;
}

hp_status hp_check_buffer(hp_ctx *ctx, const hp_check_opts *o, const char *path,
                          const char *src, ptrdiff_t len, hp_check_result *out)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (!ctx || !out || len < 0 || (!src && len))
        return HP_EUSAGE;
    rules_cfg cfg;
    hp_status s = rules_cfg_build(&ctx->a, o, &cfg, NULL, 0);
    if (s != HP_OK)
        return s;
    return rules_check(&ctx->a, &cfg, path, 0, src, len, out);
}

hp_status hp_check_annotations(hp_ctx *ctx, const char *path, const char *src, ptrdiff_t len,
                               const hp_finding **out, int *n)
{
    *out = NULL;
    *n = 0;
    if (!ctx || len < 0 || (!src && len))
        return HP_EUSAGE;
    rules_cfg cfg;
    hp_status s = rules_cfg_build(&ctx->a, NULL, &cfg, NULL, 0);
    if (s != HP_OK)
        return s;
    cfg.assume_cuda = 1; /* what translate fixes needs no comment, on any run */
    hp_check_result res;
    s = rules_check(&ctx->a, &cfg, path, RL_CPP, src, len, &res);
    if (s == HP_OK) {
        *out = res.findings;
        *n = res.nfindings;
    }
    return s;
}
