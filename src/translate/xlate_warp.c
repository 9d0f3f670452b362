/* xlate_warp.c: warp-level builtins (__shfl_*_sync, votes, __activemask, __syncwarp,
 * __reduce_*_sync, __match_*_sync) for the target HIP, and cooperative groups' reduce.
 *
 * HIP 6.2 added the *_sync builtins with 64-bit masks (a static_assert rejects 32-bit ones);
 * before HIP 7.0 they need HIP_ENABLE_WARP_SYNC_BUILTINS. A CUDA full-warp mask means "every
 * lane", so it becomes the 64-bit all-lanes mask. A HIP without the builtins gets the maskless
 * forms where the mask names the whole warp (then every lane takes part, which is what the
 * maskless forms assume), or a function of hipport_compat.h. Every rewrite is reported. */
#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "os.h"
#include "str.h"
#include "warp_env.h"
#include "nameidx.h"
#include "xlate.h"

#include "banned.h"

enum { MASK_OTHER, MASK_FULL32, MASK_FULL64, MASK_ACTIVE };

#define ALL_LANES "0xffffffffffffffffull"

/* ------------------------------------------------------------------ mask constants */

static int classify(const xlate *x, ptrdiff_t first, ptrdiff_t last, int depth);

/* The file's indexes (xlate.warp), built on first use in the file's arena: the first
 * "#define NAME" directive of each name, and the first "const T NAME = <init>" token. */
struct warp_idx {
    nameidx macros;  /* name -> index in x->dirs of its first #define */
    int macros_built;
    nameidx consts;  /* name -> token of its first const declaration with a value */
    atomic_int consts_built;
    /* A cached header's indexes, shared by the threads (xlate_warp_index): the constants'
     * index is made on first use, under lock, in home (the header's arena). */
    pthread_mutex_t *lock;
    arena *home;
};

/* Makes x->warp (the entry points do, so that the const functions below can fill it). */
static void warp_idx_ready(xlate *x)
{
    if (!x->warp)
        x->warp = NEW(x->a, struct warp_idx, 1);
}

/* The name token of the directive at x->dirs[d], or nt. */
static ptrdiff_t define_name(const xlate *x, ptrdiff_t d)
{
    return xlate_next(x, xlate_next(x, x->dirs[d]));
}

/* The body of "#define name <body>" in this file (object-like macros only): the first
 * #define of the name decides. */
static int macro_body(const xlate *x, hp_str name, ptrdiff_t *first, ptrdiff_t *last)
{
    struct warp_idx *w = x->warp;
    if (w && !w->macros_built) {
        w->macros_built = 1;
        ptrdiff_t nd = 0;
        for (ptrdiff_t k = 0; k < x->ndirs; k++)
            nd += x->t[x->dirs[k]].sub == PP_DEFINE;
        if (nameidx_init(&w->macros, x->a, nd))
            for (ptrdiff_t k = 0; k < x->ndirs; k++) {
                if (x->t[x->dirs[k]].sub != PP_DEFINE)
                    continue;
                ptrdiff_t n = define_name(x, k);
                if (n < x->nt)
                    nameidx_put(&w->macros, xlate_text(x, n), (int32_t)k, 0);
            }
    }
    ptrdiff_t d = -1;
    if (w && w->macros.cap) {
        d = nameidx_get(&w->macros, name);
    } else { /* no index (no room, only without a recovery point): the plain scan */
        for (ptrdiff_t k = 0; k < x->ndirs && d < 0; k++) {
            ptrdiff_t n = x->t[x->dirs[k]].sub == PP_DEFINE ? define_name(x, k) : x->nt;
            if (n < x->nt && str_eq(xlate_text(x, n), name))
                d = k;
        }
    }
    if (d < 0)
        return 0;
    ptrdiff_t n = define_name(x, d);
    ptrdiff_t b = xlate_next(x, n);
    if (xlate_punct(x, b, '(') && !(x->t[b].flags & TF_SPACE))
        return 0; /* function-like */
    ptrdiff_t e = b;
    while (e < x->nt && x->t[e].kind != TK_PP_END)
        e++;
    ptrdiff_t l = e - 1;
    while (l > b && x->t[l].kind == TK_COMMENT)
        l--;
    if (b >= e)
        return 0;
    *first = b;
    *last = l;
    return 1;
}

/* Is token i (an identifier outside directives) the name of "const T name = ..."? Sets
 * whether T is 64-bit. */
