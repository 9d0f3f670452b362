/* rules.h: the check engine. A file is lexed by its language, given context (scopes, macros,
 * declarations), and handed to every rule family registered for that language; families report
 * findings through rules_report(), which applies severities, targets and suppressions.
 *
 * Plugging in
 * -----------
 * A new rule family (C++ or any language):
 *   1. add its rules to data/tables/rules.tsv (id, family, severity, wave64, languages, title,
 *      fix) and a page docs/rules/ID.md per rule;
 *   2. write src/rules_<family>.c with `void rules_<family>_run(rctx *c)` that walks c->t and
 *      calls rules_report() (or list plain names in data/tables/rule_names.tsv: no code);
 *   3. add one line RULES_FAMILY(<family>, RL_xxx) to src/check/rules_list.h.
 * A new language (Python tokens, build files):
 *   1. write a lexer that fills a lex_out with `tok` records (TK_IDENT, TK_NUMBER, TK_STRING,
 *      TK_COMMENT, TK_PUNCT with sub = the character or a P_* code; TF_BOL/TF_NEWLINE flags);
 *      comments must be TK_COMMENT tokens so that `# hipport-ignore: ID` works unchanged;
 *   2. add an RL_* bit below and one line RULES_LANG(...) to src/check/rules_list.h naming the
 *      language, its file-name test, its lexer and an optional prepare function (the C++ one
 *      builds scopes and macros; others may leave c->scope zeroed);
 *   3. families for it use the same rctx helpers (rules_next, rules_args, rules_report, ...);
 *      the C++-only helpers (scopes, declarations, macros) say so.
 * Tree walks take every file some language claims (hp_check_wants), so nothing else changes.
 * A rule reports only in the languages its rules.tsv row names (rules_report drops the rest),
 * so rule_names.tsv rows and shared helpers need no language test of their own. Findings get
 * severities, --target downgrades, --enable/--disable and hipport-ignore comments (any
 * TK_COMMENT containing "hipport-ignore: ID[,ID]") from the engine, not from families. */
#ifndef HP_RULES_H
#define HP_RULES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "arena.h"
#include "diag.h"
#include "hipport.h"
#include "hp_assert.h"
#include "lex.h"
#include "nameidx.h"
#include "ppeval.h"
#include "rule_ids.h"

/* Languages (bits, so that a rule or a name row can apply to several). */
enum rules_lang {
    RL_CPP = 1,    /* CUDA, HIP, C and C++ sources and headers */
    RL_PYTHON = 2, /* Python: Triton kernels, PyTorch host code */
    RL_BUILD = 4   /* CMake, Makefiles, shell, Dockerfiles */
};

/* Per-token scope bits (C++; zero elsewhere). */
enum rules_scope {
    SC_DEVICE = 1,  /* inside a __global__ or __device__ body (or a device lambda) */
    SC_KERNEL = 2,  /* inside a __global__ body */
    SC_HOST = 4,    /* inside a function body that is host-only */
    SC_GUARDED = 8, /* inside an #if group that tests a HIP/ROCm/AMD macro: code already
                       written per platform, which rules about NVIDIA assumptions leave alone */
    SC_HOSTDEV = 16 /* the device function is also __host__ */
};

typedef struct rules_keys rules_keys;

