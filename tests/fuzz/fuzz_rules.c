/* fuzz_rules.c: libFuzzer target for check: arbitrary bytes through the rule engine (as a
 * .cu, .h or .hip file, under different targets), the JSON and SARIF reports of the findings
 * (parsed back), a baseline made from the JSON, and translate --annotate over the same bytes.
 * The first byte picks the options. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hipport.h"
#include "ctx.h"
#include "json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const paths[] = {"f.cu", "f.h", "f.hip", "f.cpp"};
    static const char *const targets[] = {NULL, "gfx1100", "gfx942,gfx1201", "gfx950"};
    if (size < 1)
        return 0;
    unsigned opt = data[0];
    const char *src = (const char *)data + 1;
    ptrdiff_t len = (ptrdiff_t)size - 1;
    hp_ctx *ctx = hp_ctx_new();
    if (!ctx)
        return 0;
    hp_check_opts o;
    hp_check_opts_init(&o);
    o.targets = targets[(opt >> 2) & 3];
    o.hip_version = (opt & 16) ? 602 : 0;
    const char *path = paths[opt & 3];
    hp_check_result r;
    if (hp_check_buffer(ctx, &o, path, src, len, &r) == HP_OK) {
        for (int i = 0; i < r.nfindings; i++) {
            const hp_finding *f = &r.findings[i];
            if (f->line < 1 || f->col < 1 || !f->rule || !f->message)
                abort();
        }
        hp_check_summary s = {1, 0, r.suppressed, 0};
        char *j = hp_report_json(r.findings, r.nfindings, &s);
        char *sarif = hp_report_sarif(r.findings, r.nfindings, &s);
        if (!j || !sarif)
            abort();
        hp_ctx *pc = hp_ctx_new();
        const char *err;
        ptrdiff_t off;
        /* the reports must be valid JSON */
        if (!pc || !json_parse(&pc->a, j, (ptrdiff_t)strlen(j), &err, &off) ||
            !json_parse(&pc->a, sarif, (ptrdiff_t)strlen(sarif), &err, &off))
            abort();
        hp_ctx_free(pc);
        char why[128];
        hp_baseline *b = hp_baseline_parse(j, (ptrdiff_t)strlen(j), why, (ptrdiff_t)sizeof why);
        if (!b)
            abort();
        hp_finding *copy = malloc(((size_t)r.nfindings + 1) * sizeof *copy);
        if (copy) {
            if (r.nfindings)
                memcpy(copy, r.findings, (size_t)r.nfindings * sizeof *copy);
            if (hp_baseline_filter(b, copy, r.nfindings) != 0)
                abort(); /* every finding is in its own baseline */
            free(copy);
        }
        hp_baseline_free(b);
        free(j);
        free(sarif);
    }
    if (opt & 32) {
        hp_translate_opts t;
        hp_translate_opts_init(&t);
        t.annotate = 1;
        t.annotator = hp_check_annotations;
        hp_translate_result tr;
        hp_ctx_reset(ctx);
        hp_translate_buffer(ctx, &t, path, src, len, &tr);
    }
    hp_ctx_free(ctx);
    return 0;
}
