/* rules_kl.c: the KL rules (kernel language): __launch_bounds__ arguments (KL001), launches
 * from device code (KL002), grid-wide sync (KL003), textures and surfaces (KL005), printf of
 * coordinates (KL006), clock counters as timers (KL007) and very large 1-D grids (KL008). The
 * plain names of KL002-KL004 are in data/tables/rule_names.tsv. */
#include <string.h>

#include "rules.h"
#include "str.h"

#include "banned.h"

static int guarded(const rctx *c, ptrdiff_t i)
{
    return (rules_scope(c, i) & SC_GUARDED) != 0;
}

/* ------------------------------------------------------------------ KL001 */

static void kl001(rctx *c, ptrdiff_t i)
{
    ptrdiff_t open = rules_call(c, i);
    lex_args a;
    if (open < 0 || !rules_args(c, open, &a) || a.n < 2 || guarded(c, i))
        return;
    if (a.n >= 3) {
        rules_report(c, RID_KL001, i, HP_SEV_ERROR, 0,
                     "HIP's __launch_bounds__ takes at most two arguments; the third (maximum "
                     "blocks per cluster) does not compile",
                     "drop the third argument under __HIP_PLATFORM_AMD__");
        return;
    }
    long long t, b;
    int bits;
    const char *fix = NULL;
    hp_severity sev = 0;
    int tc = rules_eval(c, a.first[0], a.last[0], &t, &bits);
    int bc = rules_eval(c, a.first[1], a.last[1], &b, &bits);
    /* waves_per_eu(1) asks for nothing: every kernel runs at least one wavefront per SIMD. */
    if (bc && b == 1)
        return;
    if (tc && bc && t > 0 && b > 0 && t <= 1024 && b <= 1024) {
        long long waves = (t + 63) / 64;
        long long per_simd = (b * waves + 3) / 4;
        fix = rules_fmt(c, "%lld blocks of %lld threads are %lld wavefronts per CU, %lld per "
                           "SIMD on CDNA (4 SIMDs): pass %lld as the second argument under "
                           "__HIP_PLATFORM_AMD__, or measure",
                        b, t, b * waves, per_simd, per_simd);
        /* The register cap each build derives: CUDA gives a thread at most 65536 / (B * T)
         * registers (255 at most); waves_per_eu(B) leaves a lane 512 / B VGPRs on CDNA. When
         * AMD's cap is no tighter, the hint costs no spills: occupancy may differ, no more. */
        long long cuda_cap = 65536 / (b * t) < 255 ? 65536 / (b * t) : 255;
        if (512 / b >= cuda_cap)
            sev = HP_SEV_NOTE;
    }
    rules_report(c, RID_KL001, a.first[1], sev, 0,
                 "the second argument of __launch_bounds__ becomes amdgpu_waves_per_eu on AMD: "
                 "a minimum of wavefronts per SIMD, not of blocks per multiprocessor",
                 fix);
}

/* ------------------------------------------------------------------ KL005 */

static const hp_str tex_refs[] = {
    RULES_S("cudaBindTexture"), RULES_S("cudaBindTexture2D"), RULES_S("cudaBindTextureToArray"),
    RULES_S("cudaBindTextureToMipmappedArray"), RULES_S("cudaGetTextureReference"),
    RULES_S("cudaBindSurfaceToArray"), RULES_S("cudaUnbindTexture"),
    RULES_S("cudaGetTextureAlignmentOffset"), RULES_S("cudaGetSurfaceReference"),
    /* the same in HIP's spelling, for HIP sources (and a second translation) */
    RULES_S("hipBindTexture"), RULES_S("hipBindTexture2D"), RULES_S("hipBindTextureToArray"),
    RULES_S("hipBindTextureToMipmappedArray"), RULES_S("hipGetTextureReference"),
    RULES_S("hipUnbindTexture"), RULES_S("hipGetTextureAlignmentOffset")};