/* What the options resolve to: targets, enabled rules. Built once per run, read-only after. */
typedef struct rules_cfg {
    uint8_t *enabled;     /* per rule index: 1 on */
    uint8_t *langs;       /* per rule index: the RL_* bits of its languages column */
    int nrules;
    int wave64;           /* some target runs 64-lane wavefronts (gfx9) */
    int wave32;           /* some target runs 32-lane wavefronts (gfx10+) */
    int lds_limit;        /* the smallest LDS per workgroup among the targets, bytes */
    int no_image;         /* some target has no image instructions (gfx94x, gfx950) */
    int fp8_fnuz;         /* some target has FNUZ fp8 only (gfx940-942) */
    int fp8_none;         /* some target has no fp8 at all (before gfx940) */
    int fp8_ocp;          /* some target has OCP fp8 only (gfx950, gfx12) */
    int hip_version;      /* the HIP the code builds with (major*100+minor); 0: not known */
    int assume_cuda;      /* every file is a CUDA source that hipport translate will process
                             (translate --annotate), even one that looks like HIP already */
    void *names;          /* the index of data/tables/rule_names.tsv (rules.c) */
    const rules_keys *keys; /* the index of data/tables/rule_keys.tsv (rules_keys.c) */
    const char *targets;  /* the target list itself, comma-separated (families that need
                             more than the flags above parse it) */
    const nameidx *plat;  /* the tree's platform macros (rules_platform_macros over its
                             headers, before the run), or NULL */
    const nameidx *shim;  /* the names the tree's headers define for HIP (rules_platform_macros),
                             or NULL */
    const nameidx *inc_cuda; /* include paths the tree's files include only where HIP-Clang
                                skips (rules_include_sides), or NULL */
    const nameidx *inc_any;  /* the last path component of every other quoted include, or
                                NULL */
    const nameidx *amd_split; /* the vendor-split keys (rules_split_keys, RS_AMD) of the
                                 tree's files, each to its component in amd_split_names, or
                                 NULL */
    const hp_str *amd_split_names;
    int namd_split;
    const nameidx *proj;     /* the directories of the tree's CMake project roots, each to an
                                RB_PROJ_* value (rules_build.h), or NULL */
    int amd_path;            /* the tree has an AMD build beside its NVIDIA-only projects: a
                                build file that builds for HIP or names ROCm, or a setup.py
                                that runs CMake only for a device setting of 'cuda'
                                (RB_KEY_CUDA_CMAKE); their build files' findings are notes */
    const nameidx *vendor_mods; /* the Python modules the tree imports only from code one
                                   vendor runs (rules_python_imports), or NULL */
    const nameidx *nv_preds; /* the NVIDIA-only predicates the tree's Python files define
                                (rules_python_nv_preds) and none defines otherwise, or NULL */
    const nameidx *cuda_src; /* the .cu sources a HIP CMake build of the tree leaves to its
                                CUDA branches (RB_KEY_CUDA_SRC paths), or NULL */
    const nameidx *nv_extra; /* the directories of setup.py files that are optional
                                NVIDIA-only extras beside a build with an AMD side (no build
                                file of the tree names them), or NULL */
    const nameidx *vendored; /* the directories of projects in an examples/ or third-party
                                directory that no build file outside it names
                                (tree_vendored), or NULL */
    const nameidx *dup_setup; /* the directories of setup.py files whose sources a build file
                                 above them names too (tree_dup_setups), or NULL */
    const hp_str *cuda_glob;  /* glob patterns of sources setup.py scripts with an AMD branch */
    int ncuda_glob;           /* give only their NVIDIA side (SRCSIDE_KEY_GLOB) */
    const hp_str *any_glob;   /* ... and the patterns and sources they name elsewhere */
    int nany_glob;
    const nameidx *cuda_hdr;  /* headers only such sources include (tree_cuda_headers) */
    const nameidx *jit_setup; /* the directories of setup.py files whose sources a module of
                                 the tree builds at run time with an AMD branch
                                 (RB_KEY_HIP_LOAD): the NVIDIA route, its findings notes */
    const nameidx *setup_ext; /* the directories of setup.py files that build their extensions
                                 themselves and run no make (RB_KEY_SETUP_EXT) */
    const nameidx *setup_hip; /* ... and of those of them that name HIP or ROCm */
    const nameidx *nv_dsl;    /* the directories of packages that require NVIDIA's CuTe DSL
                                 (RB_KEY_NV_DSL): their files' findings are notes */
    int tree_pass;            /* the tree's first pass ran (the indexes above are its) */
    const nameidx *amd_undef; /* macros the tree's C++ files #define only in branches AMD's
                                 device and host passes both skip (TURING_MMA_AVAILABLE under
                                 #if __CUDA_ARCH__ >= 750), never elsewhere: undefined on AMD,
                                 like CUDA's own macros (rules_amd_env) */
} rules_cfg;

/* Builds the configuration (memory in a). HP_EUSAGE with why filled for a bad target or rule. */
hp_status rules_cfg_build(arena *a, const hp_check_opts *o, rules_cfg *cfg, char *why,
                          ptrdiff_t whylen);

