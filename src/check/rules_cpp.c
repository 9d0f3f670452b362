/* rules_cpp.c: the C++ context of check: which files are C++, object-like macros, #if groups
 * that test HIP/AMD macros, device/kernel/host scopes of function bodies, the declarations
 * and types of names near a use, and constant evaluation of small expressions. */
#include <string.h>
#include <strings.h>

#include "hash.h"
#include "ppeval.h"
#include "rules.h"
#include "run.h"
#include "str.h"

#include "banned.h"

int rules_cpp_claims(const char *path, const hp_run_opts *r)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    return run_is_c_family(base, r);
}

/* ------------------------------------------------------------------ macros */

int rules_is_amd_macro(hp_str s)
{
    if (RULES_STARTS(s, "__gfx") || RULES_STARTS(s, "__GFX"))
        return 1;
    if (str_find(s, S("AMDGCN")) >= 0 || str_find(s, S("AMDGPU")) >= 0)
        return 1;
    static const char *const words[] = {"HIP", "ROCM", "ROCm"};
    for (size_t w = 0; w < sizeof words / sizeof *words; w++) {
        hp_str word = str_cstr(words[w]);
        for (ptrdiff_t at = 0; at + word.len <= s.len; at++) {
            if (memcmp(s.s + at, word.s, (size_t)word.len) != 0)
                continue;
            char before = at ? s.s[at - 1] : '_';
            if (before == '_')
                return 1;
        }
    }
    return 0;
}

static unsigned macro_slot(const rctx *c, hp_str s)
{
    return hp_hash(s.s, s.len, 7) & (unsigned)(c->capmacros - 1);
}

const rules_macro *rules_macro_any(const rctx *c, hp_str s)
{
    if (!c->capmacros)
        return NULL;
    for (unsigned j = macro_slot(c, s); c->macros[j].name.s;
         j = (j + 1) & (unsigned)(c->capmacros - 1))
        if (str_eq(c->macros[j].name, s))
            return &c->macros[j];
    return NULL;
}

const rules_macro *rules_macro_get(const rctx *c, hp_str s)
{
    const rules_macro *m = rules_macro_any(c, s);
    return m && !m->funclike && m->ndefs == 1 ? m : NULL;
}

ptrdiff_t rules_directive(const rctx *c, ptrdiff_t i)
{
    if (i < 0 || i >= c->nt || !(c->t[i].flags & TF_PP))
        return -1;
    for (; i >= 0; i--) {
        if (c->t[i].kind == TK_PP_HASH)
            return i;
        if (c->t[i].kind == TK_PP_END || !(c->t[i].flags & TF_PP))
            return -1;
    }
    return -1;
}

static int plat_macro(const rctx *c, hp_str s)
{
    if (c->plat.cap && nameidx_get(&c->plat, s) >= 0)
        return 1;
    return c->cfg && c->cfg->plat && nameidx_get(c->cfg->plat, s) >= 0;
}

int rules_directive_amd(const rctx *c, ptrdiff_t h)
{
    for (ptrdiff_t i = h + 1; i < c->nt && (c->t[i].flags & TF_PP) && c->t[i].kind != TK_PP_END;
         i++) {
        if (c->t[i].kind != TK_IDENT)
            continue;
        hp_str s = rules_text(c, i);
        if (rules_is_amd_macro(s) || plat_macro(c, s))
            return 1;
    }
    return 0;
}

static int cuda_own_macro(hp_str s)
{
    return RULES_STARTS(s, "__CUDA") || RULES_STARTS(s, "CUDA") || RULES_STARTS(s, "__NVCC") ||
           RULES_STARTS(s, "CUDART") || RULES_STARTS(s, "__CUDACC");
}

static uint8_t *chain_flags(rctx *c, int *nchains);

/* The names #defined inside chains that chain_flags marks, put into c->plat (grown by
 * rebuilding: the sets are small). Returns how many were found (0: none new). */
static int collect_plat(rctx *c)
{
    int nchains;
    uint8_t *chains = chain_flags(c, &nchains);
    int stack[64], depth = 0, next = 0, marked = 0;
    hp_str *found = NULL;
    int nfound = 0, capfound = 0;
    for (ptrdiff_t k = 0; k < c->ndirs; k++) {
        ptrdiff_t i = c->dirs[k];
        switch (c->t[i].sub) {
        case PP_IF:
        case PP_IFDEF:
        case PP_IFNDEF: {
            int f = next < nchains ? chains[next] : 0;
            next++;
            if (depth < 64)
                stack[depth] = f;
            depth++;
            marked += f;
            break;
        }
        case PP_ENDIF:
            if (depth > 0) {
                depth--;
                if (depth < 64)
                    marked -= stack[depth];
            }
            break;
        case PP_DEFINE: {
            if (!marked)
                break;
            ptrdiff_t name = rules_next(c, rules_next(c, i));
            if (name >= c->nt || c->t[name].kind != TK_IDENT)
                break;
            hp_str s = rules_text(c, name);
            if (rules_is_amd_macro(s) || cuda_own_macro(s) || plat_macro(c, s))
                break;
            if (nfound == capfound) {
                int nc = capfound ? 2 * capfound : 16;
                hp_str *nv = NEW(c->a, hp_str, nc);
                if (nfound)
                    memcpy(nv, found, (size_t)nfound * sizeof *nv);
                found = nv;
                capfound = nc;
            }
            found[nfound++] = s; /* repeats: the index keeps one */
            break;
        }
        default:
            break;
        }
    }
    if (!nfound)
        return 0;
    nameidx old = c->plat;
    int nold = 0;
    for (ptrdiff_t j = 0; j < old.cap; j++)
        nold += old.key[j].len > 0;
    nameidx ix;
    if (!nameidx_init(&ix, c->a, nold + nfound))
        return 0;
    for (ptrdiff_t j = 0; j < old.cap; j++)
        if (old.key[j].len)
            nameidx_put(&ix, old.key[j], 0, 0);
    for (int q = 0; q < nfound; q++)
        nameidx_put(&ix, found[q], 0, 0);
    c->plat = ix;
    return nfound;
}

/* Twice: a macro defined under a test of one found the first time counts too. */
static void find_plat(rctx *c)
{
    for (int round = 0; round < 2 && collect_plat(c); round++)
        ;
}

/* A lexed context of a header for the first pass, its platform macros found (find_plat). */
static rctx *header_ctx(arena *a, const rules_cfg *cfg, const char *src, ptrdiff_t len)
{
    rctx *c = NEW(a, rctx, 1);
    c->a = a;
    c->cfg = cfg;
    c->src = src;
    c->len = len;
    lex_out lx;
    lex_all(a, src, len, &lx);
    c->t = lx.toks;
    c->nt = lx.n;
    c->dirs = lx.dirs;
    c->ndirs = lx.ndirs;
    find_plat(c);
    return c;
}

static hp_str *shim_names(rctx *c, int *n);

hp_str *rules_platform_macros(arena *a, const rules_cfg *cfg, const char *src, ptrdiff_t len,
                              int *n, hp_str **shim, int *nshim)
{
    *n = 0;
    rctx *c = header_ctx(a, cfg, src, len);
    if (shim)
        *shim = shim_names(c, nshim);
    if (!c->plat.cap)
        return NULL;
    hp_str *v = NEW(a, hp_str, c->plat.cap);
    for (ptrdiff_t j = 0; j < c->plat.cap; j++)
        if (c->plat.key[j].len)
            v[(*n)++] = c->plat.key[j];
    return v;
}

/* ------------------------------------------------------------------ HIP shims */

/* Is the directive dirs[k] "#ifndef X" followed at once by "#define X": an include guard? */
static int include_guard(const rctx *c, ptrdiff_t k)
{
    ptrdiff_t h = c->dirs[k];
    if (c->t[h].sub != PP_IFNDEF || k + 1 >= c->ndirs || c->t[c->dirs[k + 1]].sub != PP_DEFINE)
        return 0;
    ptrdiff_t a = rules_next(c, rules_next(c, h));
    ptrdiff_t b = rules_next(c, rules_next(c, c->dirs[k + 1]));
    return a < c->nt && b < c->nt && c->t[a].kind == TK_IDENT && c->t[b].kind == TK_IDENT &&
           str_eq(rules_text(c, a), rules_text(c, b));
}

/* The name a declaration at file scope starting at token i defines for the code after it
 * (typedef ... NAME; using NAME = ...; TYPE NAME(...) {...}), or -1; *end: where to go on. */
