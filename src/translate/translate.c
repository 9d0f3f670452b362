/* translate.c: the driver of the CUDA-to-HIP translation of one buffer. Identifiers are
 * renamed through the generated tables, includes through the header rows, and structural
 * rewrites (launches, symbols, guards) are edits against the original bytes, applied in one
 * pass so that untouched bytes are copied verbatim. The plug-ins it calls (launch.c,
 * xlate_args.c, xlate_warp.c, xlate_asm.c, pytorch.c, annotate.c) use only xlate.c's helpers. */
#include "translate.h"

#include "xlate.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "bytes.h"
#include "ctx.h"
#include "ppeval.h"
#include "pytorch.h"
#include "str.h"

#include "members_tab.h"

#include "banned.h"

static void note_unsupported(xlate *x, ptrdiff_t i)
{
    if (x->nunsup == x->capunsup) {
        int ncap = x->capunsup ? x->capunsup * 2 : 16;
        x->unsup = arena_grow(x->a, x->unsup, (ptrdiff_t)x->capunsup * (ptrdiff_t)sizeof(hp_str),
                              (ptrdiff_t)ncap * (ptrdiff_t)sizeof(hp_str), _Alignof(hp_str));
        x->capunsup = ncap;
    }
    x->unsup[x->nunsup++] = xlate_text(x, i);
    x->st.unsupported++;
}

/* A finding's message or fix, printed into the arena; "" where the caller only counts the
 * findings (hp_translate_opts.count_only), which need not be formatted at all. */
static const char *ver(xlate *x, int v)
{
    if (x->d.bare)
        return ""; /* only in messages */
    return arena_printf(x->a, "%d.%d", v / 100, v % 100);
}

static void finding(xlate *x, ptrdiff_t i, const char *rule, hp_severity sev, const char *msg,
                    const char *fix)
{
    diag_add(&x->d, x->t[i].off, x->t[i].len, rule, sev, msg, fix);
}

/* Counts a converted reference of row r (written as `to`), and records it when asked. */
static void converted(xlate *x, const map_row *r, hp_str to)
{
    x->st.refs[r->family]++;
    x->st.converted++;
    if (!x->o->record_names)
        return;
    if (x->nconv == x->capconv) {
        int ncap = x->capconv ? x->capconv * 2 : 32;
        x->conv = arena_grow(x->a, x->conv, (ptrdiff_t)x->capconv * (ptrdiff_t)sizeof(hp_conv),
                             (ptrdiff_t)ncap * (ptrdiff_t)sizeof(hp_conv), _Alignof(hp_conv));
        x->capconv = ncap;
    }
    hp_conv *c = &x->conv[x->nconv++];
    c->cuda = map_cuda(r);
    c->hip = to;
    c->family = r->family;
}

/* ------------------------------------------------------------------ identifiers */

static int is_member(const xlate *x, ptrdiff_t i)
{
    ptrdiff_t p = xlate_prev(x, i);
    if (p < 0 || x->t[p].kind != TK_PUNCT)
        return 0;
    unsigned c = x->t[p].sub;
    return c == '.' || c == P_ARROW || c == P_DOTSTAR || c == P_ARROWSTAR;
}

/* The directive token ('#') of the directive containing token i, or -1. */
static ptrdiff_t directive_of(const xlate *x, ptrdiff_t i)
{
    if (!(x->t[i].flags & TF_PP))
        return -1;
    for (; i >= 0; i--)
        if (x->t[i].kind == TK_PP_HASH)
            return i;
    return -1;
}

/* Is the macro name at i tested for being defined (#ifdef X, defined(X), defined X)? */
static int defined_context(const xlate *x, ptrdiff_t i)
{
    ptrdiff_t h = directive_of(x, i);
    if (h < 0)
        return 0;
    ptrdiff_t p = xlate_prev(x, i);
    if (p >= 0 && xlate_is(x, p, "defined"))
        return 1;
    if (p >= 0 && xlate_punct(x, p, '(')) {
        ptrdiff_t pp = xlate_prev(x, p);
        if (pp >= 0 && xlate_is(x, pp, "defined"))
            return 1;
    }
    unsigned code = x->t[h].sub;
    ptrdiff_t name = xlate_next(x, h);
    if (xlate_next(x, name) != i)
        return 0;
    if (code == PP_IFDEF || code == PP_IFNDEF)
        return 1;
    if (code == PP_ELIF && x->t[name].len > 4)
        return 1; /* #elifdef, #elifndef */
    return 0;
}

/* Names the file defines itself (guard and version macros it #defines, device functions and
 * variables it declares): it owns them, so their uses in this file are left alone. */
static void own_add(xlate *x, hp_str name)
{
    if (x->nown % 8 == 0)
        x->own_names = arena_grow(x->a, x->own_names, (ptrdiff_t)x->nown * (ptrdiff_t)sizeof(hp_str),
                                  (ptrdiff_t)(x->nown + 8) * (ptrdiff_t)sizeof(hp_str),
                                  _Alignof(hp_str));
    x->own_names[x->nown++] = name;
}

static int is_own(const xlate *x, hp_str name)
{
    for (int k = 0; k < x->nown; k++)
        if (str_eq(x->own_names[k], name))
            return 1;
    return 0;
}

/* Collects the guard and version macros that the file defines itself; not the compiler's
 * (__CUDACC__), which a file defines to make headers and its own tests take the compiler's
 * branches: that file defines and tests HIP's (guard_macro). */
static void find_own_macros(xlate *x)
{
    for (ptrdiff_t d = 0; d < x->ndirs; d++) {
        ptrdiff_t h = x->dirs[d];
        if (x->t[h].sub != PP_DEFINE)
            continue;
        ptrdiff_t n = xlate_next(x, xlate_next(x, h));
        if (n >= x->nt || x->t[n].kind != TK_IDENT)
            continue;
        hp_str name = xlate_text(x, n);
        const map_row *r = map_find(name.s, name.len);
        if (!r || !(r->flags & MAP_F(guard)) || (r->flags & MAP_F(compiler)))
            continue;
        own_add(x, name);
    }
}

/* Is the name at i declared here, as a function, variable or parameter of the file's own
 * (unsigned umin(unsigned a, unsigned b), int min = 0)? A type name or qualifier before it,
 * which no use of a name has, says so. */
static int own_declaration(const xlate *x, ptrdiff_t i)
{
    ptrdiff_t p = xlate_prev(x, i), n = xlate_next(x, i);
    if (p < 0 || x->t[p].kind != TK_IDENT || n >= x->nt || x->t[n].kind != TK_PUNCT)
        return 0;
    static const char *const not_types[] = {"return", "case", "else", "do", "throw", "sizeof",
                                            "new", "delete", "co_return", "co_yield",
                                            "typename", "using", "goto", "namespace"};
    for (size_t k = 0; k < sizeof not_types / sizeof *not_types; k++)
        if (xlate_is(x, p, not_types[k]))
            return 0;
    unsigned c = x->t[n].sub;
    return c == '(' || c == '=' || c == ';' || c == '[' || c == ',' || c == ')' || c == '{';
}

/* Can the operator or bracket around a comparison end it (#if, (, &&, ||, ?, :, ;, ...)? */
static int ends_comparison(const xlate *x, ptrdiff_t t)
{
    if (t < 0 || t >= x->nt || x->t[t].kind == TK_PP_END || x->t[t].kind == TK_EOF)
        return 1;
    if (x->t[t].kind == TK_IDENT)
        return xlate_is(x, t, "if") || xlate_is(x, t, "elif") || xlate_is(x, t, "return");
    if (x->t[t].kind != TK_PUNCT)
        return 0;
    unsigned c = x->t[t].sub;
    return c == '(' || c == ')' || c == P_ANDAND || c == P_OROR || c == '?' || c == ':' ||
           c == ';' || c == ',' || c == '=' || c == '!' || c == '{' || c == '}';
}

/* The policy for a comparison with CUDA's version or architecture that every HIP target
 * decides alike: HIP gives at least the CUDA 10 runtime's API (CUDART_VERSION and
 * CUDA_VERSION >= N for N up to 10000 are true, < N false), and AMD GPUs have what sm_30
 * added to the device side (__CUDA_ARCH__ >= N for N up to 300 holds in device code: it is
 * __HIP_DEVICE_COMPILE__). "NAME OP NUMBER", alone between operators that end it, is rewritten;
 * 0 when the comparison is not such a one. */
static int decided_comparison(xlate *x, ptrdiff_t i)
{
    hp_str name = xlate_text(x, i);
    int arch = str_eqc(name, "__CUDA_ARCH__");
    if (!arch && !str_eqc(name, "CUDART_VERSION") && !str_eqc(name, "CUDA_VERSION"))
        return 0;
    ptrdiff_t op = xlate_next(x, i), num = xlate_next(x, op), after = xlate_next(x, num);
    if (op >= x->nt || x->t[op].kind != TK_PUNCT || num >= x->nt || x->t[num].kind != TK_NUMBER ||
        !ends_comparison(x, xlate_prev(x, i)) || !ends_comparison(x, after))
        return 0;
    hp_str d = xlate_text(x, num);
    long long n = 0;
    for (ptrdiff_t k = 0; k < d.len; k++) {
        if (d.s[k] < '0' || d.s[k] > '9' || n > 1000000)
            return 0; /* hexadecimal, suffixes: not a version as projects write them */
        n = n * 10 + (d.s[k] - '0');
    }
    long long floor = arch ? 300 : 10000;
    unsigned c = x->t[op].sub;
    int holds;
    if ((c == P_GE && n <= floor) || (c == '>' && n < floor))
        holds = 1;
    else if ((c == '<' && n <= floor) || (c == P_LE && n < floor))
        holds = 0;
    else
        return 0;
    const char *to = arch ? (holds ? "__HIP_DEVICE_COMPILE__" : "!__HIP_DEVICE_COMPILE__")
                          : (holds ? "1" : "0");
    xlate_edit(x, x->t[i].off, x->t[num].off + x->t[num].len - x->t[i].off, str_cstr(to));
    x->st.converted++;
    finding(x, i, "HP-CUDA-MACRO", HP_SEV_NOTE,
            arch ? xlate_msg(x, "'%.*s' compared with %lld: every AMD GPU has what it asks for, "
                                "so it is %s in device code",
                             (int)name.len, name.s, n, holds ? "true" : "false")
                 : xlate_msg(x, "'%.*s' compared with %lld: HIP has at least the CUDA 10 "
                                "runtime's API, so it is %s",
                             (int)name.len, name.s, n, holds ? "true" : "false"),
            NULL);
    return 1;
}

static void guard_macro(xlate *x, ptrdiff_t i, const map_row *r)
{
    hp_str name = xlate_text(x, i);
    if (is_own(x, name))
        return;
    if (decided_comparison(x, i))
        return;
    ptrdiff_t h = directive_of(x, i);
    int defines = h >= 0 && (x->t[h].sub == PP_DEFINE || x->t[h].sub == PP_UNDEF) &&
                  xlate_next(x, xlate_next(x, h)) == i;
    if (r->hip_len && (defined_context(x, i) || (defines && (r->flags & MAP_F(compiler))))) {
        /* a HIP older than `since` spells its guard as `legacy` */
        hp_str to = r->since && x->hipv < r->since && r->legacy_len ? map_legacy(r) : map_hip(r);
        xlate_edit(x, x->t[i].off, x->t[i].len, to);
        converted(x, r, to);
        if (str_starts(to, S("HIPPORT_")))
            /* a name of hipport's own, which no HIP defines: the test is false on both of
             * HIP's platforms (under the NVIDIA one, CUDA's header is there and defines the
             * CUDA name) */
            finding(x, i, "HP-CUDA-MACRO", HP_SEV_WARNING,
                    xlate_msg(x,
                              "'%.*s' is not defined by HIP: this test becomes %.*s, which no HIP "
                              "defines, on HIP's AMD and NVIDIA platforms alike",
                              (int)name.len, name.s, (int)to.len, to.s),
                    "define it to take this branch");
        return;
    }
    const char *msg =
        x->t[i].flags & TF_PP
            ? xlate_msg(x,
                        "'%.*s' is not defined by HIP: this test no longer sees CUDA's value",
                        (int)name.len, name.s)
            : xlate_msg(x, "'%.*s' is not defined by HIP", (int)name.len, name.s);
    const char *fix = r->hip_len
                          ? xlate_msg(x, "test defined(%.*s), or the HIP version macros",
                                      (int)r->hip_len, map_hip(r).s)
                          : "add a HIP branch, e.g. #if defined(__HIP_PLATFORM_AMD__)";
    finding(x, i, "HP-CUDA-MACRO", HP_SEV_WARNING, msg, fix);
}

/* Which argument is the symbol: cudaMemcpyToSymbol(symbol, src, ...) but
 * cudaMemcpyFromSymbol(dst, symbol, ...), cudaGetSymbolAddress(&ptr, symbol), ...; the graph
 * functions' after the node arguments. */
static int symbol_arg_index(hp_str name)
{
    static const struct {
        const char *name;
        int arg;
    } graph[] = {
        {"cudaGraphAddMemcpyNodeToSymbol", 4},
        {"cudaGraphAddMemcpyNodeFromSymbol", 5},
        {"cudaGraphMemcpyNodeSetParamsToSymbol", 1},
        {"cudaGraphMemcpyNodeSetParamsFromSymbol", 2},
        {"cudaGraphExecMemcpyNodeSetParamsToSymbol", 2},
        {"cudaGraphExecMemcpyNodeSetParamsFromSymbol", 3},
    };
    for (size_t k = 0; k < sizeof graph / sizeof *graph; k++)
        if (str_eqc(name, graph[k].name))
            return graph[k].arg;
    return str_starts(name, S("cudaMemcpyToSymbol")) ? 0 : 1;
}

static void wrap_symbol(xlate *x, ptrdiff_t i)
{
    ptrdiff_t open = xlate_next(x, i);
    if (!xlate_punct(x, open, '('))
        return;
    lex_args a;
    int argi = symbol_arg_index(xlate_text(x, i));
    if (!xlate_args(x, open, &a) || a.n <= argi)
        return;
    ptrdiff_t f = a.first[argi], l = a.last[argi];
    if (l >= f && x->t[f].kind == TK_STRING) {
        /* compiles (a string's address is a const void *), and fails at run time */
        hp_str name = xlate_text(x, i);
        finding(x, f, "HP-UNSUPPORTED", HP_SEV_WARNING,
                xlate_msg(x,
                          "'%.*s' names its symbol by a string, which CUDA 5.0 removed and HIP "
                          "never took: the call fails at run time",
                          (int)name.len, name.s),
                "pass the __device__ variable itself");
        return;
    }
    if (l < f || xlate_is(x, f, "HIP_SYMBOL"))
        return;
    xlate_insert(x, x->t[f].off, "HIP_SYMBOL(");
    xlate_insert(x, x->t[l].off + x->t[l].len, ")");
}

/* hipBLAS 3.0 (HIP 7.0) removed its _v2 names and gave their signatures to the plain ones:
 * hipblasGemmEx_v2 is hipblasGemmEx there, hipblasCaxpy_v2_64 hipblasCaxpy_64. */
