/* fuzz_pyrules.c: libFuzzer target for check on Python and build files: the first byte picks
 * the file name (Python, setup.py, CMake, Makefile, shell, Dockerfile, pyproject), the rest is
 * the file. Every finding must point inside the input. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hipport.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"k.py",     "setup.py",   "CMakeLists.txt", "Makefile",
                                        "build.sh", "Dockerfile", "pyproject.toml", "x.cmake"};
    static hp_ctx *ctx;
    if (!ctx && !(ctx = hp_ctx_new()))
        return 0;
    if (size < 1 || size > (1u << 20))
        return 0;
    const char *path = names[data[0] % (sizeof names / sizeof *names)];
    size_t n = size - 1;
    char *buf = malloc(n ? n : 1);
    if (!buf)
        return 0;
    memcpy(buf, data + 1, n);
    hp_check_opts o;
    hp_check_opts_init(&o);
    if (data[0] & 0x80)
        o.targets = "gfx1100,gfx1201";
    hp_check_result r;
    if (hp_check_buffer(ctx, &o, path, buf, (ptrdiff_t)n, &r) == HP_OK) {
        int lines = 1;
        for (size_t i = 0; i < n; i++)
            lines += buf[i] == '\n';
        for (int i = 0; i < r.nfindings; i++) {
            const hp_finding *f = &r.findings[i];
            if (f->line < 1 || f->line > lines || f->col < 1 || !f->message || !f->rule)
                __builtin_trap();
            if (f->source.len < 0 ||
                (f->source.len && (f->source.s < buf || f->source.s + f->source.len > buf + n)))
                __builtin_trap();
        }
    }
    hp_ctx_reset(ctx);
    free(buf);
    return 0;
}
