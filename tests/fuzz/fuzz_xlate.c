/* fuzz_xlate.c: libFuzzer target over the tokenizer and the translator. The first byte picks
 * the options (launch form, --roc, target HIP, file kind, PyTorch's older generation, excluded
 * #if branches); the rest is the source, translated with --annotate when its length is odd
 * and with findings only counted (count_only) when its length's second bit is set.
 * Checks, beyond memory safety: every token lies inside the buffer in order; lexing with the
 * translation's marks gives the same tokens, and marks exactly those lex_marked picks; and for
 * sources that are well-formed at the token level (no stray or unterminated tokens, balanced
 * brackets and launches, as in any code a compiler accepts), translating the output again
 * changes nothing (idempotence). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "hipport.h"
#include "lex.h"
#include "translate.h"
#include "xlate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static hp_ctx *ctx;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > (1u << 20))
        return 0;
    if (!ctx)
        ctx = hp_ctx_new();
    hp_translate_opts o;
    hp_translate_opts_init(&o);
    uint8_t flags = data[0];
    o.launch = flags & 1 ? HP_LAUNCH_GGL : HP_LAUNCH_CHEVRON;
    o.roc = (flags >> 1) & 1;
    static const int versions[] = {0, 502, 602, 700};
    o.hip_version = versions[(flags >> 2) & 3];
    static const char *const paths[] = {"f.cu", "f.cuh", "f.cpp", "f.h"};
    const char *path = paths[(flags >> 4) & 3];
    o.pytorch = (flags >> 6) & 1 ? HP_PYTORCH_MASQUERADE : HP_PYTORCH_OFF;
    static const char *const macros[] = {"-DA=1", "-UB", "-DC"};
    o.skip_excluded = (flags >> 7) & 1; /* the #if evaluator over arbitrary conditions */
    o.macros = macros;
    o.nmacros = 3;
    const char *src = (const char *)data + 1;
    ptrdiff_t len = (ptrdiff_t)size - 1;
    o.annotate = len & 1; /* --annotate for sources of odd length (the flag byte is full) */
    o.annotator = hp_check_annotations;
    o.count_only = (len >> 1) & 1; /* findings without messages (ignored with annotate) */

    /* the tokens cover the buffer in order */
    arena a;
    arena_init(&a, 1 << 16);
    lex_out lx;
    lex_all(&a, src, len, &lx);
    int32_t end = 0;
    int depth = 0, launches = 0, well_formed = !lx.unterminated;
    for (ptrdiff_t i = 0; i < lx.n; i++) {
        const tok *t = &lx.toks[i];
        if (t->off < 0 || t->len < 0 || t->off + t->len > len || (t->len && t->off < end))
            __builtin_trap();
        if (t->len)
            end = t->off + t->len;
        if (t->kind == TK_UNKNOWN)
            well_formed = 0;
        else if (t->kind == TK_LAUNCH_OPEN)
            launches++;
        else if (t->kind == TK_LAUNCH_CLOSE && --launches < 0)
            well_formed = 0;
        else if (t->kind == TK_PUNCT && (t->sub == '(' || t->sub == '[' || t->sub == '{'))
            depth++;
        else if (t->kind == TK_PUNCT && (t->sub == ')' || t->sub == ']' || t->sub == '}') &&
                 --depth < 0)
            well_formed = 0;
    }
    if (depth || launches)
        well_formed = 0;
    lex_out mx;
    const lex_filter *f = translate_filter();
    lex_all_marked(&a, src, len, f, &mx);
    if (mx.n != lx.n || memcmp(mx.toks, lx.toks, (size_t)(lx.n + 1) * sizeof(tok)) != 0)
        __builtin_trap();
    ptrdiff_t k = 0;
    for (ptrdiff_t i = 0; i < lx.n; i++)
        if (lex_marked(f, src, &lx.toks[i]) && (k >= mx.nmarks || mx.marks[k++] != i))
            __builtin_trap();
    if (k != mx.nmarks)
        __builtin_trap();
    arena_release(&a);

    hp_ctx_reset(ctx);
    hp_translate_result r;
    if (hp_translate_buffer(ctx, &o, path, src, len, &r) != HP_OK)
        return 0;
    char *copy = malloc((size_t)r.out_len + 1);
    if (!copy)
        return 0;
    memcpy(copy, r.out, (size_t)r.out_len);
    hp_translate_result r2;
    if (hp_translate_buffer(ctx, &o, path, copy, r.out_len, &r2) == HP_OK && r2.changed &&
        well_formed)
        __builtin_trap(); /* translation must be idempotent */
    free(copy);
    return 0;
}
