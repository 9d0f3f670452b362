/* tscan.c: the state of one targets scan, shared by its readers (targets.c, bundle.c,
 * fatbin.c): the pieces of code and the notes found, the bounds on work, and the way back
 * into the dispatch for containers inside containers. */
#include "tscan.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "str.h"

#include "banned.h"

/* ------------------------------------------------------------ scan state */

static int grow(tscan *s, void **v, int *cap, int n, ptrdiff_t size, ptrdiff_t align)
{
    if (n < *cap)
        return 1;
    int ncap = *cap ? *cap * 2 : 16;
    void *nv = arena_grow(s->out, *v, (ptrdiff_t)*cap * size, (ptrdiff_t)ncap * size, align);
    if (!nv) {
        s->nomem = 1;
        s->stopped = 1;
        return 0;
    }
    *v = nv;
    *cap = ncap;
    return 1;
}

void tscan_add(tscan *s, const tscan_piece *p)
{
    if (s->stopped)
        return;
    if (!p->target || !p->kind) {
        s->nomem = 1;
        s->stopped = 1;
        return;
    }
    if (s->ncode >= TSCAN_MAX_CODE) {
        tscan_note(s, HP_SEV_ERROR, "more than %d pieces of GPU code; the rest is not listed",
                   TSCAN_MAX_CODE);
        s->stopped = 1;
        return;
    }
    void *v = s->code;
    if (!grow(s, &v, &s->capcode, s->ncode, (ptrdiff_t)sizeof(hp_gpu_code),
              (ptrdiff_t)_Alignof(hp_gpu_code)))
        return;
    s->code = v;
    hp_gpu_code *c = &s->code[s->ncode++];
    c->vendor = p->vendor;
    c->target = p->target;
    c->kind = p->kind;
    c->compressed = p->compressed;
    c->readable = p->readable;
    c->where = p->where;
    c->id = p->id;
    c->compression = p->compression;
    c->detail = p->detail;
}

void tscan_note(tscan *s, hp_severity sev, const char *fmt, ...)
{
    if (s->nnotes >= TSCAN_MAX_NOTES)
        return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (s->nnotes == TSCAN_MAX_NOTES - 1) {
        snprintf(msg, sizeof msg, "more problems; only the first %d are reported",
                 TSCAN_MAX_NOTES - 1);
        sev = HP_SEV_ERROR;
    }
    void *v = s->notes;
    if (!grow(s, &v, &s->capnotes, s->nnotes, (ptrdiff_t)sizeof(hp_finding),
              (ptrdiff_t)_Alignof(hp_finding)))
        return;
    s->notes = v;
    hp_finding *f = &s->notes[s->nnotes];
    memset(f, 0, sizeof *f);
    f->path = s->path;
    f->rule = "targets";
    f->severity = sev;
    f->message = arena_strndup(s->out, msg, (ptrdiff_t)strlen(msg));
    if (!f->message) {
        s->nomem = 1;
        s->stopped = 1;
        return;
    }
    s->nnotes++;
}

const char *tscan_where(tscan *s, const char *parent, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *r = parent && *parent ? arena_printf(s->out, "%s > %s", parent, msg)
                                      : arena_strndup(s->out, msg, (ptrdiff_t)strlen(msg));
    if (!r) {
        s->nomem = 1;
        s->stopped = 1;
        return "";
    }
    return r;
}

const char *tscan_text(tscan *s, hp_str t)
{
    if (!t.s || t.len <= 0)
        return "";
    ptrdiff_t n = t.len < 4096 ? t.len : 4096;
    char *r = arena_alloc_nozero(s->out, 1, 1, n + 1);
    if (!r) {
        s->nomem = 1;
        s->stopped = 1;
        return "";
    }
    for (ptrdiff_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)t.s[i];
        r[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    r[n] = 0;
    return r;
}

int tscan_work(tscan *s, uint64_t n)
{
    if (s->stopped)
        return 0;
    if (n > s->work_cap - s->work) {
        tscan_note(s, HP_SEV_ERROR, "too much nested data; the scan stopped early");
        s->stopped = 1;
        return 0;
    }
    s->work += n;
    return 1;
}

int tscan_nested(tscan *s, bin data, const char *where)
{
    return s->nested ? s->nested(s, data, where) : 0;
}