static hp_str strip_v2(xlate *x, hp_str name)
{
    for (ptrdiff_t k = 0; k + 3 <= name.len; k++) {
        if (memcmp(name.s + k, "_v2", 3) == 0 && (k + 3 == name.len || name.s[k + 3] == '_')) {
            char *s = arena_printf(x->a, "%.*s%.*s", (int)k, name.s, (int)(name.len - k - 3),
                                   name.s + k + 3);
            return s ? (hp_str){s, name.len - 3} : name;
        }
    }
    return name;
}

/* CUDA's struct types whose objects HIP code names only through a pointer typedef: on HIP's
 * NVIDIA platform hipArray is no type, hipArray_t is. */
static const struct {
    const char *cuda, *ptr, *const_ptr;
} struct_ptrs[] = {
    {"cudaArray", "hipArray_t", "hipArray_const_t"},
    {"cudaMipmappedArray", "hipMipmappedArray_t", "hipMipmappedArray_const_t"},
};

/* The later declarators of "cudaArray *a, *b;", from the first one's name at d on: the type
 * became the pointer typedef (hipArray_t a), so each '*' that begins one is dropped (hipArray_t
 * a, b), as the first one's was; a declarator without one (an object of the struct) is left. */
static void pointer_declarators(xlate *x, ptrdiff_t d)
{
    int depth = 0;
    for (int steps = 0; steps < 4096 && (d = xlate_next(x, d)) < x->nt; steps++) {
        if (x->t[d].kind != TK_PUNCT || (x->t[d].flags & TF_PP))
            continue;
        unsigned c = x->t[d].sub;
        if (c == '(' || c == '[' || c == '{') {
            depth++;
        } else if (c == ')' || c == ']' || c == '}') {
            if (depth-- == 0)
                return;
        } else if (depth == 0 && c == ';') {
            return;
        } else if (depth == 0 && c == ',') {
            ptrdiff_t st = xlate_next(x, d);
            if (xlate_punct(x, st, '*'))
                xlate_edit(x, x->t[st].off, 1, S(""));
        }
    }
}

/* A CUDA type name renamed at i, with what comes before and after it: "struct cudaFuncAttributes"
 * loses its keyword (HIP's types are typedefs, which "struct" cannot name on HIP's NVIDIA
 * platform; C takes them without it too), and "const cudaArray *" becomes hipArray_const_t.
 * 1 if the edit was made here. */
static int type_use(xlate *x, ptrdiff_t i, const map_row *r, hp_str to)
{
    ptrdiff_t from = x->t[i].off, p = xlate_prev(x, i), n = xlate_next(x, i);
    int tagged = p >= 0 && (xlate_is(x, p, "struct") || xlate_is(x, p, "enum") ||
                            xlate_is(x, p, "union"));
    if (tagged) {
        /* a definition or a forward declaration of the CUDA name keeps its keyword */
        if (xlate_punct(x, n, '{') || xlate_punct(x, n, ';') || xlate_punct(x, n, ':'))
            return 0;
        from = x->t[p].off;
        p = xlate_prev(x, p);
    }
    hp_str cuda = map_cuda(r);
    for (size_t k = 0; k < sizeof struct_ptrs / sizeof *struct_ptrs; k++) {
        if (!str_eqc(cuda, struct_ptrs[k].cuda) || !xlate_punct(x, n, '*'))
            continue;
        int is_const = p >= 0 && xlate_is(x, p, "const");
        if (is_const)
            from = x->t[p].off;
        const char *t = is_const ? struct_ptrs[k].const_ptr : struct_ptrs[k].ptr;
        ptrdiff_t end = x->t[n].off + 1;
        char c = end < x->len ? x->src[end] : ' ';
        int named = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_';
        if (named)
            t = arena_printf(x->a, "%s ", t); /* cudaArray *a: hipArray_t a */
        xlate_edit(x, from, end - from, str_cstr(t));
        converted(x, r, str_cstr(t));
        ptrdiff_t d = xlate_next(x, n);
        if (named && d < x->nt && x->t[d].kind == TK_IDENT)
            pointer_declarators(x, d);
        return 1;
    }
    if (!tagged)
        return 0;
    xlate_edit(x, from, x->t[i].off + x->t[i].len - from, to);
    converted(x, r, to);
    return 1;
}

/* ------------------------------------------------------------------ merged types */

/* A function declared with CUDA types among its parameters: the parameters' tokens as written
 * and as HIP names them (names of the parameters and default values left out). */

/* The #if branches around offset off: per conditional depth, the directive that opened the
 * conditional and the one that started the branch (indices into dirs, plus one). */
typedef struct branches {
    unsigned *group, *branch;
    int depth;
} branches;

/* The conditional branches around offset off. The declarations come in the order of the
 * file: the state after the directives already passed is kept (xlate.br_*) and carried on,
 * and is computed again from the start only for an earlier offset. */
static branches branches_at(xlate *x, ptrdiff_t off)
{
    if (off < x->br_off) {
        x->br_d = 0;
        x->br_depth = 0;
    }
    x->br_off = off;
    unsigned *group = x->br_group, *branch = x->br_branch;
    int depth = x->br_depth;
    ptrdiff_t d = x->br_d;
    for (; d < x->ndirs && x->t[x->dirs[d]].off < off; d++) {
        unsigned c = x->t[x->dirs[d]].sub;
        if (c == PP_IF || c == PP_IFDEF || c == PP_IFNDEF) {
            if (depth < 64)
                group[depth] = branch[depth] = (unsigned)d + 1;
            depth++;
        } else if ((c == PP_ELIF || c == PP_ELSE) && depth > 0 && depth <= 64) {
            branch[depth - 1] = (unsigned)d + 1;
        } else if (c == PP_ENDIF && depth > 0) {
            depth--;
        }
    }
    x->br_d = d;
    x->br_depth = depth;
    branches b = {NULL, NULL, depth < 64 ? depth : 64};
    b.group = NEW(x->a, unsigned, b.depth + 1);
    b.branch = NEW(x->a, unsigned, b.depth + 1);
    memcpy(b.group, group, sizeof *group * (size_t)b.depth);
    memcpy(b.branch, branch, sizeof *branch * (size_t)b.depth);
    return b;
}

typedef struct overload {
    hp_str name;
    hp_str *cuda, *hip;
    int n;
    ptrdiff_t at;  /* the name's token */
    int reported;
    branches br;   /* the conditional branches it lies in */
    int32_t next;  /* the previous overload of the same hash slot, or -1 */
} overload;

/* Is the place in the branch of an '#ifdef __cuda_cuda_h__', which translation makes a test no
 * HIP passes (HIPPORT_CUDA_H)? */
static int under_cuda_guard(const xlate *x, const branches *b)
{
    for (int k = 0; k < b->depth; k++)
        if (b->branch[k] == b->group[k] &&
            warp_env_tests_cuda_guard(x, x->dirs[b->group[k] - 1]))
            return 1;
    return 0;
}

/* Are two places in different branches of one conditional, so never compiled together? Two
 * conditionals of their own (#ifdef A ... #endif #ifdef B ... #endif) may both hold. */
static int exclusive(const branches *a, const branches *b)
{
    for (int k = 0; k < a->depth && k < b->depth && a->group[k] == b->group[k]; k++)
        if (a->branch[k] != b->branch[k])
            return 1;
    return 0;
}

/* HIP gives several CUDA types one name (cudaError_t and CUresult are both hipError_t):
 * overloads that differ only in such types become one function defined twice. Called for a
 * CUDA type renamed at i; looks at the parameter list around it once. */
static void merged_types(xlate *x, ptrdiff_t i)
{
    int depth = 0;
    ptrdiff_t open = -1;
    for (ptrdiff_t k = xlate_prev(x, i); k >= 0 && k > i - 256; k = xlate_prev(x, k)) {
        const tok *t = &x->t[k];
        if (t->kind == TK_PP_HASH || t->kind == TK_PP_END)
            return;
        if (t->kind != TK_PUNCT)
            continue;
        unsigned c = t->sub;
        if (c == ';' || c == '{' || c == '}')
            return;
        if (c == ')')
            depth++;
        else if (c == '(' && depth-- == 0) {
            open = k;
            break;
        }
    }
    if (open < 0 || open == x->ovl_open)
        return;
    x->ovl_open = open;
    ptrdiff_t name = xlate_prev(x, open), before = xlate_prev(x, name);
    if (name < 0 || x->t[name].kind != TK_IDENT || before < 0)
        return;
    /* a declaration: a return type (a name, '*', '&', '>') before the function's name */
    if (x->t[before].kind == TK_IDENT) {
        static const char *const not_types[] = {"return", "else", "do", "case", "new",
                                                "delete", "throw", "sizeof", "co_return"};
        for (size_t k = 0; k < sizeof not_types / sizeof *not_types; k++)
            if (xlate_is(x, before, not_types[k]))
                return;
    } else if (!xlate_punct(x, before, '*') && !xlate_punct(x, before, '&') &&
               !xlate_punct(x, before, '>')) {
        return;
    }
    lex_args a;
    if (!xlate_args(x, open, &a))
        return;
    hp_str *cu = NEW(x->a, hp_str, 64), *hi = NEW(x->a, hp_str, 64);
    int n = 0;
    for (int p = 0; p < a.n; p++) {
        ptrdiff_t end = a.last[p];
        for (ptrdiff_t k = a.first[p]; k <= a.last[p]; k = xlate_next(x, k))
            if (xlate_punct(x, k, '=')) {
                end = xlate_prev(x, k);
                break;
            }
        /* the parameter's name, where it has one after its type */
        if (end > a.first[p] && x->t[end].kind == TK_IDENT &&
            !xlate_punct(x, xlate_prev(x, end), P_SCOPE) && !map_find(x->src + x->t[end].off,
                                                                       x->t[end].len))
            end = xlate_prev(x, end);
        for (ptrdiff_t k = a.first[p]; k <= end && n < 63; k = xlate_next(x, k)) {
            hp_str t = xlate_text(x, k);
            const map_row *r = x->t[k].kind == TK_IDENT ? map_find(t.s, t.len) : NULL;
            cu[n] = t;
            hi[n] = r && (r->kind == MAP_K_type || r->kind == MAP_K_enum) && r->hip_len
                        ? map_hip(r)
                        : t;
            n++;
        }
        cu[n] = hi[n] = S(",");
        n++;
    }
    hp_str fname = xlate_text(x, name);
    branches br = branches_at(x, x->t[name].off);
    if (under_cuda_guard(x, &br))
        return; /* never compiled under HIP: it repeats nothing */
    unsigned slot = x->ovl_cap ? str_hash(fname.s, fname.len, 0) & (unsigned)(x->ovl_cap - 1) : 0;
    for (int32_t o = x->ovl_cap ? x->ovl_head[slot] : -1; o >= 0; o = x->ovl[o].next) {
        overload *v = &x->ovl[o];
        /* in other branches of one conditional, the two are never compiled together */
        if (v->reported || v->n != n || !str_eq(v->name, fname) || exclusive(&v->br, &br))
            continue;
        int same_hip = 1, diff = -1;
        for (int k = 0; k < n && same_hip; k++) {
            if (!str_eq(v->hip[k], hi[k]))
                same_hip = 0;
            else if (diff < 0 && !str_eq(v->cuda[k], cu[k]))
                diff = k;
        }
        if (!same_hip || diff < 0)
            continue;
        v->reported = 1;
        int line = 0, col = 0;
        diag_linecol(&x->d, x->t[v->at].off, &line, &col);
        finding(x, name, "HP-UNSUPPORTED", HP_SEV_WARNING,
                xlate_msg(x,
                          "this overload of '%.*s' differs from the one on line %d only in "
                          "'%.*s' and '%.*s', which HIP both names '%.*s': it becomes a "
                          "redefinition",
                          (int)fname.len, fname.s, line,
                          (int)v->cuda[diff].len, v->cuda[diff].s, (int)cu[diff].len,
                          cu[diff].s, (int)hi[diff].len, hi[diff].s),
                "keep one overload, or tell them apart by another parameter");
        return;
    }
    if (x->novl >= 8 && (x->novl & (x->novl - 1)) == 0) /* 8, 16, 32, ...: doubled */
        x->ovl = arena_grow(x->a, x->ovl, (ptrdiff_t)x->novl * (ptrdiff_t)sizeof(overload),
                            (ptrdiff_t)x->novl * 2 * (ptrdiff_t)sizeof(overload),
                            _Alignof(overload));
    else if (x->novl == 0)
        x->ovl = NEW(x->a, overload, 8);
    if (2 * (x->novl + 1) > x->ovl_cap) {
        /* the hash of the overloads' names, twice as large, filled again */
        ptrdiff_t cap = x->ovl_cap ? 2 * x->ovl_cap : 64;
        x->ovl_head = NEW(x->a, int32_t, cap);
        x->ovl_cap = cap;
        for (ptrdiff_t k = 0; k < cap; k++)
            x->ovl_head[k] = -1;
        for (int o = 0; o < x->novl; o++) {
            unsigned sl = str_hash(x->ovl[o].name.s, x->ovl[o].name.len, 0) & (unsigned)(cap - 1);
            x->ovl[o].next = x->ovl_head[sl];
            x->ovl_head[sl] = o;
        }
        slot = str_hash(fname.s, fname.len, 0) & (unsigned)(cap - 1);
    }
    x->ovl[x->novl] = (overload){fname, cu, hi, n, name, 0, br, x->ovl_head[slot]};
    x->ovl_head[slot] = x->novl++;
}

/* The complex types cuComplex's types become with --roc (xlate.roc_complex). */
enum { ROC_CPLX_HIP, ROC_CPLX_BLAS, ROC_CPLX_SPARSE };

/* Whether r becomes its ROCm library name: --roc (hp_translate_opts.roc), or --miopen for the
 * cuDNN rows; with hip_data_types the data types (hipDataType, HIP_R_*, HIP_C_*) stay HIP's;
 * cuComplex's types where the file includes no ROCm library with complex types of its own. */
static int use_roc_name(const xlate *x, const map_row *r)
{
    if (!r->roc_len)
        return 0;
    if (r->family == x->complex_family && x->roc_complex == ROC_CPLX_HIP)
        return 0;
    if (x->o->hip_data_types) {
        hp_str h = map_hip(r);
        if (str_eqc(h, "hipDataType") || str_starts(h, S("HIP_R_")) || str_starts(h, S("HIP_C_")))
            return 0;
    }
    return x->o->roc || (x->o->miopen && r->family == map_family_index("cudnn"));
}

/* cuComplex's names under --roc in a file whose complex values are a ROCm library's
 * (roc_complex_lib): a type becomes rocSPARSE's where that is the library (the table names
 * rocBLAS's, as hipify-clang does); a function keeps its HIP name, which works on HIP's
 * complex types only, and is reported. */
