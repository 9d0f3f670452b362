/* twrite.c: writing translated files safely, for tree runs (translate_run.c) and project runs
 * (project.c) alike: below an output tree, never through a link, through a temporary file and a
 * rename; the results they report; hipport_compat.h beside the outputs that need it. */
#include "twrite.h"

#include <string.h>

#include "str.h"

#include "banned.h"

static void fail(hp_file_result *res, hp_status s, const char *err)
{
    res->status = s;
    res->error = err;
}

void twrite_output(arena *a, hp_file_result *res, const twrite_to *to, const char *rel,
                   const char *shown, const char *data, ptrdiff_t len, int mode)
{
    os_put p;
    memset(&p, 0, sizeof p);
    p.data = data;
    p.len = len;
    p.mode = mode;
    p.replace = to->force;
    p.durable = to->durable;
    p.mkdirs = 1;
    p.owned = to->owned;
    p.owned_ud = to->owned_ud;
    p.look_first = to->look_first;
    int outcome;
    const char *err = NULL;
    hp_status s = os_tree_put(to->tree, a, rel, &p, &outcome, &err);
    if (s == HP_OK) {
        res->out_path = shown;
        res->written = outcome == OS_PUT_WRITTEN;
        return;
    }
    if (outcome == OS_PUT_DIR)
        fail(res, HP_EIO, arena_printf(a, "output '%s' is a directory", shown));
    else if (outcome == OS_PUT_DIFFERS && to->owned)
        fail(res, HP_EEXIST,
             arena_printf(a, "output '%s' exists, and hipport did not write it or it was "
                             "changed since: left as it is (use --force to replace it)",
                          shown));
    else if (outcome == OS_PUT_DIFFERS)
        fail(res, HP_EEXIST,
             arena_printf(a, "output '%s' exists and differs (use --force to replace it)",
                          shown));
    else
        fail(res, s, arena_printf(a, "cannot write '%s': %s", shown, err));
}

void twrite_result(arena *a, hp_file_result *res, const hp_translate_result *tr)
{
    hp_tstats *st = NEW(a, hp_tstats, 1);
    if (st)
        *st = tr->stats;
    res->stats = st;
    res->changed = tr->changed;
    res->findings = tr->findings;
    res->nfindings = tr->nfindings;
    res->unsupported = tr->unsupported;
    res->nunsupported = tr->nunsupported;
    res->conv = tr->conv;
    res->nconv = tr->nconv;
    res->needs_compat = tr->needs_compat;
}

/* path with its last component replaced by name */
static const char *beside(arena *a, const char *path, const char *name)
{
    const char *slash = strrchr(path, '/');
    return slash ? arena_printf(a, "%.*s/%s", (int)(slash - path), path, name) : name;
}

void twrite_compat(arena *a, hp_file_result *res, const twrite_to *to, const char *rel,
                   const char *shown, int hip_version)
{
    const char *text = hp_compat_header(hip_version);
    const char *saved = res->out_path;
    int written = res->written;
    /* every file that needs it writes it: a temporary file renamed into place, so that a job
     * never reads another's half-written one */
    twrite_to c = *to;
    c.durable = 0;
    c.look_first = 1;
    twrite_output(a, res, &c, beside(a, rel, "hipport_compat.h"),
                  beside(a, shown, "hipport_compat.h"), text, (ptrdiff_t)strlen(text), -1);
    res->out_path = saved;
    res->written = written;
}
