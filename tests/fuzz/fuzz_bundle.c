/* fuzz_bundle.c: libFuzzer target for clang offload bundles, compressed bundles (CCOB) and
 * LLVM offloading binaries. The first byte picks a magic to put in front of the rest, so
 * that mutations stay inside the format; 0 takes the input as it is.
 * Seeds: the .hipfb fixtures and the payloads of .hip_fatbin / .llvm.offloading sections. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hipport.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct {
    const char *magic;
    size_t len;
} magics[] = {
    {"", 0},
    {"__CLANG_OFFLOAD_BUNDLE__", 24},
    {"CCOB\x01\x00\x01\x00", 8},
    {"CCOB\x02\x00\x01\x00", 8},
    {"CCOB\x03\x00\x00\x00", 8},
    {"\x10\xff\x10\xad", 4},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t m = data[0] % (sizeof magics / sizeof magics[0]);
    size_t n = magics[m].len + size - 1;
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf)
        return 0;
    memcpy(buf, magics[m].magic, magics[m].len);
    memcpy(buf + magics[m].len, data + 1, size - 1);
    hp_ctx *ctx = hp_ctx_new();
    if (ctx) {
        hp_targets_result r;
        if (hp_targets_scan(ctx, "fuzz", buf, (ptrdiff_t)n, &r) == HP_OK) {
            const char *why;
            hp_targets_match(ctx, &r, "gfx942", &why);
            hp_targets_match(ctx, &r, "gfx1101", &why);
        }
        hp_ctx_free(ctx);
    }
    free(buf);
    return 0;
}