static ptrdiff_t defined_name(const rctx *c, ptrdiff_t i, ptrdiff_t *end)
{
    *end = i;
    if (rules_is(c, i, "typedef")) {
        ptrdiff_t last = -1, j = rules_next(c, i);
        for (; j < c->nt && !rules_punct(c, j, ';'); j = rules_next(c, j)) {
            if (rules_punct(c, j, '{') || rules_punct(c, j, '(') || rules_punct(c, j, '[')) {
                ptrdiff_t m = rules_match(c, j);
                if (m < 0)
                    return -1;
                j = m;
                continue;
            }
            if (c->t[j].kind == TK_IDENT)
                last = j;
        }
        *end = j;
        return last;
    }
    if (rules_is(c, i, "using")) {
        ptrdiff_t n = rules_next(c, i);
        if (n < c->nt && c->t[n].kind == TK_IDENT && rules_punct(c, rules_next(c, n), '='))
            return n;
        return -1;
    }
    if (c->t[i].kind != TK_IDENT || !rules_punct(c, rules_next(c, i), '('))
        return -1;
    ptrdiff_t close = rules_match(c, rules_next(c, i));
    if (close < 0)
        return -1;
    ptrdiff_t j = rules_next(c, close);
    while (rules_is(c, j, "const") || rules_is(c, j, "noexcept") || rules_is(c, j, "override"))
        j = rules_next(c, j);
    if (!rules_punct(c, j, '{'))
        return -1;
    *end = close;
    return i;
}

/* Evaluates a condition as HIP-Clang would see it: CUDA's own macros undefined, HIP/AMD and
 * platform macros defined (values unknown); other macros unknown. -1 when it names neither. */
static int amd_condition(rctx *c, ptrdiff_t h)
{
    ppenv env;
    ppeval_env_init(&env, c->a, NULL, 0);
    int named = 0;
    for (ptrdiff_t j = h + 1; j < c->nt && c->t[j].kind != TK_PP_END && c->t[j].kind != TK_EOF;
         j++) {
        if (c->t[j].kind != TK_IDENT)
            continue;
        hp_str s = rules_text(c, j);
        if (rules_is_amd_macro(s) || plat_macro(c, s)) {
            ppeval_env_set(&env, s, 1, 1, S("")); /* defined; its value unknown */
            named = 1;
        } else if (cuda_own_macro(s)) {
            ppeval_env_set(&env, s, 0, 0, S(""));
            named = 1;
        }
    }
    return named ? ppeval_directive(&env, c->src, c->t, c->nt, h) : -1;
}

/* Does the name hold a word ('_'-separated, any case) that names a GPU vendor other than AMD
 * or its toolkit (USE_CUDA, WITH_NVIDIA, GGML_USE_MUSA, NV_BUILD)? */
static int other_vendor_name(hp_str s)
{
    static const char *const words[] = {"cuda", "nvidia", "nv", "nvcc", "cudacc", "musa",
                                        "maca", "metax", "mlu", "npu", "xpu", "sycl",
                                        "ascend", "cann", "corex", "gcu"};
    for (ptrdiff_t i = 0; i < s.len;) {
        while (i < s.len && s.s[i] == '_')
            i++;
        ptrdiff_t e = i;
        while (e < s.len && s.s[e] != '_')
            e++;
        for (size_t w = 0; w < sizeof words / sizeof *words; w++)
            if ((ptrdiff_t)strlen(words[w]) == e - i && strncasecmp(s.s + i, words[w], (size_t)(e - i)) == 0)
                return 1;
        i = e;
    }
    return 0;
}

/* What the condition of directive h tests: 1 every name in it (but 'defined') names a vendor
 * other than AMD; 2 it is one AMD name alone (#ifdef USE_HIP, #elif USE_ROCM, #if
 * defined(USE_HIP)); 0 anything else. */
static int vendor_test(const rctx *c, ptrdiff_t h)
{
    int other = 0, amd = 0, names = 0;
    ptrdiff_t j = rules_next(c, h);
    for (j = rules_next(c, j); j < c->nt && c->t[j].kind != TK_PP_END && c->t[j].kind != TK_EOF;
         j++) {
        if (c->t[j].kind != TK_IDENT) {
            if (c->t[j].kind != TK_PUNCT || !(rules_punct(c, j, '(') || rules_punct(c, j, ')') ||
                                              rules_punct(c, j, P_OROR)))
                return 0;
            continue;
        }
        hp_str s = rules_text(c, j);
        if (str_eq(s, S("defined")))
            continue;
        names++;
        if (rules_is_amd_macro(s))
            amd++;
        else if (other_vendor_name(s))
            other++;
        else
            return 0;
    }
    if (names && other == names)
        return 1;
    return names == 1 && amd == 1 ? 2 : 0;
}

/* In the #if chain opened by directive k of c: the directive of an arm that an AMD build takes
 * because the chain picks a vendor (one arm tests only other vendors' names, as #ifdef USE_CUDA
 * ... #elif USE_HIP ... #elif USE_MUSA, or its first arm tests one AMD name alone, as #if
 * CUPY_USE_HIP ... #else), or -1. The arms before it that test only other
 * vendors' names cannot hold on AMD: the AMD arm would be unreachable if they did. */
static ptrdiff_t vendor_chain_amd_arm(rctx *c, ptrdiff_t k)
{
    int nest = 0, other = 0, first_amd = 0;
    ptrdiff_t amd = -1;
    for (ptrdiff_t q = k; q < c->ndirs; q++) {
        ptrdiff_t h = c->dirs[q];
        unsigned sub = c->t[h].sub;
        if (q > k && (sub == PP_IF || sub == PP_IFDEF || sub == PP_IFNDEF)) {
            nest++;
            continue;
        }
        if (sub == PP_ENDIF) {
            if (nest-- == 0)
                break;
            continue;
        }
        if (nest || !(q == k || sub == PP_ELIF))
            continue;
        if (sub == PP_IFNDEF)
            return -1;
        int v = vendor_test(c, h);
        if (v == 1)
            other = 1; /* before the AMD arm or after it: the chain picks the vendor */
        else if (amd < 0 && (v == 2 || amd_condition(c, h) == 1))
            amd = h;
        if (q == k && v == 2)
            first_amd = 1; /* #if USE_HIP ... #else: the chain splits on AMD's own name */
    }
    return other || first_amd ? amd : -1;
}

hp_str *rules_include_sides(arena *a, const rules_cfg *cfg, const char *src, ptrdiff_t len,
                            int *n, uint8_t **cuda_side, hp_str **defs, uint8_t **def_dead,
                            int *ndefs)
{
    *n = 0;
    if (ndefs)
        *ndefs = 0;
    ptrdiff_t dlen;
    const char *d = lex_directives(a, src, len, &dlen); /* nothing else is read */
    if (!d)
        return NULL;
    rctx *c = NEW(a, rctx, 1);
    c->a = a;
    c->cfg = cfg;
    c->src = d;
    c->len = dlen;
    lex_out lx;
    lex_all(a, d, dlen, &lx);
    c->t = lx.toks;
    c->nt = lx.n;
    c->dirs = lx.dirs;
    c->ndirs = lx.ndirs;
    find_plat(c);
    enum { DEPTH = 64 };
    struct {
        uint8_t parent, taken, open;
        ptrdiff_t amd_arm; /* vendor_chain_amd_arm */
    } st[DEPTH];
    int depth = 0, over = 0, dead = 0, cap = 16;
    hp_str *v = NEW(a, hp_str, cap);
    uint8_t *side = NEW(a, uint8_t, cap);
    for (ptrdiff_t k = 0; k < c->ndirs; k++) {
        ptrdiff_t h = c->dirs[k];
        unsigned sub = c->t[h].sub;
        if (sub == PP_IF || sub == PP_IFDEF || sub == PP_IFNDEF || sub == PP_ELIF ||
            sub == PP_ELSE) {
            int elif = sub == PP_ELIF || sub == PP_ELSE;
            if (!elif) {
                if (over || depth == DEPTH) {
                    over++;
                    continue;
                }
                st[depth].parent = (uint8_t)dead;
                st[depth].taken = st[depth].open = 0;
                st[depth].amd_arm = vendor_chain_amd_arm(c, k);
                depth++;
            } else if (over || depth == 0) {
                continue;
            }
            if (st[depth - 1].parent || st[depth - 1].taken) {
                dead = 1;
                continue;
            }
            int r = sub == PP_ELSE ? (st[depth - 1].open ? -1 : 1) : amd_condition(c, h);
            if (st[depth - 1].amd_arm == h)
                r = 1;
            else if (r < 0 && st[depth - 1].amd_arm > h && vendor_test(c, h) == 1)
                r = 0;
            dead = r == 0;
            if (r == 1)
                st[depth - 1].taken = 1;
            if (r < 0)
                st[depth - 1].open = 1;
        } else if (sub == PP_ENDIF) {
            if (over)
                over--;
            else if (depth > 0)
                dead = st[--depth].parent;
        } else if (sub == PP_INCLUDE) {
            ptrdiff_t q = rules_next(c, rules_next(c, h));
            if (q >= c->nt || c->t[q].kind != TK_STRING || c->t[q].len < 3)
                continue;
            if (*n == cap) {
                hp_str *nv = NEW(a, hp_str, 2 * cap);
                uint8_t *ns = NEW(a, uint8_t, 2 * cap);
                memcpy(nv, v, (size_t)cap * sizeof *nv);
                memcpy(ns, side, (size_t)cap);
                v = nv;
                side = ns;
                cap *= 2;
            }
            side[*n] = (uint8_t)dead;
            v[(*n)++] = str_make(c->src + c->t[q].off + 1, c->t[q].len - 2);
        }
    }
    *cuda_side = side;
    if (defs)
        *defs = rules_defines_sides(c, ndefs, def_dead);
    return v;
}