/* A function body (C++). */
typedef struct rules_fn {
    int32_t hdr;        /* first token of its header */
    int32_t name;       /* the function's name token, or -1 (lambda) */
    int32_t open;       /* its '{' */
    int32_t close;      /* its '}' (or the last token) */
    uint8_t device;     /* __device__ or __global__ */
    uint8_t kernel;     /* __global__ */
    uint8_t crosslane;  /* calls a shuffle, vote, match or reduce builtin */
    uint8_t crosslane_free; /* ... as a free function (__shfl_xor), not only as a member of a
                               cooperative-groups tile (g.shfl_xor) */
} rules_fn;

/* One object-like or function-like #define. */
typedef struct rules_macro {
    hp_str name;
    int32_t first, last;   /* body tokens (first > last when empty) */
    int32_t tok;           /* the name in the #define */
    int32_t ndefs;         /* how many #define lines name it (values may differ) */
    uint8_t funclike;
    uint8_t guarded;       /* defined under a HIP/AMD test */
} rules_macro;

/* The per-file context every family receives. */
typedef struct rctx rctx;
typedef unsigned (*rules_names_fn)(const rctx *c, hp_str s, int number);

struct rctx {
    arena *a;
    const rules_cfg *cfg;
    const rules_names_fn *names; /* the families' name predicates, NULL-terminated (check.c) */
    const char *path;
    const char *src;
    ptrdiff_t len;
    unsigned lang;        /* RL_* */
    int cuda_file;        /* .cu, .cuh or .hip */
    int hip_source;       /* already HIP (.hip, or includes a hip/ header): translate will not
                             run over it, so what translate fixes still counts here */
    tok *t;               /* tokens; t[nt] is TK_EOF */
    ptrdiff_t nt;
    const int32_t *dirs;  /* the '#' tokens of the directives, from the lexer (C++) */
    ptrdiff_t ndirs;
    uint8_t *scope;       /* per token: SC_* bits (C++) */
    int32_t *fn;          /* per token: index into fns of the outermost function, or -1 */
    rules_fn *fns;
    int nfns;
    rules_macro *macros;  /* open addressing, capmacros slots (C++) */
    int capmacros;
    nameidx plat;         /* this file's platform macros (C++; cap 0 when none) */
    diag_list d;
    void *lang_data;      /* what the language's prepare function built (Python: its index) */
    lex_idx *idx;         /* earlier occurrences of identifiers (C++; NULL: plain scans) */
    struct rules_hot *hot; /* the tokens some family acts on, in order (C++; rules_hot_build) */
    ptrdiff_t nhot;
    /* engine state */
    struct rules_once *once;
    int nonce, caponce;
    int lanes; /* rules_wave.c: how the file numbers lanes, plus 4 once known (0: not yet) */
    uint8_t *keeps32; /* rules_wave.c: per function, 1 + whether it keeps to 32-lane groups
                         (0: not yet asked); NULL until first asked */
    uint8_t *dead; /* per directive: bit 0, HIP-Clang certainly skips the code after it; bit 1,
                      the directive itself (rules.c, amd_dead); NULL until first asked */
    int dead_done;
    int dsl_done, dsl;         /* in_nv_dsl's answer, once */
    struct {
        hp_str name;
        int yes;
    } defn[32];                /* file_defines_fn's answers */
    int ndefn;
    int jit_done, jit;         /* jit_setup's answer, once */
    struct rules_landing *land; /* ARCH001/ARCH004 warnings whose branch AMD takes holds code
                                   (rules_arch_settle) */
    int nland, capland;
    const nameidx *undef_here; /* without the tree's first pass: the macros this file #defines
                                  only where AMD skips (cfg->amd_undef for one file) */
    int side, side_done; /* the file is only included where HIP-Clang skips (rules.c) */
    int nvproj, nvproj_done; /* the file lies in an NVIDIA-only CMake project (rules.c) */
    int extra, extra_done;   /* the file is an optional NVIDIA-only setup.py (rules.c) */
    int vend, vend_done;     /* the file lies in a vendored project (rules.c) */
    int dup, dup_done;       /* the file is a setup.py of sources built above it (rules.c) */
};

