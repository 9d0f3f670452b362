/* spec_check.h: the spec runner's hook for "check" examples (expected findings). */
#ifndef HP_SPEC_CHECK_H
#define HP_SPEC_CHECK_H

#include <stddef.h>

#include "hipport.h"

/* Runs check on the input and compares the findings with want (one per line,
 * "line:col: severity: message [RULE]"). Returns 1 when they match; prints why not. */
int spec_check(hp_ctx *ctx, const char *file, int line, const char *info, const char *path,
               const char *in, size_t inlen, const char *want, size_t wantlen);

#endif
