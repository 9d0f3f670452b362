/* fuzz_pylex.c: libFuzzer target for the Python tokenizer. Checks that every token lies inside
 * the input, that tokens come in order and that INDENT and DEDENT balance. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "pylex.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static arena a;
    static int ready;
    if (!ready) {
        arena_init(&a, 1 << 20);
        ready = 1;
    }
    if (size > (1u << 24))
        return 0;
    /* An exact-size copy, so that a read past the end is caught. */
    char *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    pylex_out out;
    pylex_all(&a, buf, (ptrdiff_t)size, &out);
    if (!out.toks || out.toks[out.n].kind != PY_EOF)
        __builtin_trap();
    ptrdiff_t level = 0;
    int32_t prev = 0;
    for (ptrdiff_t i = 0; i < out.n; i++) {
        const pytok *t = &out.toks[i];
        if (t->off < prev || t->len < 0 || (size_t)t->off + (size_t)t->len > size)
            __builtin_trap();
        if (t->kind == PY_EOF || t->kind > PY_UNKNOWN)
            __builtin_trap();
        if (t->kind == PY_STRING) {
            hp_str b = pylex_string_body(buf, t);
            if (b.len < 0 || b.s < buf + t->off || b.s + b.len > buf + t->off + t->len)
                __builtin_trap();
        }
        level += t->kind == PY_INDENT;
        level -= t->kind == PY_DEDENT;
        if (level < 0)
            __builtin_trap();
        prev = t->off + t->len;
        if (t->kind == PY_INDENT || t->kind == PY_DEDENT)
            prev = t->off;
    }
    if (level != 0)
        __builtin_trap();
    arena_reset(&a);
    free(buf);
    return 0;
}