static int const_decl(const xlate *x, ptrdiff_t i, int *t64)
{
    if (x->t[i].kind != TK_IDENT || (x->t[i].flags & TF_PP))
        return 0;
    ptrdiff_t eq = xlate_next(x, i);
    if (!xlate_punct(x, eq, '='))
        return 0;
    int is_const = 0, longs = 0, u64 = 0;
    for (ptrdiff_t p = xlate_prev(x, i); p >= 0; p = xlate_prev(x, p)) {
        const tok *k = &x->t[p];
        if (k->kind == TK_PUNCT && (k->sub == ';' || k->sub == '{' || k->sub == '}' ||
                                    k->sub == '(' || k->sub == ','))
            break;
        if (k->kind != TK_IDENT)
            continue;
        hp_str w = xlate_text(x, p);
        if (str_eqc(w, "const") || str_eqc(w, "constexpr"))
            is_const = 1;
        else if (str_eqc(w, "long"))
            longs++;
        else if (str_eqc(w, "uint64_t") || str_eqc(w, "int64_t") || str_eqc(w, "size_t"))
            u64 = 1;
    }
    *t64 = longs > 0 || u64;
    return is_const;
}

/* The constants' index of x in w (in w->home when the index is shared), then marked made. */
static void consts_build(const xlate *x, struct warp_idx *w)
{
    arena *a = w->home ? w->home : x->a;
    int t64_;
    int *t64 = &t64_;
    /* one pass finds the declarations (in file order, so the first of a name wins) */
    int32_t *at = arena_alloc_nozero(a, (ptrdiff_t)sizeof *at, _Alignof(int32_t),
                                     x->nt > 0 ? x->nt : 1);
    ptrdiff_t nc = 0;
    for (ptrdiff_t i = 0; at && i < x->nt; i++)
        if (const_decl(x, i, t64))
            at[nc++] = (int32_t)i;
    if (at && nameidx_init(&w->consts, a, nc))
        for (ptrdiff_t k = 0; k < nc; k++)
            nameidx_put(&w->consts, xlate_text(x, at[k]), at[k], 0);
    atomic_store_explicit(&w->consts_built, 1, memory_order_release);
}

/* The initializer of "const T name = <init>;" in this file, and whether T is 64-bit: the
 * first such declaration of the name decides. */
static int const_init(const xlate *x, hp_str name, ptrdiff_t *first, ptrdiff_t *last, int *t64)
{
    struct warp_idx *w = x->warp;
    if (w && !atomic_load_explicit(&w->consts_built, memory_order_acquire)) {
        if (w->lock)
            pthread_mutex_lock(w->lock);
        if (!atomic_load_explicit(&w->consts_built, memory_order_relaxed))
            consts_build(x, w);
        if (w->lock)
            pthread_mutex_unlock(w->lock);
    }
    ptrdiff_t i = -1;
    if (w && w->consts.cap) {
        i = nameidx_get(&w->consts, name);
        if (i >= 0)
            const_decl(x, i, t64);
    } else { /* no index: the plain scan */
        for (ptrdiff_t k = 0; k < x->nt && i < 0; k++)
            if (x->t[k].kind == TK_IDENT && str_eq(xlate_text(x, k), name) &&
                const_decl(x, k, t64))
                i = k;
    }
    if (i < 0)
        return 0;
    ptrdiff_t eq = xlate_next(x, i);
    ptrdiff_t b = xlate_next(x, eq), e = b;
    while (e < x->nt && !xlate_punct(x, e, ';') && !xlate_punct(x, e, ','))
        e = xlate_next(x, e);
    if (e >= x->nt || b == e)
        return 0;
    *first = b;
    *last = xlate_prev(x, e);
    return 1;
}

static int cast_width(const xlate *x, ptrdiff_t first, ptrdiff_t last)
{
    /* the type words of a cast: 32 or 64 bits, 0 if not an integer type */
    int longs = 0, ok = 0;
    for (ptrdiff_t i = first; i <= last && i < x->nt; i = xlate_next(x, i)) {
        hp_str w = xlate_text(x, i);
        if (str_eqc(w, "long"))
            longs++, ok = 1;
        else if (str_eqc(w, "uint64_t") || str_eqc(w, "int64_t") || str_eqc(w, "size_t"))
            longs = 2, ok = 1;
        else if (str_eqc(w, "unsigned") || str_eqc(w, "int") || str_eqc(w, "uint32_t") ||
                 str_eqc(w, "int32_t") || str_eqc(w, "signed") || str_eqc(w, "uint"))
            ok = 1;
        else
            return 0;
    }
    return ok ? (longs ? 64 : 32) : 0;
}