int rules_shim(const rctx *c, hp_str s)
{
    return c->cfg && c->cfg->shim && nameidx_get(c->cfg->shim, s) >= 0;
}

/* The names the header of c defines for HIP (rules_platform_macros' *shim). */
static hp_str *shim_names(rctx *c, int *n)
{
    arena *a = c->a;
    *n = 0;
    int nchains;
    uint8_t *chains = chain_flags(c, &nchains);
    /* Per #if level: 1 an AMD test, 2 an include guard, 0 anything else. */
    uint8_t stack[64];
    int depth = 0, next = 0, marked = 0, other = 0, shim = 0, braces = 0;
    ptrdiff_t k = 0;
    hp_str *v = NEW(a, hp_str, 16);
    uint8_t *vopen = NEW(a, uint8_t, 16);
    int cap = 16;
    for (ptrdiff_t i = 0; i < c->nt; i++) {
        ptrdiff_t name = -1, end = i;
        if (c->t[i].kind == TK_PP_HASH) {
            for (; k < c->ndirs && c->dirs[k] < i; k++)
                ;
            switch (c->t[i].sub) {
            case PP_IF:
            case PP_IFDEF:
            case PP_IFNDEF: {
                uint8_t f = next < nchains && chains[next] ? 1 : include_guard(c, k) ? 2 : 0;
                next++;
                if (depth < 64)
                    stack[depth] = f;
                depth++;
                marked += f == 1;
                other += f == 0;
                break;
            }
            case PP_ENDIF:
                if (depth > 0 && --depth < 64) {
                    marked -= stack[depth] == 1;
                    other -= stack[depth] == 0;
                }
                break;
            case PP_INCLUDE: {
                ptrdiff_t p = rules_next(c, rules_next(c, i));
                if (p < c->nt && (c->t[p].kind == TK_HEADER || c->t[p].kind == TK_STRING) &&
                    c->t[p].len > 6 && memcmp(c->src + c->t[p].off + 1, "hip/", 4) == 0 &&
                    !other)
                    shim = 1;
                break;
            }
            case PP_DEFINE:
                name = rules_next(c, rules_next(c, i));
                break;
            default:
                break;
            }
        } else if (!(c->t[i].flags & TF_PP)) {
            if (rules_punct(c, i, '{'))
                braces++;
            else if (rules_punct(c, i, '}'))
                braces -= braces > 0;
            else if (!braces)
                name = defined_name(c, i, &end);
        }
        if (name >= 0 && name < c->nt && c->t[name].kind == TK_IDENT && (marked || !other)) {
            if (*n + 2 > cap) {
                hp_str *nv = NEW(a, hp_str, 2 * cap);
                uint8_t *no = NEW(a, uint8_t, 2 * cap);
                memcpy(nv, v, (size_t)cap * sizeof *nv);
                memcpy(no, vopen, (size_t)cap);
                v = nv;
                vopen = no;
                cap *= 2;
            }
            vopen[*n] = (uint8_t)!marked;
            v[(*n)++] = rules_text(c, name);
            /* An overload also as "name(type" by its first parameter's type: atomicAdd(half2 */
            ptrdiff_t p = rules_next(c, name);
            if (!(c->t[name].flags & TF_PP) && rules_punct(c, p, '(')) {
                ptrdiff_t q = rules_next(c, p);
                while (rules_is(c, q, "const") || rules_is(c, q, "volatile"))
                    q = rules_next(c, q);
                if (q < c->nt && c->t[q].kind == TK_IDENT) {
                    hp_str f = rules_text(c, name), ty = rules_text(c, q);
                    char *b = NEW(a, char, f.len + ty.len + 1);
                    memcpy(b, f.s, (size_t)f.len);
                    b[f.len] = '(';
                    memcpy(b + f.len + 1, ty.s, (size_t)ty.len);
                    vopen[*n] = (uint8_t)!marked;
                    v[(*n)++] = str_make(b, f.len + ty.len + 1);
                }
            }
        }
        if (end > i)
            i = end;
    }
    /* Outside AMD tests, a definition is the HIP side only in a header that includes HIP. */
    int m = 0;
    for (int j = 0; j < *n; j++)
        if (!vopen[j] || shim)
            v[m++] = v[j];
    *n = m;
    return v;
}

static void collect_macros(rctx *c)
{
    int n = 0;
    for (ptrdiff_t k = 0; k < c->ndirs; k++)
        if (c->t[c->dirs[k]].sub == PP_DEFINE)
            n++;
    if (!n)
        return;
    int cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    c->capmacros = cap;
    c->macros = NEW(c->a, rules_macro, cap);
    for (ptrdiff_t dk = 0; dk < c->ndirs; dk++) {
        ptrdiff_t h = c->dirs[dk];
        if (c->t[h].sub != PP_DEFINE)
            continue;
        ptrdiff_t name = rules_next(c, rules_next(c, h));
        if (name >= c->nt || c->t[name].kind != TK_IDENT)
            continue;
        hp_str s = rules_text(c, name);
        ptrdiff_t after = name + 1;
        int funclike = after < c->nt && c->t[after].kind == TK_PUNCT && c->t[after].sub == '(' &&
                       c->t[after].off == c->t[name].off + c->t[name].len;
        ptrdiff_t first = rules_next(c, name), last = first - 1;
        for (ptrdiff_t j = first; j < c->nt && c->t[j].kind != TK_PP_END; j = rules_next(c, j))
            last = j;
        if (first >= c->nt || c->t[first].kind == TK_PP_END)
            last = first - 1;
        unsigned j = macro_slot(c, s);
        while (c->macros[j].name.s && !str_eq(c->macros[j].name, s))
            j = (j + 1) & (unsigned)(cap - 1);
        rules_macro *m = &c->macros[j];
        if (m->name.s) {
            /* a second definition: the same body counts once */
            int same = !funclike && !m->funclike && last - first == m->last - m->first;
            for (ptrdiff_t k = 0; same && k <= last - first; k++)
                same = str_eq(rules_text(c, first + k), rules_text(c, m->first + k));
            if (!same)
                m->ndefs++;
            m->funclike |= (uint8_t)funclike;
            continue;
        }
        m->name = s;
        m->first = (int32_t)first;
        m->last = (int32_t)last;
        m->tok = (int32_t)name;
        m->ndefs = 1;
        m->funclike = (uint8_t)funclike;
        m->guarded = 0; /* known once the scopes are (rules_cpp_prepare) */
    }
}

/* ------------------------------------------------------------------ scopes */

/* Does the identifier (or the object-like macro it names) say __global__/__device__/__host__? */
static unsigned exec_word(const rctx *c, hp_str s, int depth)
{
    if (RULES_EQ(s, "__global__"))
        return 1;
    if (RULES_EQ(s, "__device__"))
        return 2;
    if (RULES_EQ(s, "__host__"))
        return 4;
    if (depth > 2 || s.len < 2)
        return 0;
    const rules_macro *m = rules_macro_any(c, s);
    if (!m || m->funclike)
        return 0;
    unsigned w = 0;
    for (ptrdiff_t k = m->first; k <= m->last && k < c->nt; k++)
        if (c->t[k].kind == TK_IDENT)
            w |= exec_word(c, rules_text(c, k), depth + 1);
    return w;
}

static int is_control(hp_str s)
{
    return RULES_EQ(s, "if") || RULES_EQ(s, "for") || RULES_EQ(s, "while") ||
           RULES_EQ(s, "switch") || RULES_EQ(s, "catch") || RULES_EQ(s, "do") ||
           RULES_EQ(s, "else") || RULES_EQ(s, "try");
}

static int is_aggregate(hp_str s)
{
    return RULES_EQ(s, "struct") || RULES_EQ(s, "class") || RULES_EQ(s, "union") ||
           RULES_EQ(s, "namespace") || RULES_EQ(s, "enum");
}