/* ---- the tokens families act on (C++; rules_hot.c)
 * Each family's pass used to visit every token; most tokens are of no interest to any family.
 * rules_hot_build() classifies the tokens once per file (identifiers and numbers once per
 * distinct text) and lists those some family may act on, each with the RH_* bits of the
 * families concerned. A family walks the list instead of the tokens: its per-token code is
 * unchanged and must do nothing for a token whose bit is clear (a listed superset is fine). */
enum rules_hot_bit {
    RH_WAVE = 1u << 0,
    RH_WAVE_DEV = 1u << 1,  /* names only: WAVE, for a token in unguarded device code, not in
                               a directive */
    RH_ASM = 1u << 2,
    RH_ARCH = 1u << 3,
    RH_KL = 1u << 4,
    RH_MEM = 1u << 5,
    RH_MEMNUM = 1u << 6,    /* numbers MEM001 reads as shared-memory sizes */
    RH_SHARED = 1u << 7,    /* __shared__ */
    RH_TYPE = 1u << 8,
    RH_LIB = 1u << 9,
    RH_RT = 1u << 10,
    RH_NAMES = 1u << 11,    /* data/tables/rule_names.tsv names and prefixes */
    RH_PYT = 1u << 12,      /* PyTorch extension APIs (rules_pytorch_cxx) */
    RH_XLANE = 1u << 13,    /* cross-lane builtins (rules_cpp_prepare) */
    RH_STR = 1u << 14       /* every TK_STRING and TK_HEADER */
};
typedef struct rules_hot {
    int32_t tok;
    uint32_t bits;
} rules_hot;
/* Builds c->hot (needs c->scope). */
void rules_hot_build(rctx *c);
/* The next listed token with one of bits, from entry *h on (which it advances), or -1:
 * for (ptrdiff_t h = 0, i; (i = rules_hot_next(c, &h, RH_X)) >= 0;) */
static inline ptrdiff_t rules_hot_next(const rctx *c, ptrdiff_t *h, unsigned bits)
{
    for (ptrdiff_t k = *h; k < c->nhot; k++)
        if (c->hot[k].bits & bits) {
            *h = k + 1;
            return c->hot[k].tok;
        }
    *h = c->nhot;
    return -1;
}
/* The first entry of c->hot whose token is at or after token i (c->nhot if none). */
ptrdiff_t rules_hot_from(const rctx *c, ptrdiff_t i);
/* The RH_* bits of an identifier (or, with number set, a number) that a family acts on come
 * from data/tables/rule_keys.tsv (the names, prefixes and numbers: rules_keys_bits) and from
 * the predicates of the families whose names are a pattern (rules_list.h's RULES_NAMES);
 * rules_hot.c asks them once per distinct text, the predicates through c->names (the list
 * the driver hands it). */
rules_keys *rules_keys_build(arena *a);
/* Orders the rows v[0..n) by the first byte of key(row), keeping the order of rows with the
 * same byte, and sets first[b] to the first index in v whose key starts with b (n if none):
 * the prefix lists of the name indexes (rules.c, rules_keys.c). */
void rules_group_by_first_byte(int16_t *v, int n, const char *(*key)(int row),
                               int16_t first[256]);
unsigned rules_keys_bits(const rules_keys *ix, hp_str s, int number);
/* The RH_* bits of a hot column ("wave,xlane"); 0 if a word is not a bit's name. */
unsigned rules_keys_hot_bits(const char *list);
/* The rows of rule_keys.tsv (key, match, hot), for tests. */
int rules_keys_count(void);
const char *const *rules_keys_row(int i);
#define RULES_LANG(bit, name, claims, lexfn, prepare)
#define RULES_FAMILY(name, langs)
#define RULES_NAMES(name) unsigned rules_##name##_names(const rctx *c, hp_str s, int number);
#include "rules_list.h"
#undef RULES_LANG
#undef RULES_FAMILY
#undef RULES_NAMES