/* Is the variable at token k written there (assigned, incremented, addressed)? */
static int written(const xlate *x, ptrdiff_t k)
{
    ptrdiff_t n = xlate_next(x, k), q = xlate_prev(x, k);
    return xlate_punct(x, q, '&') || xlate_punct(x, n, '=') || xlate_punct(x, n, P_ASSIGN_OP) ||
           xlate_punct(x, n, P_INC) || xlate_punct(x, n, P_DEC) || xlate_punct(x, q, P_INC) ||
           xlate_punct(x, q, P_DEC);
}

/* Is the variable used at token use a local of the same function declared with a value
 * (T v = <init>;: a full-warp literal, __activemask()) and not assigned, incremented or
 * addressed between there and the use? Sets the initializer's tokens and whether T is 64-bit. */
static int local_init(const xlate *x, ptrdiff_t use, ptrdiff_t *first, ptrdiff_t *last, int *t64)
{
    hp_str name = xlate_text(x, use);
    int steps = 0;
    for (ptrdiff_t p = xlate_prev(x, use); p >= 0 && steps < 4000; p = xlate_prev(x, p), steps++) {
        if (x->t[p].kind != TK_IDENT)
            continue;
        hp_str w = xlate_text(x, p);
        if (str_eqc(w, "__global__") || str_eqc(w, "__device__"))
            return 0; /* the start of the function */
        if (!str_eq(w, name))
            continue;
        ptrdiff_t n = xlate_next(x, p), q = xlate_prev(x, p);
        if (written(x, p) && !xlate_punct(x, n, '='))
            return 0;
        if (!xlate_punct(x, n, '='))
            continue; /* a read */
        /* NAME = ...: a declaration (a type word before it) with that value, or an assignment */
        if (q < 0 || x->t[q].kind != TK_IDENT || xlate_is(x, q, "return") || xlate_is(x, q, "else") ||
            xlate_is(x, q, "do"))
            return 0;
        int longs = 0, u64 = 0;
        for (ptrdiff_t k = q; k >= 0 && x->t[k].kind == TK_IDENT; k = xlate_prev(x, k)) {
            hp_str t = xlate_text(x, k);
            if (str_eqc(t, "long"))
                longs++;
            else if (str_eqc(t, "uint64_t") || str_eqc(t, "int64_t") || str_eqc(t, "size_t"))
                u64 = 1;
        }
        ptrdiff_t b = xlate_next(x, n), e = b;
        while (e < x->nt && !xlate_punct(x, e, ';') && !xlate_punct(x, e, ','))
            e = xlate_next(x, e);
        if (e >= x->nt || b == e)
            return 0;
        /* never written in the rest of its block either: a loop may come back to the use */
        int depth = 0;
        for (ptrdiff_t k = e; k < x->nt && steps < 8000; k = xlate_next(x, k), steps++) {
            if (xlate_punct(x, k, '{'))
                depth++;
            else if (xlate_punct(x, k, '}') && --depth < 0)
                break;
            if (x->t[k].kind == TK_IDENT && str_eq(xlate_text(x, k), name) && written(x, k))
                return 0;
        }
        *first = b;
        *last = xlate_prev(x, e);
        *t64 = longs > 0 || u64;
        return 1;
    }
    return 0;
}

