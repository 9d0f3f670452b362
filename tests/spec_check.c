/* spec_check.c: "check" examples of the spec files (filled in with the check engine). */
#include <stdio.h>

#include "spec_check.h"

int spec_check(hp_ctx *ctx, const char *file, int line, const char *info, const char *path,
               const char *in, size_t inlen, const char *want, size_t wantlen)
{
    (void)ctx;
    (void)info;
    (void)path;
    (void)in;
    (void)inlen;
    (void)want;
    (void)wantlen;
    fprintf(stderr, "%s:%d: check examples are not supported yet\n", file, line);
    return 0;
}