static const hp_str tex_objs[] = {
    RULES_S("cudaTextureObject_t"), RULES_S("cudaSurfaceObject_t"),
    RULES_S("cudaCreateTextureObject"), RULES_S("cudaCreateSurfaceObject"),
    RULES_S("hipTextureObject_t"), RULES_S("hipSurfaceObject_t"),
    RULES_S("hipCreateTextureObject"), RULES_S("hipCreateSurfaceObject"), RULES_S("tex1D"),
    RULES_S("tex2D"), RULES_S("tex3D"), RULES_S("tex1Dfetch"), RULES_S("tex1DLayered"),
    RULES_S("tex2DLayered"), RULES_S("texCubemap"), RULES_S("texCubemapLayered"),
    RULES_S("tex2Dgather"), RULES_S("tex1DLod"), RULES_S("tex2DLod"), RULES_S("tex3DLod"),
    RULES_S("tex1DGrad"), RULES_S("tex2DGrad"), RULES_S("tex3DGrad"), RULES_S("surf1Dread"),
    RULES_S("surf2Dread"), RULES_S("surf3Dread"), RULES_S("surf1Dwrite"), RULES_S("surf2Dwrite"),
    RULES_S("surf3Dwrite"), RULES_S("surf2DLayeredread"), RULES_S("surf2DLayeredwrite")};

static int in_list(hp_str s, const hp_str *list, size_t n)
{
    return rules_in(s, list, (int)n);
}

static void kl005(rctx *c, ptrdiff_t i, hp_str s)
{
    /* the names first: the tests below are pure, and most identifiers are none of these */
    int ref = 0;
    int templ = RULES_EQ(s, "texture") || RULES_EQ(s, "surface");
    if (templ || in_list(s, tex_refs, sizeof tex_refs / sizeof *tex_refs))
        ref = 1;
    else if (!in_list(s, tex_objs, sizeof tex_objs / sizeof *tex_objs))
        return;
    if (guarded(c, i) || rules_member(c, i))
        return;
    if (templ) {
        ptrdiff_t n = rules_next(c, i);
        if (!rules_punct(c, n, '<') || rules_template_close(c, n, -1) < 0 ||
            rules_qualified(c, i))
            return;
    }
    if (c->cfg->no_image) {
        rules_report(c, RID_KL005, i, HP_SEV_ERROR, RF_ONCE,
                     ref ? "texture references: deprecated in HIP, removed from CUDA 12, and "
                           "gfx942 and gfx950 have no image instructions at all"
                         : "textures and surfaces: gfx942 and gfx950 have no image "
                           "instructions, so this code does not build for them",
                     NULL);
    } else if (ref) {
        rules_report(c, RID_KL005, i, HP_SEV_WARNING, RF_ONCE,
                     "texture references are deprecated in HIP and removed from CUDA 12", NULL);
    }
}

/* ------------------------------------------------------------------ KL006 */

static int coord(hp_str s)
{
    return RULES_EQ(s, "threadIdx") || RULES_EQ(s, "blockIdx") || RULES_EQ(s, "blockDim") ||
           RULES_EQ(s, "gridDim");
}

/* HIP 6.1 declares the coordinates as __declspec(property) members of type unsigned int, so
 * printf receives the value; HIP 6.0 and older declare them as structs with a conversion
 * operator, which printf does not apply: the compiler rejects the argument ("cannot compile
 * this non-scalar arg to printf yet"). An error for HIP before 6.1, nothing from 6.1, a note
 * where the HIP is not known. */
static void kl006(rctx *c, ptrdiff_t i)
{
    int v = c->cfg->hip_version;
    if (!(rules_scope(c, i) & SC_DEVICE) || guarded(c, i) || v >= 601)
        return;
    ptrdiff_t open = rules_call(c, i);
    lex_args a;
    if (open < 0 || !rules_args(c, open, &a))
        return;
    for (int k = 1; k < a.n; k++) {
        ptrdiff_t f = a.first[k];
        if (rules_ident(c, f) && coord(rules_text(c, f)) && rules_punct(c, rules_next(c, f), '.') &&
            rules_next(c, rules_next(c, f)) == a.last[k]) {
            hp_str s = rules_text(c, f);
            if (v > 0)
                rules_report(c, RID_KL006, f, HP_SEV_ERROR, 0,
                             rules_fmt(c, "'%.*s' is passed to printf uncast; before HIP 6.1 "
                                          "the coordinate built-ins are structs, and the "
                                          "compiler rejects them as printf arguments",
                                       (int)s.len, s.s),
                             NULL);
            else
                rules_report(c, RID_KL006, f, HP_SEV_NOTE, 0,
                             rules_fmt(c, "'%.*s' is passed to printf uncast: right with HIP "
                                          "6.1 and newer, whose coordinate built-ins are "
                                          "unsigned int properties; HIP 6.0 and older reject "
                                          "it",
                                       (int)s.len, s.s),
                             NULL);
            return;
        }
    }
}