/* Classifies the mask expression of tokens first..last (significant tokens). */
static int classify(const xlate *x, ptrdiff_t first, ptrdiff_t last, int depth)
{
    if (first > last || first < 0 || last >= x->nt || depth > 3)
        return MASK_OTHER;
    /* (expr) */
    if (xlate_punct(x, first, '(') && xlate_match(x, first) == last)
        return classify(x, xlate_next(x, first), xlate_prev(x, last), depth + 1);
    /* (type)expr */
    if (xlate_punct(x, first, '(')) {
        ptrdiff_t close = xlate_match(x, first);
        if (close > first && close < last) {
            int w = cast_width(x, xlate_next(x, first), xlate_prev(x, close));
            int c = classify(x, xlate_next(x, close), last, depth + 1);
            if (w == 32 && c != MASK_OTHER && c != MASK_ACTIVE)
                return MASK_FULL32;
            if (w == 64 && c == MASK_FULL64)
                return MASK_FULL64;
            return MASK_OTHER;
        }
    }
    /* static_cast<type>(expr) */
    if (xlate_is(x, first, "static_cast")) {
        ptrdiff_t lt = xlate_next(x, first);
        ptrdiff_t gt = lt;
        while (gt <= last && !xlate_punct(x, gt, '>'))
            gt = xlate_next(x, gt);
        ptrdiff_t open = xlate_next(x, gt);
        if (xlate_punct(x, lt, '<') && gt <= last && xlate_punct(x, open, '(') &&
            xlate_match(x, open) == last) {
            int w = cast_width(x, xlate_next(x, lt), xlate_prev(x, gt));
            int c = classify(x, xlate_next(x, open), xlate_prev(x, last), depth + 1);
            if (w == 32 && c != MASK_OTHER && c != MASK_ACTIVE)
                return MASK_FULL32;
            if (w == 64 && c == MASK_FULL64)
                return MASK_FULL64;
        }
        return MASK_OTHER;
    }
    /* type(expr), a functional cast: uint32_t(-1) */
    if (x->t[first].kind == TK_IDENT && xlate_punct(x, xlate_next(x, first), '(') &&
        xlate_match(x, xlate_next(x, first)) == last) {
        int w = cast_width(x, first, first);
        if (w) {
            int c = classify(x, xlate_next(x, xlate_next(x, first)), xlate_prev(x, last),
                             depth + 1);
            if (w == 32 && c != MASK_OTHER && c != MASK_ACTIVE)
                return MASK_FULL32;
            if (w == 64 && c == MASK_FULL64)
                return MASK_FULL64;
            return MASK_OTHER;
        }
    }
    /* ~literal, -literal */
    if ((xlate_punct(x, first, '~') || xlate_punct(x, first, '-')) &&
        xlate_next(x, first) == last && x->t[last].kind == TK_NUMBER) {
        unsigned long long v;
        int bits;
        if (!lex_int_literal(xlate_text(x, last), &v, &bits))
            return MASK_OTHER;
        if (xlate_punct(x, first, '~') ? v != 0 : v != 1)
            return MASK_OTHER;
        return bits == 64 ? MASK_FULL64 : MASK_FULL32;
    }
    if (first != last) {
        /* __activemask() */
        if (xlate_is(x, first, "__activemask") && xlate_punct(x, xlate_next(x, first), '(') &&
            xlate_next(x, xlate_next(x, first)) == last && xlate_punct(x, last, ')'))
            return MASK_ACTIVE;
        return MASK_OTHER;
    }
    const tok *k = &x->t[first];
    if (k->kind == TK_NUMBER) {
        unsigned long long v;
        int bits;
        if (!lex_int_literal(xlate_text(x, first), &v, &bits))
            return MASK_OTHER;
        if (v == 0xffffffffull)
            return MASK_FULL32;
        if (v == ~0ull)
            return MASK_FULL64;
        return MASK_OTHER;
    }
    if (k->kind != TK_IDENT)
        return MASK_OTHER;
    hp_str w = xlate_text(x, first);
    if (str_eqc(w, "UINT_MAX") || str_eqc(w, "UINT32_MAX"))
        return MASK_FULL32;
    if (str_eqc(w, "ULLONG_MAX") || str_eqc(w, "UINT64_MAX") || str_eqc(w, "ULONG_MAX"))
        return MASK_FULL64;
    ptrdiff_t b, e;
    if (macro_body(x, w, &b, &e))
        return classify(x, b, e, depth + 1);
    if (x->env) {
        int32_t j = nameidx_get(&x->env->ix, w);
        if (j >= 0)
            return x->env->kind[j];
    }
    int t64;
    if (local_init(x, first, &b, &e, &t64)) {
        int c = classify(x, b, e, depth + 1);
        if (c == MASK_ACTIVE || c == MASK_OTHER)
            return c;
        return t64 && c == MASK_FULL64 ? MASK_FULL64 : MASK_FULL32;
    }
    if (const_init(x, w, &b, &e, &t64)) {
        int c = classify(x, b, e, depth + 1);
        if (c == MASK_OTHER || c == MASK_ACTIVE)
            return MASK_OTHER;
        return t64 && c == MASK_FULL64 ? MASK_FULL64 : MASK_FULL32;
    }
    return MASK_OTHER;
}