/* The severity of a finding about something HIP removed in release (major * 100 + minor):
 * HP_SEV_NONE (the rule's own) for code built with that HIP or a newer one (--hip-version), a
 * warning when the HIP is not named, a note before the release. */
hp_severity rules_sev_since(const rctx *c, int release);

/* ---- token helpers (every language) */
static inline hp_str rules_text(const rctx *c, ptrdiff_t i)
{
    hp_str r = {"", 0};
    if (i >= 0 && i < c->nt) {
        r.s = c->src + c->t[i].off;
        r.len = c->t[i].len;
    }
    return r;
}
/* Does token i's text equal text[0..n)? */
static inline int rules_is_n(const rctx *c, ptrdiff_t i, const char *text, size_t n)
{
    return i >= 0 && i < c->nt && c->t[i].len == (int32_t)n &&
           memcmp(c->src + c->t[i].off, text, n) == 0;
}
/* Token text equals (inline, so that the length of a literal is folded). */
static inline int rules_is(const rctx *c, ptrdiff_t i, const char *text)
{
    return rules_is_n(c, i, text, strlen(text));
}
static inline int rules_punct(const rctx *c, ptrdiff_t i, unsigned code)
{
    return i >= 0 && i < c->nt && c->t[i].kind == TK_PUNCT && c->t[i].sub == code;
}
static inline int rules_ident(const rctx *c, ptrdiff_t i)
{
    return i >= 0 && i < c->nt && c->t[i].kind == TK_IDENT;
}
/* Next/previous significant token (no comments; outside a directive, directives are
 * skipped; inside one, the walk stays in it). nt / -1 at the ends. */
static inline ptrdiff_t rules_next(const rctx *c, ptrdiff_t i)
{
    return lex_next(c->t, c->nt, i);
}

static inline ptrdiff_t rules_prev(const rctx *c, ptrdiff_t i)
{
    return lex_prev(c->t, c->nt, i);
}

/* The matching bracket of ( [ {, or -1. */
ptrdiff_t rules_match(const rctx *c, ptrdiff_t open);
/* Is the identifier at i a call: followed by '(' (optionally after <...> template args)?
 * Returns the '(' or -1. */
ptrdiff_t rules_call(const rctx *c, ptrdiff_t i);
/* Is the identifier at i a member (after . -> .* ->*) or qualified by a namespace/class
 * other than the global one (after X::)? */
int rules_member(const rctx *c, ptrdiff_t i);
int rules_qualified(const rctx *c, ptrdiff_t i);

/* The opening bracket matching the ) ] or } at close, or -1. */
ptrdiff_t rules_match_back(const rctx *c, ptrdiff_t close);
/* The operands of the binary operator at op: the postfix expression before it (first token
 * returned) and the unary/postfix expression after it (last token returned); -1 if none. */
ptrdiff_t rules_operand_left(const rctx *c, ptrdiff_t op);
ptrdiff_t rules_operand_right(const rctx *c, ptrdiff_t op);
/* The arguments of the call whose '(' is open (lex_args_of); 0 if unbalanced. */
int rules_args(const rctx *c, ptrdiff_t open, lex_args *out);
/* The '>' closing a template argument list opened at '<' i, or -1 (lex_template_close). */
static inline ptrdiff_t rules_template_close(const rctx *c, ptrdiff_t i, ptrdiff_t limit)
{
    return lex_template_close(c->t, c->nt, i, limit);
}
/* Does any identifier among tokens [first, last] satisfy pred? */
int rules_range_has(const rctx *c, ptrdiff_t first, ptrdiff_t last,
                    int (*pred)(hp_str ident));
/* Is s one of list[0..n)? Lists are written with RULES_S("name") so lengths are known. */
#define RULES_S(lit) {(lit), (ptrdiff_t)sizeof(lit) - 1}
/* Does str equal the string literal lit? (No strlen, a memcmp of known length.) */
#define RULES_EQ(str, lit) \
    ((str).len == (ptrdiff_t)sizeof(lit) - 1 && memcmp((str).s, (lit), sizeof(lit) - 1) == 0)
/* Does str start with the string literal lit? */
#define RULES_STARTS(str, lit) \
    ((str).len >= (ptrdiff_t)sizeof(lit) - 1 && memcmp((str).s, (lit), sizeof(lit) - 1) == 0)
