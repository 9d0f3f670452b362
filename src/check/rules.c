/* rules.c: the check engine the rule families use: options (targets, rule selection), the
 * token helpers every language shares, reporting with severities and suppressions, and the
 * plain-name rules of data/tables/rule_names.tsv. The per-file driver is check.c. */
#include "rules.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "hash.h"
#include "ppeval.h"
#include "rules_build.h"
#include "rules_py.h"
#include "srcside.h"
#include "ruletab.h"
#include "str.h"

#include "rule_names_tab.h"

#include "banned.h"

enum { N_NAME, N_RULE, N_MATCH, N_SCOPE, N_MODE, N_SEV, N_MSG, N_FIX };

static hp_severity sev_of(const char *s)
{
    int v = hp_severity_parse(s);
    return v > 0 ? (hp_severity)v : HP_SEV_WARNING;
}

/* ------------------------------------------------------------------ options */

void hp_check_opts_init(hp_check_opts *o)
{
    memset(o, 0, sizeof *o);
}

static const char default_targets[] = "gfx908,gfx90a,gfx942,gfx950";

/* What one target name says; 0 if the name is not a known AMD target. */
static int parse_target(hp_str t, rules_cfg *cfg)
{
    ptrdiff_t colon = str_chr(t, ':');
    if (colon >= 0)
        t.len = colon;
    t = str_trim(t);
    if (!RULES_STARTS(t, "gfx") || t.len < 4)
        return 0;
    hp_str n = str_cut(t, 3, t.len);
    int wave64;
    if (str_ends(n, S("-generic"))) {
        hp_str g = str_cut(n, 0, n.len - 8);
        if (RULES_EQ(g, "9") || RULES_EQ(g, "9-4")) {
            wave64 = 1;
            if (RULES_EQ(g, "9-4")) {
                cfg->no_image = 1;
                cfg->fp8_fnuz = 1;
            } else {
                cfg->fp8_none = 1;
            }
        } else if (RULES_EQ(g, "10-1") || RULES_EQ(g, "10-3") || RULES_EQ(g, "11") ||
                   RULES_EQ(g, "12")) {
            wave64 = 0;
            if (!RULES_EQ(g, "12"))
                cfg->fp8_none = 1;
            else
                cfg->fp8_ocp = 1;
        } else {
            return 0;
        }
        if (cfg->lds_limit == 0 || cfg->lds_limit > 65536)
            cfg->lds_limit = 65536;
    } else {
        if (n.len < 3 || n.len > 4)
            return 0;
        for (ptrdiff_t i = 0; i < n.len; i++) {
            char ch = n.s[i];
            if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f')))
                return 0;
        }
        if (n.len == 3 && (n.s[0] == '8' || n.s[0] == '9')) {
            wave64 = 1;
        } else if (n.len == 4 && n.s[0] == '1' && n.s[1] >= '0' && n.s[1] <= '2') {
            wave64 = 0;
        } else {
            return 0;
        }
        int lds = RULES_EQ(n, "950") ? 163840 : 65536;
        if (cfg->lds_limit == 0 || cfg->lds_limit > lds)
            cfg->lds_limit = lds;
        /* CDNA 3 and 4 dropped the image instructions (clang defines __HIP_NO_IMAGE_SUPPORT
         * for them); gfx90a still has them */
        if (RULES_EQ(n, "940") || RULES_EQ(n, "941") || RULES_EQ(n, "942") || RULES_EQ(n, "950"))
            cfg->no_image = 1;
        if (RULES_EQ(n, "940") || RULES_EQ(n, "941") || RULES_EQ(n, "942"))
            cfg->fp8_fnuz = 1;
        else if (RULES_EQ(n, "950") || (n.len == 4 && n.s[1] == '2'))
            cfg->fp8_ocp = 1;
        else
            cfg->fp8_none = 1;
    }
    if (wave64)
        cfg->wave64 = 1;
    else
        cfg->wave32 = 1;
    return 1;
}

/* "c++,python" -> RL_CPP | RL_PYTHON */
static unsigned lang_bits(const char *list)
{
    unsigned bits = 0;
    hp_str rest = str_cstr(list);
    while (rest.len > 0) {
        ptrdiff_t comma = str_chr(rest, ',');
        hp_str w = str_trim(comma >= 0 ? str_cut(rest, 0, comma) : rest);
        rest = comma >= 0 ? str_cut(rest, comma + 1, rest.len) : str_make(rest.s + rest.len, 0);
        if (RULES_EQ(w, "c++"))
            bits |= RL_CPP;
        else if (RULES_EQ(w, "python"))
            bits |= RL_PYTHON;
        else if (RULES_EQ(w, "build"))
            bits |= RL_BUILD;
    }
    return bits;
}

static void set_why(char *why, ptrdiff_t whylen, const char *fmt, hp_str arg)
{
    if (why && whylen > 0)
        snprintf(why, (size_t)whylen, fmt, (int)arg.len, arg.s);
}

/* Applies one selection word (RID_WAVE003, "-WAVE", "all"). 0 if it names nothing. */
static int select_rules(rules_cfg *cfg, const char *w)
{
    int on = 1;
    if (w[0] == '-') {
        on = 0;
        w++;
    } else if (w[0] == '+') {
        w++;
    }
    char up[32];
    size_t n = strlen(w);
    if (n == 0 || n >= sizeof up)
        return 0;
    for (size_t k = 0; k <= n; k++)
        up[k] = (char)(w[k] >= 'a' && w[k] <= 'z' ? w[k] - 'a' + 'A' : w[k]);
    w = up;
    int hit = 0;
    for (int i = 0; i < ruletab_count(); i++) {
        const char *id = ruletab_row(i)[RT_ID];
        int match = strcmp(w, "ALL") == 0 || strcmp(id, w) == 0;
        if (!match) {
            /* a family: the id's letters, in either case ("WAVE", "wave") */
            size_t k = 0;
            while (id[k] && !(id[k] >= '0' && id[k] <= '9'))
                k++;
            match = k == n;
            for (size_t j = 0; match && j < n; j++) {
                char a = id[j], b = w[j];
                if (b >= 'a' && b <= 'z')
                    b = (char)(b - 'a' + 'A');
                match = a == b;
            }
        }
        if (match) {
            cfg->enabled[i] = (uint8_t)on;
            hit = 1;
        }
    }
    return hit;
}

/* The index of rule_names.tsv: exact names hashed, prefixes by first byte. */
typedef struct names_index {
    int16_t *slot;   /* row index + 1, or 0 */
    int16_t *len;    /* strlen of each row's key: its name, or a qual row's last component */
    int16_t *keyoff; /* where the key starts in the name (after a qual row's last "::") */
    uint64_t lens[256]; /* by first byte: bit n set when an exact name has length n (< 64) */
    int cap;
    int16_t *prefix; /* rows with match "prefix", sorted by first byte */
    int nprefix;
    int16_t pfx_first[256]; /* first index in prefix[] for a first byte (nprefix if none) */
    int16_t *include;
    int ninclude;
} names_index;

static const char *name_key(int row)
{
    return rule_names_rows[row][N_NAME];
}

void rules_group_by_first_byte(int16_t *v, int n, const char *(*key)(int row),
                               int16_t first[256])
{
    for (int p = 1; p < n; p++) { /* insertion sort: stable, and the lists are short */
        int16_t row = v[p];
        unsigned char b = (unsigned char)key(row)[0];
        int q = p - 1;
        while (q >= 0 && (unsigned char)key(v[q])[0] > b) {
            v[q + 1] = v[q];
            q--;
        }
        v[q + 1] = row;
    }
    for (int b = 0; b < 256; b++)
        first[b] = (int16_t)n;
    for (int p = n - 1; p >= 0; p--)
        first[(unsigned char)key(v[p])[0]] = (int16_t)p;
}

