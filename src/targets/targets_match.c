/* targets_match.c: would the GPU code of a file run on a given GPU? AMD: processor or generic
 * target, then the xnack and sramecc features; NVIDIA: SASS by compute capability (same
 * major, arch-specific 'a' and family 'f' targets) and PTX compiled by the driver. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amdgpu.h"
#include "buf.h"
#include "ctx.h"
#include "str.h"

#include "banned.h"

typedef struct gpu {
    hp_vendor vendor;
    amdgpu_tid amd;  /* AMD: processor and the feature states given */
    char proc[32];   /* AMD: the processor, NUL-terminated */
    int major, minor; /* NVIDIA: compute capability */
} gpu;

/* Reads "sm_90a", "compute_120f", "90" as 9, 0 and the suffix; 0 if malformed. */
static int nv_arch(hp_str s, int *major, int *minor, char *suffix)
{
    if (str_starts(s, S("sm_")))
        s = str_cut(s, 3, s.len);
    else if (str_starts(s, S("compute_")))
        s = str_cut(s, 8, s.len);
    int n = 0, digits = 0;
    while (digits < s.len && s.s[digits] >= '0' && s.s[digits] <= '9' && digits < 4)
        n = n * 10 + (s.s[digits++] - '0');
    if (digits < 2)
        return 0;
    *suffix = 0;
    if (digits < s.len) {
        if (digits + 1 != s.len || (s.s[digits] != 'a' && s.s[digits] != 'f'))
            return 0;
        *suffix = s.s[digits];
    } else if (digits != s.len) {
        return 0;
    }
    *major = n / 10;
    *minor = n % 10;
    return 1;
}

static const char *parse_gpu(arena *a, const char *name, gpu *g)
{
    memset(g, 0, sizeof *g);
    hp_str s = str_trim(str_cstr(name));
    if (str_starts(s, S("amdgcn-amd-amdhsa--")))
        s = str_cut(s, 19, s.len);
    if (str_starts(s, S("gfx"))) {
        g->vendor = HP_VENDOR_AMD;
        amdgpu_tid_parse(s, &g->amd);
        hp_str p = g->amd.proc;
        if (g->amd.bad)
            return arena_printf(a, "malformed AMD target '%s' (like gfx90a or gfx90a:xnack-)",
                                name);
        if (!amdgpu_known(p) || amdgpu_is_generic(p) || p.len >= (ptrdiff_t)sizeof g->proc)
            return arena_printf(a, "unknown AMD processor '%.*s'", (int)p.len, p.s);
        memcpy(g->proc, p.s, (size_t)p.len);
        g->proc[p.len] = 0;
        if (g->amd.xnack != AMD_FEAT_ANY && !amdgpu_has_xnack(p))
            return arena_printf(a, "%s has no xnack feature", g->proc);
        if (g->amd.sramecc != AMD_FEAT_ANY && !amdgpu_has_sramecc(p))
            return arena_printf(a, "%s has no sramecc feature", g->proc);
        return NULL;
    }
    char suffix = 0;
    ptrdiff_t dot = str_chr(s, '.');
    if (dot > 0 && s.len - dot == 2 && dot <= 2) {
        int major = 0;
        for (ptrdiff_t i = 0; i < dot; i++) {
            if (s.s[i] < '0' || s.s[i] > '9')
                return arena_printf(a, "unknown GPU '%s'", name);
            major = major * 10 + (s.s[i] - '0');
        }
        char c = s.s[dot + 1];
        if (c < '0' || c > '9' || major == 0)
            return arena_printf(a, "unknown GPU '%s'", name);
        g->vendor = HP_VENDOR_NVIDIA;
        g->major = major;
        g->minor = c - '0';
        return NULL;
    }
    if ((str_starts(s, S("sm_")) || str_starts(s, S("compute_"))) &&
        nv_arch(s, &g->major, &g->minor, &suffix) && g->major > 0) {
        g->vendor = HP_VENDOR_NVIDIA;
        return NULL;
    }
    return arena_printf(a, "unknown GPU '%s' (an AMD target like gfx942 or gfx90a:xnack-, or "
                           "an NVIDIA one like sm_90 or 9.0)",
                        name);
}

hp_status hp_targets_parse_gpu(hp_ctx *ctx, const char *name, const char **canonical,
                               const char **err)
{
    gpu g;
    *canonical = NULL;
    *err = NULL;
    if (!ctx || !name)
        return HP_EUSAGE;
    const char *e = parse_gpu(&ctx->a, name, &g);
    if (e) {
        *err = e;
        return HP_EUSAGE;
    }
    if (g.vendor == HP_VENDOR_AMD)
        *canonical = arena_printf(&ctx->a, "%s%s%s", g.proc,
                                  g.amd.sramecc == AMD_FEAT_ON    ? ":sramecc+"
                                  : g.amd.sramecc == AMD_FEAT_OFF ? ":sramecc-"
                                                                  : "",
                                  g.amd.xnack == AMD_FEAT_ON    ? ":xnack+"
                                  : g.amd.xnack == AMD_FEAT_OFF ? ":xnack-"
                                                                : "");
    else
        *canonical = arena_printf(&ctx->a, "sm_%d%d", g.major, g.minor);
    return *canonical ? HP_OK : HP_ENOMEM;
}