static int not_a_name(hp_str s)
{
    return RULES_EQ(s, "__launch_bounds__") || RULES_EQ(s, "__attribute__") ||
           RULES_EQ(s, "alignas") || RULES_EQ(s, "decltype") || RULES_EQ(s, "noexcept") ||
           RULES_EQ(s, "throw") || RULES_EQ(s, "__declspec") || RULES_EQ(s, "requires") ||
           RULES_EQ(s, "__cluster_dims__");
}

typedef struct hdrinfo {
    unsigned words;   /* exec_word bits */
    int paren;        /* a '(' in the header */
    int bracket;      /* a ']' (lambda introducer) */
    int aggregate;    /* struct, class, namespace ... before any '(' */
    int init;         /* '=' at depth 0: an initializer */
    int control;      /* starts with if/for/while/... */
    ptrdiff_t name;   /* the function's name */
} hdrinfo;

/* The tokens of a constructor's initialiser list, between the ':' after the parameter list
 * and the body's '{' at open, take the function's device scope. */
static void mark_init_list(const rctx *c, uint8_t *scope, ptrdiff_t hdr, ptrdiff_t open,
                           uint8_t inner)
{
    int depth = 0;
    for (ptrdiff_t j = hdr; j < open; j++) {
        const tok *k = &c->t[j];
        if (k->kind != TK_PUNCT || (k->flags & TF_PP))
            continue;
        if (k->sub == '(' || k->sub == '[')
            depth++;
        else if ((k->sub == ')' || k->sub == ']') && depth > 0)
            depth--;
        else if (k->sub == ':' && depth == 0 && j > hdr && rules_punct(c, rules_prev(c, j), ')')) {
            for (ptrdiff_t q = j + 1; q < open; q++)
                scope[q] = (uint8_t)(scope[q] | (inner & (SC_DEVICE | SC_KERNEL | SC_HOSTDEV)));
            return;
        }
    }
}

static void analyse_header(const rctx *c, ptrdiff_t from, ptrdiff_t to, hdrinfo *h)
{
    memset(h, 0, sizeof *h);
    h->name = -1;
    int depth = 0, first = 1;
    for (ptrdiff_t i = from; i < to; i = rules_next(c, i)) {
        const tok *k = &c->t[i];
        if (k->kind == TK_IDENT) {
            hp_str s = rules_text(c, i);
            if (first && is_control(s))
                h->control = 1;
            if (!h->paren && is_aggregate(s))
                h->aggregate = 1;
            if (s.s[0] == '_' || (s.len >= 2 && s.s[0] >= 'A' && s.s[0] <= 'Z'))
                h->words |= exec_word(c, s, 0);
        } else if (k->kind == TK_PUNCT) {
            if (k->sub == '(') {
                if (depth == 0) {
                    ptrdiff_t p = rules_prev(c, i);
                    if (p >= from && c->t[p].kind == TK_IDENT && !not_a_name(rules_text(c, p)))
                        h->name = p;
                }
                h->paren = 1;
                depth++;
            } else if (k->sub == ')') {
                depth--;
            } else if (k->sub == ']') {
                h->bracket = 1;
            } else if (k->sub == '=' && depth == 0) {
                h->init = 1;
            }
        }
        first = 0;
    }
}

typedef struct frame {
    uint8_t flags;   /* SC_* of the body, without SC_GUARDED */
    int32_t fn;      /* function index for the body */
    int fnstart;     /* this brace opened a function */
    int pdepth;      /* paren depth of the enclosing level */
} frame;

enum { MAXFRAMES = 512, MAXCOND = 64 };

typedef struct cond {
    int depth_at_if;   /* brace depth at #if */
    int depth_first;   /* brace depth at the end of the first branch, -1 until #else */
    int amd;           /* the chain tests a HIP/AMD macro */
} cond;

/* Pass 1: which #if chains test HIP/AMD macros (an #elif that does marks its whole chain). */
static uint8_t *chain_flags(rctx *c, int *nchains)
{
    int n = 0;
    for (ptrdiff_t k = 0; k < c->ndirs; k++) {
        unsigned sub = c->t[c->dirs[k]].sub;
        if (sub == PP_IF || sub == PP_IFDEF || sub == PP_IFNDEF)
            n++;
    }
    uint8_t *flags = NEW(c->a, uint8_t, n + 1);
    int stack[MAXCOND], depth = 0, next = 0;
    for (ptrdiff_t k = 0; k < c->ndirs; k++) {
        ptrdiff_t i = c->dirs[k];
        switch (c->t[i].sub) {
        case PP_IF:
        case PP_IFDEF:
        case PP_IFNDEF:
            if (depth < MAXCOND)
                stack[depth] = next;
            depth++;
            flags[next++] = (uint8_t)rules_directive_amd(c, i);
            break;
        case PP_ELIF:
            if (depth > 0 && depth <= MAXCOND && rules_directive_amd(c, i))
                flags[stack[depth - 1]] = 1;
            break;
        case PP_ENDIF:
            if (depth > 0)
                depth--;
            break;
        default:
            break;
        }
    }
    *nchains = n;
    return flags;
}

/* The scope bits and function of the innermost brace level. Levels deeper than MAXFRAMES are
 * not recorded: they take the deepest one that is. */
static inline void frame_top(const frame *fr, int depth, uint8_t *flags, int32_t *fn)
{
    const frame *f = depth > 0 ? &fr[(depth < MAXFRAMES ? depth : MAXFRAMES) - 1] : NULL;
    *flags = f ? f->flags : 0;
    *fn = f ? f->fn : -1;
}

static void build_scopes(rctx *c)
{
    int nchains;
    uint8_t *chains = chain_flags(c, &nchains);
    frame *fr = NEW(c->a, frame, MAXFRAMES);
    cond cs[MAXCOND];
    int depth = 0, cdepth = 0, chain = 0, guarded = 0, pdepth = 0;
    int capfns = 16;
    c->fns = NEW(c->a, rules_fn, capfns);
    ptrdiff_t stmt = -1; /* first token of the current statement or header */
    /* in locals: the byte stores below would otherwise make the compiler reload them */
    tok *toks = c->t;
    ptrdiff_t nt = c->nt;
    uint8_t *scope = c->scope;
    int32_t *fnv = c->fn;
    /* the innermost level's bits and function, and the guarded bit, change only at braces
     * and directives */
    uint8_t top_flags = 0, g = 0;
    int32_t top_fn = -1;
    for (ptrdiff_t i = 0; i < nt; i++) {
        tok *k = &toks[i];
        uint8_t flags = top_flags;
        int32_t fn = top_fn;
        if (k->kind == TK_PP_HASH) {
            switch (k->sub) {
            case PP_IF:
            case PP_IFDEF:
            case PP_IFNDEF: {
                int amd = chain < nchains ? chains[chain] : 0;
                chain++;
                if (cdepth < MAXCOND) {
                    cs[cdepth].depth_at_if = depth;
                    cs[cdepth].depth_first = -1;
                    cs[cdepth].amd = amd;
                }
                cdepth++;
                if (amd)
                    guarded++;
                break;
            }
            case PP_ELIF:
            case PP_ELSE:
                if (cdepth > 0 && cdepth <= MAXCOND) {
                    cond *cd = &cs[cdepth - 1];
                    if (cd->depth_first < 0)
                        cd->depth_first = depth;
                    if (depth > cd->depth_at_if)
                        depth = cd->depth_at_if; /* each branch starts where #if did */
                }
                break;
            case PP_ENDIF:
                if (cdepth > 0) {
                    cdepth--;
                    if (cdepth < MAXCOND) {
                        cond *cd = &cs[cdepth];
                        if (cd->depth_first >= 0 && cd->depth_first <= MAXFRAMES &&
                            depth != cd->depth_first && cd->depth_first <= depth)
                            depth = cd->depth_first;
                        if (cd->amd && guarded > 0)
                            guarded--;
                    }
                }
                break;
            default:
                break;
            }
            frame_top(fr, depth, &top_flags, &top_fn);
            g = guarded ? SC_GUARDED : 0;
        }
        if ((k->flags & TF_PP) || k->kind == TK_COMMENT || k->kind == TK_PP_HASH) {
            scope[i] = (uint8_t)(flags | g);
            fnv[i] = fn;
            continue;
        }
        if (stmt < 0)
            stmt = i;
        if (k->kind == TK_PUNCT) {
            switch (k->sub) {
            case '(':
                pdepth++;
                break;
            case ')':
                if (pdepth > 0)
                    pdepth--;
                break;
            case ';':
                if (pdepth == 0) {
                    scope[i] = (uint8_t)(flags | g);
                    fnv[i] = fn;
                    stmt = -1;
                    continue;
                }
                break;
            case '{': {
                uint8_t inner = flags;
                int32_t ifn = fn;
                int start = 0;
                hdrinfo h;
                if (!(flags & (SC_DEVICE | SC_HOST))) {
                    analyse_header(c, stmt, i, &h);
                    if (h.paren && !h.aggregate && !h.init && !h.control) {
                        start = 1;
                        if (h.words & 3) {
                            inner = SC_DEVICE;
                            if (h.words & 1)
                                inner |= SC_KERNEL;
                            if (h.words & 4)
                                inner |= SC_HOSTDEV;
                        } else {
                            inner = SC_HOST;
                        }
                    }
                } else if (!(flags & SC_DEVICE)) {
                    analyse_header(c, stmt, i, &h);
                    if ((h.words & 3) && h.bracket && h.paren)
                        inner = (uint8_t)(SC_DEVICE | (flags & ~SC_HOST));
                }
                if (start) {
                    if (c->nfns == capfns) {
                        int ncap = capfns * 2;
                        c->fns = arena_grow(c->a, c->fns,
                                            (ptrdiff_t)capfns * (ptrdiff_t)sizeof *c->fns,
                                            (ptrdiff_t)ncap * (ptrdiff_t)sizeof *c->fns,
                                            _Alignof(rules_fn));
                        capfns = ncap;
                    }
                    rules_fn *f = &c->fns[c->nfns];
                    memset(f, 0, sizeof *f);
                    f->hdr = (int32_t)stmt;
                    f->name = (int32_t)h.name;
                    f->open = (int32_t)i;
                    f->close = (int32_t)(c->nt - 1);
                    f->device = (uint8_t)((inner & SC_DEVICE) != 0);
                    f->kernel = (uint8_t)((inner & SC_KERNEL) != 0);
                    ifn = c->nfns++;
                    /* the header's tokens belong to the function too (parameters) */
                    for (ptrdiff_t j = stmt; j < i; j++)
                        if (fnv[j] < 0)
                            fnv[j] = ifn;
                    /* a device constructor's initialiser list runs on the device */
                    if (inner & SC_DEVICE)
                        mark_init_list(c, scope, stmt, i, inner);
                }
                if (depth < MAXFRAMES) {
                    fr[depth].flags = inner;
                    fr[depth].fn = ifn;
                    fr[depth].fnstart = start;
                    fr[depth].pdepth = pdepth;
                }
                depth++;
                frame_top(fr, depth, &top_flags, &top_fn);
                pdepth = 0;
                scope[i] = (uint8_t)(inner | g);
                fnv[i] = ifn;
                stmt = -1;
                continue;
            }
            case '}':
                scope[i] = (uint8_t)(flags | g);
                fnv[i] = fn;
                if (depth > 0) {
                    depth--;
                    if (depth < MAXFRAMES) {
                        if (fr[depth].fnstart && fr[depth].fn >= 0)
                            c->fns[fr[depth].fn].close = (int32_t)i;
                        pdepth = fr[depth].pdepth;
                    }
                    frame_top(fr, depth, &top_flags, &top_fn);
                }
                stmt = -1;
                continue;
            default:
                break;
            }
        }
        scope[i] = (uint8_t)(flags | g);
        fnv[i] = fn;
    }
}