static void names_build(arena *a, rules_cfg *cfg)
{
    names_index *ix = NEW(a, names_index, 1);
    int cap = 64;
    while (cap < 2 * rule_names_rows_COUNT)
        cap *= 2;
    ix->cap = cap;
    ix->slot = NEW(a, int16_t, cap);
    ix->prefix = NEW(a, int16_t, rule_names_rows_COUNT + 1);
    ix->include = NEW(a, int16_t, rule_names_rows_COUNT + 1);
    ix->len = NEW(a, int16_t, rule_names_rows_COUNT + 1);
    ix->keyoff = NEW(a, int16_t, rule_names_rows_COUNT + 1);
    for (int i = 0; i < rule_names_rows_COUNT; i++) {
        const char *const *r = rule_names_rows[i];
        if (strcmp(r[N_MATCH], "qual") == 0) {
            const char *last = r[N_NAME];
            for (const char *q = strstr(last, "::"); q; q = strstr(q + 2, "::"))
                last = q + 2;
            ix->keyoff[i] = (int16_t)(last - r[N_NAME]);
        }
        ix->len[i] = (int16_t)strlen(r[N_NAME] + ix->keyoff[i]);
        if (strcmp(r[N_MATCH], "prefix") == 0) {
            ix->prefix[ix->nprefix++] = (int16_t)i;
            continue;
        }
        if (strcmp(r[N_MATCH], "include") == 0) {
            ix->include[ix->ninclude++] = (int16_t)i;
            continue;
        }
        const char *key = r[N_NAME] + ix->keyoff[i];
        unsigned char f0 = (unsigned char)key[0];
        ix->lens[f0] |= ix->len[i] < 63 ? 1ull << ix->len[i] : 1ull << 63;
        unsigned h = hp_hash(key, ix->len[i], 0);
        int j = (int)(h & (unsigned)(cap - 1));
        while (ix->slot[j])
            j = (j + 1) & (cap - 1);
        ix->slot[j] = (int16_t)(i + 1);
    }
    rules_group_by_first_byte(ix->prefix, ix->nprefix, name_key, ix->pfx_first);
    cfg->names = ix;
}

hp_status rules_cfg_build(arena *a, const hp_check_opts *o, rules_cfg *cfg, char *why,
                          ptrdiff_t whylen)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->nrules = ruletab_count();
    cfg->enabled = NEW(a, uint8_t, ruletab_count() + 1);
    cfg->langs = NEW(a, uint8_t, ruletab_count() + 1);
    for (int i = 0; i < ruletab_count(); i++) {
        cfg->enabled[i] = 1;
        cfg->langs[i] = (uint8_t)lang_bits(ruletab_row(i)[RT_LANGS]);
    }
    /* NULL: the default targets; an empty list is a mistake (--target ''), not the default */
    const char *targets = o && o->targets ? o->targets : default_targets;
    hp_str rest = str_cstr(targets);
    int any = 0;
    while (rest.len > 0) {
        ptrdiff_t comma = str_chr(rest, ',');
        hp_str one = comma >= 0 ? str_cut(rest, 0, comma) : rest;
        rest = comma >= 0 ? str_cut(rest, comma + 1, rest.len) : str_make(rest.s + rest.len, 0);
        if (str_trim(one).len == 0)
            continue;
        if (!parse_target(one, cfg)) {
            set_why(why, whylen, "unknown GPU target '%.*s' (like gfx90a, gfx942, gfx1100)",
                    str_trim(one));
            return HP_EUSAGE;
        }
        any = 1;
    }
    if (!any) {
        set_why(why, whylen, "no GPU target in '%.*s'", str_cstr(targets));
        return HP_EUSAGE;
    }
    for (int i = 0; o && i < o->nrules; i++) {
        const char *w = o->rules[i];
        if (!w || !select_rules(cfg, w)) {
            const char *name = w ? w + (w[0] == '+' || w[0] == '-') : "";
            set_why(why, whylen, "unknown rule or family '%.*s' (see 'hipport rules')",
                    str_cstr(name));
            return HP_EUSAGE;
        }
    }
    cfg->hip_version = o ? o->hip_version : 0;
    cfg->targets = arena_strndup(a, targets, (ptrdiff_t)strlen(targets));
    names_build(a, cfg);
    cfg->keys = rules_keys_build(a);
    return HP_OK;
}

hp_status hp_check_opts_validate(const hp_check_opts *o, char *why, ptrdiff_t whylen)
{
    arena a;
    arena_init(&a, 1 << 14);
    rules_cfg cfg;
    hp_status s = rules_cfg_build(&a, o, &cfg, why, whylen);
    arena_release(&a);
    return s;
}

int hp_check_wave64(const char *targets)
{
    hp_check_opts o;
    hp_check_opts_init(&o);
    o.targets = targets;
    arena a;
    arena_init(&a, 1 << 14);
    rules_cfg cfg;
    int r = rules_cfg_build(&a, &o, &cfg, NULL, 0) == HP_OK ? cfg.wave64 : -1;
    arena_release(&a);
    return r;
}

/* ------------------------------------------------------------------ token helpers */

ptrdiff_t rules_match(const rctx *c, ptrdiff_t open)
{
    return lex_match(c->t, c->nt, open);
}

ptrdiff_t rules_match_back(const rctx *c, ptrdiff_t close)
{
    return lex_match_back(c->t, c->nt, close);
}

static int is_operand_end(const rctx *c, ptrdiff_t i)
{
    if (i < 0 || i >= c->nt)
        return 0;
    const tok *k = &c->t[i];
    return k->kind == TK_IDENT || k->kind == TK_NUMBER || k->kind == TK_CHAR ||
           (k->kind == TK_PUNCT && (k->sub == ')' || k->sub == ']'));
}

ptrdiff_t rules_operand_left(const rctx *c, ptrdiff_t op)
{
    ptrdiff_t p = rules_prev(c, op);
    if (!is_operand_end(c, p))
        return -1;
    ptrdiff_t start = p;
    for (int guard = 0; guard < 64; guard++) {
        if (rules_punct(c, start, ')') || rules_punct(c, start, ']')) {
            ptrdiff_t m = rules_match_back(c, start);
            if (m < 0)
                return -1;
            start = m;
            ptrdiff_t q = rules_prev(c, m);
            if (rules_ident(c, q) || rules_punct(c, q, ']') ||
                (rules_punct(c, q, ')') && c->t[m].sub == '[')) {
                start = q;
                continue;
            }
            break;
        }
        ptrdiff_t q = rules_prev(c, start);
        if (rules_punct(c, q, '.') || rules_punct(c, q, P_ARROW) || rules_punct(c, q, P_SCOPE)) {
            ptrdiff_t r = rules_prev(c, q);
            if (is_operand_end(c, r)) {
                start = r;
                continue;
            }
        }
        break;
    }
    return start;
}

ptrdiff_t rules_operand_right(const rctx *c, ptrdiff_t op)
{
    ptrdiff_t n = rules_next(c, op);
    for (int guard = 0; guard < 8 && n < c->nt; guard++) {
        const tok *k = &c->t[n];
        if (k->kind == TK_PUNCT && (k->sub == '-' || k->sub == '~' || k->sub == '!' ||
                                    k->sub == '+' || k->sub == '*' || k->sub == '&'))
            n = rules_next(c, n);
        else
            break;
    }
    if (n >= c->nt)
        return -1;
    ptrdiff_t end;
    if (rules_punct(c, n, '(')) {
        end = rules_match(c, n);
        if (end < 0)
            return -1;
    } else if (c->t[n].kind == TK_IDENT || c->t[n].kind == TK_NUMBER || c->t[n].kind == TK_CHAR) {
        end = n;
    } else {
        return -1;
    }
    for (int guard = 0; guard < 64; guard++) {
        ptrdiff_t q = rules_next(c, end);
        if (rules_punct(c, q, '(') || rules_punct(c, q, '[')) {
            ptrdiff_t m = rules_match(c, q);
            if (m < 0)
                break;
            end = m;
            continue;
        }
        if (rules_punct(c, q, '.') || rules_punct(c, q, P_ARROW) || rules_punct(c, q, P_SCOPE)) {
            ptrdiff_t r = rules_next(c, q);
            if (rules_ident(c, r)) {
                end = r;
                continue;
            }
        }
        break;
    }
    return end;
}