/* ------------------------------------------------------------------ findings */

static const char *ver(xlate *x, int v)
{
    if (x->d.bare)
        return ""; /* only in messages */
    return arena_printf(x->a, "%d.%d", v / 100, v % 100);
}

static void report(xlate *x, ptrdiff_t i, hp_severity sev, const char *msg, const char *fix)
{
    diag_add(&x->d, x->t[i].off, x->t[i].len, "HP-WARP", sev, msg, fix);
}

static hp_str mask_text(const xlate *x, const lex_args *a)
{
    const tok *f = &x->t[a->first[0]], *l = &x->t[a->last[0]];
    return str_make(x->src + f->off, l->off + l->len - f->off);
}

/* ------------------------------------------------------------------ the builtins */

/* Replaces the mask argument by the 64-bit all-lanes mask. */
static void widen_mask(xlate *x, const lex_args *a)
{
    const tok *f = &x->t[a->first[0]], *l = &x->t[a->last[0]];
    xlate_edit(x, f->off, l->off + l->len - f->off, S(ALL_LANES));
}

/* Removes the mask argument (and the comma after it). */
static void drop_mask(xlate *x, const lex_args *a)
{
    ptrdiff_t from = x->t[a->first[0]].off;
    ptrdiff_t to = a->n > 1 ? x->t[a->first[1]].off : x->t[a->close].off;
    xlate_edit(x, from, to - from, S(""));
}