/* Is s a cross-lane builtin (shuffle, vote, match, reduce)? 2: only as a member (.shfl). */
static int crosslane_name(hp_str s)
{
    if (s.len < 4)
        return 0;
    char f = s.s[0];
    if (f != '_' && f != 's' && f != 'b' && f != 'a' && f != 'm')
        return 0;
    if (f == '_' && s.s[1] == '_')
        return RULES_STARTS(s, "__shfl") || RULES_STARTS(s, "__ballot") ||
               RULES_EQ(s, "__any") || RULES_EQ(s, "__all") || RULES_EQ(s, "__any_sync") ||
               RULES_EQ(s, "__all_sync") || RULES_STARTS(s, "__match_") ||
               RULES_STARTS(s, "__reduce_") || RULES_EQ(s, "__activemask");
    return RULES_STARTS(s, "shfl") || RULES_EQ(s, "ballot") || RULES_EQ(s, "any") ||
                   RULES_EQ(s, "all") || RULES_STARTS(s, "match_")
               ? 2
               : 0;
}

/* Marks functions that use cross-lane operations (shuffles, votes, matches, reductions). */
static void mark_crosslane(rctx *c)
{
    for (ptrdiff_t hk = 0, i; (i = rules_hot_next(c, &hk, RH_XLANE)) >= 0;) {
        if (c->t[i].kind != TK_IDENT || c->fn[i] < 0)
            continue;
        int hit = crosslane_name(rules_text(c, i));
        if (hit == 1 || (hit == 2 && rules_member(c, i)))
            c->fns[c->fn[i]].crosslane = 1;
        if (hit == 1)
            c->fns[c->fn[i]].crosslane_free = 1;
    }
}

void rules_cpp_prepare(rctx *c)
{
    /* build_scopes writes the entry of every token */
    c->scope = arena_alloc_nozero(c->a, 1, 1, c->nt + 1);
    c->fn = arena_alloc_nozero(c->a, sizeof(int32_t), _Alignof(int32_t), c->nt + 1);
    c->scope[c->nt] = 0;
    c->fn[c->nt] = -1;
    /* macros first (function headers may use them), then scopes; the macro "guarded" bit
     * needs the scopes, so it is filled in afterwards */
    collect_macros(c);
    find_plat(c);
    build_scopes(c);
    for (int j = 0; j < c->capmacros; j++)
        if (c->macros[j].name.s && c->macros[j].tok >= 0)
            c->macros[j].guarded = (uint8_t)((c->scope[c->macros[j].tok] & SC_GUARDED) != 0);
    rules_hot_build(c);
    mark_crosslane(c);
}

/* ------------------------------------------------------------------ types and declarations */

static int is_keyword_not_type(hp_str s)
{
    static const hp_str kw[] = {
        RULES_S("return"), RULES_S("case"), RULES_S("goto"), RULES_S("sizeof"),
        RULES_S("typeid"), RULES_S("new"), RULES_S("delete"), RULES_S("throw"),
        RULES_S("else"), RULES_S("do"), RULES_S("co_return"), RULES_S("co_yield"),
        RULES_S("co_await"), RULES_S("operator"), RULES_S("using"), RULES_S("typedef"),
        RULES_S("if"), RULES_S("while"), RULES_S("for"), RULES_S("switch"), RULES_S("alignof"),
        RULES_S("decltype"), RULES_S("defined"), RULES_S("template"), RULES_S("typename"),
        RULES_S("public"), RULES_S("private"), RULES_S("protected"), RULES_S("default"),
        RULES_S("break"), RULES_S("continue"), RULES_S("not"), RULES_S("and"), RULES_S("or")};
    return RULES_IN(s, kw);
}

rules_type rules_type_of(const rctx *c, ptrdiff_t first, ptrdiff_t last, int *ptr)
{
    int longs = 0, unsig = 0, ints = 0, is_char = 0, is_short = 0, stars = 0;
    rules_type t = RT_UNKNOWN;
    for (ptrdiff_t i = first; i <= last && i < c->nt; i = rules_next(c, i)) {
        const tok *k = &c->t[i];
        if (k->kind == TK_PUNCT) {
            if (k->sub == '*')
                stars++;
            continue;
        }
        if (k->kind != TK_IDENT)
            continue;
        hp_str s = rules_text(c, i);
        if (RULES_EQ(s, "long"))
            longs++;
        else if (RULES_EQ(s, "unsigned"))
            unsig = 1;
        else if (RULES_EQ(s, "int") || RULES_EQ(s, "signed"))
            ints = 1;
        else if (RULES_EQ(s, "char"))
            is_char = 1;
        else if (RULES_EQ(s, "short"))
            is_short = 1;
        else if (RULES_EQ(s, "float"))
            t = RT_FLOAT;
        else if (RULES_EQ(s, "double"))
            t = longs ? RT_DOUBLE : RT_DOUBLE;
        else if (RULES_EQ(s, "bool"))
            t = RT_BOOL;
        else if (RULES_EQ(s, "auto"))
            t = RT_AUTO;
        else if (RULES_EQ(s, "uint32_t") || RULES_EQ(s, "int32_t") || RULES_EQ(s, "uint") ||
                 RULES_EQ(s, "uint16_t") || RULES_EQ(s, "int16_t") || RULES_EQ(s, "uint8_t") ||
                 RULES_EQ(s, "int8_t") || RULES_EQ(s, "u32") || RULES_EQ(s, "uint32"))
            t = RT_INT32;
        else if (RULES_EQ(s, "uint64_t") || RULES_EQ(s, "int64_t") || RULES_EQ(s, "size_t") ||
                 RULES_EQ(s, "ssize_t") || RULES_EQ(s, "ptrdiff_t") || RULES_EQ(s, "intptr_t") ||
                 RULES_EQ(s, "uintptr_t") || RULES_EQ(s, "ulong") || RULES_EQ(s, "u64") ||
                 RULES_EQ(s, "uint64") || RULES_EQ(s, "index_t"))
            t = RT_INT64;
        else if (RULES_EQ(s, "__half") || RULES_EQ(s, "half") || RULES_EQ(s, "Half") ||
                 RULES_EQ(s, "_Float16") || RULES_EQ(s, "__fp16"))
            t = RT_HALF;
        else if (RULES_EQ(s, "__half2") || RULES_EQ(s, "half2"))
            t = RT_HALF2;
        else if (RULES_EQ(s, "__nv_bfloat16") || RULES_EQ(s, "nv_bfloat16") ||
                 RULES_EQ(s, "__hip_bfloat16") || RULES_EQ(s, "hip_bfloat16") ||
                 RULES_EQ(s, "BFloat16") || RULES_EQ(s, "__bf16"))
            t = RT_BF16;
        else if (RULES_EQ(s, "__nv_bfloat162") || RULES_EQ(s, "nv_bfloat162") ||
                 RULES_EQ(s, "__hip_bfloat162"))
            t = RT_BF162;
    }
    if (t == RT_UNKNOWN) {
        if (longs)
            t = RT_INT64;
        else if (unsig || ints || is_char || is_short)
            t = RT_INT32;
    }
    if (ptr)
        *ptr = stars;
    return t;
}