ptrdiff_t rules_call(const rctx *c, ptrdiff_t i)
{
    ptrdiff_t n = rules_next(c, i);
    if (rules_punct(c, n, '<')) {
        ptrdiff_t m = rules_template_close(c, n, -1);
        if (m < 0)
            return -1;
        n = rules_next(c, m);
    }
    return rules_punct(c, n, '(') ? n : -1;
}

int rules_member(const rctx *c, ptrdiff_t i)
{
    ptrdiff_t p = rules_prev(c, i);
    if (p < 0 || c->t[p].kind != TK_PUNCT)
        return 0;
    unsigned s = c->t[p].sub;
    return s == '.' || s == P_ARROW || s == P_DOTSTAR || s == P_ARROWSTAR;
}

int rules_qualified(const rctx *c, ptrdiff_t i)
{
    ptrdiff_t p = rules_prev(c, i);
    if (!rules_punct(c, p, P_SCOPE))
        return 0;
    ptrdiff_t q = rules_prev(c, p);
    return rules_ident(c, q) || rules_punct(c, q, '>');
}

int rules_args(const rctx *c, ptrdiff_t open, lex_args *out)
{
    return lex_args_of(c->t, c->nt, open, out);
}

int rules_range_has(const rctx *c, ptrdiff_t first, ptrdiff_t last, int (*pred)(hp_str ident))
{
    for (ptrdiff_t i = first; i <= last && i < c->nt; i = rules_next(c, i))
        if (c->t[i].kind == TK_IDENT && pred(rules_text(c, i)))
            return 1;
    return 0;
}

int rules_in(hp_str s, const hp_str *list, int n)
{
    if (s.len <= 0)
        return 0;
    for (int i = 0; i < n; i++)
        if (list[i].len == s.len && list[i].s[0] == s.s[0] &&
            memcmp(list[i].s, s.s, (size_t)s.len) == 0)
            return 1;
    return 0;
}