int rules_in(hp_str s, const hp_str *list, int n);
#define RULES_IN(s, list) rules_in((s), (list), (int)(sizeof(list) / sizeof *(list)))
/* Case-insensitive: does the identifier contain the word (ASCII)? */
int rules_name_has(hp_str ident, const char *word);

/* ---- C++ context */
static inline int rules_scope(const rctx *c, ptrdiff_t i)
{
    return c->scope && i >= 0 && i < c->nt ? c->scope[i] : 0;
}
static inline const rules_fn *rules_fn_of(const rctx *c, ptrdiff_t i)
{
    return c->fn && i >= 0 && i < c->nt && c->fn[i] >= 0 ? &c->fns[c->fn[i]] : NULL;
}
/* The object-like macro named s, or NULL (also NULL when it has several definitions, whose
 * values may differ per platform). */
const rules_macro *rules_macro_get(const rctx *c, hp_str s);
/* Any macro (function-like included) named s, or NULL. */
const rules_macro *rules_macro_any(const rctx *c, hp_str s);
/* Does the identifier name a HIP, ROCm or AMD target macro (__HIP_PLATFORM_AMD__, USE_ROCM,
 * __gfx942__, __GFX9__, HIP_VERSION_MAJOR...)? */
int rules_is_amd_macro(hp_str s);
/* The '#' token of the directive containing token i, or -1. */
ptrdiff_t rules_directive(const rctx *c, ptrdiff_t i);
/* Does the directive at '#' h test a HIP/AMD macro? */
int rules_directive_amd(const rctx *c, ptrdiff_t h);
/* The platform macros of a C++ source: the names it #defines inside #if chains that test a
 * HIP/AMD macro (or a platform macro of cfg->plat, or one found earlier in the source), such
 * as CP_ASYNC_AVAILABLE under "#if !defined(GGML_USE_HIP) && __CUDA_ARCH__ >= 800". Code
 * under a test of one is split per platform already, as under a test of the AMD macro
 * itself. CUDA's own macros (__CUDA_ARCH__, CUDA_VERSION, ...) never count: a port that
 * defines them for HIP means the CUDA side to be compiled there. Names point into src. */
/* When shim is not NULL, also the names the header defines for HIP, from the same lexing, in
 * *shim and *nshim (#define, typedef, using, function definitions at file scope): those inside
 * #if chains that test a HIP/AMD or platform macro, and, in a header that includes a hip/
 * header outside other tests (a HIP shim: "#define __shfl_up_sync(m, v, d, w) __shfl_up(v,
 * d, w)", "typedef __hip_bfloat16 nv_bfloat16;"), those outside any test but include guards
 * too. Rules about CUDA names leave the tree's shim names alone (rules_shim). Names point
 * into src. */
/* Is the file at tree path p (rules_build_path) a source the tree's AMD build leaves out by
 * its build files: cfg->cuda_src, or a cfg->cuda_glob pattern no cfg->any_glob one shares? */
int rules_cuda_side_path(const rules_cfg *cfg, hp_str p);
hp_str *rules_platform_macros(arena *a, const rules_cfg *cfg, const char *src, ptrdiff_t len,
                              int *n, hp_str **shim, int *nshim);
/* The quoted #include paths of a C++ source, with, per path, 1 where the include sits in a
 * branch HIP-Clang certainly skips: judged from tests of HIP/AMD and platform macros (taken as
 * defined) and of CUDA's own macros (undefined) only, "#if defined(GGML_USE_HIP) ... #else
 * #include "vendors/cuda.h"". Paths point into the arena. Where defs is not NULL, also the
 * macros its #defines name, with *def_dead (rules_defines_sides), in *defs and *ndefs. */
hp_str *rules_include_sides(arena *a, const rules_cfg *cfg, const char *src, ptrdiff_t len,
                            int *n, uint8_t **cuda_side, hp_str **defs, uint8_t **def_dead,
                            int *ndefs);
