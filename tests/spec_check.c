/* spec_check.c: "check" examples of the spec files: the input is checked and its findings,
 * one per line as "line:col: severity: message [RULE]", must equal the expected part.
 * Options in the info string: path=NAME (default input.cu), --target=LIST,
 * --hip-version=X.Y, --enable=RULE, --disable=RULE (in order). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec_check.h"

int spec_check(hp_ctx *ctx, const char *file, int line, const char *info, const char *path,
               const char *in, size_t inlen, const char *want, size_t wantlen)
{
    char opts[1024], pathbuf[256];
    const char *sel[32];
    char selbuf[32][64];
    int nsel = 0;
    hp_check_opts o;
    hp_check_opts_init(&o);
    snprintf(opts, sizeof opts, "%s", info);
    char *save = NULL;
    for (char *w = strtok_r(opts, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        if (strcmp(w, "check") == 0) {
            continue;
        } else if (strncmp(w, "path=", 5) == 0) {
            snprintf(pathbuf, sizeof pathbuf, "%s", w + 5);
            path = pathbuf;
        } else if (strncmp(w, "--target=", 9) == 0) {
            o.targets = w + 9;
        } else if (strncmp(w, "--hip-version=", 14) == 0) {
            o.hip_version = hp_hip_version_parse(w + 14);
        } else if ((strncmp(w, "--enable=", 9) == 0 || strncmp(w, "--disable=", 10) == 0) &&
                   nsel < 32) {
            int on = w[2] == 'e';
            snprintf(selbuf[nsel], sizeof selbuf[nsel], "%c%s", on ? '+' : '-',
                     w + (on ? 9 : 10));
            sel[nsel] = selbuf[nsel];
            nsel++;
        } else {
            fprintf(stderr, "%s:%d: unknown check option '%s'\n", file, line, w);
            return 0;
        }
    }
    o.rules = sel;
    o.nrules = nsel;
    hp_check_result r;
    hp_status s = hp_check_buffer(ctx, &o, path, in, (ptrdiff_t)inlen, &r);
    if (s != HP_OK) {
        fprintf(stderr, "%s:%d: check failed: %s\n", file, line, hp_status_name(s));
        return 0;
    }
    size_t cap = 256, n = 0;
    char *got = malloc(cap);
    if (!got)
        return 0;
    got[0] = 0;
    for (int i = 0; i < r.nfindings; i++) {
        const hp_finding *f = &r.findings[i];
        char one[2048];
        int k = snprintf(one, sizeof one, "%d:%d: %s: %s [%s]\n", f->line, f->col,
                         hp_severity_name(f->severity), f->message, f->rule);
        if (k < 0)
            continue;
        if ((size_t)k >= sizeof one)
            k = (int)sizeof one - 1;
        if (n + (size_t)k + 1 > cap) {
            cap = (n + (size_t)k + 1) * 2;
            char *g = realloc(got, cap);
            if (!g) {
                free(got);
                return 0;
            }
            got = g;
        }
        memcpy(got + n, one, (size_t)k + 1);
        n += (size_t)k;
    }
    int ok = n == wantlen && memcmp(got, want, n) == 0;
    if (!ok) {
        fprintf(stderr, "%s:%d: findings differ\n--- expected\n%.*s--- got\n%s", file, line,
                (int)wantlen, want, got);
    }
    free(got);
    return ok;
}