/* How well one piece of code fits the GPU. */
enum fit {
    FIT_NO = 0,
    FIT_UNREADABLE,  /* could not be read: unknown */
    FIT_IF,          /* fits if a feature the GPU was named without has the right state */
    FIT_JIT,         /* PTX compiled by the driver, or SPIR-V */
    FIT_GENERIC,     /* a generic target covering the processor */
    FIT_EXACT        /* code for this processor / compute capability */
};

static const char *state(int v)
{
    return v == AMD_FEAT_ON ? "on" : "off";
}

/* Fits an AMD piece; *why (in a) says why not, or the condition for FIT_IF. */
static enum fit fit_amd(arena *a, const gpu *g, const hp_gpu_code *c, const char **why)
{
    *why = NULL;
    if (!c->readable) {
        *why = "compressed, could not be read";
        return FIT_UNREADABLE;
    }
    if (strcmp(c->kind, "bitcode") == 0) {
        *why = "relocatable device code (bitcode) that runs only after a device link";
        return FIT_NO;
    }
    if (strcmp(c->kind, "spirv") == 0)
        return FIT_JIT;
    if (strcmp(c->kind, "code-object") != 0) {
        *why = "not a code object";
        return FIT_NO;
    }
    amdgpu_tid t;
    amdgpu_tid_parse(str_cstr(c->target), &t);
    enum fit f;
    hp_str dev = str_cstr(g->proc);
    if (str_eq(t.proc, dev)) {
        f = FIT_EXACT;
    } else if (amdgpu_is_generic(t.proc) && amdgpu_generic_covers(t.proc, dev)) {
        f = FIT_GENERIC;
    } else {
        *why = amdgpu_is_generic(t.proc) ? "generic targets that do not cover it"
                                         : "other processors";
        return FIT_NO;
    }
    /* xnack: a GPU named without it runs with xnack off, the default */
    int dx = g->amd.xnack == AMD_FEAT_ANY ? AMD_FEAT_OFF : g->amd.xnack;
    if (t.xnack != AMD_FEAT_ANY && amdgpu_has_xnack(dev) && t.xnack != dx) {
        *why = g->amd.xnack == AMD_FEAT_ANY
                   ? arena_printf(a, "needs xnack %s, which is off unless HSA_XNACK=1 (if it "
                                     "is on, name the GPU %s:xnack+)",
                                  state(t.xnack), g->proc)
                   : arena_printf(a, "needs xnack %s, the GPU has it %s", state(t.xnack),
                                  state(dx));
        return FIT_NO;
    }
    if (t.sramecc != AMD_FEAT_ANY && amdgpu_has_sramecc(dev)) {
        if (g->amd.sramecc == AMD_FEAT_ANY) {
            *why = arena_printf(a, "if the GPU has sramecc %s", state(t.sramecc));
            return FIT_IF;
        }
        if (t.sramecc != g->amd.sramecc) {
            *why = arena_printf(a, "needs sramecc %s, the GPU has it %s", state(t.sramecc),
                                state(g->amd.sramecc));
            return FIT_NO;
        }
    }
    return f;
}

static enum fit fit_nvidia(arena *a, const gpu *g, const hp_gpu_code *c, const char **why)
{
    *why = NULL;
    int major, minor;
    char sfx;
    if (strcmp(c->kind, "bitcode") == 0) {
        *why = "relocatable device code (bitcode) that runs only after a device link";
        return FIT_NO;
    }
    if (!nv_arch(str_cstr(c->target), &major, &minor, &sfx)) {
        *why = "unknown target";
        return FIT_NO;
    }
    int dev = g->major * 10 + g->minor, code = major * 10 + minor;
    if (strcmp(c->kind, "ptx") == 0) {
        if (sfx == 'a' ? dev == code
            : sfx == 'f' ? g->major == major && g->minor >= minor
                         : dev >= code)
            return FIT_JIT;
        *why = sfx == 'a'   ? arena_printf(a, "PTX for exactly %d.%d", major, minor)
               : sfx == 'f' ? arena_printf(a, "PTX for %d.%d to %d.9", major, minor, major)
                            : arena_printf(a, "PTX for %d.%d or newer", major, minor);
        return FIT_NO;
    }
    if (strcmp(c->kind, "sass") != 0) {
        *why = "not SASS or PTX";
        return FIT_NO;
    }
    if (sfx == 'a' ? dev == code : g->major == major && g->minor >= minor)
        return FIT_EXACT;
    *why = sfx == 'a' ? arena_printf(a, "SASS for exactly %d.%d", major, minor)
                      : arena_printf(a, "SASS for %d.%d to %d.9", major, minor, major);
    return FIT_NO;
}