int rules_name_has(hp_str ident, const char *word)
{
    size_t n = strlen(word);
    for (ptrdiff_t i = 0; i + (ptrdiff_t)n <= ident.len; i++) {
        size_t k = 0;
        for (; k < n; k++) {
            char a = ident.s[i + (ptrdiff_t)k];
            if (a >= 'A' && a <= 'Z')
                a = (char)(a - 'A' + 'a');
            if (a != word[k])
                break;
        }
        if (k == n)
            return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ reporting */

typedef struct rules_once {
    int rule;
    const char *msg;
} rules_once;

const char *rules_fmt(rctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char small[256];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return "";
    char *p = arena_alloc_nozero(c->a, 1, 1, (ptrdiff_t)n + 1);
    if (!p)
        return "";
    if ((size_t)n < sizeof small) {
        memcpy(p, small, (size_t)n + 1);
    } else {
        va_start(ap, fmt);
        vsnprintf(p, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    return p;
}

int rules_on(const rctx *c, const char *id)
{
    int r = ruletab_find(id);
    return r >= 0 && c->cfg->enabled[r];
}

/* CUDA's own macros, which neither HIP-Clang nor HIP's headers define (hipify leaves the
 * tests alone): code under "#if CUDA_VERSION >= 11000" or "#ifdef __CUDA_ARCH_LIST__" is not
 * compiled for AMD. */
static const char *const cuda_only_macros[] = {
    "__CUDA_ARCH__", "__CUDA_ARCH_LIST__", "__CUDA_ARCH_SPECIFIC__",
    "__CUDA_ARCH_FAMILY_SPECIFIC__", "CUDA_VERSION", "CUDART_VERSION", "__CUDACC__",
    "__CUDACC_VER_MAJOR__",
    "__CUDACC_VER_MINOR__", "__CUDACC_VER_BUILD__", "__NVCC__", "__CUDACC_RDC__",
    "__CUDACC_RTC__" /* NVRTC's; hipRTC defines __HIPCC_RTC__ */};

/* Is s one of CUDA's own macros or a macro the tree defines only where AMD skips? */
static int names_cuda_only_name(const rctx *c, hp_str s)
{
    for (size_t k = 0; k < sizeof cuda_only_macros / sizeof *cuda_only_macros; k++)
        if (str_eqc(s, cuda_only_macros[k]))
            return 1;
    return (c->cfg && c->cfg->amd_undef && nameidx_get(c->cfg->amd_undef, s) >= 0) ||
           (c->undef_here && nameidx_get(c->undef_here, s) >= 0);
}

static int names_cuda_only(const rctx *c, ptrdiff_t h)
{
    const nameidx *u = c->cfg ? c->cfg->amd_undef : NULL;
    for (ptrdiff_t j = h + 1; j < c->nt && c->t[j].kind != TK_PP_END && c->t[j].kind != TK_EOF;
         j++)
        if (c->t[j].kind == TK_IDENT) {
            for (size_t k = 0; k < sizeof cuda_only_macros / sizeof *cuda_only_macros; k++)
                if (str_eqc(rules_text(c, j), cuda_only_macros[k]))
                    return 1;
            if ((u && nameidx_get(u, rules_text(c, j)) >= 0) ||
                (c->undef_here && nameidx_get(c->undef_here, rules_text(c, j)) >= 0))
                return 1;
        }
    return 0;
}

void rules_amd_env(rctx *c, int device, ppenv *env)
{
    enum { NM = sizeof cuda_only_macros / sizeof *cuda_only_macros };
    const char *u[NM];
    int nu = 0;
    for (int k = 0; k < NM; k++) {
        const char *m = cuda_only_macros[k];
        if (rules_shim(c, str_cstr(m)))
            continue; /* the tree's HIP shim defines it: not known here */
        if (!c->hip_source && (strcmp(m, "CUDA_VERSION") == 0 || strcmp(m, "CUDART_VERSION") == 0))
            u[nu++] = rules_fmt(c, "-D%s=10000", m);
        else if (!c->hip_source && device && strcmp(m, "__CUDA_ARCH__") == 0)
            u[nu++] = "-D__CUDA_ARCH__=300";
        else if (!c->hip_source && strcmp(m, "__CUDACC__") == 0)
            u[nu++] = "-D__CUDACC__=1"; /* translate writes __HIPCC__ */
        else
            u[nu++] = rules_fmt(c, "-U%s", m);
    }
    ppeval_env_init(env, c->a, u, nu);
    for (int w = 0; w < 2; w++) {
        const nameidx *d = w ? c->undef_here : c->cfg ? c->cfg->amd_undef : NULL;
        for (ptrdiff_t k = 0; d && k < d->cap; k++)
            if (d->key[k].len && !rules_shim(c, d->key[k]))
                ppeval_env_set(env, d->key[k], 0, 0, S(""));
    }
}

/* Marks c->dead: a conditional decides a branch only when its condition names one of CUDA's
 * own macros (evaluated as AMD's device and host passes see them, rules_amd_env: a branch both
 * skip is dead, one only one skips is open); any other condition leaves every branch live, so
 * "#if 0" or an unknown project macro hides nothing here. */
static void mark_dead_once(rctx *c)
{
    enum { DEPTH = 64 };
    ppenv dev, host; /* AMD's device and host passes: a branch is dead when both skip it */
    rules_amd_env(c, 1, &dev);
    rules_amd_env(c, 0, &host);
    struct {
        uint8_t parent, taken, open; /* parent dead; a branch certainly taken; one may be */
        uint8_t sure;                /* the current branch is certainly taken */
    } st[DEPTH];
    int depth = 0, over = 0, dead = 0;
    c->dead = NEW(c->a, uint8_t, c->ndirs);
    if (!c->dead)
        return; /* out of memory: no branch is known dead */
    /* the other names of the conditions decided here: their #defines on the way are followed
     * (#define CC_TURING 750 before #if __CUDA_ARCH__ >= CC_TURING), no others */
    nameidx want = {0};
    int nwant = 0;
    for (ptrdiff_t k = 0; k < c->ndirs; k++) {
        unsigned sub = c->t[c->dirs[k]].sub;
        if ((sub == PP_IF || sub == PP_ELIF) && names_cuda_only(c, c->dirs[k]))
            for (ptrdiff_t j = c->dirs[k] + 1; j < c->nt && c->t[j].kind != TK_PP_END; j++)
                nwant += c->t[j].kind == TK_IDENT;
    }
    if (nwant && nameidx_init(&want, c->a, nwant))
        for (ptrdiff_t k = 0; k < c->ndirs; k++) {
            unsigned sub = c->t[c->dirs[k]].sub;
            if ((sub == PP_IF || sub == PP_ELIF) && names_cuda_only(c, c->dirs[k]))
                for (ptrdiff_t j = c->dirs[k] + 1; j < c->nt && c->t[j].kind != TK_PP_END; j++)
                    if (c->t[j].kind == TK_IDENT)
                        nameidx_put(&want, rules_text(c, j), 0, 0);
        }
    for (ptrdiff_t k = 0; k < c->ndirs; k++) {
        ptrdiff_t h = c->dirs[k];
        int self = dead;
        switch (c->t[h].sub) {
        case PP_DEFINE:
        case PP_UNDEF: {
            ptrdiff_t m = rules_next(c, rules_next(c, h));
            if (dead || !want.cap || m >= c->nt || c->t[m].kind != TK_IDENT ||
                nameidx_get(&want, rules_text(c, m)) < 0 || names_cuda_only_name(c, rules_text(c, m)))
                break;
            int sure = !over;
            for (int q = 0; q < depth && sure; q++)
                sure = st[q].sure;
            ppeval_env_directive(&dev, c->src, c->t, c->nt, h, sure);
            ppeval_env_directive(&host, c->src, c->t, c->nt, h, sure);
            break;
        }
        case PP_IF:
        case PP_IFDEF:
        case PP_IFNDEF:
        case PP_ELIF:
        case PP_ELSE: {
            int elif = c->t[h].sub == PP_ELIF || c->t[h].sub == PP_ELSE;
            if (!elif) {
                if (over || depth == DEPTH) {
                    over++;
                    break;
                }
                st[depth].parent = (uint8_t)dead;
                st[depth].taken = st[depth].open = st[depth].sure = 0;
                depth++;
            } else if (over || depth == 0) {
                break;
            }
            int p = st[depth - 1].parent;
            self = elif ? p : dead;
            st[depth - 1].sure = 0;
            if (p || st[depth - 1].taken) {
                dead = 1;
                break;
            }
            int v = -1;
            if (c->t[h].sub == PP_ELSE) {
                v = st[depth - 1].open ? -1 : 1;
            } else if (names_cuda_only(c, h)) {
                int vd = ppeval_directive(&dev, c->src, c->t, c->nt, h);
                int vh = ppeval_directive(&host, c->src, c->t, c->nt, h);
                v = vd == vh ? vd : -1;
            }
            dead = v == 0;
            if (v == 1)
                st[depth - 1].taken = st[depth - 1].sure = 1;
            if (v < 0)
                st[depth - 1].open = 1;
            break;
        }
        case PP_ENDIF:
            if (over) {
                over--;
            } else if (depth > 0) {
                depth--;
                dead = st[depth].parent;
            }
            self = dead;
            break;
        default:
            break;
        }
        c->dead[k] = (uint8_t)((dead ? 1 : 0) | (self ? 2 : 0));
    }
}

/* The macros the #defines of c name, with 1 in *dead where the #define sits where AMD's passes
 * both skip (c->dead, marked already). */
static hp_str *defines_dead(rctx *c, int *n, uint8_t **dead)
{
    *n = 0;
    *dead = NULL;
    int cnt = 0;
    for (ptrdiff_t k = 0; k < c->ndirs; k++)
        cnt += c->t[c->dirs[k]].sub == PP_DEFINE;
    if (!cnt)
        return NULL;
    hp_str *v = NEW(c->a, hp_str, cnt);
    uint8_t *dd = NEW(c->a, uint8_t, cnt);
    if (!v || !dd || !c->dead)
        return NULL;
    for (ptrdiff_t k = 0; k < c->ndirs; k++) {
        ptrdiff_t h = c->dirs[k];
        if (c->t[h].sub != PP_DEFINE)
            continue;
        ptrdiff_t m = rules_next(c, rules_next(c, h));
        if (m >= c->nt || c->t[m].kind != TK_IDENT)
            continue;
        v[*n] = rules_text(c, m);
        dd[(*n)++] = (uint8_t)((c->dead[k] & 2) != 0);
    }
    *dead = dd;
    return v;
}

/* Without the tree's first pass, the macros this file #defines only where AMD skips count as
 * undefined too (c->undef_here): a second round then decides the tests of them. */
static void mark_dead(rctx *c)
{
    mark_dead_once(c);
    if ((c->cfg && c->cfg->tree_pass) || c->undef_here)
        return;
    int m;
    uint8_t *dead;
    hp_str *name = defines_dead(c, &m, &dead);
    if (!m)
        return;
    nameidx lv, *dx = NEW(c->a, nameidx, 1);
    if (!dx || !nameidx_init(&lv, c->a, m) || !nameidx_init(dx, c->a, m))
        return;
    for (int i = 0; i < m; i++)
        if (!dead[i])
            nameidx_put(&lv, name[i], 0, 0);
    int nd = 0;
    for (int i = 0; i < m; i++)
        if (dead[i] && nameidx_get(&lv, name[i]) < 0) {
            nameidx_put(dx, name[i], 0, 0);
            nd++;
        }
    if (!nd)
        return;
    c->undef_here = dx;
    mark_dead_once(c);
}

hp_str *rules_defines_sides(rctx *c, int *n, uint8_t **dead)
{
    *n = 0;
    *dead = NULL;
    if (!c->t || c->ndirs <= 0)
        return NULL;
    if (!c->dead_done) {
        c->dead_done = 1;
        mark_dead(c);
    }
    return defines_dead(c, n, dead);
}

/* Is the byte at off in code HIP-Clang certainly skips, by #if tests of CUDA's own macros (a
 * HIP shim of the tree may define one: then it is not assumed undefined)? */
static int amd_dead(rctx *c, ptrdiff_t off)
{
    if (!c->t || c->ndirs <= 0 || !(c->lang & RL_CPP))
        return 0;
    if (!c->dead_done) {
        c->dead_done = 1;
        mark_dead(c);
    }
    if (!c->dead)
        return 0;
    ptrdiff_t lo = 0, hi = c->ndirs; /* the first directive after off */
    while (lo < hi) {
        ptrdiff_t mid = lo + (hi - lo) / 2;
        if (c->t[c->dirs[mid]].off <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return 0;
    ptrdiff_t k = lo - 1, e = c->dirs[k];
    while (e < c->nt && c->t[e].kind != TK_PP_END && c->t[e].kind != TK_EOF)
        e++;
    if (e < c->nt && off < c->t[e].off)
        return (c->dead[k] & 2) != 0;
    return (c->dead[k] & 1) != 0;
}

/* Is this file included in the tree only where HIP-Clang skips (cfg->inc_cuda: a vendor
 * header of the CUDA or another non-AMD build), and never elsewhere under its name
 * (cfg->inc_any)? A HIP source never is: it is the AMD side. */
int rules_cuda_side_path(const rules_cfg *g, hp_str p)
{
    /* a source the tree's HIP CMake build leaves to its CUDA branches (RB_KEY_CUDA_SRC) */
    if (g->cuda_src && nameidx_get(g->cuda_src, p) >= 0)
        return 1;
    int nv = 0; /* ... or that a setup.py globs only on its NVIDIA side */
    for (int i = 0; i < g->ncuda_glob && !nv; i++)
        nv = srcside_glob_match(g->cuda_glob[i], p);
    for (int i = 0; i < g->nany_glob && nv; i++)
        nv = !srcside_glob_match(g->any_glob[i], p);
    return nv;
}

static int cuda_side_file(rctx *c)
{
    const rules_cfg *g = c->cfg;
    if ((!g->inc_cuda && !g->cuda_src && !g->ncuda_glob) || c->hip_source || !c->path)
        return 0;
    hp_str p = str_cstr(c->path);
    /* a header only such sources include (the first pass read every include) */
    if (g->cuda_hdr && nameidx_get(g->cuda_hdr, rules_build_path(c->a, c->path)) >= 0)
        return 1;
    ptrdiff_t k = p.len;
    while (k > 0 && p.s[k - 1] != '/')
        k--;
    if (g->inc_any && nameidx_get(g->inc_any, str_cut(p, k, p.len)) >= 0)
        return 0;
    if ((g->cuda_src || g->ncuda_glob) && rules_cuda_side_path(g, rules_build_path(c->a, c->path)))
        return 1;
    if (!g->inc_cuda)
        return 0;
    for (ptrdiff_t i = p.len - 1; i >= 0; i--) /* each suffix after a '/' */
        if ((i == 0 || p.s[i - 1] == '/') && nameidx_get(g->inc_cuda, str_cut(p, i, p.len)) >= 0)
            return 1;
    return 0;
}

static int cuda_side(rctx *c)
{
    if (!(c->lang & RL_CPP))
        return 0;
    if (!c->side_done) {
        c->side_done = 1;
        c->side = cuda_side_file(c);
    }
    return c->side;
}

/* Does the C++ file lie in an NVIDIA-only CMake project of the tree (rules_cfg.proj): is the
 * project root nearest above it one that builds on CUTLASS or NVSHMEM and that no AMD build
 * reaches? A HIP source never does. */
static int nv_project(rctx *c)
{
    if (!(c->lang & (RL_CPP | RL_BUILD | RL_PYTHON)) || !c->cfg->proj || !c->path ||
        c->hip_source)
        return 0;
    if (!c->nvproj_done) {
        c->nvproj_done = 1;
        hp_str d = rules_build_path(c->a, c->path);
        pyfile_kind kind = rules_py_kind(c->path);
        /* of Python files, only a setup.py below the project's root directory: the Python
         * package beside a CMake project is not built by it */
        int setup = kind == PYK_SETUP;
        if ((c->lang & RL_PYTHON) && !setup)
            return 0;
        if (!(c->lang & RL_CPP) && rules_build_names_hip(c->path, c->src, c->len))
            return 0;
        for (ptrdiff_t k = d.len, own = 1; k > 0; k--) {
            if (d.s[k - 1] != '/')
                continue;
            int32_t v = nameidx_get(c->cfg->proj, str_cut(d, 0, k - 1 > 0 ? k - 1 : 1));
            if (v >= 0) {
                /* a build file in an NVIDIA-only project: a note where the tree builds
                 * for AMD elsewhere; without that, porting the project is the work */
                if ((c->lang & RL_CPP) || v == RB_PROJ_NVSIDE ||
                    (c->cfg->amd_path && (!setup || !own)))
                    c->nvproj = v == RB_PROJ_OTHER ? 0 : v == RB_PROJ_NVSIDE ? 2 : 1;
                break;
            }
            own = 0;
        }
    }
    return c->nvproj;
}

/* Is the file a setup.py that is an optional NVIDIA-only extra of the tree (rules_cfg.nv_extra):
 * below a build that names HIP or ROCm, naming neither itself, and named by no build file? */
/* Is the file a setup.py whose directory the tree's index ix holds? */
static int setup_dir_in(rctx *c, const nameidx *ix)
{
    hp_str p = rules_build_path(c->a, c->path);
    ptrdiff_t k = p.len;
    while (k > 0 && p.s[k - 1] != '/')
        k--;
    return k > 1 && RULES_EQ(str_cut(p, k, p.len), "setup.py") &&
           nameidx_get(ix, str_cut(p, 0, k - 1)) >= 0;
}

/* setup_dir_in(c, ix), remembered in *val once *done is set. */
static int setup_dir_once(rctx *c, const nameidx *ix, int *done, int *val)
{
    if (!ix || !c->path)
        return 0;
    if (!*done) {
        *done = 1;
        *val = setup_dir_in(c, ix);
    }
    return *val;
}

static int nv_extra(rctx *c)
{
    return setup_dir_once(c, c->cfg->nv_extra, &c->extra_done, &c->extra);
}

/* Does the build file (not a C++ source) lie at or under a vendored project of the tree
 * (rules_cfg.vendored): a copy of another project in an examples/ or third-party directory
 * that no build file outside it names? */
static int vendored(rctx *c)
{
    if (!c->cfg->vendored || !c->path || (c->lang & RL_CPP))
        return 0;
    if (!c->vend_done) {
        c->vend_done = 1;
        hp_str d = rules_build_path(c->a, c->path);
        for (ptrdiff_t k = d.len; k > 0 && !c->vend; k--)
            if (k == d.len || d.s[k] == '/')
                c->vend = nameidx_get(c->cfg->vendored, str_cut(d, 0, k)) >= 0;
    }
    return c->vend;
}

/* Does the file lie at or under a package that requires NVIDIA's CuTe DSL (rules_cfg.nv_dsl),
 * other than that package's pyproject.toml (whose dependency is the finding)? */
static int in_nv_dsl(rctx *c)
{
    if (!c->cfg->nv_dsl || !c->path || (c->lang & RL_CPP))
        return 0; /* C++ sources keep theirs: each is a compile failure of its own */
    if (!c->dsl_done) {
        c->dsl_done = 1;
        hp_str d = rules_build_path(c->a, c->path);
        ptrdiff_t base = d.len;
        while (base > 0 && d.s[base - 1] != '/')
            base--;
        if (RULES_EQ(str_cut(d, base, d.len), "pyproject.toml"))
            return 0;
        for (ptrdiff_t k = d.len; k > 0 && !c->dsl; k--)
            if (d.s[k - 1] == '/')
                c->dsl = nameidx_get(c->cfg->nv_dsl, str_cut(d, 0, k - 1)) >= 0;
        if (!c->dsl)
            c->dsl = nameidx_get(c->cfg->nv_dsl, S(".")) >= 0;
    }
    return c->dsl;
}

/* Is the file a setup.py whose sources a module of the tree builds at run time with an AMD
 * branch (rules_cfg.jit_setup)? */
static int jit_setup(rctx *c)
{
    return setup_dir_once(c, c->cfg->jit_setup, &c->jit_done, &c->jit);
}

/* Is the file a setup.py whose sources a build file above it compiles itself
 * (rules_cfg.dup_setup)? */
static int dup_setup(rctx *c)
{
    return setup_dir_once(c, c->cfg->dup_setup, &c->dup_done, &c->dup);
}

/* The C++ rules about NVIDIA-only code that leave code HIP-Clang never compiles alone: the
 * device and launch rules (ASM, ARCH, TYPE, WAVE, KL, MEM) and the libraries whose calls
 * such code would make. */
static int amd_dead_rule(const char *id)
{
    return strncmp(id, "ASM", 3) == 0 || strncmp(id, "ARCH", 4) == 0 ||
           strncmp(id, "TYPE", 4) == 0 || strncmp(id, "WAVE", 4) == 0 ||
           strncmp(id, "KL", 2) == 0 || strncmp(id, "MEM", 3) == 0 ||
           strcmp(id, RID_LIB003) == 0 || strcmp(id, RID_LIB006) == 0;
}

void rules_report_at(rctx *c, const char *id, ptrdiff_t off, ptrdiff_t n, hp_severity sev,
                     unsigned flags, const char *msg, const char *fix)
{
    int r = ruletab_find(id);
    HP_ASSERT(r >= 0); /* ids are RID_* macros of rules.tsv */
    /* a rule reports only in the languages its row names */
    if (r < 0 || !c->cfg->enabled[r] || !(c->cfg->langs[r] & c->lang))
        return;
    const char *const *row = ruletab_row(r);
    if (amd_dead_rule(id) && (amd_dead(c, off) || cuda_side(c)))
        return;
    if (sev == HP_SEV_NONE)
        sev = sev_of(row[RT_SEV]);
    int wave = (flags & RF_WAVE64) || (strcmp(row[RT_WAVE], "wave64") == 0 &&
                                        !(flags & RF_NOWAVE));
    if (wave && !c->cfg->wave64)
        sev = HP_SEV_NOTE;
    if (flags & RF_ONCE) {
        for (int k = 0; k < c->nonce; k++)
            if (c->once[k].rule == r && strcmp(c->once[k].msg, msg) == 0)
                return;
        if (c->nonce == c->caponce) {
            int ncap = c->caponce ? c->caponce * 2 : 16;
            c->once = arena_grow(c->a, c->once, (ptrdiff_t)c->caponce * (ptrdiff_t)sizeof *c->once,
                                 (ptrdiff_t)ncap * (ptrdiff_t)sizeof *c->once,
                                 _Alignof(rules_once));
            c->caponce = ncap;
        }
        c->once[c->nonce].rule = r;
        c->once[c->nonce].msg = msg;
        c->nonce++;
    }
    /* an NVIDIA-only project's code: its CMake file's one BLD002 warning says so; a source
     * the tree's AMD build leaves out (cuda_side) keeps its other findings as notes */
    if (sev > HP_SEV_NOTE && !(flags & RF_KEEP) && nv_project(c) && !(c->lang & RL_CPP)) {
        sev = HP_SEV_NOTE;
        msg = arena_printf(c->a, "%s (%s)", msg,
                           nv_project(c) == 2
                               ? "a directory the tree's CMake build adds only when it "
                                 "configures for CUDA"
                               : "in an NVIDIA-only CMake project that no AMD build of the "
                                 "tree reaches");
    }
    if (sev > HP_SEV_NOTE && !(flags & RF_KEEP) && (nv_project(c) || cuda_side(c)))
        sev = HP_SEV_NOTE;
    if (sev > HP_SEV_NOTE && nv_extra(c)) {
        sev = HP_SEV_NOTE;
        msg = arena_printf(c->a, "%s (an optional NVIDIA-only setup.py: no build file of the "
                                 "tree names it, and the build above it has an AMD side)",
                           msg);
    }
    if (sev > HP_SEV_NOTE && jit_setup(c)) {
        sev = HP_SEV_NOTE;
        msg = arena_printf(c->a, "%s (a Python module of the tree builds this setup.py's "
                                 "sources at run time with an AMD branch: that is the AMD "
                                 "route, and this setup.py the NVIDIA one)",
                           msg);
    }
    if (sev > HP_SEV_NOTE && !(flags & RF_KEEP) && in_nv_dsl(c)) {
        sev = HP_SEV_NOTE;
        msg = arena_printf(c->a, "%s (in a package that requires nvidia-cutlass-dsl, NVIDIA's "
                                 "CuTe DSL: it runs on NVIDIA GPUs only, and an AMD port "
                                 "rewrites its kernels rather than this line)",
                           msg);
    }
    if (sev > HP_SEV_NOTE && vendored(c)) {
        sev = HP_SEV_NOTE;
        msg = arena_printf(c->a, "%s (in a copy of another project under an examples or "
                                 "third-party directory: no build file outside that directory "
                                 "names it, so the tree's own build does not compile it)",
                           msg);
    }
    if (sev > HP_SEV_NOTE && dup_setup(c)) {
        sev = HP_SEV_NOTE;
        msg = arena_printf(c->a, "%s (a standalone setup.py: a build file above it compiles "
                                 "the same sources with its own flags, and none runs this one)",
                           msg);
    }
    if (n > 1000000)
        n = 1000000;
    diag_add(&c->d, off, (int)n, row[RT_ID], sev, msg, fix ? fix : row[RT_FIX]);
}

void rules_report(rctx *c, const char *id, ptrdiff_t i, hp_severity sev, unsigned flags,
                  const char *msg, const char *fix)
{
    if (i < 0)
        i = 0;
    if (i >= c->nt) {
        rules_report_at(c, id, c->len, 0, sev, flags, msg, fix);
        return;
    }
    rules_report_at(c, id, c->t[i].off, c->t[i].len, sev, flags, msg, fix);
}

/* ------------------------------------------------------------------ plain-name rules */

static int scope_ok(const rctx *c, ptrdiff_t i, const char *scope)
{
    int sc = rules_scope(c, i);
    switch (scope[0]) {
    case 'd': /* device */
        return (sc & SC_DEVICE) != 0;
    case 'h': /* host: outside device bodies */
        return (sc & SC_DEVICE) == 0;
    case 'p': /* pp: in a directive */
        return (c->t[i].flags & TF_PP) != 0;
    case 'c': /* code: outside directives */
        return (c->t[i].flags & TF_PP) == 0;
    default:
        return 1;
    }
}

static const char *subst(rctx *c, const char *msg, hp_str name)
{
    const char *at = strstr(msg, "{}");
    if (!at)
        return msg;
    return rules_fmt(c, "%.*s%.*s%s", (int)(at - msg), msg, (int)name.len, name.s, at + 2);
}

hp_severity rules_sev_since(const rctx *c, int release)
{
    int v = c->cfg->hip_version;
    return v == 0 ? HP_SEV_WARNING : v >= release ? HP_SEV_NONE : HP_SEV_NOTE;
}

/* The plain-name rules about CUDA names that a HIP shim of the tree can define for HIP
 * (rules_shim): NVIDIA-only intrinsics (__trap), bf16 types, cuBLAS math modes. */
static int shim_rule(const char *id)
{
    return strncmp(id, "ASM", 3) == 0 || strncmp(id, "TYPE", 4) == 0 ||
           strcmp(id, RID_LIB003) == 0;
}

/* Is the identifier at i the name of a function definition: NAME(...) {, or NAME(...) const
 * {, after a type (an identifier, '*', '&' or '>')? */
static int defines_fn(const rctx *c, ptrdiff_t i)
{
    ptrdiff_t o = rules_next(c, i), p = rules_prev(c, i);
    if (!rules_punct(c, o, '(') || p < 0 ||
        !(c->t[p].kind == TK_IDENT || rules_punct(c, p, '*') || rules_punct(c, p, '&') ||
          rules_punct(c, p, '>')))
        return 0;
    ptrdiff_t close = rules_match(c, o);
    if (close < 0)
        return 0;
    ptrdiff_t b = rules_next(c, close);
    while (b < c->nt && (rules_is(c, b, "const") || rules_is(c, b, "noexcept")))
        b = rules_next(c, b);
    return rules_punct(c, b, '{');
}

/* Does the file define a function of this name (the project's own helper: its calls are the
 * project's, not the missing intrinsic's)? Remembered for a few names per file. */
int rules_file_defines_fn(rctx *c, hp_str name)
{
    for (int k = 0; k < c->ndefn; k++)
        if (str_eq(c->defn[k].name, name))
            return c->defn[k].yes;
    int yes = 0;
    for (ptrdiff_t j = 0; j < c->nt && !yes; j = rules_next(c, j))
        yes = c->t[j].kind == TK_IDENT && str_eq(rules_text(c, j), name) && defines_fn(c, j);
    if (c->ndefn < (int)(sizeof c->defn / sizeof *c->defn)) {
        c->defn[c->ndefn].name = name;
        c->defn[c->ndefn].yes = yes;
        c->ndefn++;
    }
    return yes;
}

static void name_hit(rctx *c, int row, ptrdiff_t i, ptrdiff_t off, ptrdiff_t n, hp_str name)
{
    const char *const *r = rule_names_rows[row];
    if (c->scope && (c->scope[i] & SC_GUARDED))
        return;
    if (shim_rule(r[N_RULE]) && c->t[i].kind == TK_IDENT &&
        rules_shim(c, name))
        return;
    /* a function of that name the file defines, of a name HIP lacks: the project's own
     * helper, its calls too (where HIP has the name the definition collides: reported) */
    if ((r[N_MATCH][0] == 'c' || r[N_MATCH][0] == 'p') && c->t[i].kind == TK_IDENT &&
        rules_punct(c, rules_next(c, i), '(') &&
        (strstr(r[N_MSG], "not in HIP") || strstr(r[N_MSG], "no HIP implementation")) &&
        rules_file_defines_fn(c, name))
        return;
    if (!scope_ok(c, i, r[N_SCOPE]))
        return;
    unsigned flags = strcmp(r[N_MODE], "once") == 0 ? RF_ONCE : 0;
    hp_severity sev = strcmp(r[N_SEV], "") == 0 ? HP_SEV_NONE : sev_of(r[N_SEV]);
    if (r[N_SEV][0] >= '0' && r[N_SEV][0] <= '9') /* a HIP release, X.Y */
        sev = rules_sev_since(c, hp_hip_version_parse(r[N_SEV]));
    const char *fix = r[N_FIX][0] ? r[N_FIX] : NULL;
    const char *msg = subst(c, r[N_MSG], name);
    /* a library mode compared (x == CUBLAS_COMPUTE_32F_FAST_TF32 ? "TF32" : "FP32") picks
     * nothing: the place that sets it is the finding */
    if (strcmp(r[N_RULE], RID_LIB003) == 0 && r[N_MATCH][0] == 'i' && c->t[i].kind == TK_IDENT &&
        (rules_punct(c, rules_prev(c, i), P_EQ) || rules_punct(c, rules_prev(c, i), P_NE) ||
         rules_punct(c, rules_next(c, i), P_EQ) || rules_punct(c, rules_next(c, i), P_NE))) {
        sev = HP_SEV_NOTE;
        msg = rules_fmt(c, "%s (only compared here: where the mode is set is the finding)", msg);
    }
    rules_report_at(c, r[N_RULE], off, n, sev, flags, msg, fix);
}

/* Is the identifier at i written name's way, "a::b::X": preceded by "b", "::", "a", "::"? */
static int qual_match(const rctx *c, const char *name, ptrdiff_t i)
{
    const char *end = name + strlen(name);
    for (const char *q = strstr(name, "::"); q; q = strstr(q + 2, "::"))
        end = q;
    /* end: the last "::" of name; walk its qualifiers backwards */
    ptrdiff_t k = i;
    while (end > name) {
        k = rules_prev(c, k);
        if (!rules_punct(c, k, P_SCOPE))
            return 0;
        const char *beg = end;
        while (beg > name && !(beg - name >= 2 && beg[-1] == ':' && beg[-2] == ':'))
            beg--;
        k = rules_prev(c, k);
        hp_str got = rules_text(c, k);
        if (k < 0 || c->t[k].kind != TK_IDENT || got.len != end - beg ||
            memcmp(got.s, beg, (size_t)got.len) != 0)
            return 0;
        end = beg > name ? beg - 2 : beg;
    }
    return 1;
}

static int ident_match(const rctx *c, const char *match, const char *row_name, ptrdiff_t i)
{
    switch (match[0]) {
    case 'i': /* ident: not a member */
        return !rules_member(c, i);
    case 'c': /* call */
        return !rules_member(c, i) && rules_call(c, i) >= 0;
    case 'n': /* ns: X:: */
        return !rules_member(c, i) && rules_punct(c, rules_next(c, i), P_SCOPE);
    case 'm': /* member: .X or ->X */
        return rules_member(c, i);
    case 't': /* tmpl: X< */
        return !rules_member(c, i) && rules_punct(c, rules_next(c, i), '<');
    case 'q': /* qual: ns::X, the qualifiers as the row writes them (a leading :: or not) */
        return qual_match(c, row_name, i);
    default:
        return 0;
    }
}

static int is_word_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_';
}

/* cudnn matches cudnnCreate and cudnn_frontend, not cudnnish; CUDNN_ matches CUDNN_STATUS_X. */
static int prefix_boundary(const char *prefix, hp_str s, ptrdiff_t pl)
{
    char next = s.s[pl];
    return prefix[pl - 1] == '_' || (next >= 'A' && next <= 'Z') || next == '_' ||
           (next >= '0' && next <= '9');
}

/* Is s an exact name of the table, or does it start with one of its prefixes? */
unsigned rules_names_names(const rctx *c, hp_str s, int number)
{
    if (number)
        return 0;
    const names_index *ix = c->cfg->names;
    if (!ix || s.len <= 0)
        return 0;
    uint64_t lb = s.len < 63 ? 1ull << s.len : 1ull << 63;
    if (ix->lens[(unsigned char)s.s[0]] & lb) {
        unsigned h = hp_hash(s.s, s.len, 0);
        for (int j = (int)(h & (unsigned)(ix->cap - 1)); ix->slot[j];
             j = (j + 1) & (ix->cap - 1)) {
            int row = ix->slot[j] - 1;
            if (s.len == ix->len[row] &&
                memcmp(s.s, rule_names_rows[row][N_NAME] + ix->keyoff[row], (size_t)s.len) == 0)
                return RH_NAMES;
        }
    }
    for (int p = ix->pfx_first[(unsigned char)s.s[0]];
         p < ix->nprefix && rule_names_rows[ix->prefix[p]][N_NAME][0] == s.s[0]; p++) {
        const char *const *r = rule_names_rows[ix->prefix[p]];
        ptrdiff_t pl = ix->len[ix->prefix[p]];
        if (s.len > pl && memcmp(s.s, r[N_NAME], (size_t)pl) == 0 &&
            prefix_boundary(r[N_NAME], s, pl))
            return RH_NAMES;
    }
    return 0;
}

static void names_token(rctx *c, const names_index *ix, ptrdiff_t i)
{
    const tok *k = &c->t[i];
    if (k->kind == TK_IDENT) {
        hp_str s = rules_text(c, i);
        uint64_t lb = s.len < 63 ? 1ull << s.len : 1ull << 63;
        int probe = (ix->lens[(unsigned char)s.s[0]] & lb) != 0;
        unsigned h = probe ? hp_hash(s.s, s.len, 0) : 0;
        for (int j = (int)(h & (unsigned)(ix->cap - 1)); probe && ix->slot[j];
             j = (j + 1) & (ix->cap - 1)) {
            int row = ix->slot[j] - 1;
            const char *const *r = rule_names_rows[row];
            if (s.len == ix->len[row] &&
                memcmp(s.s, r[N_NAME] + ix->keyoff[row], (size_t)s.len) == 0 &&
                ident_match(c, r[N_MATCH], r[N_NAME], i))
                name_hit(c, row, i, k->off, k->len, s);
        }
        for (int p = ix->pfx_first[(unsigned char)s.s[0]];
             p < ix->nprefix && rule_names_rows[ix->prefix[p]][N_NAME][0] == s.s[0]; p++) {
            const char *const *r = rule_names_rows[ix->prefix[p]];
            ptrdiff_t pl = ix->len[ix->prefix[p]];
            if (s.len > pl && (pl < 2 || s.s[1] == r[N_NAME][1]) &&
                memcmp(s.s, r[N_NAME], (size_t)pl) == 0 && prefix_boundary(r[N_NAME], s, pl) &&
                !rules_member(c, i))
                name_hit(c, ix->prefix[p], i, k->off, k->len, s);
        }
    } else if ((k->kind == TK_HEADER || k->kind == TK_STRING) && (k->flags & TF_PP) &&
               k->len >= 2 && ix->ninclude) {
        ptrdiff_t h = rules_prev(c, rules_prev(c, i));
        if (h < 0 || c->t[h].kind != TK_PP_HASH || c->t[h].sub != PP_INCLUDE)
            return;
        hp_str path = str_make(c->src + k->off + 1, k->len - 2);
        /* rows written "<cuda/" match #include <...> only, so that a project's own
         * "cuda/x.cuh" is not one, and only where no other row names the header */
        int hits = 0;
        for (int pass = 0; pass < 2 && !(pass && (hits || k->kind != TK_HEADER)); pass++)
            for (int p = 0; p < ix->ninclude; p++) {
                const char *const *r = rule_names_rows[ix->include[p]];
                hp_str want = str_cstr(r[N_NAME]);
                if (!want.len || (want.s[0] == '<') != pass)
                    continue;
                if (pass)
                    want = str_make(want.s + 1, want.len - 1);
                int hit = want.s[want.len - 1] == '/' ? str_starts(path, want)
                                                      : str_eq(path, want);
                if (hit) {
                    hits++;
                    name_hit(c, ix->include[p], i, k->off, k->len, path);
                }
            }
    }
}

/* Does the file call a name of rule's "call" rows whose severity is not a note, outside
 * #if groups that test HIP/AMD macros (the calls rules_names_scan reports above a note)? */
int rules_names_calls(rctx *c, const char *rule)
{
    const names_index *ix = c->cfg->names;
    if (!ix)
        return 0;
    for (ptrdiff_t hk = 0, i = -1;;) {
        i = c->hot ? rules_hot_next(c, &hk, RH_NAMES) : i + 1 < c->nt ? i + 1 : -1;
        if (i < 0)
            break;
        if (c->t[i].kind != TK_IDENT || (c->scope && (c->scope[i] & SC_GUARDED)))
            continue;
        hp_str s = rules_text(c, i);
        uint64_t lb = s.len < 63 ? 1ull << s.len : 1ull << 63;
        if (!(ix->lens[(unsigned char)s.s[0]] & lb))
            continue;
        unsigned h = hp_hash(s.s, s.len, 0);
        for (int j = (int)(h & (unsigned)(ix->cap - 1)); ix->slot[j];
             j = (j + 1) & (ix->cap - 1)) {
            int row = ix->slot[j] - 1;
            const char *const *r = rule_names_rows[row];
            if (s.len == ix->len[row] &&
                memcmp(s.s, r[N_NAME] + ix->keyoff[row], (size_t)s.len) == 0 &&
                strcmp(r[N_RULE], rule) == 0 && strcmp(r[N_MATCH], "call") == 0 &&
                strcmp(r[N_SEV], "note") != 0 && ident_match(c, r[N_MATCH], r[N_NAME], i))
                return 1;
        }
    }
    return 0;
}

void rules_names_scan(rctx *c)
{
    const names_index *ix = c->cfg->names;
    if (!ix)
        return;
    if (c->hot) {
        for (ptrdiff_t hk = 0, i; (i = rules_hot_next(c, &hk, RH_NAMES | RH_STR)) >= 0;)
            names_token(c, ix, i);
        return;
    }
    for (ptrdiff_t i = 0; i < c->nt; i++)
        names_token(c, ix, i);
}

/* ------------------------------------------------------------------ suppressions */

typedef struct ignore {
    int from, to;  /* lines */
    hp_str ids;    /* the list after "hipport-ignore" */
} ignore;

static int ignore_covers(hp_str ids, const char *rule)
{
    size_t rl = strlen(rule);
    ptrdiff_t i = 0;
    while (i < ids.len) {
        while (i < ids.len && (ids.s[i] == ' ' || ids.s[i] == '\t' || ids.s[i] == ',' ||
                               ids.s[i] == ':'))
            i++;
        ptrdiff_t j = i;
        while (j < ids.len && (is_word_char(ids.s[j]) || ids.s[j] == '-' || ids.s[j] == '*'))
            j++;
        if (j == i)
            break;
        hp_str w = str_make(ids.s + i, j - i);
        if (RULES_EQ(w, "all") || RULES_EQ(w, "*") || str_eqc(w, rule))
            return 1;
        /* a family prefix: letters only, the rule's letters exactly */
        size_t letters = 0;
        while (letters < rl && !(rule[letters] >= '0' && rule[letters] <= '9'))
            letters++;
        if ((size_t)w.len == letters && memcmp(w.s, rule, letters) == 0)
            return 1;
        i = j;
    }
    return 0;
}

/* Does only blank space follow offset off up to the end of its line? */
static int line_ends_after(const rctx *c, ptrdiff_t off)
{
    for (; off < c->len && c->src[off] != '\n'; off++)
        if (c->src[off] != ' ' && c->src[off] != '\t' && c->src[off] != '\r')
            return 0;
    return 1;
}

/* Does "hipport-ignore" occur anywhere in the file? (Found by its '-', a rare byte in code:
 * cheaper than looking into every comment.) */
static int mentions_ignore(const rctx *c)
{
    const char *p = c->src, *end = c->src + c->len;
    while (p < end && (p = memchr(p, '-', (size_t)(end - p))) != NULL) {
        if (p - c->src >= 7 && end - p >= 7 && memcmp(p - 7, "hipport", 7) == 0 &&
            memcmp(p + 1, "ignore", 6) == 0)
            return 1;
        p++;
    }
    return 0;
}

void rules_apply_ignores(rctx *c, int *suppressed)
{
    static const char key[] = "hipport-ignore";
    if (!mentions_ignore(c))
        return;
    ignore *ig = NULL;
    int n = 0, cap = 0;
    for (ptrdiff_t i = 0; i < c->nt; i++) {
        const tok *k = &c->t[i];
        if (k->kind != TK_COMMENT || k->len < (int32_t)sizeof key - 1)
            continue;
        hp_str body = rules_text(c, i);
        ptrdiff_t at = str_find(body, S(key));
        if (at < 0)
            continue;
        hp_str ids = str_cut(body, at + (ptrdiff_t)sizeof key - 1, body.len);
        /* the list ends at the end of the line or of the comment */
        ptrdiff_t e = 0;
        while (e < ids.len && ids.s[e] != '\n' && ids.s[e] != '\r' &&
               !(ids.s[e] == '*' && e + 1 < ids.len && ids.s[e + 1] == '/'))
            e++;
        ids.len = e;
        if (n == cap) {
            int ncap = cap ? cap * 2 : 8;
            ig = arena_grow(c->a, ig, (ptrdiff_t)cap * (ptrdiff_t)sizeof *ig,
                            (ptrdiff_t)ncap * (ptrdiff_t)sizeof *ig, _Alignof(ignore));
            cap = ncap;
        }
        int l0, c0, l1, c1;
        diag_linecol(&c->d, k->off, &l0, &c0);
        diag_linecol(&c->d, k->off + k->len - 1 < k->off ? k->off : k->off + k->len - 1, &l1,
                     &c1);
        ig[n].from = l0;
        /* a comment alone on its line also covers the next line */
        int alone = (k->flags & TF_BOL) && line_ends_after(c, k->off + k->len);
        ig[n].to = alone ? l1 + 1 : l1;
        ig[n].ids = ids;
        n++;
    }
    if (!n)
        return;
    int w = 0;
    for (int f = 0; f < c->d.n; f++) {
        hp_finding *fd = &c->d.v[f];
        int drop = 0;
        for (int j = 0; j < n && !drop; j++)
            if (fd->line >= ig[j].from && fd->line <= ig[j].to &&
                ignore_covers(ig[j].ids, fd->rule))
                drop = 1;
        if (drop)
            (*suppressed)++;
        else
            c->d.v[w++] = *fd;
    }
    c->d.n = w;
}

ptrdiff_t rules_hot_from(const rctx *c, ptrdiff_t i)
{
    ptrdiff_t lo = 0, hi = c->nhot;
    while (lo < hi) {
        ptrdiff_t mid = lo + (hi - lo) / 2;
        if (c->hot[mid].tok < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}
