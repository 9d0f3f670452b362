/* core.c: the public API's basics: contexts, the names of statuses and severities, HIP
 * version numbers, glob checks and writing one file safely. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "hipport.h"
#include "os.h"
#include "os_tree.h"
#include "str.h"

#include "banned.h"

hp_ctx *hp_ctx_new(void)
{
    hp_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    /* The first block stays from one file to the next (arena_reset): 4 MB holds the tokens,
     * output and findings of nearly every file, so the blocks a larger file takes from the heap
     * and gives back (page faults each time, and a fragmented heap) are rare. */
    arena_init(&c->a, (ptrdiff_t)4 << 20);
    return c;
}

void hp_ctx_reset(hp_ctx *ctx)
{
    if (ctx)
        arena_reset(&ctx->a);
}

void hp_ctx_free(hp_ctx *ctx)
{
    if (!ctx)
        return;
    arena_release(&ctx->a);
    free(ctx);
}

void hp_free(void *p)
{
    free(p);
}

const char *hp_status_name(hp_status s)
{
    switch (s) {
    case HP_OK: return "ok";
    case HP_EIO: return "i/o error";
    case HP_ENOMEM: return "out of memory";
    case HP_EFORMAT: return "malformed input";
    case HP_EUSAGE: return "usage error";
    case HP_EBINARY: return "binary file";
    case HP_ETOOBIG: return "file too large";
    case HP_EEXIST: return "output exists";
    case HP_ELOOP: return "symlink loop";
    case HP_EINTERNAL: return "internal error";
    }
    return "unknown error";
}

const char *hp_severity_name(hp_severity s)
{
    switch (s) {
    case HP_SEV_NOTE: return "note";
    case HP_SEV_WARNING: return "warning";
    case HP_SEV_ERROR: return "error";
    case HP_SEV_NONE: return "none";
    }
    return "none";
}

int hp_severity_parse(const char *s)
{
    if (!s)
        return -1;
    if (strcmp(s, "note") == 0)
        return HP_SEV_NOTE;
    if (strcmp(s, "warning") == 0)
        return HP_SEV_WARNING;
    if (strcmp(s, "error") == 0)
        return HP_SEV_ERROR;
    if (strcmp(s, "never") == 0 || strcmp(s, "none") == 0)
        return HP_SEV_NONE;
    return -1;
}

int hp_hip_version_parse(const char *s)
{
    if (!s || !*s)
        return -1;
    int major = 0, minor = 0, digits = 0;
    const char *p = s;
    while (*p >= '0' && *p <= '9' && digits < 3) {
        major = major * 10 + (*p++ - '0');
        digits++;
    }
    if (!digits || *p != '.')
        return -1;
    p++;
    digits = 0;
    while (*p >= '0' && *p <= '9' && digits < 3) {
        minor = minor * 10 + (*p++ - '0');
        digits++;
    }
    if (!digits)
        return -1;
    if (*p == '.') {
        p++;
        if (!(*p >= '0' && *p <= '9'))
            return -1;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if (*p || major < 1 || major > 99 || minor > 99)
        return -1;
    return major * 100 + minor;
}

hp_status hp_write_file(const char *path, const void *data, ptrdiff_t len, char *why,
                        size_t whylen)
{
    arena a;
    arena_init(&a, 4096);
    const char *err = NULL;
    hp_status s;
    if (os_is_special(path)) {
        s = os_write_special(&a, path, data, len, &err);
    } else {
        /* below the file's directory as named; a link in the file's place is replaced */
        const char *slash = strrchr(path, '/');
        const char *dir = !slash          ? "."
                          : slash == path ? "/"
                                          : arena_strndup(&a, path, slash - path);
        os_stat st;
        int e = os_stat_path(dir, 0, &st);
        os_tree *t = NULL;
        int outcome = 0;
        if (e != 0 || !st.is_dir) {
            s = HP_EIO; /* the file's directory must exist */
            err = arena_printf(&a, "cannot create temporary file: %s", strerror(e ? e : ENOTDIR));
        } else {
            t = os_tree_new(dir, 0);
            os_put p;
            memset(&p, 0, sizeof p);
            p.data = data;
            p.len = len;
            p.mode = -1;
            p.replace = 1;
            p.durable = 1;
            s = t ? os_tree_put(t, &a, slash ? slash + 1 : path, &p, &outcome, &err) : HP_ENOMEM;
        }
        if (s != HP_OK && outcome == OS_PUT_DIR)
            err = "is a directory";
        os_tree_free(t);
    }
    if (s != HP_OK && why && whylen)
        snprintf(why, whylen, "%s", err ? err : hp_status_name(s));
    arena_release(&a);
    return s;
}

int hp_glob_valid(const char *pat)
{
    return pat && str_glob_valid(str_cstr(pat));
}