static const char *good_reason(arena *a, const gpu *g, const hp_gpu_code *c, enum fit f,
                               const char *cond)
{
    const char *gname = g->vendor == HP_VENDOR_AMD ? g->proc : NULL;
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", g->major, g->minor);
    switch (f) {
    case FIT_EXACT:
        if (g->vendor == HP_VENDOR_AMD)
            return arena_printf(a, "has a code object for %s", c->target);
        return arena_printf(a, "has %s SASS, which runs on compute capability %s", c->target,
                            cc);
    case FIT_GENERIC:
        return arena_printf(a, "has %s code, which covers %s (the HIP runtime must support "
                               "generic targets)",
                            c->target, gname);
    case FIT_JIT:
        if (g->vendor == HP_VENDOR_AMD)
            return arena_printf(a, "has SPIR-V code, compiled for %s when it is loaded", gname);
        return arena_printf(a, "has %s PTX, which the driver compiles for compute capability "
                               "%s when it is loaded",
                            c->target, cc);
    case FIT_IF: return arena_printf(a, "has a code object for %s, %s", c->target, cond);
    default: return "";
    }
}

hp_verdict hp_targets_match(hp_ctx *ctx, const hp_targets_result *res, const char *name,
                            const char **reason)
{
    *reason = "";
    if (!ctx || !res || !name)
        return HP_VERDICT_UNKNOWN;
    arena *a = &ctx->a;
    gpu g;
    const char *err = parse_gpu(a, name, &g);
    if (err) {
        *reason = err;
        return HP_VERDICT_UNKNOWN;
    }
    if (res->ncode == 0) {
        *reason = "no GPU code";
        return HP_VERDICT_NO_GPU_CODE;
    }
    enum fit best = FIT_NO;
    int best_i = -1, others = 0, unreadable = 0;
    const char *unread_detail = NULL;
    const char *best_why = NULL;
    for (int i = 0; i < res->ncode; i++) {
        const hp_gpu_code *c = &res->code[i];
        const char *why = NULL;
        enum fit f = FIT_NO;
        if (c->vendor != g.vendor)
            others++;
        else if (g.vendor == HP_VENDOR_AMD)
            f = fit_amd(a, &g, c, &why);
        else
            f = fit_nvidia(a, &g, c, &why);
        if (f == FIT_UNREADABLE && !unreadable++)
            unread_detail = c->detail;
        if (f > best) {
            best = f;
            best_i = i;
            best_why = why;
        }
    }
    if (best >= FIT_IF) {
        *reason = good_reason(a, &g, &res->code[best_i], best, best_why);
        return HP_VERDICT_RUNS;
    }
    if (unreadable == res->ncode) {
        /* why it could not be read: a codec missing here, a size over the limit, corruption */
        *reason = unread_detail && unread_detail[0]
                      ? arena_printf(a, "the GPU code could not be read: %s", unread_detail)
                      : "the GPU code could not be read";
        return HP_VERDICT_UNKNOWN;
    }
    /* Why not: the distinct targets, grouped by reason: "why [t1, t2]; why [t3]". */
    enum { MAXW = 16 };
    const char *whys[MAXW];
    int nwhy = 0;
    const char **why_of = arena_alloc(a, (ptrdiff_t)sizeof(char *), (ptrdiff_t)_Alignof(char *),
                                      res->ncode);
    if (!why_of)
        return HP_VERDICT_UNKNOWN;
    for (int i = 0; i < res->ncode; i++) {
        const hp_gpu_code *c = &res->code[i];
        const char *why = NULL;
        if (!c->readable)
            continue;
        if (c->vendor != g.vendor)
            why = c->vendor == HP_VENDOR_AMD ? "AMD code" : "NVIDIA code";
        else if (g.vendor == HP_VENDOR_AMD)
            fit_amd(a, &g, c, &why);
        else
            fit_nvidia(a, &g, c, &why);
        why_of[i] = why ? why : "does not fit";
        int k = 0;
        while (k < nwhy && strcmp(whys[k], why_of[i]) != 0)
            k++;
        if (k == nwhy && nwhy < MAXW)
            whys[nwhy++] = why_of[i];
    }
    buf b;
    buf_init(&b, a, 256);
    if (unreadable)
        buf_adds(&b, "some code is compressed and could not be read; ");
    if (others == res->ncode)
        buf_adds(&b, "only ");
    for (int k = 0; k < nwhy; k++) {
        buf_addf(&b, "%s%s [", k ? "; " : "", whys[k]);
        /* each target once; the first 8, then "..." */
        const char *shown[8];
        int listed = 0;
        for (int i = 0; i < res->ncode; i++) {
            const hp_gpu_code *c = &res->code[i];
            if (!c->readable || strcmp(why_of[i], whys[k]) != 0)
                continue;
            int seen = 0;
            for (int j = 0; j < listed && !seen; j++)
                seen = strcmp(shown[j], c->target) == 0;
            if (seen)
                continue;
            if (listed == 8) {
                buf_adds(&b, ", ...");
                break;
            }
            buf_addf(&b, "%s%s", listed ? ", " : "", c->target);
            shown[listed++] = c->target;
        }
        buf_adds(&b, "]");
    }
    *reason = buf_cstr(&b);
    return unreadable ? HP_VERDICT_UNKNOWN : HP_VERDICT_WONT_RUN;
}
