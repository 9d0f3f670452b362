/* targets_stub.c: stands in for the targets reader until it is merged (then this file goes):
 * every scan answers HP_EINTERNAL, so doctor says it did not look inside the libraries. */
#include <string.h>

#include "hipport.h"

#include "banned.h"

hp_status hp_targets_scan(hp_ctx *ctx, const char *path, const void *data, ptrdiff_t len,
                          hp_targets_result *out)
{
    (void)ctx;
    (void)path;
    (void)data;
    (void)len;
    memset(out, 0, sizeof *out);
    return HP_EINTERNAL;
}

hp_status hp_targets_scan_file(hp_ctx *ctx, const char *path, hp_targets_result *out)
{
    return hp_targets_scan(ctx, path, NULL, 0, out);
}

hp_verdict hp_targets_match(hp_ctx *ctx, const hp_targets_result *res, const char *gpu,
                            const char **reason)
{
    (void)ctx;
    (void)res;
    (void)gpu;
    *reason = "the targets reader is not in this build";
    return HP_VERDICT_NO_GPU_CODE;
}