hp_str xlate_warp_call(xlate *x, ptrdiff_t i, const map_row *r)
{
    warp_idx_ready(x);
    hp_str cuda = map_cuda(r);
    hp_str hip = map_hip(r);
    int name_len = (int)cuda.len;
    ptrdiff_t open = xlate_next(x, i);
    lex_args a;
    if (!xlate_punct(x, open, '(') || !xlate_args(x, open, &a))
        return cuda; /* not a call (a pointer to it, a declaration in a macro): left as is */
    int is_activemask = str_eqc(cuda, "__activemask");
    int is_syncwarp = str_eqc(cuda, "__syncwarp");
    int has_mask = !is_activemask && a.n >= 1 && a.last[0] >= a.first[0];
    int mask = has_mask ? classify(x, a.first[0], a.last[0], 0) : MASK_FULL64;
    int full = mask != MASK_OTHER;

    /* Shuffles of __half and __half2: HIP has none; hipport_compat.h moves their bits */
    if (str_starts(cuda, S("__shfl")) && a.n >= 2 && a.first[1] == a.last[1] &&
        x->t[a.first[1]].kind == TK_IDENT) {
        hp_str ty = xlate_declared_type(x, a.first[1]);
        if (str_eqc(ty, "__half") || str_eqc(ty, "half") || str_eqc(ty, "__half2") ||
            str_eqc(ty, "half2")) {
            if (!full) {
                report(x, i, HP_SEV_WARNING,
                       xlate_msg(x, "HIP has no %.*s of %.*s, and the mask '%.*s' names "
                                    "part of the warp: left as written",
                                 name_len, cuda.s, (int)ty.len, ty.s,
                                 (int)mask_text(x, &a).len, mask_text(x, &a).s),
                       "shuffle the bits: __half_as_ushort / __ushort_as_half");
                return cuda;
            }
            x->needs_compat = 1;
            report(x, i, HP_SEV_NOTE,
                   xlate_msg(x, "HIP has no %.*s of %.*s: hipport_%.*s of "
                                "hipport_compat.h shuffles its bits",
                             name_len, cuda.s, (int)ty.len, ty.s, name_len - 2, cuda.s + 2),
                   NULL);
            return str_cstr(arena_printf(x->a, "hipport_%.*s", name_len - 2, cuda.s + 2));
        }
    }

    if (x->hipv >= r->since) {
        /* HIP has the builtin: it takes a 64-bit mask */
        if (r->since < 700 && x->hipv < 700)
            x->warp_sync_define = 1;
        if (has_mask && mask == MASK_FULL32) {
            widen_mask(x, &a);
            report(x, a.first[0], HP_SEV_NOTE,
                   xlate_msg(x,
                             "the full-warp mask '%.*s' becomes the 64-bit all-lanes mask "
                             "of HIP's %.*s; lane arithmetic around it may still assume 32 "
                             "lanes",
                             (int)mask_text(x, &a).len, mask_text(x, &a).s, name_len,
                             cuda.s),
                   "check lane indices and offsets against warpSize (64 on gfx9)");
        } else if (has_mask && mask == MASK_ACTIVE && !xlate_is(x, a.first[0], "__activemask")) {
            report(x, a.first[0], HP_SEV_WARNING,
                   xlate_msg(x,
                             "'%.*s' holds __activemask(), which is 64-bit in HIP: declare "
                             "it unsigned long long for HIP's %.*s",
                             (int)mask_text(x, &a).len, mask_text(x, &a).s, name_len,
                             cuda.s),
                   "keep masks in unsigned long long");
        } else if (has_mask && mask == MASK_OTHER) {
            report(x, a.first[0], HP_SEV_WARNING,
                   xlate_msg(x,
                             "HIP's %.*s needs a 64-bit mask that names the same lanes on a "
                             "64-lane wavefront; '%.*s' is left as written",
                             name_len, cuda.s, (int)mask_text(x, &a).len,
                             mask_text(x, &a).s),
                   "keep masks in unsigned long long (e.g. from __ballot_sync or "
                   "__activemask) and build them with 1ull << lane");
        }
        return hip;
    }

    /* The target HIP lacks the builtin. */
    if (is_activemask) {
        /* the lanes that are active: a ballot of true */
        xlate_edit(x, x->t[i].off, x->t[a.close].off + 1 - x->t[i].off, S("__ballot(1)"));
        report(x, i, HP_SEV_NOTE,
               xlate_msg(x,
                         "HIP %s has no __activemask: __ballot(1) gives the active lanes "
                         "(64-bit, as HIP's __activemask)",
                         ver(x, x->hipv)),
               NULL);
        return cuda; /* the call was replaced as a whole */
    }
    hp_str legacy = map_legacy(r);
    if (!legacy.len || (!full && !is_syncwarp)) {
        report(x, i, HP_SEV_WARNING,
               !legacy.len
                   ? xlate_msg(x, "%.*s needs HIP %s; the target is HIP %s", name_len,
                               cuda.s, ver(x, r->since), ver(x, x->hipv))
                   : xlate_msg(x,
                               "%.*s with the mask '%.*s' has no faithful equivalent on HIP "
                               "%s (no *_sync builtins): left as written",
                               name_len, cuda.s, (int)mask_text(x, &a).len,
                               mask_text(x, &a).s, ver(x, x->hipv)),
               "target HIP 6.2 or newer (--hip-version), or restructure this code");
        return cuda;
    }
    if (r->flags & MAP_F(compat)) {
        /* hipport_compat.h provides it with the same arguments */
        x->needs_compat = 1;
        report(x, i, HP_SEV_NOTE,
               xlate_msg(x, "HIP %s has no %.*s: %.*s of hipport_compat.h does the same",
                         ver(x, x->hipv), name_len, cuda.s, (int)legacy.len, legacy.s),
               NULL);
        return legacy;
    }
    drop_mask(x, &a);
    report(x, i, HP_SEV_NOTE,
           xlate_msg(x,
                     "HIP %s has no %.*s: with %s %.*s is the same operation (over "
                     "warpSize lanes: 64 on gfx9)",
                     ver(x, x->hipv), name_len, cuda.s,
                     mask == MASK_ACTIVE ? "the mask of the active lanes,"
                                            : "a full-warp mask every lane takes part, so",
                        (int)legacy.len, legacy.s),
           NULL);
    return legacy;
}

/* ------------------------------------------------------------------ cooperative groups */

/* Is the name at i a namespace that means cooperative_groups here (the name itself or an
 * alias declared in this file with "namespace X = cooperative_groups;")? */
static int is_cg_namespace(xlate *x, ptrdiff_t i)
{
    hp_str w = xlate_text(x, i);
    if (str_eqc(w, "cooperative_groups"))
        return 1;
    if (!x->cg_scanned) {
        x->cg_scanned = 1;
        for (ptrdiff_t k = 0; k + 3 < x->nt; k++) {
            if (!xlate_is(x, k, "namespace"))
                continue;
            ptrdiff_t n = xlate_next(x, k), eq = xlate_next(x, n), v = xlate_next(x, eq);
            if (xlate_punct(x, v, P_SCOPE))
                v = xlate_next(x, v);
            if (x->t[n].kind == TK_IDENT && xlate_punct(x, eq, '=') &&
                xlate_is(x, v, "cooperative_groups") && x->ncg_alias < 4)
                x->cg_alias[x->ncg_alias++] = xlate_text(x, n);
        }
    }
    for (int k = 0; k < x->ncg_alias; k++)
        if (str_eq(x->cg_alias[k], w))
            return 1;
    return 0;
}