/* From the token before a declared name, walks back over the type words; returns the first
 * of them (or -1 if the words cannot be a declaration's type). */
static ptrdiff_t type_run_start(const rctx *c, ptrdiff_t p, ptrdiff_t floor)
{
    ptrdiff_t start = -1;
    int words = 0;
    while (p >= floor && p >= 0) {
        const tok *k = &c->t[p];
        if (k->kind == TK_IDENT) {
            hp_str s = rules_text(c, p);
            if (is_keyword_not_type(s))
                return -1;
            words++;
            start = p;
        } else if (k->kind == TK_PUNCT &&
                   (k->sub == '*' || k->sub == '&' || k->sub == P_ANDAND || k->sub == P_SCOPE)) {
            start = p;
        } else if (k->kind == TK_PUNCT && k->sub == '>') {
            /* template arguments: identifiers, numbers, ::, commas, * & and nested <> */
            int depth = 0;
            ptrdiff_t q = p;
            for (; q >= floor && q >= 0; q = rules_prev(c, q)) {
                const tok *t = &c->t[q];
                if (t->kind == TK_PUNCT) {
                    if (t->sub == '>')
                        depth++;
                    else if (t->sub == P_SHR)
                        depth += 2;
                    else if (t->sub == '<') {
                        if (--depth == 0)
                            break;
                    } else if (!(t->sub == ',' || t->sub == P_SCOPE || t->sub == '*' ||
                                 t->sub == '&' || t->sub == '(' || t->sub == ')'))
                        return -1;
                } else if (t->kind != TK_IDENT && t->kind != TK_NUMBER) {
                    return -1;
                }
            }
            if (q < floor || q < 0 || !rules_ident(c, rules_prev(c, q)))
                return -1;
            start = q;
            p = q;
        } else {
            break;
        }
        p = rules_prev(c, p);
    }
    if (!words || start < 0)
        return -1;
    /* what precedes the type must end a statement or open a list */
    if (p >= 0 && p >= floor) {
        const tok *k = &c->t[p];
        int ok = k->kind == TK_PP_END ||
                 (k->kind == TK_PUNCT && (k->sub == ';' || k->sub == '{' || k->sub == '}' ||
                                          k->sub == '(' || k->sub == ',' || k->sub == ':' ||
                                          k->sub == ')'));
        if (!ok)
            return -1;
    }
    return start;
}

static int decl_follower(const rctx *c, ptrdiff_t n)
{
    if (n >= c->nt || c->t[n].kind != TK_PUNCT)
        return 0;
    unsigned s = c->t[n].sub;
    return s == '=' || s == ';' || s == ',' || s == ')' || s == '[' || s == '{' || s == '(' ||
           s == ':';
}

static void decl_fill(const rctx *c, ptrdiff_t j, ptrdiff_t start, ptrdiff_t end_type,
                      rules_decl *out)
{
    memset(out, 0, sizeof *out);
    out->found = 1;
    out->name = j;
    out->type_first = start;
    out->type = rules_type_of(c, start, end_type, &out->ptr);
    for (ptrdiff_t q = start; q <= end_type; q = rules_next(c, q))
        if (rules_is(c, q, "const") || rules_is(c, q, "constexpr"))
            out->is_const = 1;
    ptrdiff_t n = rules_next(c, j);
    if (rules_punct(c, n, '[')) {
        out->is_array = 1;
        out->ptr++;
        while (rules_punct(c, n, '[')) {
            ptrdiff_t m = rules_match(c, n);
            if (m < 0)
                break;
            n = rules_next(c, m);
        }
    }
    out->init_first = out->init_last = -1;
    if (rules_punct(c, n, '=')) {
        ptrdiff_t f = rules_next(c, n), last = -1;
        for (ptrdiff_t q = f; q < c->nt; q = rules_next(c, q)) {
            const tok *k = &c->t[q];
            if (k->kind == TK_PUNCT && (k->sub == ';' || k->sub == ',' || k->sub == ')' ||
                                        k->sub == '}'))
                break;
            if (k->kind == TK_PUNCT && (k->sub == '(' || k->sub == '[' || k->sub == '{')) {
                ptrdiff_t m = rules_match(c, q);
                if (m < 0)
                    break;
                q = m;
            }
            last = q;
        }
        if (last >= f) {
            out->init_first = f;
            out->init_last = last;
        }
    }
}

/* Searches [floor, from) backwards; file_only keeps to tokens outside function bodies. */
static int decl_search(const rctx *c, ptrdiff_t ident, ptrdiff_t from, ptrdiff_t floor,
                       int file_only, rules_decl *out);

int rules_decl_find(const rctx *c, ptrdiff_t i, rules_decl *out)
{
    memset(out, 0, sizeof *out);
    out->init_first = out->init_last = -1;
    if (!rules_ident(c, i))
        return 0;
    const rules_fn *f = rules_fn_of(c, i);
    if (f) {
        /* the function's body and parameters, then the file before it */
        if (decl_search(c, i, i, f->hdr, 0, out))
            return 1;
        ptrdiff_t floor = f->hdr - 20000 > 0 ? f->hdr - 20000 : 0;
        return decl_search(c, i, f->hdr, floor, 1, out);
    }
    ptrdiff_t floor = i - 20000 > 0 ? i - 20000 : 0;
    return decl_search(c, i, i, floor, 0, out);
}

static int decl_try(const rctx *c, ptrdiff_t j, ptrdiff_t floor, rules_decl *out);

typedef struct decl_seek {
    const rctx *c;
    ptrdiff_t floor;
    int file_only;
    rules_decl *out;
} decl_seek;

static int decl_hit(void *ctx, ptrdiff_t j)
{
    decl_seek *d = ctx;
    if (d->file_only && d->c->fn[j] >= 0)
        return 0;
    return decl_try(d->c, j, d->floor, d->out);
}

/* Searches [floor, from) backwards for a declaration of the identifier at token ident;
 * file_only keeps to tokens outside function bodies. */
static int decl_search(const rctx *c, ptrdiff_t ident, ptrdiff_t from, ptrdiff_t floor,
                       int file_only, rules_decl *out)
{
    decl_seek d = {c, floor, file_only, out};
    /* decl_try depends on the token and the floor; file_only has a memo of its own */
    return lex_find_back_memo(c->idx, file_only, c->src, c->t, c->nt, ident, from, floor,
                              decl_hit, &d) >= 0;
}