static hp_str roc_complex(xlate *x, ptrdiff_t i, const map_row *r, hp_str to, int use_roc)
{
    int sparse = x->roc_complex == ROC_CPLX_SPARSE;
    const char *lib = sparse ? "rocsparse" : "rocblas";
    if (use_roc) {
        if (sparse && str_starts(to, S("rocblas_")))
            return str_cstr(arena_printf(x->a, "rocsparse_%.*s", (int)(to.len - 8), to.s + 8));
        return to;
    }
    if (r->kind == MAP_K_func)
        finding(x, i, "HP-ARGS", HP_SEV_WARNING,
                xlate_msg(x,
                          "'%.*s' is a function of HIP's complex types (hipFloatComplex, "
                          "hipDoubleComplex); with --roc this file's cuComplex types are %s's "
                          "(%s_float_complex, %s_double_complex)",
                          (int)to.len, to.s, sparse ? "rocSPARSE" : "rocBLAS", lib, lib),
                xlate_msg(x,
                          "use %s_float_complex(re, im), the operators and std::real, "
                          "std::imag, std::conj, std::abs",
                          lib));
    return to;
}

static ptrdiff_t include_operand(const xlate *x, ptrdiff_t h);
static hp_str include_path(const xlate *x, ptrdiff_t d);
static int mentions(const xlate *x, const char *name);

/* Whether the file is Caffe2's, whose names (flag caffe2) are common words: it includes a
 * header under caffe2/ or names the namespace caffe2. Found on the first such name. */
static int caffe2_file(xlate *x)
{
    if (x->caffe2)
        return x->caffe2 > 0;
    x->caffe2 = mentions(x, "caffe2") ? 1 : -1;
    for (ptrdiff_t d = 0; d < x->ndirs && x->caffe2 < 0; d++)
        if (str_starts(include_path(x, d), S("caffe2/")))
            x->caffe2 = 1;
    return x->caffe2 > 0;
}

/* Whether cuBLAS's function `name` is one of those cublas_v2.h calls with a handle, as
 * name_v2: in the legacy API (cublas.h) the same name takes no handle, and hipBLAS's does. */
static int cublas_handle_api(xlate *x, hp_str name)
{
    const char *v2 = arena_printf(x->a, "%.*s_v2", (int)name.len, name.s);
    return map_find(v2, name.len + 3) != NULL;
}

/* A typedef of the program's own that declares a CUDA type, "typedef struct CUctx_st
 * *CUcontext;", "typedef unsigned long long CUdeviceptr;": a copy of CUDA's declarations (a
 * shim that loads the driver library at run time has one). Renamed, the line declares HIP's
 * name, which HIP's headers declare as their own type (a redefinition, where the compiler
 * includes them) or, for a handle, as a pointer to HIP's internal struct (which only they
 * declare): reported on the line, at the declared name i. */
static void own_cuda_typedef(xlate *x, ptrdiff_t i, hp_str cuda, hp_str to)
{
    ptrdiff_t n = xlate_next(x, i);
    if (!xlate_punct(x, n, ';') && !xlate_punct(x, n, ','))
        return;
    /* back to the statement's typedef, over brackets (typedef struct { ... } CUuuid;) */
    ptrdiff_t q = i;
    int depth = 0, found = 0;
    for (int steps = 0; steps < 4096 && !found; steps++) {
        q = xlate_prev(x, q);
        if (q < 0 || (x->t[q].flags & TF_PP))
            return;
        if (x->t[q].kind == TK_PUNCT) {
            unsigned c = x->t[q].sub;
            if (c == ')' || c == ']' || c == '}')
                depth++;
            else if ((c == '(' || c == '[' || c == '{') && depth > 0)
                depth--;
            else if (depth == 0 && (c == ';' || c == '{' || c == '(' || c == '['))
                return;
        } else if (depth == 0 && xlate_is(x, q, "typedef")) {
            found = 1;
        }
    }
    if (!found)
        return;
    finding(x, i, "HP-UNSUPPORTED", HP_SEV_WARNING,
            xlate_msg(x,
                      "the program declares CUDA's type '%.*s' itself: translated, this "
                      "typedef declares HIP's '%.*s', which HIP's own headers declare "
                      "(a conflict where they are included, HIP's internal types named "
                      "where they are not)",
                      (int)cuda.len, cuda.s, (int)to.len, to.s),
            "include <hip/hip_runtime.h> in place of the program's copy of CUDA's "
            "declarations (a shim loading the CUDA driver at run time has no HIP "
            "counterpart: call HIP's API)");
}

static void rename_ident(xlate *x, ptrdiff_t i, const map_row *r)
{
    hp_str cuda = map_cuda(r);
    if (r->flags & MAP_F(guard)) {
        guard_macro(x, i, r);
        return;
    }
    if ((r->flags & MAP_F(pytorch)) && !x->o->pytorch)
        return;
    if ((r->flags & MAP_F(caffe2)) && !caffe2_file(x))
        return;
    /* a device function or variable of the file's own under a CUDA name (its own umin), and
     * any name HIP lacks that the file declares itself: neither renamed nor reported */
    if ((r->kind == MAP_K_func || r->kind == MAP_K_var) &&
        (r->family == x->device_family || !r->hip_len)) {
        if (is_own(x, cuda))
            return;
        if (own_declaration(x, i)) {
            own_add(x, cuda);
            return;
        }
    }
    if (x->cublas_legacy && r->family == x->cublas_family && r->kind == MAP_K_func &&
        cublas_handle_api(x, cuda)) {
        note_unsupported(x, i);
        finding(x, i, "HP-UNSUPPORTED", HP_SEV_WARNING,
                xlate_msg(x,
                          "'%.*s' of cuBLAS's legacy API (cublas.h) takes no handle; "
                          "hipBLAS has only the handle API of cublas_v2.h",
                          (int)cuda.len, cuda.s),
                "include cublas_v2.h, create a handle and pass it (and the scalars by "
                "pointer), then translate again");
        return;
    }
    int use_roc = use_roc_name(x, r);
    if (r->flags & MAP_F(erase)) {
        /* the word and the blanks after it */
        ptrdiff_t end = x->t[i].off + x->t[i].len;
        while (end < x->len && (x->src[end] == ' ' || x->src[end] == '\t'))
            end++;
        xlate_edit(x, x->t[i].off, end - x->t[i].off, S(""));
        converted(x, r, S(""));
        return;
    }
    if (!r->hip_len && !use_roc) {
        note_unsupported(x, i);
        const char *msg =
            xlate_msg(x, "'%.*s' has no HIP equivalent", (int)cuda.len, cuda.s);
        finding(x, i, "HP-UNSUPPORTED", HP_SEV_WARNING, msg, NULL);
        return;
    }
    hp_str to = use_roc ? map_roc(r) : map_hip(r);
    if (r->family == x->complex_family && x->o->roc && x->roc_complex != ROC_CPLX_HIP)
        to = roc_complex(x, i, r, to, use_roc);
    /* a name of hipport_compat.h's own, for which no HIP has a name */
    int compat_only = (r->flags & MAP_F(compat)) && str_starts(to, S("hipport_"));
    if (compat_only && !use_roc)
        x->needs_compat = 1;
    if (r->flags & MAP_F(mask)) {
        to = xlate_warp_call(x, i, r);
    } else if (!use_roc) {
        if ((r->flags & MAP_F(v2)) && x->hipv >= 700)
            to = strip_v2(x, to);
        if (r->since && x->hipv < r->since) {
            if ((r->flags & MAP_F(compat)) && !compat_only) {
                /* hipport_compat.h provides it (under its legacy spelling, if any) */
                if (r->legacy_len)
                    to = map_legacy(r);
                x->needs_compat = 1;
            } else if (r->legacy_len) {
                to = map_legacy(r);
            } else {
                hp_str name = compat_only ? cuda : to;
                const char *msg = xlate_msg(
                    x, "'%.*s' needs HIP %s or newer; the target is HIP %s", (int)name.len,
                    name.s, ver(x, r->since), ver(x, x->hipv));
                finding(x, i, "HP-HIP-VERSION", HP_SEV_WARNING, msg,
                        "target a newer HIP with --hip-version, or rewrite this use");
            }
        }
        if (r->removed && x->hipv >= r->removed) {
            const char *msg = xlate_msg(x, "'%.*s' was removed in HIP %s", (int)to.len,
                                        to.s, ver(x, r->removed));
            finding(x, i, "HP-HIP-VERSION", HP_SEV_WARNING, msg, NULL);
        } else if (r->deprecated && x->hipv >= r->deprecated) {
            const char *msg = xlate_msg(x, "'%.*s' is deprecated since HIP %s",
                                        (int)to.len, to.s, ver(x, r->deprecated));
            finding(x, i, "HP-DEPRECATED", HP_SEV_NOTE, msg, NULL);
        }
    }
    if (r->flags & MAP_F(symbol))
        wrap_symbol(x, i);
    if (r->flags & (MAP_F(fp8) | MAP_F(image)))
        xlate_lib_note(x, i, r);
    if (r->flags & MAP_F(args))
        to = xlate_args_rewrite(x, i, r, to, use_roc);
    if (r->flags & MAP_F(pytorch))
        to = pytorch_ident(x, i, r, to);
    if ((r->kind == MAP_K_type || r->kind == MAP_K_enum) && !(x->t[i].flags & TF_PP))
        merged_types(x, i);
    if (r->kind == MAP_K_type && !str_eq(to, cuda) && !(x->t[i].flags & TF_PP))
        own_cuda_typedef(x, i, cuda, to);
    if (!str_eq(to, cuda)) {
        if ((r->kind == MAP_K_type || r->kind == MAP_K_enum) && !use_roc && type_use(x, i, r, to))
            return;
        xlate_edit(x, x->t[i].off, x->t[i].len, to);
        converted(x, r, to);
    }
}

static const char *const device_words[] = {"__global__", "__device__",  "__shared__",
                                            "__constant__", "__managed__", "threadIdx",
                                            "blockIdx",     "blockDim",    "gridDim"};

/* <string.h>'s functions, which CUDA's runtime header declares (it includes <string.h>) and
 * HIP's no longer does from HIP 7.0 on. */
static const char *const cstring_names[] = {
    "memchr", "memcmp",  "memcpy",  "memmove", "memset",  "strcat",   "strchr",  "strcmp",
    "strcpy", "strcspn", "strerror", "strlen", "strncat", "strncmp",  "strncpy", "strpbrk",
    "strrchr", "strspn", "strstr",  "strtok"};

/* <math.h>'s classification macros, which CUDA's runtime header brings to host code (it
 * includes <math.h>) and HIP's does not (HIP 5.2 and 7.x alike). Called unqualified, they need
 * <math.h> itself: <cmath> declares them in std only. */
static const char *const math_names[] = {"isfinite", "isnan", "isinf", "isnormal"};

static int is_math_name(hp_str s)
{
    for (size_t k = 0; k < sizeof math_names / sizeof *math_names; k++)
        if (str_eqc(s, math_names[k]))
            return 1;
    return 0;
}

static int is_cstring_name(hp_str s)
{
    if (s.len < 6 || s.len > 8)
        return 0;
    for (size_t k = 0; k < sizeof cstring_names / sizeof *cstring_names; k++)
        if (str_eqc(s, cstring_names[k]))
            return 1;
    return 0;
}

static int is_device_word(hp_str s)
{
    if (s.len < 7)
        return 0;
    for (size_t k = 0; k < sizeof device_words / sizeof *device_words; k++)
        if (str_eqc(s, device_words[k]))
            return 1;
    return 0;
}

/* CUdeviceptr is an integer type in CUDA and void * in HIP (hipDeviceptr_t): arithmetic on one
 * does not compile, or means something else. So are cudaTextureObject_t and
 * cudaSurfaceObject_t (unsigned long long in CUDA, pointers in HIP), whose bits a program may
 * take apart. Reported where a variable declared so is an operand of arithmetic or of a bit
 * operator. */
static void deviceptr_arith(xlate *x, ptrdiff_t i)
{
    ptrdiff_t n = xlate_next(x, i), p = xlate_prev(x, i);
    int arith = xlate_punct(x, n, '+') || xlate_punct(x, n, '-') ||
                (xlate_punct(x, n, P_ASSIGN_OP) && (x->src[x->t[n].off] == '+' ||
                                                     x->src[x->t[n].off] == '-')) ||
                xlate_punct(x, p, '+') || xlate_punct(x, n, P_INC) || xlate_punct(x, n, P_DEC);
    int bits = xlate_punct(x, n, '&') || xlate_punct(x, n, '|') || xlate_punct(x, n, '^') ||
               xlate_punct(x, n, P_SHR) || xlate_punct(x, n, P_SHL);
    if (!arith && !bits)
        return;
    hp_str type = xlate_declared_type(x, i), v = xlate_text(x, i);
    if (arith && str_eqc(type, "CUdeviceptr")) {
        finding(x, i, "HP-DEVICEPTR", HP_SEV_WARNING,
                xlate_msg(x,
                          "'%.*s' is a CUdeviceptr, an integer in CUDA; hipDeviceptr_t is a "
                          "pointer to void, so this arithmetic does not carry over",
                          (int)v.len, v.s),
                "compute on (char *)ptr and cast back to hipDeviceptr_t");
    } else if (str_eqc(type, "cudaTextureObject_t") || str_eqc(type, "cudaSurfaceObject_t")) {
        finding(x, i, "HP-DEVICEPTR", HP_SEV_WARNING,
                xlate_msg(x,
                          "'%.*s' is a %.*s, a 64-bit integer in CUDA; HIP's is a pointer, so "
                          "this arithmetic on its value does not compile",
                          (int)v.len, v.s, (int)type.len, type.s),
                "convert it to unsigned long long first (reinterpret_cast), and back");
    }
}

/* Device printf: HIP's threadIdx.x and friends are objects that convert to unsigned int, and a
 * variadic argument does not convert: HIP's printf rejects them ("non-scalar arg"). A cast to
 * the type CUDA gives them (unsigned int) keeps the value and the format. */
