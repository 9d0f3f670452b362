/* fuzz_fatbin.c: libFuzzer target for NVIDIA fatbins and cubins. The first byte picks the
 * container: 0 the input as it is, 1 a fatbin (magic in front), 2 a cubin ELF header in
 * front whose e_flags come from the next bytes. Seeds: the nv-* fixtures. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hipport.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned mode = data[0] % 3;
    size_t pre = mode == 1 ? 4 : mode == 2 ? 64 : 0;
    size_t n = pre + size - 1;
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf)
        return 0;
    memset(buf, 0, pre);
    if (mode == 1) {
        memcpy(buf, "\x50\xed\x55\xba", 4);
    } else if (mode == 2) {
        memcpy(buf, "\x7f" "ELF\x02\x01\x01\x41\x08", 9);
        buf[18] = 190; /* EM_CUDA */
        buf[16] = 2;
        for (size_t i = 0; i < 4 && i + 1 < size; i++)
            buf[48 + i] = data[1 + i];
    }
    memcpy(buf + pre, data + 1, size - 1);
    hp_ctx *ctx = hp_ctx_new();
    if (ctx) {
        hp_targets_result r;
        if (hp_targets_scan(ctx, "fuzz", buf, (ptrdiff_t)n, &r) == HP_OK) {
            const char *why;
            hp_targets_match(ctx, &r, "9.0", &why);
            hp_targets_match(ctx, &r, "sm_100", &why);
        }
        hp_ctx_free(ctx);
    }
    free(buf);
    return 0;
}
