/* rules_hot.c: the tokens the rule families act on, found in one pass (see rules.h). An
 * identifier or number is classified once per distinct text: the file's names are kept in an
 * open-addressing table with the RH_* bits each family's predicate gave them, so a name that
 * recurs a thousand times costs one hash probe per use and one classification. */
#include <string.h>

#include "hash.h"
#include "rules.h"

#include "banned.h"

/* A name: its first and last eight bytes (all of it up to 16 bytes), its length and kind. */
typedef struct hname {
    uint64_t k0, k1;
    uint32_t lk;   /* length | kind << 24; 0: an empty slot */
    uint32_t bits;
    int32_t off;   /* the first occurrence (to compare names longer than 16 bytes) */
} hname;

typedef struct htab {
    hname *v;
    ptrdiff_t cap, n;
} htab;

/* The n bytes at p (1 to 8) as a little-endian number, in two loads at most. */
static inline uint64_t load_upto8(const unsigned char *p, ptrdiff_t n)
{
    if (n >= 4)
        return hp_load32(p) | (uint64_t)hp_load32(p + n - 4) << ((n - 4) * 8);
    return p[0] | (uint64_t)p[n / 2] << (n / 2 * 8) | (uint64_t)p[n - 1] << ((n - 1) * 8);
}

static inline uint32_t slot_hash(uint64_t k0, uint64_t k1, uint32_t lk)
{
    uint64_t h = (k0 ^ (k1 * 0x9e3779b97f4a7c15ull) ^ lk) * 0xff51afd7ed558ccdull;
    return (uint32_t)(h >> 32);
}

/* What rule_keys.tsv and every family's predicate (rules_list.h's RULES_NAMES) say of a name
 * or number. */
static unsigned classify(const rctx *c, hp_str s, unsigned kind)
{
    int number = kind == TK_NUMBER;
    unsigned bits = rules_keys_bits(c->cfg->keys, s, number);
    for (const rules_names_fn *f = c->names; f && *f; f++)
        bits |= (*f)(c, s, number);
    return bits;
}

static void grow(arena *a, htab *t)
{
    ptrdiff_t ncap = t->cap * 2;
    hname *nv = NEW(a, hname, ncap);
    for (ptrdiff_t k = 0; k < t->cap; k++) {
        const hname *e = &t->v[k];
        if (!e->lk)
            continue;
        ptrdiff_t j = (ptrdiff_t)(slot_hash(e->k0, e->k1, e->lk) & (uint32_t)(ncap - 1));
        while (nv[j].lk)
            j = (j + 1) & (ncap - 1);
        nv[j] = *e;
    }
    t->v = nv;
    t->cap = ncap;
}

/* The bits of the identifier or number at k. */
static unsigned name_bits(const rctx *c, htab *t, const tok *k)
{
    hp_str s = {c->src + k->off, k->len};
    if (s.len <= 0 || s.len >= (1 << 24))
        return classify(c, s, k->kind);
    const unsigned char *p = (const unsigned char *)s.s;
    uint64_t k0, k1 = 0;
    if (s.len <= 8) {
        k0 = load_upto8(p, s.len);
    } else {
        k0 = hp_load64(p);
        k1 = hp_load64(p + s.len - 8);
    }
    uint32_t lk = (uint32_t)s.len | (uint32_t)k->kind << 24;
    ptrdiff_t j = (ptrdiff_t)(slot_hash(k0, k1, lk) & (uint32_t)(t->cap - 1));
    for (;; j = (j + 1) & (t->cap - 1)) {
        const hname *e = &t->v[j];
        if (!e->lk)
            break;
        if (e->k0 == k0 && e->k1 == k1 && e->lk == lk &&
            (s.len <= 16 || memcmp(c->src + e->off, s.s, (size_t)s.len) == 0))
            return e->bits;
    }
    unsigned bits = classify(c, s, k->kind);
    hname *e = &t->v[j];
    e->k0 = k0;
    e->k1 = k1;
    e->lk = lk;
    e->off = k->off;
    e->bits = bits;
    if (2 * ++t->n > t->cap)
        grow(c->a, t);
    return bits;
}

/* The bits of a token that is not a name or a number. */
static unsigned other_bits(const tok *k, uint8_t scope)
{
    unsigned bits = 0;
    if (k->kind == TK_PUNCT) {
        /* WAVE002 and WAVE005: lane arithmetic in unguarded device code */
        unsigned p = k->sub;
        if ((p == '&' || p == '%' || p == '/' || p == '*' || p == P_SHR || p == P_SHL) &&
            !(k->flags & TF_PP) && (scope & (SC_DEVICE | SC_GUARDED)) == SC_DEVICE)
            bits = RH_WAVE;
        return bits;
    }
    switch (k->kind) {
    case TK_PP_HASH:
        switch (k->sub) {
        case PP_DEFINE:
            bits = RH_WAVE;
            break;
        case PP_UNDEF:
        case PP_INCLUDE:
        case PP_PRAGMA:
        case PP_ERROR:
        case PP_LINE:
            break;
        default:
            bits = RH_ARCH;
            break;
        }
        break;
    case TK_LAUNCH_OPEN:
        bits = RH_KL | RH_MEM;
        break;
    case TK_STRING:
    case TK_HEADER:
        bits = RH_STR;
        break;
    default:
        break;
    }
    return bits;
}

void rules_hot_build(rctx *c)
{
    const tok *t = c->t;
    ptrdiff_t nt = c->nt;
    const uint8_t *scope = c->scope;
    htab names;
    /* distinct names are about a twentieth of the tokens: a table at most half full holds them
     * (large files start smaller, their names recur more). A fuller table would cost probes; an
     * emptier one costs the zeroing of its slots, which was a twentieth of check's time. */
    names.cap = 64;
    while (names.cap < nt / 8 && names.cap < 4096)
        names.cap *= 2;
    names.n = 0;
    names.v = NEW(c->a, hname, names.cap);
    /* about one token in eight is listed */
    ptrdiff_t cap = nt / 8 + 64, n = 0;
    rules_hot *hot = arena_alloc_nozero(c->a, (ptrdiff_t)sizeof *hot, _Alignof(rules_hot), cap);
    for (ptrdiff_t i = 0; i < nt; i++) {
        const tok *k = &t[i];
        unsigned bits = 0;
        /* identifiers first, apart from the switch (nine tokens in ten are identifiers or
         * punctuators: these branches predict them better than the switch's jump) */
        if (k->kind == TK_IDENT || k->kind == TK_NUMBER) {
            bits = name_bits(c, &names, k);
            if (bits & RH_WAVE_DEV) {
                bits &= ~(unsigned)RH_WAVE_DEV;
                if (!(k->flags & TF_PP) && (scope[i] & (SC_DEVICE | SC_GUARDED)) == SC_DEVICE)
                    bits |= RH_WAVE;
            }
        } else {
            bits = other_bits(k, scope[i]);
        }
        if (bits) {
            if (n == cap) {
                hot = arena_grow(c->a, hot, cap * (ptrdiff_t)sizeof *hot,
                                 2 * cap * (ptrdiff_t)sizeof *hot, _Alignof(rules_hot));
                cap *= 2;
            }
            hot[n].tok = (int32_t)i;
            hot[n].bits = bits;
            n++;
        }
    }
    c->hot = hot;
    c->nhot = n;
}