/* Is the identifier at j (the name searched for) declared there? */
static int decl_try(const rctx *c, ptrdiff_t j, ptrdiff_t floor, rules_decl *out)
{
    if (!decl_follower(c, rules_next(c, j)))
        return 0;
    ptrdiff_t p = rules_prev(c, j);
    if (p < 0)
        return 0;
    ptrdiff_t start = type_run_start(c, p, floor);
    if (start >= 0) {
        decl_fill(c, j, start, p, out);
        return 1;
    }
    if (rules_punct(c, p, ',')) {
        /* int a = 0, b: the statement's leading type, when it starts a statement */
        ptrdiff_t q = p;
        int steps = 0;
        while (q > floor && steps++ < 512) {
            q = rules_prev(c, q);
            if (q < 0)
                break;
            const tok *k = &c->t[q];
            if (k->kind == TK_PUNCT && (k->sub == ')' || k->sub == ']' || k->sub == '}')) {
                /* skip a balanced group backwards */
                int depth = 0;
                for (; q >= floor; q = rules_prev(c, q)) {
                    const tok *t = &c->t[q];
                    if (t->kind != TK_PUNCT)
                        continue;
                    if (t->sub == ')' || t->sub == ']' || t->sub == '}')
                        depth++;
                    else if (t->sub == '(' || t->sub == '[' || t->sub == '{')
                        if (--depth == 0)
                            break;
                }
                if (q < floor)
                    break;
                ptrdiff_t pq = rules_prev(c, q);
                if (c->t[q].sub == '{' && !rules_punct(c, pq, '='))
                    break; /* a block, not an initializer */
                continue;
            }
            if (k->kind == TK_PUNCT && (k->sub == ';' || k->sub == '{' || k->sub == '}' ||
                                        k->sub == '('))
                break;
        }
        if (q >= floor && q >= 0 && c->t[q].kind == TK_PUNCT &&
            (c->t[q].sub == ';' || c->t[q].sub == '{' || c->t[q].sub == '}')) {
            ptrdiff_t s0 = rules_next(c, q), e = s0;
            /* the type words run up to the first declared name */
            ptrdiff_t lastword = -1;
            for (e = s0; e < j; e = rules_next(c, e)) {
                if (decl_follower(c, rules_next(c, e)) && rules_ident(c, e))
                    break;
                lastword = e;
            }
            if (lastword >= s0 && type_run_start(c, lastword, floor) == s0) {
                decl_fill(c, j, s0, lastword, out);
                return 1;
            }
        }
    }
    return 0;
}

int rules_decl_at(const rctx *c, ptrdiff_t j, rules_decl *out)
{
    memset(out, 0, sizeof *out);
    out->init_first = out->init_last = -1;
    if (!rules_ident(c, j) || !decl_follower(c, rules_next(c, j)))
        return 0;
    const rules_fn *f = rules_fn_of(c, j);
    ptrdiff_t floor = f ? f->hdr : j - 64;
    if (floor < 0)
        floor = 0;
    ptrdiff_t p = rules_prev(c, j);
    if (p < 0)
        return 0;
    ptrdiff_t start = type_run_start(c, p, floor);
    if (start < 0)
        return 0;
    decl_fill(c, j, start, p, out);
    return 1;
}

static rules_type call_type(hp_str s, int *ptr)
{
    *ptr = 0;
    if (RULES_STARTS(s, "__floats2half2") || RULES_STARTS(s, "__float2half2") ||
        RULES_EQ(s, "make_half2") || RULES_EQ(s, "__halves2half2") || RULES_EQ(s, "__half2half2"))
        return RT_HALF2;
    if (RULES_STARTS(s, "__float2half") || RULES_STARTS(s, "__int2half") ||
        RULES_STARTS(s, "__double2half") || RULES_STARTS(s, "__ushort_as_half") ||
        RULES_STARTS(s, "__short_as_half") || RULES_EQ(s, "__low2half") ||
        RULES_EQ(s, "__high2half"))
        return RT_HALF;
    if (RULES_STARTS(s, "__float2bfloat16") || RULES_STARTS(s, "__ushort_as_bfloat16"))
        return RT_BF16;
    if (RULES_STARTS(s, "__half2float") || RULES_STARTS(s, "__bfloat162float"))
        return RT_FLOAT;
    if (RULES_STARTS(s, "__ballot") || RULES_EQ(s, "__activemask") ||
        RULES_STARTS(s, "__lanemask"))
        return RT_INT64;
    return RT_UNKNOWN;
}

rules_type rules_expr_type(const rctx *c, ptrdiff_t first, ptrdiff_t last, int *ptr)
{
    *ptr = 0;
    for (int guard = 0; guard < 16 && first <= last; guard++) {
        /* (expr) around the whole range */
        if (rules_punct(c, first, '(') && rules_match(c, first) == last) {
            first = rules_next(c, first);
            last = rules_prev(c, last);
            continue;
        }
        break;
    }
    if (first > last || first >= c->nt)
        return RT_UNKNOWN;
    if (rules_punct(c, first, '&')) {
        rules_type t = rules_expr_type(c, rules_next(c, first), last, ptr);
        if (t != RT_UNKNOWN)
            (*ptr)++;
        return t;
    }
    if (rules_punct(c, first, '(')) {
        ptrdiff_t m = rules_match(c, first);
        if (m > first && m < last) {
            int p;
            rules_type t = rules_type_of(c, rules_next(c, first), rules_prev(c, m), &p);
            if (t != RT_UNKNOWN) {
                *ptr = p;
                return t;
            }
        }
        return RT_UNKNOWN;
    }
    if (!rules_ident(c, first))
        return RT_UNKNOWN;
    hp_str s = rules_text(c, first);
    if (RULES_EQ(s, "reinterpret_cast") || RULES_EQ(s, "static_cast") ||
        RULES_EQ(s, "const_cast") || RULES_EQ(s, "bit_cast")) {
        ptrdiff_t lt = rules_next(c, first);
        ptrdiff_t gt = rules_punct(c, lt, '<') ? rules_template_close(c, lt, -1) : -1;
        if (gt < 0)
            return RT_UNKNOWN;
        return rules_type_of(c, rules_next(c, lt), rules_prev(c, gt), ptr);
    }
    ptrdiff_t n = rules_next(c, first);
    if (rules_punct(c, n, '(')) {
        int p;
        rules_type t = call_type(s, &p);
        *ptr = p;
        return t;
    }
    rules_decl d;
    if (!rules_decl_find(c, first, &d))
        return RT_UNKNOWN;
    int p = d.ptr;
    /* postfix: [i] lowers the pointer level, . and -> leave what we know */
    while (n <= last && rules_punct(c, n, '[')) {
        ptrdiff_t m = rules_match(c, n);
        if (m < 0)
            return RT_UNKNOWN;
        p--;
        n = rules_next(c, m);
    }
    if (n <= last && n < c->nt) {
        if (rules_punct(c, n, '.') || rules_punct(c, n, P_ARROW) || rules_punct(c, n, '('))
            return RT_UNKNOWN;
        if (!(rules_punct(c, n, '+') || rules_punct(c, n, '-')) || p <= 0)
            return RT_UNKNOWN;
    }
    if (p < 0)
        return RT_UNKNOWN;
    *ptr = p;
    return d.type;
}

/* ------------------------------------------------------------------ constant evaluation */

typedef struct ev {
    const rctx *c;
    ptrdiff_t i, end; /* current token, one past the last */
    int depth;        /* macro nesting */
    int ok;
    int bits;
} ev;

static ptrdiff_t ev_peek(ev *e)
{
    return e->i < e->end ? e->i : -1;
}

static void ev_advance(ev *e)
{
    e->i = rules_next(e->c, e->i);
    if (e->i > e->end)
        e->i = e->end;
}

static unsigned long long ev_fit(unsigned long long v, int bits)
{
    return bits == 32 ? v & 0xffffffffull : v;
}

static unsigned long long ev_expr(ev *e, int prec);

static int builtin_size(hp_str s, int *bits, int *size)
{
    static const struct {
        hp_str name;
        int size;
    } sizes[] = {{RULES_S("char"), 1}, {RULES_S("short"), 2}, {RULES_S("int"), 4},
                 {RULES_S("unsigned"), 4}, {RULES_S("float"), 4}, {RULES_S("double"), 8},
                 {RULES_S("long"), 8}, {RULES_S("size_t"), 8}, {RULES_S("int8_t"), 1},
                 {RULES_S("uint8_t"), 1}, {RULES_S("int16_t"), 2}, {RULES_S("uint16_t"), 2},
                 {RULES_S("int32_t"), 4}, {RULES_S("uint32_t"), 4}, {RULES_S("int64_t"), 8},
                 {RULES_S("uint64_t"), 8}, {RULES_S("half"), 2}, {RULES_S("__half"), 2},
                 {RULES_S("__half2"), 4}, {RULES_S("half2"), 4}, {RULES_S("__nv_bfloat16"), 2},
                 {RULES_S("__hip_bfloat16"), 2}, {RULES_S("float2"), 8}, {RULES_S("float4"), 16},
                 {RULES_S("double2"), 16}, {RULES_S("int2"), 8}, {RULES_S("int4"), 16},
                 {RULES_S("uint"), 4}, {RULES_S("bool"), 1}, {RULES_S("char2"), 2},
                 {RULES_S("char4"), 4}, {RULES_S("uchar4"), 4}, {RULES_S("short2"), 4}};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++)
        if (str_eq(s, sizes[k].name)) {
            *size = sizes[k].size;
            *bits = sizes[k].size == 8 ? 64 : 32;
            return 1;
        }
    return 0;
}