/* ------------------------------------------------------------------ KL007 */

static int file_mentions(const rctx *c, const char *a, const char *b)
{
    for (ptrdiff_t i = 0; i < c->nt; i++)
        if (c->t[i].kind == TK_IDENT && (rules_is(c, i, a) || rules_is(c, i, b)))
            return 1;
    return 0;
}

static void kl007(rctx *c, ptrdiff_t i, hp_str s)
{
    if (!(rules_scope(c, i) & SC_DEVICE) || guarded(c, i) || rules_member(c, i) ||
        rules_call(c, i) < 0)
        return;
    if (RULES_EQ(s, "__globaltimer")) {
        rules_report(c, RID_KL007, i, 0, 0,
                     "'__globaltimer' has no HIP implementation; wall_clock64() is the "
                     "constant-rate counter",
                     NULL);
        return;
    }
    int timed = file_mentions(c, "clockRate", "cudaDevAttrClockRate");
    rules_report(c, RID_KL007, i, timed ? HP_SEV_WARNING : HP_SEV_NOTE, RF_ONCE,
                 timed ? "clock counters are divided by clockRate here: on AMD clock64() counts "
                         "shader-core cycles at a changing frequency, so the result is no time"
                       : "clock()/clock64() count shader-core cycles at a frequency that "
                         "changes at run time on AMD (and are unreliable on RDNA3): fine for "
                         "relative cycle counts, wrong as a timer",
                 NULL);
}

/* ------------------------------------------------------------------ KL008 */

static void kl008(rctx *c, ptrdiff_t gfirst, ptrdiff_t glast, ptrdiff_t bfirst, ptrdiff_t blast)
{
    if (gfirst < 0 || glast < gfirst || guarded(c, gfirst))
        return;
    long long g, b;
    int bits;
    if (rules_eval(c, gfirst, glast, &g, &bits)) {
        if (bfirst >= 0 && rules_eval(c, bfirst, blast, &b, &bits) && g > 0 && b > 0 &&
            (double)g * (double)b >= 4294967296.0)
            rules_report(c, RID_KL008, gfirst, HP_SEV_WARNING, 0,
                         rules_fmt(c, "%lld blocks of %lld threads: HIP rejects grids of "
                                      "2^32 threads or more in a dimension",
                                   g, b),
                         NULL);
        return;
    }
    int div = 0, wide = 0;
    for (ptrdiff_t j = gfirst; j <= glast && j < c->nt; j = rules_next(c, j)) {
        if (rules_punct(c, j, '/'))
            div = 1;
        if (rules_ident(c, j) && !rules_member(c, j)) {
            int ptr;
            hp_str s = rules_text(c, j);
            rules_decl d;
            if (RULES_EQ(s, "size_t") || RULES_EQ(s, "int64_t") || RULES_EQ(s, "uint64_t") ||
                RULES_EQ(s, "long"))
                wide = 1;
            else if (rules_decl_find(c, j, &d) && d.type == RT_INT64 && !d.ptr)
                wide = 1;
            (void)ptr;
        }
    }
    if (div && wide)
        rules_report(c, RID_KL008, gfirst, 0, 0,
                     "a 1-D grid computed from a 64-bit size: HIP rejects grids of 2^32 "
                     "threads or more in a dimension (CUDA allows 2^31-1 blocks)",
                     NULL);
}

