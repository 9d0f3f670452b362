/* rules_keys.c: the index of data/tables/rule_keys.tsv, the names, prefixes and numbers the
 * rule families act on, as the RH_* bits of rules_hot.c. Built once per run (rules_cfg_build);
 * read-only after, so every thread of a run shares it. */
#include <stdlib.h>
#include <string.h>

#include "nameidx.h"
#include "rules.h"

#include "rule_keys_tab.h"

#include "banned.h"

enum { K_KEY, K_MATCH, K_HOT };

struct rules_keys {
    nameidx names;      /* exact names: their row */
    unsigned *bits;     /* per row */
    int16_t *len;       /* per row: strlen of its key */
    int16_t *prefix;    /* rows matched by prefix, grouped by first byte */
    int nprefix;
    int16_t pfx_first[256];
    unsigned long long *num; /* rows matched by number: their values, and bits */
    unsigned *numbits;
    int nnum;
};

static const struct {
    const char *name;
    unsigned bit;
} hot_names[] = {
    {"wave", RH_WAVE}, {"wave_dev", RH_WAVE_DEV}, {"asm", RH_ASM},   {"arch", RH_ARCH},
    {"kl", RH_KL},     {"mem", RH_MEM},           {"memnum", RH_MEMNUM}, {"shared", RH_SHARED},
    {"type", RH_TYPE}, {"lib", RH_LIB},           {"rt", RH_RT},     {"pyt", RH_PYT},
    {"xlane", RH_XLANE},
};

unsigned rules_keys_hot_bits(const char *list)
{
    unsigned bits = 0;
    hp_str rest = str_cstr(list);
    while (rest.len > 0) {
        ptrdiff_t comma = str_chr(rest, ',');
        hp_str one = comma >= 0 ? str_cut(rest, 0, comma) : rest;
        rest = comma >= 0 ? str_cut(rest, comma + 1, rest.len) : str_make(rest.s + rest.len, 0);
        unsigned bit = 0;
        for (size_t k = 0; k < sizeof hot_names / sizeof *hot_names; k++)
            if (str_eq(one, str_cstr(hot_names[k].name)))
                bit = hot_names[k].bit;
        if (!bit)
            return 0;
        bits |= bit;
    }
    return bits;
}

int rules_keys_count(void)
{
    return rule_keys_rows_COUNT;
}

const char *const *rules_keys_row(int i)
{
    return i >= 0 && i < rule_keys_rows_COUNT ? rule_keys_rows[i] : NULL;
}

/* The value of a number row ("49152"), as lex_int_literal reads integer tokens. */
static int number_of(const char *key, unsigned long long *v)
{
    int bits;
    return lex_int_literal(str_cstr(key), v, &bits);
}

static const char *key_of(int row)
{
    return rule_keys_rows[row][K_KEY];
}

rules_keys *rules_keys_build(arena *a)
{
    enum { N = rule_keys_rows_COUNT };
    rules_keys *ix = NEW(a, rules_keys, 1);
    nameidx_init(&ix->names, a, N);
    ix->bits = NEW(a, unsigned, N + 1);
    ix->len = NEW(a, int16_t, N + 1);
    ix->prefix = NEW(a, int16_t, N + 1);
    ix->num = NEW(a, unsigned long long, N + 1);
    ix->numbits = NEW(a, unsigned, N + 1);
    for (int i = 0; i < N; i++) {
        const char *const *r = rule_keys_rows[i];
        ix->len[i] = (int16_t)strlen(r[K_KEY]);
        ix->bits[i] = rules_keys_hot_bits(r[K_HOT]);
        HP_ASSERT(ix->bits[i] != 0);
        if (strcmp(r[K_MATCH], "prefix") == 0) {
            ix->prefix[ix->nprefix++] = (int16_t)i;
        } else if (strcmp(r[K_MATCH], "number") == 0) {
            unsigned long long v = 0;
            int ok = number_of(r[K_KEY], &v);
            HP_ASSERT(ok);
            if (ok) {
                ix->num[ix->nnum] = v;
                ix->numbits[ix->nnum++] = ix->bits[i];
            }
        } else {
            HP_ASSERT(strcmp(r[K_MATCH], "name") == 0);
            nameidx_put(&ix->names, str_make(r[K_KEY], ix->len[i]), i, 0);
        }
    }
    rules_group_by_first_byte(ix->prefix, ix->nprefix, key_of, ix->pfx_first);
    return ix;
}

unsigned rules_keys_bits(const rules_keys *ix, hp_str s, int number)
{
    if (!ix || s.len <= 0)
        return 0;
    unsigned bits = 0;
    if (number) {
        unsigned long long v;
        int w;
        if (ix->nnum && lex_int_literal(s, &v, &w))
            for (int k = 0; k < ix->nnum; k++)
                if (ix->num[k] == v)
                    bits |= ix->numbits[k];
        return bits;
    }
    int32_t named = nameidx_get(&ix->names, s);
    if (named >= 0)
        bits |= ix->bits[named];
    for (int p = ix->pfx_first[(unsigned char)s.s[0]];
         p < ix->nprefix && rule_keys_rows[ix->prefix[p]][K_KEY][0] == s.s[0]; p++) {
        int row = ix->prefix[p];
        ptrdiff_t pl = ix->len[row];
        if (s.len >= pl && memcmp(s.s, rule_keys_rows[row][K_KEY], (size_t)pl) == 0)
            bits |= ix->bits[row];
    }
    return bits;
}
