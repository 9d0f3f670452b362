/* fuzz_elf.c: libFuzzer target for hipport targets' file reader: ELF files (and archives and
 * whatever else hp_targets_scan recognizes), then the RUNS / WILL NOT RUN decision.
 * Seeds: tests/targets/fixtures. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "elf.h"
#include "hipport.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the reader itself: every section of whatever header there is */
    elf_file e;
    const char *err = NULL;
    if (elf_open(bin_make(data, (ptrdiff_t)size), &e, &err) == HP_OK) {
        for (uint64_t i = 0; i < e.shnum && i < 4096; i++) {
            elf_sec s;
            if (elf_section(&e, i, &s) && s.name.len > 0 && s.name.s[0] == 0)
                __builtin_trap(); /* names are never empty strings with a length */
        }
        (void)elf_has_segment(&e, 3);
    }
    hp_ctx *ctx = hp_ctx_new();
    if (!ctx)
        return 0;
    hp_targets_result r;
    if (hp_targets_scan(ctx, "fuzz", data, (ptrdiff_t)size, &r) == HP_OK) {
        const char *why;
        hp_targets_match(ctx, &r, "gfx90a:xnack-", &why);
        hp_targets_match(ctx, &r, "sm_90", &why);
    }
    hp_ctx_free(ctx);
    return 0;
}
