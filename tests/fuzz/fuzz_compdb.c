/* fuzz_compdb.c: libFuzzer target for compilation databases (JSON, then each entry's file,
 * directory and arguments, "command" split as a shell splits words). Checks, beyond memory
 * safety: a database that parses gives entries with a file and non-NULL arguments, and an
 * error always names the file. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compdb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static hp_ctx *ctx;
    if (!ctx)
        ctx = hp_ctx_new();
    if (!ctx || size > (1u << 20))
        return 0;
    /* An exact-size copy, so that a read past the end is caught. */
    char *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    hp_ctx_reset(ctx);
    const hp_compdb_entry *e;
    int n;
    const char *err;
    hp_status s = compdb_parse(ctx, "db.json", buf, (ptrdiff_t)size, &e, &n, &err);
    if (s == HP_OK) {
        for (int i = 0; i < n; i++) {
            if (!e[i].file || !e[i].file[0] || e[i].nargs < 0 || (e[i].nargs && !e[i].args))
                __builtin_trap();
            for (int k = 0; k < e[i].nargs; k++)
                if (!e[i].args[k])
                    __builtin_trap();
        }
    } else if (s != HP_ENOMEM && (!err || !strstr(err, "db.json"))) {
        __builtin_trap();
    }
    free(buf);
    return 0;
}
