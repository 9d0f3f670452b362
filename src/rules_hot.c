/* rules_hot.c: the tokens the rule families act on, found in one pass (see rules.h). An
 * identifier or number is classified once per distinct text: the file's names are kept in an
 * open-addressing table with the RH_* bits each family's predicate gave them, so a name that
 * recurs a thousand times costs one hash probe per use and one classification. */
#include <string.h>

#include "hash.h"
#include "rules.h"

#include "banned.h"

typedef struct hname {
    uint32_t h;
    int32_t len;  /* 0: an empty slot */
    int32_t off;  /* the first occurrence */
    uint16_t kind;
    uint32_t bits;
} hname;

typedef struct htab {
    hname *v;
    ptrdiff_t cap, n;
} htab;

/* Do the n bytes at a and b agree? */
static inline int text_eq(const char *x, const char *y, ptrdiff_t n)
{
    const unsigned char *a = (const unsigned char *)x, *b = (const unsigned char *)y;
    if (n >= 8) {
        for (ptrdiff_t k = 0; k + 8 < n; k += 8)
            if (hp_load64(a + k) != hp_load64(b + k))
                return 0;
        return hp_load64(a + n - 8) == hp_load64(b + n - 8);
    }
    if (n >= 4)
        return hp_load32(a) == hp_load32(b) && hp_load32(a + n - 4) == hp_load32(b + n - 4);
    for (ptrdiff_t k = 0; k < n; k++)
        if (a[k] != b[k])
            return 0;
    return 1;
}

static unsigned classify(const rctx *c, hp_str s, unsigned kind)
{
    if (kind == TK_NUMBER)
        return rules_mem_names(s, 1);
    return rules_wave_names(s) | rules_asm_names(s) | rules_arch_names(s) | rules_kl_names(s) |
           rules_mem_names(s, 0) | rules_type_names(s) | rules_lib_names(s) |
           rules_rt_names(s) | rules_names_names(c, s) | rules_pytorch_names(s) |
           rules_cpp_names(s);
}

static void grow(arena *a, htab *t)
{
    ptrdiff_t ncap = t->cap * 2;
    hname *nv = NEW(a, hname, ncap);
    for (ptrdiff_t k = 0; k < t->cap; k++) {
        if (!t->v[k].len)
            continue;
        ptrdiff_t j = (ptrdiff_t)(t->v[k].h & (uint32_t)(ncap - 1));
        while (nv[j].len)
            j = (j + 1) & (ncap - 1);
        nv[j] = t->v[k];
    }
    t->v = nv;
    t->cap = ncap;
}

/* The bits of the identifier or number at k. */
static unsigned name_bits(const rctx *c, htab *t, const tok *k)
{
    hp_str s = {c->src + k->off, k->len};
    if (s.len <= 0)
        return classify(c, s, k->kind);
    uint32_t h = hp_hash(s.s, s.len, k->kind);
    ptrdiff_t j = (ptrdiff_t)(h & (uint32_t)(t->cap - 1));
    for (;; j = (j + 1) & (t->cap - 1)) {
        hname *e = &t->v[j];
        if (!e->len)
            break;
        if (e->h == h && e->len == k->len && e->kind == k->kind &&
            text_eq(c->src + e->off, s.s, s.len))
            return e->bits;
    }
    unsigned bits = classify(c, s, k->kind);
    hname *e = &t->v[j];
    e->h = h;
    e->len = k->len;
    e->off = k->off;
    e->kind = k->kind;
    e->bits = bits;
    if (2 * ++t->n > t->cap)
        grow(c->a, t);
    return bits;
}

void rules_hot_build(rctx *c)
{
    const tok *t = c->t;
    ptrdiff_t nt = c->nt;
    const uint8_t *scope = c->scope;
    htab names;
    names.cap = 256;
    names.n = 0;
    names.v = NEW(c->a, hname, names.cap);
    rules_hot *hot = arena_alloc_nozero(c->a, (ptrdiff_t)sizeof *hot, _Alignof(rules_hot), nt + 1);
    ptrdiff_t n = 0;
    for (ptrdiff_t i = 0; i < nt; i++) {
        const tok *k = &t[i];
        unsigned bits = 0;
        switch (k->kind) {
        case TK_IDENT:
        case TK_NUMBER:
            bits = name_bits(c, &names, k);
            if (bits & RH_WAVE_DEV) {
                bits &= ~(unsigned)RH_WAVE_DEV;
                if (!(k->flags & TF_PP) && (scope[i] & (SC_DEVICE | SC_GUARDED)) == SC_DEVICE)
                    bits |= RH_WAVE;
            }
            break;
        case TK_PUNCT:
            /* WAVE002 and WAVE005: lane arithmetic in unguarded device code */
            switch (k->sub) {
            case '&':
            case '%':
            case '/':
            case '*':
            case P_SHR:
            case P_SHL:
                if (!(k->flags & TF_PP) && (scope[i] & (SC_DEVICE | SC_GUARDED)) == SC_DEVICE)
                    bits = RH_WAVE;
                break;
            default:
                break;
            }
            break;
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
        if (bits) {
            hot[n].tok = (int32_t)i;
            hot[n].bits = bits;
            n++;
        }
    }
    c->hot = hot;
    c->nhot = n;
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