/* Does a HIP shim of the tree define s (cfg->shim)? */
int rules_shim(const rctx *c, hp_str s);
/* The macros of CUDA as AMD sees them, for evaluating a condition: in a HIP source none of
 * CUDA's own macros is defined; in a CUDA source, as translate leaves them: CUDA_VERSION and
 * CUDART_VERSION defined (translate tests HIP_VERSION for defined()) with the value 10000 that
 * translate decides comparisons with (HIP has the CUDA 10 runtime's API: >= 9000 holds,
 * >= 11000 fails), __CUDACC__ defined (as __HIPCC__), and __CUDA_ARCH__ on the device pass
 * (device set) defined (as __HIP_DEVICE_COMPILE__) with the value 300 (>= 300 holds, what
 * translate writes; a test of a higher one fails, as HIP-Clang leaves it 0), undefined on the
 * host pass. A macro the tree's HIP shim defines is left unknown. */
void rules_amd_env(rctx *c, int device, ppenv *env);
/* After every family ran: an ARCH001 or ARCH004 warning whose branch AMD takes holds code in
 * which no other rule finds an error or warning, and that stops nothing (no trap, abort, failed
 * assertion or throw), becomes a note: that branch builds and runs on AMD. */
void rules_arch_settle(rctx *c);
/* Does the file define a function of this name (NAME(...) { after a type)? A name HIP lacks
 * that the project defines is its own helper. Remembered for a few names per file. */
int rules_file_defines_fn(rctx *c, hp_str name);
/* The macros c's #defines name, each with 1 where the #define sits in a branch AMD's device
 * and host passes both skip (judged as the dead-code rule does), 0 elsewhere. Names point
 * into c's source. */
hp_str *rules_defines_sides(rctx *c, int *n, uint8_t **dead);

/* Types as the rules need them. */
typedef enum rules_type {
    RT_UNKNOWN = 0,
    RT_INT32,  /* int, unsigned, uint32_t and narrower integers */
    RT_INT64,  /* long, long long, size_t, uint64_t, ... (LP64) */
    RT_FLOAT,
    RT_DOUBLE,
    RT_HALF,   /* __half, half, at::Half */
    RT_HALF2,
    RT_BF16,   /* __nv_bfloat16, __hip_bfloat16, at::BFloat16 */
    RT_BF162,
    RT_BOOL,
    RT_AUTO
} rules_type;

typedef struct rules_decl {
    int found;
    ptrdiff_t name;           /* the declared name */
    ptrdiff_t type_first;     /* first token of the type words */
    rules_type type;
    int ptr;                  /* pointer levels (arrays count as one) */
    int is_array;
    int is_const;
    ptrdiff_t init_first;     /* initializer tokens after '=', or -1 */
    ptrdiff_t init_last;
} rules_decl;

/* Classifies type words in tokens [first, last]; *ptr gets the '*' count. */
rules_type rules_type_of(const rctx *c, ptrdiff_t first, ptrdiff_t last, int *ptr);
/* The nearest declaration before token i of the identifier at i (same function, its
 * parameters, or the file before it). */
int rules_decl_find(const rctx *c, ptrdiff_t i, rules_decl *out);
/* Is the identifier at j itself the name of a declaration (int x = ..., T *p, f(int x))? */
int rules_decl_at(const rctx *c, ptrdiff_t j, rules_decl *out);
/* The type of an expression [first, last]: &x, x, x + n, p[i], (T *)e, casts, a few calls. */
rules_type rules_expr_type(const rctx *c, ptrdiff_t first, ptrdiff_t last, int *ptr);

/* Constant evaluation of [first, last] (literals, object-like macros, sizeof of basic types,
 * casts, + - * / % << >> & | ^ ~ ! and parentheses). Returns 1 and sets *v (and *bits: 32 or
 * 64, the width of the expression's type) when constant. */
int rules_eval(const rctx *c, ptrdiff_t first, ptrdiff_t last, long long *v, int *bits);
/* Bytes of the type named by [first, last] (basic and vector types; pointers are 8), or 0. */
int rules_sizeof_type(const rctx *c, ptrdiff_t first, ptrdiff_t last);