static void launch(rctx *c, ptrdiff_t open)
{
    /* k<<<g, b, smem, stream>>>(...) */
    ptrdiff_t close = -1;
    for (ptrdiff_t j = rules_next(c, open); j < c->nt; j = rules_next(c, j)) {
        if (c->t[j].kind == TK_LAUNCH_CLOSE) {
            close = j;
            break;
        }
        if (rules_punct(c, j, ';') || c->t[j].kind == TK_LAUNCH_OPEN)
            return;
    }
    if (close < 0)
        return;
    if ((rules_scope(c, open) & SC_DEVICE) && !guarded(c, open))
        rules_report(c, RID_KL002, open, 0, 0,
                     "a kernel launch in device code (dynamic parallelism): HIP kernels cannot "
                     "launch kernels",
                     NULL);
    /* split the configuration at depth-0 commas */
    ptrdiff_t first[4] = {-1, -1, -1, -1}, last[4] = {-1, -1, -1, -1};
    int n = 0;
    ptrdiff_t start = rules_next(c, open);
    for (ptrdiff_t j = start; j <= close && n < 4; j = rules_next(c, j)) {
        if (j == close || rules_punct(c, j, ',')) {
            first[n] = start;
            last[n] = rules_prev(c, j);
            n++;
            start = rules_next(c, j);
            continue;
        }
        if (rules_punct(c, j, '(') || rules_punct(c, j, '[') || rules_punct(c, j, '{')) {
            ptrdiff_t m = rules_match(c, j);
            if (m < 0 || m > close)
                return;
            j = m;
        }
    }
    if (n >= 1)
        kl008(c, first[0], last[0], n >= 2 ? first[1] : -1, n >= 2 ? last[1] : -1);
}

/* ------------------------------------------------------------------ the family */

/* The identifiers the pass below acts on (rules_hot.c) that rule_keys.tsv cannot list: the
 * texture and surface APIs of tex_refs and tex_objs. */
unsigned rules_kl_names(const rctx *c, hp_str s, int number)
{
    (void)c;
    if (number || s.len < 5)
        return 0;
    switch (s.s[0]) {
    case 'c':
    case 'h':
    case 't':
    case 's':
        return (RULES_STARTS(s, "cuda") || RULES_STARTS(s, "hip") || RULES_STARTS(s, "tex") ||
                RULES_STARTS(s, "surf")) &&
                       (in_list(s, tex_refs, sizeof tex_refs / sizeof *tex_refs) ||
                        in_list(s, tex_objs, sizeof tex_objs / sizeof *tex_objs))
                   ? RH_KL
                   : 0;
    default:
        return 0;
    }
}

void rules_kl_run(rctx *c)
{
    for (ptrdiff_t hk = 0, i; (i = rules_hot_next(c, &hk, RH_KL)) >= 0;) {
        const tok *k = &c->t[i];
        if (k->kind == TK_LAUNCH_OPEN) {
            launch(c, i);
            continue;
        }
        if (k->kind != TK_IDENT)
            continue;
        hp_str s = rules_text(c, i);
        switch (s.s[0]) {
        case '_':
            if (RULES_EQ(s, "__launch_bounds__"))
                kl001(c, i);
            else if (RULES_EQ(s, "__globaltimer") || RULES_EQ(s, "__clock64") ||
                     RULES_EQ(s, "__clock"))
                kl007(c, i, s);
            break;
        case 'c':
            if (RULES_EQ(s, "clock64") || RULES_EQ(s, "clock"))
                kl007(c, i, s);
            else if (s.len > 6 && RULES_STARTS(s, "cuda"))
                kl005(c, i, s);
            else if (RULES_EQ(s, "cudaLaunchKernel") && !guarded(c, i)) {
                ptrdiff_t open = rules_call(c, i);
                lex_args a;
                if (open >= 0 && rules_args(c, open, &a) && a.n >= 3)
                    kl008(c, a.first[1], a.last[1], a.first[2], a.last[2]);
            }
            break;
        case 'p':
            if (RULES_EQ(s, "printf"))
                kl006(c, i);
            break;
        case 't':
            if (RULES_EQ(s, "this_grid") && rules_call(c, i) >= 0 && !guarded(c, i))
                rules_report(c, RID_KL003, i, HP_SEV_NOTE, RF_ONCE,
                             "grid-wide sync needs every block resident at once; AMD residency "
                             "limits differ (CDNA: 2048 threads, 32 wavefronts per CU), so size "
                             "the grid from the occupancy API",
                             NULL);
            else
                kl005(c, i, s);
            break;
        case 's':
            kl005(c, i, s);
            break;
        case 'h':
            if (RULES_EQ(s, "hipLaunchKernelGGL") && !guarded(c, i)) {
                ptrdiff_t open = rules_call(c, i);
                lex_args a;
                if (open >= 0 && rules_args(c, open, &a) && a.n >= 3)
                    kl008(c, a.first[1], a.last[1], a.first[2], a.last[2]);
            } else if (s.len > 5 && RULES_STARTS(s, "hip")) {
                kl005(c, i, s); /* the texture API in HIP's spelling */
            }
            break;
        default:
            break;
        }
    }
}