static void printf_args(xlate *x, ptrdiff_t i)
{
    static const char *const builtins[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
    ptrdiff_t open = xlate_next(x, i);
    lex_args a;
    if (!xlate_punct(x, open, '(') || !xlate_args(x, open, &a))
        return;
    for (int k = 1; k < a.n; k++) {
        ptrdiff_t b = a.first[k], dot = xlate_next(x, b), m = xlate_next(x, dot);
        if (m != a.last[k] || !xlate_punct(x, dot, '.'))
            continue;
        for (size_t j = 0; j < sizeof builtins / sizeof *builtins; j++)
            if (xlate_is(x, b, builtins[j])) {
                xlate_insert(x, x->t[b].off, "(unsigned)");
                x->st.converted++;
                break;
            }
    }
}

/* Whether a number token is an integer literal with an unsigned suffix (10u, 0xffUL). */
static int unsigned_literal(hp_str s)
{
    for (ptrdiff_t k = s.len - 1; k > 0; k--) {
        char c = s.s[k];
        if (c == 'u' || c == 'U')
            return 1;
        if (c != 'l' && c != 'L' && c != 'z' && c != 'Z')
            return 0;
    }
    return 0;
}

/* min(a, b) or max(a, b), unqualified, where an argument visibly holds an unsigned value (a
 * built-in index such as threadIdx.x, sizeof, a 10u): CUDA has overloads for an int and an
 * unsigned that compare and return in the unsigned type; HIP has none and picks its double
 * overload (a floating result, no array index). hipport_compat.h declares CUDA's. */
static void minmax_call(xlate *x, ptrdiff_t i)
{
    ptrdiff_t open = xlate_next(x, i), p = xlate_prev(x, i);
    lex_args a;
    if (x->needs_compat || is_member(x, i) || xlate_punct(x, p, P_SCOPE) ||
        !xlate_punct(x, open, '(') || !xlate_args(x, open, &a) || a.n != 2)
        return;
    int depth = 0; /* the arguments' own tokens: a call's arguments inside do not say */
    for (ptrdiff_t k = xlate_next(x, open); k < a.close; k = xlate_next(x, k)) {
        if (xlate_punct(x, k, '(') || xlate_punct(x, k, '['))
            depth++;
        else if (xlate_punct(x, k, ')') || xlate_punct(x, k, ']'))
            depth--;
        if (depth > 0)
            continue;
        hp_str s = xlate_text(x, k);
        int u = x->t[k].kind == TK_NUMBER ? unsigned_literal(s)
                : x->t[k].kind == TK_IDENT
                    ? str_eqc(s, "threadIdx") || str_eqc(s, "blockIdx") ||
                          str_eqc(s, "blockDim") || str_eqc(s, "gridDim") || str_eqc(s, "sizeof")
                    : 0;
        if (u) {
            x->needs_compat = 1;
            finding(x, i, "HP-HEADER", HP_SEV_NOTE,
                    "CUDA's min and max of an int and an unsigned compare and return in the "
                    "unsigned type; HIP has no such overloads (it picks its double one): "
                    "hipport_compat.h declares CUDA's",
                    NULL);
            return;
        }
    }
}

/* half, half2, __half, __half2: CUDA's fp16 types, which CUDA's library headers bring with
 * cuda_fp16.h (cublas_api.h, cusparse.h, cuda_bf16.h include it) and HIP's counterparts do not. __half and __half2 are reserved names;
 * half and half2 count where they stand as a type (half x, half *p, <half>, (half)x), and not
 * at all in a file where something so named is declared or assigned (int half = n / 2). */
static void half_name(xlate *x, ptrdiff_t i)
{
    hp_str s = xlate_text(x, i);
    ptrdiff_t p = xlate_prev(x, i), n = xlate_next(x, i);
    if (is_member(x, i) || xlate_punct(x, p, P_SCOPE) || xlate_punct(x, n, P_SCOPE))
        return;
    if (s.s[0] == '_') {
        x->uses_half = 1;
        return;
    }
    static const char *const types[] = {"int", "auto", "unsigned", "size_t", "long", "float",
                                        "double", "char", "bool", "short", "struct", "class",
                                        "typedef", "using", "enum", "union"};
    int after_type = 0;
    for (size_t k = 0; k < sizeof types / sizeof *types && p >= 0; k++)
        after_type |= xlate_is(x, p, types[k]);
    if (after_type || xlate_punct(x, n, '=') || xlate_punct(x, n, ';') || xlate_punct(x, n, '[') ||
        xlate_punct(x, n, P_INC) || xlate_punct(x, n, P_DEC) || xlate_punct(x, n, P_ASSIGN_OP)) {
        x->half_var = 1;
        return;
    }
    int open = p >= 0 && (xlate_punct(x, p, '(') || xlate_punct(x, p, ',') ||
                          xlate_punct(x, p, '<') || xlate_punct(x, p, '{') ||
                          xlate_punct(x, p, ';') || xlate_punct(x, p, '}') ||
                          xlate_is(x, p, "const") || xlate_is(x, p, "static") ||
                          xlate_is(x, p, "__device__") || xlate_is(x, p, "__shared__") ||
                          xlate_is(x, p, "inline"));
    ptrdiff_t nn = xlate_next(x, n);
    int ident_next = n < x->nt && x->t[n].kind == TK_IDENT;
    int ptr_decl = (xlate_punct(x, n, '*') || xlate_punct(x, n, '&')) && nn < x->nt &&
                   (x->t[nn].kind == TK_IDENT || xlate_punct(x, nn, '*'));
    int targ = (xlate_punct(x, p, '<') || xlate_punct(x, p, ',')) &&
               (xlate_punct(x, n, '>') || xlate_punct(x, n, P_SHR) || xlate_punct(x, n, ','));
    int cast = xlate_punct(x, p, '(') && xlate_punct(x, n, ')');
    if ((open && (ident_next || ptr_decl)) || targ || cast)
        x->uses_half = 1;
}

/* A member (after '.' or '->') whose HIP name depends on the HIP version (members.tsv). */
static void member(xlate *x, ptrdiff_t i)
{
    hp_str m = xlate_text(x, i);
    for (int k = 0; k < members_rows_COUNT; k++) {
        const char *const *row = members_rows[k];
        if (!str_eqc(m, row[0]))
            continue;
        int since = hp_hip_version_parse(row[3]);
        if (x->hipv >= since)
            return;
        if (strcmp(row[1], "*") != 0) {
            ptrdiff_t obj = xlate_prev(x, xlate_prev(x, i));
            if (obj < 0 || x->t[obj].kind != TK_IDENT ||
                !str_eqc(xlate_declared_type(x, obj), row[1]))
                continue;
        }
        if (row[2][0]) {
            xlate_edit(x, x->t[i].off, x->t[i].len, str_cstr(row[2]));
            x->st.converted++;
            return;
        }
        finding(x, i, "HP-HIP-VERSION", HP_SEV_WARNING,
                xlate_msg(x, "member '%.*s' needs HIP %s or newer; the target is HIP %s",
                          (int)m.len, m.s, ver(x, since), ver(x, x->hipv)),
                row[4]);
        return;
    }
}

/* What an identifier may be by its first byte, besides a name of the tables: a word that marks
 * device code (is_device_word), a cooperative-groups operator (xlate_warp_cg_ident), printf. One
 * look-up, where the tests one by one cost more than the map's filter. */
enum {
    ID_DEVICE = 1, ID_CG = 2, ID_PRINTF = 4, ID_CSTRING = 8, ID_ASM = 16, ID_MATH = 32,
    ID_MINMAX = 64, ID_HALF = 128
};
static const unsigned char id_first[256] = {
    ['_'] = ID_DEVICE | ID_ASM | ID_HALF, ['h'] = ID_HALF, ['t'] = ID_DEVICE, ['b'] = ID_DEVICE | ID_CG,
    ['g'] = ID_DEVICE | ID_CG, ['r'] = ID_CG, ['l'] = ID_CG, ['p'] = ID_CG | ID_PRINTF,
    ['m'] = ID_CSTRING | ID_MINMAX, ['s'] = ID_CSTRING, ['a'] = ID_ASM, ['i'] = ID_MATH,
};

static void device_runtime_call(xlate *x, ptrdiff_t i, hp_str cuda);

static void ident(xlate *x, ptrdiff_t i)
{
    hp_str s = xlate_text(x, i);
    unsigned f = id_first[(unsigned char)s.s[0]];
    if (f) {
        if ((f & ID_DEVICE) && !x->device_code && is_device_word(s))
            x->device_code = 1;
        if ((f & ID_PRINTF) && s.len == 6 && memcmp(s.s, "printf", 6) == 0)
            printf_args(x, i);
        if ((f & ID_CSTRING) && !x->uses_cstring && !(x->t[i].flags & TF_PP) &&
            is_cstring_name(s) && !is_member(x, i) && xlate_punct(x, xlate_next(x, i), '('))
            x->uses_cstring = 1;
        if ((f & ID_MATH) && !x->uses_math && !(x->t[i].flags & TF_PP) && is_math_name(s) &&
            !is_member(x, i) && !xlate_punct(x, xlate_prev(x, i), P_SCOPE) &&
            xlate_punct(x, xlate_next(x, i), '('))
            x->uses_math = 1;
        if ((f & ID_ASM) && (s.len == 3 || s.len == 5 || s.len == 7))
            xlate_asm(x, i);
        if ((f & ID_HALF) && !(x->t[i].flags & TF_PP) &&
            (str_eqc(s, "half") || str_eqc(s, "half2") || str_eqc(s, "__half") ||
             str_eqc(s, "__half2")))
            half_name(x, i);
        if ((f & ID_MINMAX) && s.len == 3 &&
            (memcmp(s.s, "min", 3) == 0 || memcmp(s.s, "max", 3) == 0))
            minmax_call(x, i);
    }
    if (x->deviceptr_seen)
        deviceptr_arith(x, i);
    const map_row *r = map_find(s.s, s.len);
    if (!r) {
        if ((f & ID_CG) && s.len >= 4 && s.len <= 7)
            xlate_warp_cg_ident(x, i);
        else if ((s.s[0] == 's' && s.len >= 4 && s.len <= 9 && memcmp(s.s, "shfl", 4) == 0) ||
                 (s.len == 16 && memcmp(s.s, "binary_partition", 16) == 0))
            xlate_warp_tile_shfl(x, i);
        return;
    }
    if (r->kind == MAP_K_header)
        return;
    if (is_member(x, i)) {
        if (r->kind == MAP_K_member)
            member(x, i);
        else if (r->flags & MAP_F(caffe2))
            rename_ident(x, i, r); /* a method of Caffe2's contexts (c->cuda_stream()) */
        return;
    }
    if (r->kind == MAP_K_member)
        return;
    if (!x->deviceptr_seen &&
        ((s.len == 11 && memcmp(s.s, "CUdeviceptr", 11) == 0) ||
         str_eqc(s, "cudaTextureObject_t") || str_eqc(s, "cudaSurfaceObject_t")))
        x->deviceptr_seen = 1;
    if (x->device_code && r->kind == MAP_K_func && s.len >= 8 && memcmp(s.s, "cuda", 4) == 0)
        device_runtime_call(x, i, s);
    if (r->kind == MAP_K_ns) {
        ptrdiff_t n = xlate_next(x, i);
        ptrdiff_t p = xlate_prev(x, i);
        if ((r->flags & MAP_F(thrust)) && x->o->pytorch && pytorch_cuda_ns(x, i)) {
            /* c10::cuda::CUDAGuard, at::cuda::getCurrentCUDAStream (older PyTorch) */
            xlate_edit(x, x->t[i].off, x->t[i].len, map_hip(r));
            converted(x, r, map_hip(r));
            return;
        }
        /* ns::name, namespace ns (using namespace ns), namespace alias = ns */
        int alias_target = xlate_punct(x, p, '=') &&
                           xlate_is(x, xlate_prev(x, xlate_prev(x, p)), "namespace");
        if (!xlate_punct(x, n, P_SCOPE) && !(p >= 0 && xlate_is(x, p, "namespace")) &&
            !alias_target)
            return;
        if (p >= 0 && xlate_is(x, p, "namespace") && xlate_punct(x, n, '=')) {
            /* namespace cub = hipcub; (a project's own HIP branch): renaming the alias would
             * redefine the namespace it names */
            ptrdiff_t t = xlate_next(x, n);
            if (xlate_punct(x, t, P_SCOPE))
                t = xlate_next(x, t);
            if (t < x->nt && x->t[t].kind == TK_IDENT && str_eq(xlate_text(x, t), map_hip(r)))
                return;
        }
        if ((r->flags & MAP_F(thrust)) && !xlate_thrust_ns(x, i))
            return;
    }
    rename_ident(x, i, r);
}

/* The names ident() does something for: the tables' (map_maybe's filter) and the words it
 * tests besides (device words, printf, cooperative-groups operators). The lexer marks the
 * identifiers this filter lets through, and the translation pass visits only those (with
 * directives and launches) until a file needs every identifier looked at. */
static unsigned char filter_shape[(1u << HP_SHAPE_BITS) / 8];
static pthread_once_t filter_once = PTHREAD_ONCE_INIT;

static void filter_add(const char *name)
{
    hp_shape_add(filter_shape, name, (ptrdiff_t)strlen(name));
}

static void filter_init(void)
{
    memcpy(filter_shape, map_shape_bits, sizeof filter_shape);
    for (size_t k = 0; k < sizeof device_words / sizeof *device_words; k++)
        filter_add(device_words[k]);
    filter_add("printf");
    filter_add("half");
    filter_add("half2");
    filter_add("__half");
    filter_add("__half2");
    filter_add("min");
    filter_add("max");
    filter_add("asm");
    filter_add("__asm__");
    filter_add("__asm");
    for (size_t k = 0; k < sizeof cstring_names / sizeof *cstring_names; k++)
        filter_add(cstring_names[k]);
    for (size_t k = 0; k < sizeof math_names / sizeof *math_names; k++)
        filter_add(math_names[k]);
    for (int k = 0; xlate_warp_cg_name(k); k++)
        filter_add(xlate_warp_cg_name(k));
    filter_add("shfl");
    filter_add("shfl_up");
    filter_add("shfl_down");
    filter_add("shfl_xor");
    filter_add("binary_partition");
}

const lex_filter *translate_filter(void)
{
    static const lex_filter f = {filter_shape};
    pthread_once(&filter_once, filter_init);
    return &f;
}

/* ------------------------------------------------------------------ includes */

typedef struct incl {
    hp_str path;  /* after translation */
    int depth;    /* conditional depth */
    int branch;   /* branch id at that depth */
} incl;

typedef struct ppstate {
    int stack[64]; /* branch id per conditional depth (stack[0] = 0) */
    int depth;
    int next_id;
    int guard;     /* the file has an include guard: its #ifndef is depth 1 */
    ptrdiff_t guard_end; /* offset just after the guard's #define line */
    incl *inc;
    int ninc, capinc;
    ptrdiff_t first_top; /* offset of the first top-level #include or conditional, or -1 */
    ptrdiff_t runtime_line_end; /* just after the line that includes the HIP runtime, or 0 */
    int runtime_late;    /* a project or HIP header comes before the HIP runtime */
} ppstate;

static int visible(const ppstate *ps, const incl *in)
{
    return in->depth <= ps->depth && ps->stack[in->depth] == in->branch;
}

static int top_level(const ppstate *ps)
{
    return ps->depth <= ps->guard;
}

/* Start of the line containing offset off. */
static ptrdiff_t line_start(const xlate *x, ptrdiff_t off)
{
    while (off > x->bom && x->src[off - 1] != '\n')
        off--;
    return off;
}

/* Is the directive at h a plain one-line "#include <path>" (with at most a one-line comment)?
 * Only such lines are removed, so that removing one cannot change how the rest is read. */
static int plain_include(const xlate *x, ptrdiff_t h)
{
    int n = 0;
    for (ptrdiff_t k = h + 1; k < x->nt && x->t[k].kind != TK_PP_END; k++) {
        const tok *t = &x->t[k];
        if (t->kind == TK_COMMENT) {
            if ((t->flags & TF_UNTERM) ||
                memchr(x->src + t->off, '\n', (size_t)t->len) != NULL)
                return 0;
            continue;
        }
        if (++n > 2 || (t->flags & TF_UNTERM))
            return 0;
    }
    ptrdiff_t from = x->t[h].off, to = from;
    while (to < x->len && x->src[to] != '\n')
        to++;
    return n == 2 && memchr(x->src + from, '\\', (size_t)(to - from)) == NULL;
}

/* The offset just after the newline that ends the directive at h (the file's end if none). */
static ptrdiff_t line_end(const xlate *x, ptrdiff_t h)
{
    ptrdiff_t end = h;
    while (end < x->nt && x->t[end].kind != TK_PP_END)
        end++;
    ptrdiff_t at = end < x->nt ? x->t[end].off : x->len;
    return at < x->len ? at + 1 : at;
}

/* Removes the whole directive whose '#' is token h (up to and including its newline). */
static void remove_directive(xlate *x, ptrdiff_t h)
{
    ptrdiff_t end = h;
    while (end < x->nt && x->t[end].kind != TK_PP_END)
        end++;
    ptrdiff_t from = line_start(x, x->t[h].off);
    ptrdiff_t to = end < x->nt ? x->t[end].off : x->len;
    if (to < x->len && x->src[to] == '\n')
        to++;
    /* Keep anything before the '#' on its line that is not blank. */
    for (ptrdiff_t k = from; k < x->t[h].off; k++)
        if (x->src[k] != ' ' && x->src[k] != '\t') {
            from = x->t[h].off;
            break;
        }
    xlate_edit(x, from, to - from, str_make("", 0));
}

static void record_include(xlate *x, ppstate *ps, hp_str path, ptrdiff_t h_line_end,
                           int quoted)
{
    if (ps->ninc == ps->capinc) {
        int ncap = ps->capinc ? ps->capinc * 2 : 16;
        ps->inc = arena_grow(x->a, ps->inc, (ptrdiff_t)ps->capinc * (ptrdiff_t)sizeof(incl),
                             (ptrdiff_t)ncap * (ptrdiff_t)sizeof(incl), _Alignof(incl));
        ps->capinc = ncap;
    }
    incl *in = &ps->inc[ps->ninc++];
    in->path = path;
    in->depth = ps->depth;
    in->branch = ps->stack[ps->depth];
    /* nvcc includes the runtime before anything else; HIP headers such as the cooperative
     * groups' need it first, and so may the project's headers */
    if (top_level(ps) && !x->runtime_included && !str_eqc(path, "hip/hip_runtime.h") &&
        (quoted || str_starts(path, S("hip/"))) && !str_eqc(path, "hip/hip_runtime_api.h") &&
        !str_eqc(path, "hipport_compat.h"))
        ps->runtime_late = 1;
    if (top_level(ps) && str_eqc(path, "hip/hip_runtime.h") && !x->runtime_included) {
        x->runtime_included = 1;
        ps->runtime_line_end = h_line_end;
    }
    if (str_eqc(path, "hipport_compat.h"))
        x->compat_included = 1;
    if (top_level(ps) && str_eqc(path, "hip/hip_gl_interop.h") && !x->runtime_included)
        x->interop_first = 1;
    if (str_eqc(path, "cstring") || str_eqc(path, "string.h"))
        x->cstring_included = 1;
    if (str_eqc(path, "math.h"))
        x->math_included = 1;
    if (str_eqc(path, "hip/hip_fp16.h") || str_eqc(path, "cuda_fp16.h"))
        x->fp16_included = 1;
    /* rocPRIM's headers (its texture cache iterator) call memset and relied on HIP's runtime
     * header for <string.h> */
    if (str_starts(path, S("rocprim/")))
        x->cstring_for_lib = 1;
}

/* What a finding adds about a CUDA header without a HIP counterpart, where there is more to
 * say than that. */
static const struct {
    const char *path, *more;
} header_notes[] = {
    {"nvml.h", "AMD's counterpart is AMD SMI (amd_smi/amdsmi.h) or ROCm SMI "
               "(rocm_smi/rocm_smi.h), whose calls differ"},
};

/* Is <path>, which the tables do not know, one of CUDA's headers (the toolkit's, its
 * libraries')? Such an include is never kept without a finding. */
static int cuda_header(hp_str path)
{
    static const char *const prefixes[] = {
        "cuda",   "cublas", "cusparse",    "cufft",  "curand", "cusolver", "cudnn",
        "cutensor", "cufile", "nvrtc",     "nvml",   "nvtx",   "nvToolsExt", "nvjpeg",
        "nvJitLink", "nvPTXCompiler", "nvshmem", "npp", "crt/", "sm_"};
    static const char *const names[] = {
        "host_defines.h",      "host_config.h",          "device_types.h",
        "surface_functions.h", "texture_types.h",        "surface_types.h",
        "common_functions.h",  "math_functions.h",       "device_atomic_functions.h",
        "device_double_functions.h", "surface_indirect_functions.h",
        "texture_indirect_functions.h"};
    if (path.len > 2 && path.s[0] == 'c' && path.s[1] == 'u' && path.s[2] >= 'A' &&
        path.s[2] <= 'Z')
        return 1; /* cuComplex.h, cuDNN-style names */
    for (size_t k = 0; k < sizeof prefixes / sizeof *prefixes; k++)
        if (str_starts(path, str_cstr(prefixes[k])))
            return 1;
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        if (str_eqc(path, names[k]))
            return 1;
    return 0;
}

/* The token of the path of the #include (or #include_next) whose '#' is token h, <path> or
 * "path", or -1 where the directive is no such include. */
static ptrdiff_t include_operand(const xlate *x, ptrdiff_t h)
{
    ptrdiff_t name = xlate_next(x, h);
    ptrdiff_t op = xlate_next(x, name);
    if (op >= x->nt)
        return -1;
    const tok *k = &x->t[op];
    if (k->kind != TK_HEADER && !(k->kind == TK_STRING && k->len >= 2 &&
                                  x->src[k->off] == '"' && x->src[k->off + k->len - 1] == '"'))
        return -1;
    if (!xlate_is(x, name, "include") && !xlate_is(x, name, "include_next"))
        return -1;
    return op;
}

/* The path of directive d of the file where it is an #include (<path> or "path", without
 * them), else the empty string. */
static hp_str include_path(const xlate *x, ptrdiff_t d)
{
    ptrdiff_t h = x->dirs[d];
    ptrdiff_t op = x->t[h].sub == PP_INCLUDE ? include_operand(x, h) : -1;
    return op >= 0 ? str_make(x->src + x->t[op].off + 1, x->t[op].len - 2) : str_make("", 0);
}

static void include_directive(xlate *x, ppstate *ps, ptrdiff_t h)
{
    ptrdiff_t op = include_operand(x, h);
    if (op < 0)
        return;
    const tok *k = &x->t[op];
    hp_str path = str_make(x->src + k->off + 1, k->len - 2);
    int quoted = k->kind == TK_STRING;
    const map_row *r = map_find(path.s, path.len);
    if (!r || r->kind != MAP_K_header || ((r->flags & MAP_F(pytorch)) && !x->o->pytorch)) {
        hp_str to = x->o->pytorch ? pytorch_header(x->a, path) : str_make("", 0);
        if (to.len) { /* ATen/cuda/CUDAContext.h is ATen/hip/HIPContext.h */
            xlate_edit(x, k->off + 1, k->len - 2, to);
            x->st.refs[map_family_index("pytorch")]++;
            x->st.converted++;
            path = to;
        } else if (!quoted && cuda_header(path)) {
            finding(x, op, "HP-UNSUPPORTED", HP_SEV_WARNING,
                    xlate_msg(x, "'%.*s' is a CUDA header hipport does not know; it is left as it is",
                              (int)path.len, path.s),
                    NULL);
        }
        record_include(x, ps, path, line_end(x, h), quoted);
        return;
    }
    if (r->flags & MAP_F(compat)) {
        /* what this header declares comes from hipport_compat.h, included where it belongs */
        x->needs_compat = 1;
        if (plain_include(x, h))
            remove_directive(x, h);
        converted(x, r, S(""));
        return;
    }
    if (r->flags & MAP_F(drop)) {
        if (!plain_include(x, h)) {
            finding(x, op, "HP-UNSUPPORTED", HP_SEV_NOTE,
                    xlate_msg(x, "HIP needs no '%.*s'; remove this include", (int)path.len,
                              path.s),
                    NULL);
            return;
        }
        remove_directive(x, h);
        converted(x, r, S(""));
        return;
    }
    int use_roc = use_roc_name(x, r);
    if (!r->hip_len && !use_roc) {
        note_unsupported(x, op);
        const char *more = NULL;
        for (size_t j = 0; j < sizeof header_notes / sizeof *header_notes; j++)
            if (str_eqc(path, header_notes[j].path))
                more = header_notes[j].more;
        const char *msg = more ? xlate_msg(x, "header '%.*s' has no HIP equivalent; %s",
                                           (int)path.len, path.s, more)
                               : xlate_msg(x, "header '%.*s' has no HIP equivalent",
                                           (int)path.len, path.s);
        finding(x, op, "HP-UNSUPPORTED", HP_SEV_WARNING, msg, NULL);
        record_include(x, ps, path, line_end(x, h), quoted);
        return;
    }
    if (r->flags & MAP_F(fp8))
        xlate_lib_note(x, op, r);
    hp_str to = use_roc ? map_roc(r) : map_hip(r);
    if ((r->flags & MAP_F(masq)) && x->o->pytorch == HP_PYTORCH_MASQUERADE)
        to = map_legacy(r);
    if (!use_roc && r->since && x->hipv < r->since) {
        if (r->legacy_len) {
            to = map_legacy(r);
        } else {
            const char *msg =
                xlate_msg(x, "header '%.*s' needs HIP %s or newer; the target is HIP %s",
                          (int)to.len, to.s, ver(x, r->since), ver(x, x->hipv));
            finding(x, op, "HP-HIP-VERSION", HP_SEV_WARNING, msg, NULL);
        }
    }
    /* A second include of the same HIP header in a branch that sees the first is dropped. */
    for (int j = 0; j < ps->ninc && plain_include(x, h); j++)
        if (str_eq(ps->inc[j].path, to) && visible(ps, &ps->inc[j])) {
            remove_directive(x, h);
            converted(x, r, S(""));
            return;
        }
    record_include(x, ps, to, line_end(x, h), quoted);
    if (!str_eq(to, path)) {
        xlate_edit(x, k->off + 1, k->len - 2, to);
        converted(x, r, to);
    }
}

/* With --roc, whose complex types cuComplex's types become: the ROCm library's that the file
 * includes (under --roc's spelling of its includes, or already so spelled). rocBLAS's header
 * declares rocblas_float_complex and rocSOLVER's includes it; rocSPARSE's declares
 * rocsparse_float_complex, which its functions take, and no rocblas_ type. With neither, no
 * header declares a ROCm complex type, and HIP's stay. */
static int roc_complex_lib(const xlate *x)
{
    int sparse = 0;
    for (ptrdiff_t d = 0; d < x->ndirs; d++) {
        hp_str path = include_path(x, d);
        if (!path.len)
            continue;
        const map_row *r = map_find(path.s, path.len);
        if (r && r->kind == MAP_K_header && r->roc_len)
            path = map_roc(r);
        if (str_starts(path, S("rocblas")) || str_starts(path, S("rocsolver")))
            return ROC_CPLX_BLAS;
        if (str_starts(path, S("rocsparse")))
            sparse = 1;
    }
    return sparse ? ROC_CPLX_SPARSE : ROC_CPLX_HIP;
}

/* Whether the file calls cuBLAS's legacy API: it includes cublas.h and neither cublas_v2.h
 * nor cublasXt.h, which includes it (CUDA rejects cublas.h and cublas_v2.h together; a file
 * that includes both gets the handle API's translation). hipBLAS's or rocBLAS's header in
 * place of cublas.h counts as cublas.h, so that the translation translates to itself. */
static int cublas_legacy_api(const xlate *x)
{
    static const char *const legacy_headers[] = {"cublas.h", "hipblas.h", "hipblas/hipblas.h",
                                                  "rocblas.h", "rocblas/rocblas.h"};
    int legacy = 0;
    for (ptrdiff_t d = 0; d < x->ndirs; d++) {
        hp_str path = include_path(x, d);
        if (str_eqc(path, "cublas_v2.h") || str_eqc(path, "cublasXt.h"))
            return 0;
        for (size_t k = 0; k < sizeof legacy_headers / sizeof *legacy_headers; k++)
            if (str_eqc(path, legacy_headers[k]))
                legacy = 1;
    }
    return legacy;
}

/* Detects "#ifndef X / #define X" or "#pragma once" before any other token. A "#pragma once"
 * between the guard's two lines is part of the guard, and new includes then go right after the
 * #ifndef (as hipify-clang puts them: after whichever of the two comes first); so are includes
 * there, which a translation may have put. */
static void detect_guard(xlate *x, ppstate *ps)
{
    ptrdiff_t h = 0;
    while (h < x->nt && x->t[h].kind == TK_COMMENT)
        h++;
    if (h >= x->nt || x->t[h].kind != TK_PP_HASH)
        return;
    if (x->t[h].sub == PP_PRAGMA) {
        ptrdiff_t w = xlate_next(x, xlate_next(x, h));
        if (xlate_is(x, w, "once")) {
            ptrdiff_t end = h;
            while (end < x->nt && x->t[end].kind != TK_PP_END)
                end++;
            ps->guard_end = end < x->nt ? x->t[end].off : x->len;
        }
        return;
    }
    if (x->t[h].sub != PP_IFNDEF && x->t[h].sub != PP_IF)
        return;
    ptrdiff_t end = h;
    while (end < x->nt && x->t[end].kind != TK_PP_END)
        end++;
    ptrdiff_t h2 = end + 1;
    int once = 0, includes = 0; /* #pragma once and #include lines came between */
    for (;;) {
        while (h2 < x->nt && x->t[h2].kind == TK_COMMENT)
            h2++;
        if (h2 >= x->nt || x->t[h2].kind != TK_PP_HASH)
            break;
        if (x->t[h2].sub == PP_PRAGMA && xlate_is(x, xlate_next(x, xlate_next(x, h2)), "once"))
            once = 1;
        else if (x->t[h2].sub == PP_INCLUDE)
            includes = 1; /* such as the runtime's, added after the #ifndef */
        else
            break;
        while (h2 < x->nt && x->t[h2].kind != TK_PP_END)
            h2++;
        h2++;
    }
    if (h2 >= x->nt || x->t[h2].kind != TK_PP_HASH || x->t[h2].sub != PP_DEFINE ||
        (includes && !once))
        return;
    /* The macro named by #ifndef X (or #if !defined(X)) must be the one defined. */
    ptrdiff_t n1 = xlate_next(x, xlate_next(x, h));
    while (n1 < end && x->t[n1].kind != TK_IDENT)
        n1++;
    if (n1 < end && xlate_is(x, n1, "defined"))
        for (n1++; n1 < end && x->t[n1].kind != TK_IDENT; n1++)
            ;
    ptrdiff_t n2 = xlate_next(x, xlate_next(x, h2));
    if (n1 >= end || n2 >= x->nt || !str_eq(xlate_text(x, n1), xlate_text(x, n2)))
        return;
    /* An include guard encloses the whole file: its #endif is the last token. */
    int depth = 0;
    ptrdiff_t close = -1;
    for (ptrdiff_t d = 0; d < x->ndirs; d++) { /* dirs[0] is h */
        ptrdiff_t k = x->dirs[d];
        unsigned c = x->t[k].sub;
        if (c == PP_IF || c == PP_IFDEF || c == PP_IFNDEF)
            depth++;
        else if (c == PP_ENDIF && --depth == 0) {
            close = k;
            break;
        }
    }
    if (close < 0)
        return;
    for (ptrdiff_t k = close + 1; k < x->nt; k++)
        if (x->t[k].kind != TK_COMMENT && !(x->t[k].flags & TF_PP) && x->t[k].kind != TK_PP_END)
            return;
        else if (x->t[k].kind == TK_PP_HASH)
            return;
    ptrdiff_t end2 = once ? end : h2;
    while (end2 < x->nt && x->t[end2].kind != TK_PP_END)
        end2++;
    ps->guard = 1;
    ps->guard_end = end2 < x->nt ? x->t[end2].off : x->len;
}

static void directive(xlate *x, ppstate *ps, ptrdiff_t h)
{
    switch (x->t[h].sub) {
    case PP_IF:
    case PP_IFDEF:
    case PP_IFNDEF:
        if (ps->first_top < 0 && top_level(ps) && !(ps->guard && ps->depth == 0))
            ps->first_top = line_start(x, x->t[h].off);
        if (ps->depth < 63) {
            ps->depth++;
            ps->stack[ps->depth] = ++ps->next_id;
        }
        break;
    case PP_ELIF:
    case PP_ELSE:
        if (ps->depth > 0)
            ps->stack[ps->depth] = ++ps->next_id;
        break;
    case PP_ENDIF:
        if (ps->depth > 0)
            ps->depth--;
        break;
    case PP_INCLUDE:
        if (ps->first_top < 0 && top_level(ps))
            ps->first_top = line_start(x, x->t[h].off);
        include_directive(x, ps, h);
        break;
    default:
        break;
    }
}

/* Can a line be appended at the end of the file? Not after an unterminated comment or a
 * trailing backslash, which would swallow it. */
static int eof_append_ok(const xlate *x)
{
    ptrdiff_t last = x->nt - 1;
    while (last >= 0 && x->t[last].kind == TK_PP_END)
        last--;
    if (last >= 0 && (x->t[last].flags & TF_UNTERM))
        return 0;
    ptrdiff_t e = x->len;
    while (e > x->bom && (x->src[e - 1] == ' ' || x->src[e - 1] == '\t' || x->src[e - 1] == '\r'))
        e--;
    return !(e > x->bom && x->src[e - 1] == '\\');
}

/* Where a new #include goes: after the include guard or #pragma once, else before the first
 * top-level #include or conditional, else after the BOM and the leading comments. */
static ptrdiff_t include_point_raw(const xlate *x, const ppstate *ps, int *need_nl_before)
{
    *need_nl_before = 0;
    if (ps->guard_end > 0) {
        if (ps->guard_end >= x->len) {
            *need_nl_before = 1;
            return x->len;
        }
        return ps->guard_end + 1;
    }
    /* before the first top-level #include or conditional, unless code comes before it */
    ptrdiff_t first = 0;
    while (first < x->nt && x->t[first].kind == TK_COMMENT)
        first++;
    if (ps->first_top >= 0 &&
        (first >= x->nt || x->t[first].kind == TK_PP_HASH || x->t[first].off >= ps->first_top))
        return ps->first_top;
    /* after the leading comments, at the start of a line that no token straddles */
    ptrdiff_t at = x->bom;
    for (ptrdiff_t i = 0; i < x->nt && x->t[i].kind == TK_COMMENT; i++) {
        ptrdiff_t end = x->t[i].off + x->t[i].len;
        while (end < x->len && x->src[end] != '\n')
            end++;
        if (i + 1 < x->nt && x->t[i + 1].off < end)
            break; /* something else follows on the comment's last line */
        if (end >= x->len) {
            *need_nl_before = 1;
            return x->len;
        }
        at = end + 1;
    }
    return at;
}

/* The same, falling back to the top of the file where appending would be swallowed. */
static ptrdiff_t include_point(const xlate *x, const ppstate *ps, int *need_nl_before)
{
    ptrdiff_t at = include_point_raw(x, ps, need_nl_before);
    if (at >= x->len && !eof_append_ok(x)) {
        *need_nl_before = 0;
        return x->bom;
    }
    return at;
}

/* Inserts whole lines where a new #include goes. They precede any other insertion at the same
 * offset (a launch may start there); among themselves, by order (more negative first). */
static void add_lines(xlate *x, const ppstate *ps, const char *text_lines, int order)
{
    int nl_before;
    ptrdiff_t at = include_point(x, ps, &nl_before);
    const char *text = arena_printf(x->a, "%s%s%s", nl_before ? x->nl : "", text_lines, x->nl);
    xlate_insert(x, at, text);
    x->e[x->ne - 1].seq = order;
}

/* A standard header that CUDA's runtime header brings and HIP's does not: included right after
 * the file's own include of the HIP runtime (else with the lines added at the top), with note. */
static void include_std(xlate *x, const ppstate *ps, const char *line, const char *note)
{
    if (ps->runtime_line_end > 0 && ps->runtime_line_end < x->len && !ps->runtime_late)
        xlate_insert(x, ps->runtime_line_end, arena_printf(x->a, "%s%s", line, x->nl));
    else
        add_lines(x, ps, line, -1);
    diag_add_file(&x->d, "HP-HEADER", HP_SEV_NOTE, note, NULL);
    x->st.converted++;
}

/* Does an identifier with this text occur in the file? */
static int mentions(const xlate *x, const char *name)
{
    for (ptrdiff_t i = 0; i < x->nt; i++)
        if (x->t[i].kind == TK_IDENT && xlate_is(x, i, name))
            return 1;
    return 0;
}

/* (float)V.x and (float)V.y of a half2 V: HIP 5.2 declares __half2's members x and y as
 * unsigned short (ROCm 7.2 as __half, the first release checked with them so), and the cast
 * would give the number of the bits; for a HIP older than 7.2 the member is read as a half
 * first, (float)reinterpret_cast<half&>(V.x), as hipify-clang writes it (V's type found in its
 * declaration). */
static void half2_members(xlate *x)
{
    if (x->hipv >= 702 || !(mentions(x, "half2") || mentions(x, "__half2")))
        return;
    for (ptrdiff_t i = 0; i < x->nt; i++) {
        if (!xlate_punct(x, i, '(') || !xlate_is(x, xlate_next(x, i), "float"))
            continue;
        ptrdiff_t c = xlate_next(x, xlate_next(x, i));
        ptrdiff_t v = xlate_next(x, c), dot = xlate_next(x, v), m = xlate_next(x, dot);
        if (!xlate_punct(x, c, ')') || v >= x->nt || x->t[v].kind != TK_IDENT ||
            !xlate_punct(x, dot, '.') || !(xlate_is(x, m, "x") || xlate_is(x, m, "y")))
            continue;
        ptrdiff_t after = xlate_next(x, m);
        if (xlate_punct(x, after, '(') || xlate_punct(x, after, '.') ||
            xlate_punct(x, after, '['))
            continue;
        hp_str type = xlate_declared_type(x, v);
        const char *half = str_eqc(type, "half2")     ? "half"
                           : str_eqc(type, "__half2") ? "__half"
                                                      : NULL;
        if (!half)
            continue;
        xlate_insert(x, x->t[v].off, arena_printf(x->a, "reinterpret_cast<%s&>(", half));
        xlate_insert(x, x->t[m].off + x->t[m].len, ")");
        x->st.converted++;
    }
}

/* ------------------------------------------------------------------ excluded branches */

static int is_conditional(unsigned code)
{
    return code == PP_IF || code == PP_IFDEF || code == PP_IFNDEF || code == PP_ELIF ||
           code == PP_ELSE || code == PP_ENDIF;
}

/* With skip_excluded: is token i in a branch that the given macros exclude? Conditional
 * directives are followed here (and their include bookkeeping done) whatever the branch. */
static int excluded(xlate *x, ppskip *pk, ppstate *ps, ptrdiff_t i)
{
    const tok *k = &x->t[i];
    if (k->kind == TK_PP_HASH) {
        ppeval_skip_directive(pk, x->src, x->t, x->nt, i);
        if (is_conditional(k->sub)) {
            directive(x, ps, i);
            return 1;
        }
        return pk->dir_skip;
    }
    if (k->kind == TK_PP_END)
        return 0;
    return k->flags & TF_PP ? pk->dir_skip : pk->skipping;
}

/* ------------------------------------------------------------------ applying edits */

static int cmp_edit(const void *p, const void *q)
{
    const edit *a = p, *b = q;
    if (a->off != b->off)
        return a->off < b->off ? -1 : 1;
    /* insertions before replacements at the same offset */
    if ((a->len == 0) != (b->len == 0))
        return a->len == 0 ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Edits are mostly recorded in source order, with a few out of place (a line inserted at the
 * top of the file, a mask edited after the call that holds it): each of those moves back to its
 * place. Past a budget of moves (edits far out of order) the rest is left to qsort. No two edits
 * compare equal (seq differs), so either way gives the one order. */
static void sort_edits(edit *e, ptrdiff_t ne)
{
    ptrdiff_t budget = 8 * ne + 64;
    for (ptrdiff_t j = 1; j < ne; j++) {
        if (cmp_edit(&e[j - 1], &e[j]) <= 0)
            continue;
        edit v = e[j];
        ptrdiff_t k = j;
        while (k > 0 && cmp_edit(&e[k - 1], &v) > 0 && budget > 0) {
            e[k] = e[k - 1];
            k--;
            budget--;
        }
        e[k] = v;
        if (budget <= 0) {
            qsort(e, (size_t)ne, sizeof *e, cmp_edit);
            return;
        }
    }
}

/* Whether some edit apply() kept writes other bytes than those it replaces: where none does,
 * the output is the buffer as it was. */
static int edits_differ(const xlate *x)
{
    for (ptrdiff_t j = 0; j < x->ne; j++) {
        const edit *e = &x->e[j];
        if (e->text.len != e->len || memcmp(e->text.s, x->src + e->off, (size_t)e->len) != 0)
            return 1;
    }
    return 0;
}

static void apply(xlate *x, const char **out, ptrdiff_t *outlen)
{
    if (x->ne == 0) {
        *out = x->src;
        *outlen = x->len;
        return;
    }
    sort_edits(x->e, x->ne);
    /* Drop edits that overlap an earlier replacement (cannot happen by construction; this keeps
     * the output well-formed if it ever does). */
    ptrdiff_t size = x->len, pos = 0, k = 0;
    for (ptrdiff_t j = 0; j < x->ne; j++) {
        edit *e = &x->e[j];
        if (e->off < pos)
            continue;
        x->e[k++] = *e;
        size += e->text.len - e->len;
        pos = e->off + e->len;
    }
    x->ne = k;
    /* the input lines and bytes the edits touch (hipify-clang's statistics) */
    ptrdiff_t counted = 0; /* lines starting below this offset are counted */
    for (ptrdiff_t j = 0; j < x->ne; j++) {
        const edit *e = &x->e[j];
        x->st.replaced_bytes += e->len;
        ptrdiff_t p = e->off > counted ? e->off : counted;
        ptrdiff_t last = e->off + (e->len ? e->len - 1 : 0);
        while (p <= last) {
            x->st.changed_lines++;
            const char *nl = memchr(x->src + p, '\n', (size_t)(x->len - p));
            p = counted = nl ? nl - x->src + 1 : x->len + 1;
        }
    }
    char *o = arena_alloc_nozero(x->a, 1, 1, size + 1);
    ptrdiff_t w = 0;
    pos = 0;
    for (ptrdiff_t j = 0; j < x->ne; j++) {
        edit *e = &x->e[j];
        memcpy(o + w, x->src + pos, (size_t)(e->off - pos));
        w += e->off - pos;
        if (e->text.len)
            memcpy(o + w, e->text.s, (size_t)e->text.len);
        w += e->text.len;
        pos = e->off + e->len;
    }
    memcpy(o + w, x->src + pos, (size_t)(x->len - pos));
    w += x->len - pos;
    o[w] = 0;
    *out = o;
    *outlen = w;
}

/* ------------------------------------------------------------------ driver */

static int ends_with(const char *path, const char *ext)
{
    size_t n = strlen(path), m = strlen(ext);
    return n >= m && memcmp(path + n - m, ext, m) == 0;
}

void hp_translate_opts_init(hp_translate_opts *o)
{
    memset(o, 0, sizeof *o);
    o->compat_header = 1;
}

/* Is this hipport_compat.h, as hipport writes it? */
static int is_compat_header(const xlate *x)
{
    const char *base = strrchr(x->path, '/');
    base = base ? base + 1 : x->path;
    return strcmp(base, "hipport_compat.h") == 0 && x->len > 200 &&
           str_find(str_make(x->src, x->len < 1024 ? x->len : 1024),
                    S("#define HIPPORT_COMPAT_H")) >= 0;
}

/* Does a launch open inside the launch group opened at token i (or is the group never
 * closed)? */
static int launch_group_nested(const xlate *x, ptrdiff_t i)
{
    int depth = 0;
    int in_pp = (x->t[i].flags & TF_PP) != 0;
    for (ptrdiff_t k = i; k < x->nt; k++) {
        if (in_pp && x->t[k].kind == TK_PP_END)
            return 1;
        if (!in_pp && (x->t[k].flags & TF_PP))
            continue;
        if (x->t[k].kind == TK_LAUNCH_OPEN) {
            if (++depth > 1)
                return 1;
        } else if (x->t[k].kind == TK_LAUNCH_CLOSE) {
            if (--depth == 0)
                return 0;
        }
    }
    return 1;
}

/* Whether the '{' at k opens the body of a function (')' and qualifiers before it, and a name
 * before the '(' that is no statement's keyword), and, if so, of a __global__ or __device__
 * function that is not __host__ too: 0 not a function's body, 1 a host function's, 2 a device
 * function's. */
static int body_kind(const xlate *x, ptrdiff_t k)
{
    ptrdiff_t c = xlate_prev(x, k);
    while (c >= 0 && x->t[c].kind == TK_IDENT)
        c = xlate_prev(x, c); /* const, noexcept, override */
    if (c < 0 || !xlate_punct(x, c, ')'))
        return 0;
    int parens = 0;
    ptrdiff_t open = -1;
    for (ptrdiff_t q = c; q >= 0; q--) {
        if (x->t[q].kind != TK_PUNCT)
            continue;
        if (x->t[q].sub == ')')
            parens++;
        else if (x->t[q].sub == '(' && --parens == 0) {
            open = q;
            break;
        }
    }
    ptrdiff_t name = open > 0 ? xlate_prev(x, open) : -1;
    if (name < 0 || x->t[name].kind != TK_IDENT)
        return 0;
    static const char *const stmts[] = {"if", "for", "while", "switch", "catch"};
    for (size_t w = 0; w < sizeof stmts / sizeof *stmts; w++)
        if (xlate_is(x, name, stmts[w]))
            return 0;
    int dev = 0, host = 0;
    for (ptrdiff_t q = xlate_prev(x, name), n = 0; q >= 0 && n < 64; q = xlate_prev(x, q), n++) {
        if (x->t[q].kind == TK_PUNCT &&
            (x->t[q].sub == ';' || x->t[q].sub == '{' || x->t[q].sub == '}'))
            break;
        if (x->t[q].kind == TK_PP_END)
            break;
        dev |= xlate_is(x, q, "__global__") || xlate_is(x, q, "__device__");
        host |= xlate_is(x, q, "__host__");
    }
    return dev && !host ? 2 : 1;
}

/* For each token of the file, whether the innermost function body around it is a device
 * function's: one pass with a stack of the open braces (directives' braces left out), made
 * at the first question. */
static void device_launches(xlate *x)
{
    x->dev_launch = NEW(x->a, unsigned char, x->nt + 1);
    unsigned char *st = NEW(x->a, unsigned char, x->nt + 1); /* per open brace: 2 in device code */
    ptrdiff_t depth = 0;
    for (ptrdiff_t k = 0; k < x->nt; k++) {
        const tok *t = &x->t[k];
        x->dev_launch[k] = depth > 0 && st[depth - 1] == 2;
        if (t->kind != TK_PUNCT || (t->flags & TF_PP))
            continue;
        if (t->sub == '{') {
            int b = body_kind(x, k);
            st[depth] = (unsigned char)(b ? b : depth > 0 ? st[depth - 1] : 1);
            depth++;
        } else if (t->sub == '}' && depth > 0) {
            depth--;
        }
    }
}

/* Is token i inside a __global__ or __device__ function (not __host__ too)? */
static int in_device_function(xlate *x, ptrdiff_t i)
{
    if (!x->dev_launch)
        device_launches(x);
    return x->dev_launch[i];
}

/* The runtime calls CUDA's device runtime (dynamic parallelism) offers in device code. */
static const char *const device_runtime_names[] = {
    "cudaDeviceGetAttribute", "cudaDeviceSynchronize", "cudaEventCreateWithFlags",
    "cudaEventDestroy",       "cudaEventRecord",       "cudaFree",
    "cudaFuncGetAttributes",  "cudaGetDevice",         "cudaGetLastError",
    "cudaMalloc",             "cudaMemcpyAsync",       "cudaMemsetAsync",
    "cudaPeekAtLastError",    "cudaStreamCreateWithFlags", "cudaStreamDestroy",
    "cudaStreamWaitEvent"};

/* A call of the runtime at i inside a __global__ or __device__ function: CUDA's device runtime,
 * which HIP does not have (its runtime calls are the host's). */
static void device_runtime_call(xlate *x, ptrdiff_t i, hp_str cuda)
{
    int known = 0;
    for (size_t k = 0; k < sizeof device_runtime_names / sizeof *device_runtime_names; k++)
        known |= str_eqc(cuda, device_runtime_names[k]);
    if (!known || !xlate_punct(x, xlate_next(x, i), '(') || !in_device_function(x, i))
        return;
    finding(x, i, "HP-UNSUPPORTED", HP_SEV_WARNING,
            xlate_msg(x,
                      "'%.*s' called in device code (CUDA's device runtime, part of dynamic "
                      "parallelism): HIP's runtime API is the host's only",
                      (int)cuda.len, cuda.s),
            "make the call on the host, before or after the kernel");
}

/* The number of components of a CUDA vector type's name (float2: 2), or 0. */
static int vector_rank(hp_str s)
{
    static const char *const bases[] = {"float", "double", "int", "uint", "char", "uchar",
                                        "short", "ushort", "long", "ulong", "longlong",
                                        "ulonglong"};
    if (s.len < 4 || s.s[s.len - 1] < '2' || s.s[s.len - 1] > '4')
        return 0;
    hp_str b = str_make(s.s, s.len - 1);
    for (size_t k = 0; k < sizeof bases / sizeof *bases; k++)
        if (str_eqc(b, bases[k]))
            return s.s[s.len - 1] - '0';
    return 0;
}

/* A parameter 'VT name', 'const VT name' or 'const VT &name' (ref: 'VT &name') of the
 * argument list at [first, last]: its name's token, or -1. */
static ptrdiff_t vector_param(const xlate *x, ptrdiff_t first, ptrdiff_t last, hp_str vt, int ref)
{
    ptrdiff_t k = first;
    int konst = 0;
    if (xlate_is(x, k, "const")) {
        konst = 1;
        k = xlate_next(x, k);
    }
    if (k > last || !str_eq(xlate_text(x, k), vt))
        return -1;
    k = xlate_next(x, k);
    if (xlate_punct(x, k, '&')) {
        if (!ref && !konst)
            return -1;
        k = xlate_next(x, k);
    } else if (ref) {
        return -1;
    }
    return k == last && x->t[k].kind == TK_IDENT ? k : -1;
}

/* 'a.c OP b.c' at k (OP the operator's text): the token after it, or -1. */
static ptrdiff_t component_op(const xlate *x, ptrdiff_t k, hp_str a, hp_str b, char c, hp_str op)
{
    char cs[2] = {c, 0};
    if (!str_eq(xlate_text(x, k), a) || !xlate_punct(x, (k = xlate_next(x, k)), '.') ||
        !xlate_is(x, (k = xlate_next(x, k)), cs))
        return -1;
    k = xlate_next(x, k);
    if (!str_eq(xlate_text(x, k), op))
        return -1;
    if (!str_eq(xlate_text(x, (k = xlate_next(x, k))), b) ||
        !xlate_punct(x, (k = xlate_next(x, k)), '.') || !xlate_is(x, (k = xlate_next(x, k)), cs))
        return -1;
    return xlate_next(x, k);
}

/* A program's own component-wise operator on a vector type that HIP's vector types carry as
 * non-template operators of their own ('*', '/' of two vectors, '+=', '-=', '*=', '/=' of a
 * vector): every use of it is ambiguous under HIP's AMD platform. Where its body is exactly the
 * component-wise operation (return make_float2(a.x * b.x, a.y * b.y), or a.x += b.x; ...), HIP's
 * does the same, and the definition is kept for HIP's NVIDIA platform only. */
static void vector_operators(xlate *x)
{
    for (ptrdiff_t i = 0; i < x->nt; i++) {
        if (x->t[i].kind != TK_IDENT || (x->t[i].flags & TF_PP) || x->t[i].len != 8 ||
            !xlate_is(x, i, "operator"))
            continue;
        ptrdiff_t o = xlate_next(x, i), open = xlate_next(x, o);
        hp_str op = xlate_text(x, o);
        int compound = xlate_punct(x, o, P_ASSIGN_OP) && op.len == 2 &&
                       strchr("+-*/", op.s[0]) != NULL;
        if (!(compound || xlate_punct(x, o, '*') || xlate_punct(x, o, '/')))
            continue;
        lex_args a;
        if (!xlate_punct(x, open, '(') || !xlate_args(x, open, &a) || a.n != 2)
            continue;
        /* the type: the first parameter's (after const) */
        ptrdiff_t t0 = xlate_is(x, a.first[0], "const") ? xlate_next(x, a.first[0]) : a.first[0];
        hp_str vt = xlate_text(x, t0);
        int rank = vector_rank(vt);
        ptrdiff_t pa = rank ? vector_param(x, a.first[0], a.last[0], vt, compound) : -1;
        ptrdiff_t pb = pa >= 0 ? vector_param(x, a.first[1], a.last[1], vt, 0) : -1;
        ptrdiff_t body = xlate_next(x, a.close);
        if (pb < 0 || !xlate_punct(x, body, '{'))
            continue;
        hp_str an = xlate_text(x, pa), bn = xlate_text(x, pb);
        hp_str bare = compound ? str_make(op.s, 1) : op;
        ptrdiff_t k = xlate_next(x, body);
        int ok = 1;
        if (!compound) {
            const char *mk = arena_printf(x->a, "make_%.*s", (int)vt.len, vt.s);
            ok = xlate_is(x, k, "return") && xlate_is(x, (k = xlate_next(x, k)), mk) &&
                 xlate_punct(x, (k = xlate_next(x, k)), '(');
            k = xlate_next(x, k);
        }
        for (int c = 0; ok && c < rank; c++) {
            k = component_op(x, k, an, bn, "xyzw"[c], compound ? op : bare);
            ok = k >= 0 && (compound ? xlate_punct(x, k, ';')
                                     : xlate_punct(x, k, c + 1 < rank ? ',' : ')'));
            k = xlate_next(x, k);
        }
        if (ok && !compound)
            ok = xlate_punct(x, k, ';') && (k = xlate_next(x, k)) >= 0;
        if (!ok || !xlate_punct(x, k, '}'))
            continue;
        /* the definition from its first word: after the previous ';', '}', '{' or directive */
        ptrdiff_t start = i;
        for (ptrdiff_t q = xlate_prev(x, i); q >= 0; q = xlate_prev(x, q)) {
            if (xlate_punct(x, q, ';') || xlate_punct(x, q, '}') || xlate_punct(x, q, '{') ||
                (x->t[q].flags & TF_PP) || x->t[q].kind == TK_PP_END)
                break;
            start = q;
        }
        ptrdiff_t ls = line_start(x, x->t[start].off), end = x->t[k].off + 1;
        int alone = 1; /* the definition's lines hold nothing else */
        for (ptrdiff_t b = ls; b < x->t[start].off; b++)
            alone &= x->src[b] == ' ' || x->src[b] == '\t';
        ptrdiff_t e = end;
        while (e < x->len && (x->src[e] == ' ' || x->src[e] == '\t' || x->src[e] == '\r'))
            e++;
        if (!alone || (e < x->len && x->src[e] != '\n'))
            continue;
        /* kept so already (a second translation): the line before is the test */
        ptrdiff_t pl = ls > 0 ? line_start(x, ls - 1) : ls;
        hp_str prevl = str_make(x->src + pl, ls - pl);
        while (prevl.len && (prevl.s[prevl.len - 1] == '\n' || prevl.s[prevl.len - 1] == '\r' ||
                             prevl.s[prevl.len - 1] == ' '))
            prevl.len--;
        if (ls > 0 && str_eqc(prevl, "#if !defined(__HIP_PLATFORM_AMD__)"))
            continue;
        xlate_insert(x, ls, arena_printf(x->a, "#if !defined(__HIP_PLATFORM_AMD__)%s", x->nl));
        xlate_insert(x, end, arena_printf(x->a, "%s#endif", x->nl));
        x->st.converted++;
        finding(x, i, "HP-HEADER", HP_SEV_NOTE,
                xlate_msg(x,
                          "HIP's %.*s has this component-wise operator%.*s itself, and a use of "
                          "both is ambiguous: kept for HIP's NVIDIA platform only",
                          (int)vt.len, vt.s, (int)op.len, op.s),
                NULL);
        i = k;
    }
}

/* Calls of helpers that the file's headers define only under '#ifdef __cuda_cuda_h__' (cuda.h's
 * include guard, which translation makes HIPPORT_CUDA_H and no HIP defines): reported at the
 * first call of each outside such a test in this file, where the helper is missing. */
/* Does the file #define name, or define a function of that name (a parameter list, then a
 * body)? */
static int defines_name(const xlate *x, hp_str name)
{
    for (ptrdiff_t d = 0; d < x->ndirs; d++) {
        ptrdiff_t h = x->dirs[d], n = xlate_next(x, xlate_next(x, h));
        if (x->t[h].sub == PP_DEFINE && n < x->nt && str_eq(xlate_text(x, n), name))
            return 1;
    }
    for (ptrdiff_t i = 0; i < x->nt; i++) {
        if (x->t[i].kind != TK_IDENT || (x->t[i].flags & TF_PP) ||
            !str_eq(xlate_text(x, i), name))
            continue;
        ptrdiff_t open = xlate_next(x, i);
        lex_args a;
        if (!xlate_punct(x, open, '(') || !xlate_args(x, open, &a))
            continue;
        ptrdiff_t after = xlate_next(x, a.close);
        while (after < x->nt && x->t[after].kind == TK_IDENT)
            after = xlate_next(x, after);
        if (xlate_punct(x, after, '{'))
            return 1;
    }
    return 0;
}

static void guarded_uses(xlate *x)
{
    const warp_env *e = x->env;
    if (!e || !e->nguarded)
        return;
    int depth = 0, open_at = -1;
    unsigned char *done = NEW(x->a, unsigned char, e->nguarded);
    for (ptrdiff_t i = 0; i < x->nt; i++) {
        const tok *t = &x->t[i];
        if (t->kind == TK_PP_HASH) {
            warp_env_guard_step(x, i, &depth, &open_at);
            continue;
        }
        if (t->kind != TK_IDENT || open_at > 0)
            continue;
        int k = nameidx_get(&e->guarded_ix, xlate_text(x, i));
        if (k < 0 || done[k] || is_member(x, i) || xlate_punct(x, xlate_prev(x, i), P_SCOPE) ||
            !xlate_punct(x, xlate_next(x, i), '('))
            continue;
        done[k] = 1;
        if (nameidx_get(&e->plain_ix, e->guarded[k]) >= 0 || defines_name(x, e->guarded[k]))
            continue;
        const char *file = strrchr(e->guarded_file[k], '/');
        file = file ? file + 1 : e->guarded_file[k];
        hp_str n = e->guarded[k];
        finding(x, i, "HP-CUDA-MACRO", HP_SEV_WARNING,
                xlate_msg(x,
                          "'%.*s' is defined in '%s' only under '#ifdef __cuda_cuda_h__' (line "
                          "%d), cuda.h's include guard, which becomes HIPPORT_CUDA_H and no HIP "
                          "defines: it is not compiled, and this call has nothing to call",
                          (int)n.len, n.s, file, e->guarded_line[k]),
                "define HIPPORT_CUDA_H before that header is included (-DHIPPORT_CUDA_H) where "
                "its driver-API helpers do not repeat runtime overloads, or define the helper");
    }
}

/* A launch at i inside a __global__ or __device__ function (not __host__ too): CUDA's dynamic
 * parallelism, which HIP does not have. */
static void device_launch(xlate *x, ptrdiff_t i)
{
    if (in_device_function(x, i))
        finding(x, i, "HP-UNSUPPORTED", HP_SEV_WARNING,
                "a kernel launched from device code (CUDA's dynamic parallelism): HIP has no "
                "device-side launch",
                "launch it from the host, or fold the child's work into the parent kernel");
}

/* Is the name at k declared or defined here (the file's own), or a macro the file tests? */
static int declared_here(const xlate *x, ptrdiff_t k)
{
    if (x->t[k].flags & TF_PP) {
        ptrdiff_t h = directive_of(x, k);
        if (h >= 0 && (x->t[h].sub == PP_DEFINE || x->t[h].sub == PP_UNDEF) &&
            xlate_next(x, xlate_next(x, h)) == k)
            return 1;
        return defined_context(x, k);
    }
    if (own_declaration(x, k))
        return 1;
    ptrdiff_t p = xlate_prev(x, k), n = xlate_next(x, k);
    if (p < 0)
        return 0;
    static const char *const intro[] = {"struct", "class", "union", "enum", "typedef",
                                        "namespace", "using", "typename"};
    for (size_t j = 0; j < sizeof intro / sizeof *intro; j++)
        if (xlate_is(x, p, intro[j]))
            return 1;
    int decl_end = n < x->nt && x->t[n].kind == TK_PUNCT &&
                   (x->t[n].sub == '(' || x->t[n].sub == '=' || x->t[n].sub == ';' ||
                    x->t[n].sub == '[' || x->t[n].sub == ',' || x->t[n].sub == ')' ||
                    x->t[n].sub == '{');
    /* T *name, T &name, typedef struct {...} name; enum { name, ... } */
    if (decl_end && (xlate_punct(x, p, '*') || xlate_punct(x, p, '&') ||
                     xlate_punct(x, p, '}') || xlate_punct(x, p, '{')))
        return 1;
    return 0;
}

/* CUDA-like names (cudaX, cuX, CU_, CUDA_, the libraries' prefixes) that the tables do not know
 * and that neither the file nor the project headers it includes declare: each is reported
 * once, where it first appears, rather than left silently. A macro call in capitals
 * (CUDA_CHECK(...)) is a project's helper, and is left alone. */
static void unknown_names(xlate *x)
{
    typedef struct cand {
        hp_str name;
        ptrdiff_t first;
        int own;
    } cand;
    cand *c = NULL;
    int nc = 0;
    for (ptrdiff_t k = 0; k < x->nt; k++) {
        if (x->t[k].kind != TK_IDENT)
            continue;
        unsigned char b = (unsigned char)x->src[x->t[k].off];
        if (b != 'c' && b != 'C' && b != 'n' && b != 'N')
            continue;
        hp_str s = xlate_text(x, k);
        if (!warp_env_cuda_like_name(s) || map_find(s.s, s.len))
            continue;
        int j = 0;
        while (j < nc && !str_eq(c[j].name, s))
            j++;
        if (j == nc) {
            if (nc % 16 == 0)
                c = arena_grow(x->a, c, (ptrdiff_t)nc * (ptrdiff_t)sizeof(cand),
                               (ptrdiff_t)(nc + 16) * (ptrdiff_t)sizeof(cand), _Alignof(cand));
            c[nc++] = (cand){s, -1, 0};
        }
        if (c[j].own)
            continue;
        ptrdiff_t p = xlate_prev(x, k);
        int qualified = p >= 0 && (xlate_punct(x, p, P_SCOPE) || is_member(x, k));
        if (declared_here(x, k) || qualified || is_own(x, s)) {
            c[j].own = 1;
            continue;
        }
        /* a use in a directive is mostly of the build's macros (-DCUDA_PATH=...) */
        if (x->t[k].flags & TF_PP)
            continue;
        int caps = 1;
        for (ptrdiff_t q = 0; q < s.len && caps; q++)
            caps = !(s.s[q] >= 'a' && s.s[q] <= 'z');
        if (caps && xlate_punct(x, xlate_next(x, k), '('))
            c[j].own = 1;
        else if (c[j].first < 0)
            c[j].first = k;
    }
    for (int j = 0; j < nc; j++) {
        if (c[j].own || c[j].first < 0)
            continue;
        int in_header = 0;
        if (x->env && x->env->cuda_ix.cap)
            in_header = nameidx_get(&x->env->cuda_ix, c[j].name) >= 0;
        else /* no index (no room for it): the list */
            for (int h = 0; x->env && h < x->env->ncuda && !in_header; h++)
                in_header = str_eq(x->env->cuda_names[h], c[j].name);
        if (in_header)
            continue;
        finding(x, c[j].first, "HP-UNSUPPORTED", HP_SEV_WARNING,
                xlate_msg(x, "'%.*s' is a CUDA name hipport does not know; it is left as it is",
                          (int)c[j].name.len, c[j].name.s),
                NULL);
    }
}

/* One token of the translation pass (not a punctuator). depth: the launches open outside
 * and inside directives, counted apart as the lexer does. */
static inline void visit(xlate *x, ppstate *ps, ptrdiff_t i, int depth[2])
{
    const tok *k = &x->t[i];
    /* identifiers are most of the tokens that come here: tested apart from the switch (whose
     * indirect jump mispredicts where this branch learns the pattern) */
    if (k->kind == TK_IDENT) {
        ident(x, i);
        return;
    }
    switch (k->kind) {
    case TK_PP_HASH:
        directive(x, ps, i);
        break;
    case TK_LAUNCH_OPEN: {
        x->device_code = 1;
        int pp = (k->flags & TF_PP) != 0;
        int *d = &depth[pp];
        int rewritten = 0;
        if (!pp && *d == 0)
            device_launch(x, i);
        if (x->o->launch == HP_LAUNCH_GGL && *d == 0) {
            /* A launch inside another launch's <<< >>> (only in malformed code) leaves the
             * whole group as written, so that a second translation decides the same. */
            if (!launch_group_nested(x, i)) {
                launch_rewrite(x, i);
                rewritten = 1;
            }
            x->launch_rewritten[pp] = rewritten;
        }
        /* nvcc takes "<< <" and "> >>"; clang only "<<<" and ">>>" */
        if (k->len != 3 && !rewritten)
            xlate_edit(x, k->off, k->len, S("<<<"));
        (*d)++;
        break;
    }
    case TK_LAUNCH_CLOSE: {
        int pp = (k->flags & TF_PP) != 0;
        int *d = &depth[pp];
        if (*d > 0)
            (*d)--;
        if (k->len != 3 && !(x->o->launch == HP_LAUNCH_GGL && *d == 0 && x->launch_rewritten[pp]))
            xlate_edit(x, k->off, k->len, S(">>>"));
        break;
    }
    case TK_PP_END:
        depth[1] = 0;
        break;
    default:
        break;
    }
}

HP_NOINLINE static void translate(hp_ctx *ctx, const hp_translate_opts *o, const char *path,
                                  const char *src, ptrdiff_t len, const warp_env *env,
                                  hp_translate_result *out)
{
    arena *a = &ctx->a;
    xlate *x = NEW(a, xlate, 1);
    x->ctx = ctx;
    x->a = a;
    x->o = o;
    x->env = env;
    x->hipv = o->hip_version > 0 ? o->hip_version : map_newest_version();
    x->device_family = map_family_index("device");
    x->path = path ? path : "<input>";
    x->src = src;
    x->len = len;
    x->bom = len >= 3 && memcmp(src, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    const char *nl = memchr(src, '\n', (size_t)len);
    x->nl = nl && nl > src && nl[-1] == '\r' ? "\r\n" : "\n";
    x->is_cu = ends_with(x->path, ".cu");
    diag_init(&x->d, a, x->path, src, len);
    x->d.bare = o->count_only && !o->annotate;

    lex_out lx;
    if (env && env->lx.toks)
        lx = env->lx; /* warp_env_collect lexed this buffer already */
    else
        lex_all_marked(a, src, len, translate_filter(), &lx);
    x->t = lx.toks;
    x->nt = lx.n;
    x->dirs = lx.dirs;
    x->ndirs = lx.ndirs;
    x->idx = NEW(a, lex_idx, 1);
    lex_idx_init(x->idx, a, src, x->t, x->nt);

    /* hipport's own compat header is already HIP: a tree that holds one translates it as is */
    if (is_compat_header(x)) {
        out->out = src;
        out->out_len = len;
        out->stats.files = 1;
        out->stats.bytes = len;
        return;
    }
    find_own_macros(x);
    x->complex_family = map_family_index("complex");
    x->cublas_family = map_family_index("cublas");
    x->cublas_legacy = cublas_legacy_api(x);
    if (o->roc)
        x->roc_complex = roc_complex_lib(x);
    int depth[2] = {0, 0}; /* launches open outside and inside directives (counted apart, as
                              the lexer does) */
    ppstate ps;
    memset(&ps, 0, sizeof ps);
    ps.first_top = -1;
    detect_guard(x, &ps);
    ppskip *pk = NULL;
    if (o->skip_excluded) {
        pk = NEW(a, ppskip, 1);
        ppeval_skip_init(pk, a, o->macros, o->nmacros);
    }

    const tok *toks = x->t;
    ptrdiff_t nt = x->nt, from = 0;
    if (!pk && lx.marks) {
        /* Only the marked tokens: the identifiers translate_filter lets through, directives and
         * launches; ident() does nothing for any other token, until CUdeviceptr makes it look
         * at every identifier after it. */
        for (ptrdiff_t m = 0; m < lx.nmarks; m++) {
            ptrdiff_t i = lx.marks[m];
            visit(x, &ps, i, depth);
            if (x->deviceptr_seen) {
                from = i + 1;
                break;
            }
        }
        if (!x->deviceptr_seen)
            from = nt;
    }
    for (ptrdiff_t i = from; i < nt; i++) {
        /* punctuators, half the tokens, need nothing: skipped in a loop of their own (toks[nt]
         * is TK_EOF, which ends it), where the excluded branches' tracking does not */
        if (!pk)
            while (toks[i].kind == TK_PUNCT)
                i++;
        if (i >= nt)
            break;
        if (pk && excluded(x, pk, &ps, i))
            continue;
        visit(x, &ps, i, depth);
    }

    unknown_names(x);
    half2_members(x);
    guarded_uses(x);
    if (mentions(x, "operator"))
        vector_operators(x);
    if (x->warp_sync_define && !mentions(x, "HIP_ENABLE_WARP_SYNC_BUILTINS")) {
        add_lines(x, &ps, arena_printf(x->a, "#ifndef HIP_ENABLE_WARP_SYNC_BUILTINS%s"
                                             "#define HIP_ENABLE_WARP_SYNC_BUILTINS%s#endif",
                                       x->nl, x->nl),
                  -3);
        diag_add_file(&x->d, "HP-WARP", HP_SEV_NOTE,
                      xlate_msg(x,
                                "HIP %d.%d has the *_sync warp builtins only with "
                                "HIP_ENABLE_WARP_SYNC_BUILTINS defined before the first HIP "
                                "include: defined at the top of this file",
                                x->hipv / 100, x->hipv % 100),
                      "or compile with -DHIP_ENABLE_WARP_SYNC_BUILTINS");
    }
    /* a file that includes the runtime itself after a HIP header that needs it first, or
     * hip_gl_interop.h before any (it declares with hipError_t and includes no runtime header;
     * CUDA's GL interop header includes the runtime API), gets it first */
    if ((!x->runtime_included || ps.runtime_late) &&
        (x->is_cu || x->device_code || (ps.runtime_late && x->runtime_included) ||
         x->interop_first)) {
        add_lines(x, &ps, "#include <hip/hip_runtime.h>", -2);
        x->st.converted++;
    }
    /* CUDA's runtime header includes <string.h>; HIP's did until HIP 7.0 */
    if ((x->uses_cstring || x->cstring_for_lib) && !x->cstring_included && x->hipv >= 700 &&
        (x->runtime_included || x->is_cu || x->device_code)) {
        include_std(x, &ps, "#include <cstring>",
                    x->uses_cstring
                        ? "CUDA's runtime header includes <string.h>, whose functions this "
                          "file calls; HIP's no longer does (HIP 7.0): <cstring> included"
                        : "rocPRIM's headers call memset and relied on HIP's runtime header "
                          "for <string.h>, which it no longer includes (HIP 7.0): <cstring> "
                          "included");
    }
    /* CUDA's runtime header includes <math.h>; HIP's brings host code no classification
     * macros (5.2 and 7.x alike) */
    if (x->uses_math && !x->math_included &&
        (x->runtime_included || x->is_cu || x->device_code)) {
        include_std(x, &ps, "#include <math.h>",
                    "CUDA's runtime header includes <math.h>, whose isfinite, isnan or isinf "
                    "this file calls; HIP's does not declare them for host code: <math.h> "
                    "included");
    }
    /* CUDA's library headers bring its fp16 types; HIP's do not: hip_fp16.h (which
     * hipport_compat.h includes) */
    if (x->uses_half && !x->half_var && !x->fp16_included && !x->needs_compat &&
        !x->compat_included) {
        include_std(x, &ps, "#include <hip/hip_fp16.h>",
                    "CUDA's library headers (cuBLAS's, cuSPARSE's, cuda_bf16.h) bring "
                    "cuda_fp16.h, whose half types this file names without including it; HIP's "
                    "counterparts do not: <hip/hip_fp16.h> included");
    }
    if (x->needs_compat && !x->compat_included) {
        if (ps.runtime_line_end > 0 && ps.runtime_line_end < x->len)
            /* right after the file's own include of the HIP runtime */
            xlate_insert(x, ps.runtime_line_end,
                         arena_printf(x->a, "#include \"hipport_compat.h\"%s", x->nl));
        else
            add_lines(x, &ps, "#include \"hipport_compat.h\"", -1);
    }
    /* --annotate's comments are edits too: made before the arguments are written again, a
     * comment above a line among a call's arguments (a lambda's body) is written with them */
    if (o->annotate)
        annotate_apply(x);
    /* after every other edit: a call's arguments are written again as one piece, with the
     * edits inside them (lines inserted before a directive among the arguments included) */
    xlate_args_finish(x);
    apply(x, &out->out, &out->out_len);
    /* a length that differs says it without reading the bytes; so do edits that all write
     * what they replace */
    out->changed = out->out_len != len ||
                   (edits_differ(x) && memcmp(out->out, src, (size_t)len) != 0);
    if (!x->d.bare)
        diag_sort(&x->d);
    out->findings = x->d.v;
    out->nfindings = x->d.n;
    out->unsupported = x->unsup;
    out->nunsupported = x->nunsup;
    out->needs_compat = x->needs_compat;
    out->conv = x->conv;
    out->nconv = x->nconv;
    x->st.files = 1;
    x->st.bytes = len;
    /* lines: the newlines, and a last line without one */
    x->st.lines = hp_count_byte(src, len, '\n') + (len > 0 && src[len - 1] != '\n');
    out->stats = x->st;
}

/* Runs translate() with a recovery point for running out of memory. */
static hp_status translate_guarded(hp_ctx *ctx, const hp_translate_opts *o, const char *path,
                                   const char *src, ptrdiff_t len, const warp_env *env,
                                   hp_translate_result *out)
{
    arena *a = &ctx->a;
    jmp_buf jb;
    jmp_buf *saved = a->oom;
    a->oom = &jb;
    if (setjmp(jb)) {
        a->oom = saved;
        memset(out, 0, sizeof *out);
        return HP_ENOMEM;
    }
    translate(ctx, o, path, src, len, env, out);
    a->oom = saved;
    return HP_OK;
}

hp_status hp_translate_buffer(hp_ctx *ctx, const hp_translate_opts *o, const char *path,
                              const char *src, ptrdiff_t len, hp_translate_result *out)
{
    return translate_buffer(ctx, o, path, src, len, NULL, out);
}

hp_status translate_buffer(hp_ctx *ctx, const hp_translate_opts *o, const char *path,
                       const char *src, ptrdiff_t len, const warp_env *env,
                       hp_translate_result *out)
{
    static const hp_translate_opts defaults = {.launch = HP_LAUNCH_CHEVRON, .compat_header = 1};
    memset(out, 0, sizeof *out);
    if (!ctx || len < 0 || (!src && len))
        return HP_EUSAGE;
    if (len > ((ptrdiff_t)1 << 31) - 2)
        return HP_ETOOBIG;
    return translate_guarded(ctx, o ? o : &defaults, path, src ? src : "", len, env, out);
}