/* The operators of cooperative groups that xlate_warp_cg_ident rewrites. */
static const struct {
    const char *s;
    ptrdiff_t len;
} names[] = {{"reduce", 6}, {"plus", 4},   {"less", 4},   {"greater", 7},
             {"bit_and", 7}, {"bit_or", 6}, {"bit_xor", 7}};

const char *xlate_warp_cg_name(int k)
{
    return k >= 0 && k < (int)(sizeof names / sizeof *names) ? names[k].s : NULL;
}

int xlate_warp_cg_ident(xlate *x, ptrdiff_t i)
{
    hp_str w = xlate_text(x, i);
    size_t k = 0;
    for (; k < sizeof names / sizeof *names; k++)
        if (w.len == names[k].len && memcmp(w.s, names[k].s, (size_t)w.len) == 0)
            break;
    if (k == sizeof names / sizeof *names)
        return 0;
    ptrdiff_t sc = xlate_prev(x, i);
    if (!xlate_punct(x, sc, P_SCOPE))
        return 0;
    ptrdiff_t ns = xlate_prev(x, sc);
    if (ns < 0 || x->t[ns].kind != TK_IDENT || !is_cg_namespace(x, ns))
        return 0;
    /* a leading '::' before the namespace stays; X::reduce becomes hipport_cg::reduce */
    xlate_edit(x, x->t[ns].off, x->t[i].off + x->t[i].len - x->t[ns].off,
               str_cstr(arena_printf(x->a, "hipport_cg::%.*s", (int)w.len, w.s)));
    x->needs_compat = 1;
    if (k == 0)
        report(x, i, HP_SEV_NOTE,
               "HIP's cooperative groups have no reduce: hipport_cg::reduce of "
               "hipport_compat.h reduces over a thread_block_tile with its shuffles",
               NULL);
    x->st.converted++;
    return 1;
}

/* The types HIP's group shuffles take (they call __shfl, which has overloads of these and
 * converts the narrower integers): a value declared with one is left to the group's member. */
static int shfl_arith(hp_str ty)
{
    static const char *const arith[] = {"int",      "unsigned", "float",    "double",  "long",
                                        "short",    "char",     "bool",     "size_t",  "int8_t",
                                        "int16_t",  "int32_t",  "int64_t",  "uint8_t", "uint16_t",
                                        "uint32_t", "uint64_t", "signed",   "uint",    "ptrdiff_t"};
    for (size_t k = 0; k < sizeof arith / sizeof *arith; k++)
        if (str_eqc(ty, arith[k]))
            return 1;
    return 0;
}

/* A candidate declaration of a name: after a type word, '>', '&' or '*'. */
static int decl_candidate(void *ctx, ptrdiff_t j)
{
    const xlate *x = ctx;
    ptrdiff_t p = xlate_prev(x, j);
    return p >= 0 && (x->t[p].kind == TK_IDENT || xlate_punct(x, p, '>') ||
                      xlate_punct(x, p, '&') || xlate_punct(x, p, '*'));
}

/* Is the object at obj declared as a group (cg::thread_block_tile<32> warp, const
 * coalesced_group &g, auto tile = ...)? Its nearest earlier declaration (found through the
 * file's identifier index, so that the shuffles of a file cost its length once between
 * them), with the group's type or auto among the words of the declaration. */
static int group_object(xlate *x, ptrdiff_t obj)
{
    ptrdiff_t j = lex_find_back_memo(x->idx, 1, x->src, x->t, x->nt, obj, obj, 0,
                                     decl_candidate, x);
    if (j < 0)
        return 0;
    ptrdiff_t p = xlate_prev(x, j);
    for (int k = 0; k < 16 && p >= 0; k++, p = xlate_prev(x, p)) {
        if (xlate_punct(x, p, ';') || xlate_punct(x, p, '{') || xlate_punct(x, p, '}') ||
            xlate_punct(x, p, '(') || xlate_punct(x, p, ','))
            break;
        if (xlate_is(x, p, "thread_block_tile") || xlate_is(x, p, "coalesced_group") ||
            xlate_is(x, p, "thread_group") || xlate_is(x, p, "auto"))
            return 1;
    }
    return 0;
}