/* ---- reporting */
enum rules_report_flag {
    RF_WAVE64 = 1,   /* this finding only bites on wave64: note when no wave64 target */
    RF_NOWAVE = 2,   /* not wave-dependent, even if the rule's default is */
    RF_ONCE = 4,     /* once per file for this rule and message */
    RF_KEEP = 8      /* the one finding that says a project is NVIDIA-only: its severity
                        stands */
};
/* Index of a rule id in the table, or -1. */
/* Is the rule enabled for this run? */
int rules_on(const rctx *c, const char *id);
/* Reports a finding at token i. sev 0 takes the rule's default; the wave64 rule (or flag)
 * lowers it to a note when no target runs wave64. msg and fix must live as long as the file's
 * results (static strings or c->a). fix NULL takes the rule's fix. */
void rules_report(rctx *c, const char *id, ptrdiff_t i, hp_severity sev, unsigned flags,
                  const char *msg, const char *fix);
/* The same at a byte range (offset, length). */
void rules_report_at(rctx *c, const char *id, ptrdiff_t off, ptrdiff_t n, hp_severity sev,
                     unsigned flags, const char *msg, const char *fix);
/* arena_printf into the file's arena. */
const char *rules_fmt(rctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- the engine */
/* Checks one buffer: findings (sorted, suppressions applied) go to *out. lang is an RL_* bit,
 * or 0 to go by the path (a path no language claims then gives no findings). */
hp_status rules_check(arena *a, const rules_cfg *cfg, const char *path, unsigned lang,
                      const char *src, ptrdiff_t len, hp_check_result *out);
/* The language that claims a path (RL_*), or 0. */
unsigned rules_lang_of(const char *path, const hp_run_opts *r);
/* A walk_opts.skip_dir: whether a tree directory (its path relative to the tree's root) is
 * another vendor's backend by its last name (ggml-sycl, backends/_ascend, xpu): why it is
 * not entered, or NULL. */
const char *rules_other_vendor_dir(void *ud, const char *rel);
/* The vendor-split keys of a path: for each component of it (a directory or the file's name)
 * that holds a word of one side's vendor (RS_NVIDIA: nvidia, cuda, nv, nvshmem; RS_AMD: amd,
 * hip, rocm, rocshmem; whole words between '/', '_', '-' and '.', any case), the path up to it
 * and the component with that word as '*', lowercase (and a file's last extension dropped when
 * the word is not in it): backends/nvidia and backends/amd, nv_utils.py and amd_utils.py,
 * Dockerfile.cuda and Dockerfile.rocm, cuda.h and hip.h give one key. Up to max keys into out,
 * and the components they come from into comp (when not NULL); returns how many. */
enum { RS_NVIDIA = 1, RS_AMD = 2 };
int rules_split_keys(arena *a, const char *path, int side, hp_str *out, hp_str *comp, int max);

/* Families and languages (declared from rules_list.h). */
#define RULES_FAMILY(name, langs) void rules_##name##_run(rctx *c);
#define RULES_LANG(bit, name, claims, lexfn, prepare)
#define RULES_NAMES(name)
#include "rules_list.h"
#undef RULES_FAMILY
#undef RULES_LANG
#undef RULES_NAMES

/* The C++ language hooks (rules.c). */
int rules_cpp_claims(const char *path, const hp_run_opts *r);
void rules_cpp_prepare(rctx *c);
/* The Python and build-file language hooks (rules_py.c). */
int rules_python_claims(const char *path, const hp_run_opts *r);
void rules_python_lex(arena *a, const char *src, ptrdiff_t len, lex_out *out);
void rules_python_prepare(rctx *c);
int rules_build_claims(const char *path, const hp_run_opts *r);
void rules_build_lex(arena *a, const char *src, ptrdiff_t len, lex_out *out);

/* The plain-name rules of a file (data/tables/rule_names.tsv), and the hipport-ignore
 * comments that silence findings; the driver (check.c) calls them once per file. */
void rules_names_scan(rctx *c);
/* Does the file call, outside HIP/AMD tests, a name of a "call" row of rule whose severity is
 * not a note? */
int rules_names_calls(rctx *c, const char *rule);
void rules_apply_ignores(rctx *c, int *suppressed);

#endif