int rules_sizeof_type(const rctx *c, ptrdiff_t first, ptrdiff_t last)
{
    int size = 0, longs = 0, bits;
    for (ptrdiff_t i = first; i <= last && i < c->nt; i = rules_next(c, i)) {
        if (rules_punct(c, i, '*'))
            return 8;
        if (c->t[i].kind != TK_IDENT)
            continue;
        hp_str s = rules_text(c, i);
        int sz;
        if (RULES_EQ(s, "long"))
            longs++;
        else if (builtin_size(s, &bits, &sz))
            size = sz;
    }
    if (longs && (size == 0 || size == 4))
        return 8;
    if (longs && size == 8)
        return 16; /* long double */
    return size;
}

/* (type) or type words in [from, to]: width and whether they name a type at all. */
static int type_bits(const rctx *c, ptrdiff_t from, ptrdiff_t to, int *bits)
{
    int ptr;
    rules_type t = rules_type_of(c, from, to, &ptr);
    if (ptr)
        return 0;
    if (t == RT_INT32) {
        *bits = 32;
        return 1;
    }
    if (t == RT_INT64) {
        *bits = 64;
        return 1;
    }
    return 0;
}

static unsigned long long ev_macro(ev *e, const rules_macro *m)
{
    if (e->depth >= 6 || m->first > m->last) {
        e->ok = 0;
        return 0;
    }
    ev sub = {e->c, m->first, rules_next(e->c, m->last), e->depth + 1, 1, 32};
    unsigned long long v = ev_expr(&sub, 0);
    if (!sub.ok || sub.i < sub.end) {
        e->ok = 0;
        return 0;
    }
    if (sub.bits > e->bits)
        e->bits = sub.bits;
    return v;
}

static unsigned long long ev_unary(ev *e)
{
    ptrdiff_t i = ev_peek(e);
    if (i < 0) {
        e->ok = 0;
        return 0;
    }
    const rctx *c = e->c;
    const tok *k = &c->t[i];
    if (k->kind == TK_NUMBER) {
        unsigned long long v;
        int b;
        if (!lex_int_literal(rules_text(c, i), &v, &b)) {
            e->ok = 0;
            return 0;
        }
        ev_advance(e);
        if (b > e->bits)
            e->bits = b;
        return v;
    }
    if (k->kind == TK_PUNCT) {
        unsigned s = k->sub;
        if (s == '-' || s == '~' || s == '!' || s == '+') {
            ev_advance(e);
            unsigned long long v = ev_unary(e);
            if (s == '-')
                return ev_fit(0 - v, e->bits);
            if (s == '~')
                return ev_fit(~v, e->bits);
            if (s == '!')
                return (unsigned long long)!v;
            return v;
        }
        if (s == '(') {
            ptrdiff_t m = rules_match(c, i);
            if (m < 0 || m >= e->end) {
                e->ok = 0;
                return 0;
            }
            int b;
            if (type_bits(c, rules_next(c, i), rules_prev(c, m), &b)) {
                /* a cast: the operand takes the type's width */
                e->i = rules_next(c, m);
                ev inner = *e;
                inner.bits = 32;
                unsigned long long v = ev_unary(&inner);
                e->i = inner.i;
                e->ok = inner.ok;
                e->bits = b;
                return ev_fit(v, b);
            }
            ev inner = {c, rules_next(c, i), m, e->depth, 1, 32};
            unsigned long long v = ev_expr(&inner, 0);
            if (!inner.ok || inner.i < inner.end) {
                e->ok = 0;
                return 0;
            }
            if (inner.bits > e->bits)
                e->bits = inner.bits;
            e->i = rules_next(c, m);
            if (e->i > e->end)
                e->i = e->end;
            return v;
        }
    }
    if (k->kind == TK_IDENT) {
        hp_str s = rules_text(c, i);
        if (RULES_EQ(s, "true") || RULES_EQ(s, "false")) {
            ev_advance(e);
            return (unsigned long long)RULES_EQ(s, "true");
        }
        if (RULES_EQ(s, "sizeof")) {
            ptrdiff_t o = rules_next(c, i);
            ptrdiff_t m = rules_punct(c, o, '(') ? rules_match(c, o) : -1;
            ptrdiff_t w = rules_next(c, o);
            int b, size = 0;
            if (m < 0 || rules_next(c, w) != m || !builtin_size(rules_text(c, w), &b, &size)) {
                e->ok = 0;
                return 0;
            }
            e->i = rules_next(c, m);
            if (e->i > e->end)
                e->i = e->end;
            if (e->bits < 64)
                e->bits = 64;
            return (unsigned long long)size;
        }
        if (RULES_EQ(s, "static_cast") || RULES_EQ(s, "reinterpret_cast")) {
            ptrdiff_t lt = rules_next(c, i);
            ptrdiff_t gt = rules_punct(c, lt, '<') ? rules_template_close(c, lt, e->end) : -1;
            ptrdiff_t o = rules_next(c, gt);
            int b;
            if (gt < 0 || !rules_punct(c, o, '(') ||
                !type_bits(c, rules_next(c, lt), rules_prev(c, gt), &b)) {
                e->ok = 0;
                return 0;
            }
            e->i = o;
            ev inner = *e;
            unsigned long long v = ev_unary(&inner);
            e->i = inner.i;
            e->ok = inner.ok;
            e->bits = b;
            return ev_fit(v, b);
        }
        ptrdiff_t o = rules_next(c, i);
        int b;
        if (rules_punct(c, o, '(') && o < e->end && type_bits(c, i, i, &b)) {
            /* a functional cast: uint32_t(x) */
            e->i = o;
            ev inner = *e;
            unsigned long long v = ev_unary(&inner);
            e->i = inner.i;
            e->ok = inner.ok;
            e->bits = b;
            return ev_fit(v, b);
        }
        const rules_macro *m = rules_macro_get(c, s);
        if (m) {
            ev_advance(e);
            return ev_macro(e, m);
        }
        static const struct {
            hp_str name;
            unsigned long long v;
            int bits;
        } limits[] = {{RULES_S("UINT_MAX"), 0xffffffffull, 32},
                      {RULES_S("UINT32_MAX"), 0xffffffffull, 32},
                      {RULES_S("INT_MAX"), 0x7fffffffull, 32}, {RULES_S("ULLONG_MAX"), ~0ull, 64},
                      {RULES_S("UINT64_MAX"), ~0ull, 64}, {RULES_S("ULONG_MAX"), ~0ull, 64}};
        for (size_t l = 0; l < sizeof limits / sizeof *limits; l++)
            if (str_eq(s, limits[l].name)) {
                ev_advance(e);
                if (limits[l].bits > e->bits)
                    e->bits = limits[l].bits;
                return limits[l].v;
            }
    }
    e->ok = 0;
    return 0;
}

static int binop(const tok *k, int *prec)
{
    if (k->kind != TK_PUNCT)
        return 0;
    switch (k->sub) {
    case '*':
    case '/':
    case '%':
        *prec = 10;
        return 1;
    case '+':
    case '-':
        *prec = 9;
        return 1;
    case P_SHL:
    case P_SHR:
        *prec = 8;
        return 1;
    case '&':
        *prec = 5;
        return 1;
    case '^':
        *prec = 4;
        return 1;
    case '|':
        *prec = 3;
        return 1;
    default:
        return 0;
    }
}

static unsigned long long ev_expr(ev *e, int minprec)
{
    unsigned long long a = ev_unary(e);
    while (e->ok) {
        ptrdiff_t i = ev_peek(e);
        int prec;
        if (i < 0 || !binop(&e->c->t[i], &prec) || prec < minprec)
            break;
        unsigned op = e->c->t[i].sub;
        ev_advance(e);
        unsigned long long b = ev_expr(e, prec + 1);
        if (!e->ok)
            break;
        switch (op) {
        case '*': a = a * b; break;
        case '/':
            if (!b) {
                e->ok = 0;
                return 0;
            }
            a = a / b;
            break;
        case '%':
            if (!b) {
                e->ok = 0;
                return 0;
            }
            a = a % b;
            break;
        case '+': a = a + b; break;
        case '-': a = a - b; break;
        case P_SHL:
            if (b >= 64) {
                e->ok = 0;
                return 0;
            }
            a = a << b;
            break;
        case P_SHR:
            if (b >= 64) {
                e->ok = 0;
                return 0;
            }
            a = a >> b;
            break;
        case '&': a = a & b; break;
        case '^': a = a ^ b; break;
        case '|': a = a | b; break;
        default: break;
        }
        a = ev_fit(a, e->bits);
    }
    return a;
}

int rules_eval(const rctx *c, ptrdiff_t first, ptrdiff_t last, long long *v, int *bits)
{
    if (first < 0 || last < first || last >= c->nt)
        return 0;
    ev e = {c, first, rules_next(c, last), 0, 1, 32};
    unsigned long long r = ev_expr(&e, 0);
    if (!e.ok || e.i < e.end)
        return 0;
    *v = (long long)r;
    if (bits)
        *bits = e.bits;
    return 1;
}