/* Does the file name cooperative groups' namespace (or an alias of it)? Answered once. */
static int names_cg(xlate *x)
{
    if (!x->cg_named) {
        x->cg_named = -1;
        for (ptrdiff_t k = 0; k < x->nt && x->cg_named < 0; k++)
            if (x->t[k].kind == TK_IDENT && is_cg_namespace(x, k))
                x->cg_named = 1;
    }
    return x->cg_named > 0;
}

int xlate_warp_tile_shfl(xlate *x, ptrdiff_t i)
{
    hp_str w = xlate_text(x, i);
    if (str_eqc(w, "binary_partition")) {
        /* cg::binary_partition(tile, pred): HIP 5.2's cooperative groups have none */
        ptrdiff_t sc = xlate_prev(x, i), ns = xlate_prev(x, sc);
        if (x->hipv >= 702 || !xlate_punct(x, sc, P_SCOPE) || ns < 0 ||
            x->t[ns].kind != TK_IDENT || !is_cg_namespace(x, ns))
            return 0;
        diag_add(&x->d, x->t[i].off, x->t[i].len, "HP-HIP-VERSION", HP_SEV_WARNING,
                 xlate_msg(x,
                           "cooperative groups' binary_partition needs HIP 7.2 (the first HIP "
                           "checked to have it; HIP 5.2 has none); the target is HIP %d.%d",
                           x->hipv / 100, x->hipv % 100),
                 "target a newer HIP with --hip-version, or split the tile with "
                 "ballot and a labelled mask of its own");
        return 0;
    }
    if (!str_eqc(w, "shfl") && !str_eqc(w, "shfl_up") && !str_eqc(w, "shfl_down") &&
        !str_eqc(w, "shfl_xor"))
        return 0;
    ptrdiff_t dot = xlate_prev(x, i), obj = xlate_prev(x, dot), open = xlate_next(x, i);
    if (!xlate_punct(x, dot, '.') || obj < 0 || x->t[obj].kind != TK_IDENT ||
        !xlate_punct(x, open, '(') || (x->t[i].flags & TF_PP))
        return 0;
    /* the object: a group of cooperative groups, declared as one or with auto (auto tile =
     * cg::tiled_partition<32>(block)) in a file that names cooperative groups */
    if (!group_object(x, obj))
        return 0;
    if (!names_cg(x))
        return 0;
    lex_args a;
    if (!xlate_args(x, open, &a) || a.n != 2 || a.last[0] < a.first[0])
        return 0;
    ptrdiff_t v = a.first[0];
    if (v == a.last[0] && (x->t[v].kind == TK_NUMBER ||
                           (x->t[v].kind == TK_IDENT && shfl_arith(xlate_declared_type(x, v)))))
        return 0;
    xlate_edit(x, x->t[obj].off, x->t[open].off + 1 - x->t[obj].off,
               str_cstr(arena_printf(x->a, "hipport_cg::%.*s(%.*s, ", (int)w.len, w.s,
                                     (int)x->t[obj].len, x->src + x->t[obj].off)));
    x->needs_compat = 1;
    report(x, i, HP_SEV_NOTE,
           xlate_msg(x,
                     "HIP's group shuffles take arithmetic types only (CUDA's any trivially "
                     "copyable one): hipport_cg::%.*s of hipport_compat.h moves other values "
                     "as 32-bit words",
                     (int)w.len, w.s),
           NULL);
    x->st.converted++;
    return 1;
}

/* ------------------------------------------------------------------ masks of macros */

/* Builds x->warp's macro index now, in x->a: a header the run's cache keeps shares it,
 * read-only, with every file that includes it; its constants' index is made on first use,
 * in x->a under lock. */
struct warp_idx *xlate_warp_index(xlate *x, pthread_mutex_t *lock)
{
    warp_idx_ready(x);
    ptrdiff_t b, e;
    macro_body(x, str_cstr(""), &b, &e);
    if (x->warp) {
        x->warp->lock = lock;
        x->warp->home = x->a;
    }
    return x->warp;
}

int xlate_warp_macro_mask(xlate *x, hp_str name)
{
    warp_idx_ready(x);
    ptrdiff_t b, e;
    if (!macro_body(x, name, &b, &e))
        return 0;
    int kind = classify(x, b, e, 0);
    return kind == MASK_FULL32 || kind == MASK_FULL64 ? kind : 0;
}
