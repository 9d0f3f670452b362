/* diag.c: building lists of findings tied to byte offsets of a source buffer. */
#include "diag.h"

#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "hp_assert.h"

#include "banned.h"

void diag_init(diag_list *d, arena *a, const char *path, const char *src, ptrdiff_t len)
{
    memset(d, 0, sizeof *d);
    d->a = a;
    d->path = path;
    d->src = src;
    d->len = len;
}

void diag_linecol(diag_list *d, ptrdiff_t off, int *line, int *col)
{
    /* Findings mostly come in order: the newlines between the last one and this one are
     * counted, nothing is stored. */
    if (off >= d->cur) {
        const char *b = d->src + d->cur;
        ptrdiff_t n = off - d->cur;
        ptrdiff_t k = hp_count_byte(b, n, '\n');
        if (k) {
            d->cur_line += k;
            d->cur_ls = hp_last_byte(b, n, '\n') + 1 - d->src;
        }
        d->cur = off;
        *line = (int)d->cur_line + 1;
        *col = (int)(off - d->cur_ls) + 1;
        return;
    }
    /* Behind the furthest one: lines are indexed as far as the furthest finding so far,
     * never further (one scan of the file up to its last finding, whatever the order). */
    if (d->lcap == 0) {
        d->ln.start = arena_alloc_nozero(d->a, (ptrdiff_t)sizeof(int32_t), _Alignof(int32_t), 64);
        if (!d->ln.start) {
            *line = *col = 0;
            return;
        }
        d->lcap = 64;
        d->ln.start[0] = 0;
        d->ln.n = 1;
    }
    if (off > d->indexed) {
        const char *p = d->src + d->indexed, *e = d->src + off;
        while (p < e) {
            const char *nl = memchr(p, '\n', (size_t)(e - p));
            if (!nl)
                break;
            if (d->ln.n == d->lcap) {
                int32_t *ns = arena_grow(d->a, d->ln.start,
                                         d->lcap * (ptrdiff_t)sizeof(int32_t),
                                         2 * d->lcap * (ptrdiff_t)sizeof(int32_t),
                                         _Alignof(int32_t));
                if (!ns) {
                    *line = *col = 0;
                    return;
                }
                d->ln.start = ns;
                d->lcap *= 2;
            }
            p = nl + 1;
            d->ln.start[d->ln.n++] = (int32_t)(p - d->src);
        }
        d->indexed = off;
    }
    /* findings made in order are on the last indexed line */
    ptrdiff_t l = d->ln.start[d->ln.n - 1] <= off ? d->ln.n - 1 : diag_lines_find(&d->ln, off);
    *line = (int)l + 1;
    *col = (int)(off - d->ln.start[l]) + 1;
}

static hp_finding *grow(diag_list *d)
{
    if (d->n == d->cap) {
        int ncap = d->cap ? d->cap * 2 : 16;
        d->v = arena_grow(d->a, d->v, (ptrdiff_t)d->cap * (ptrdiff_t)sizeof *d->v,
                          (ptrdiff_t)ncap * (ptrdiff_t)sizeof *d->v, _Alignof(hp_finding));
        if (!d->v)
            return NULL;
        d->cap = ncap;
    }
    hp_finding *f = &d->v[d->n++];
    memset(f, 0, sizeof *f);
    f->path = d->path;
    return f;
}

hp_finding *diag_add(diag_list *d, ptrdiff_t off, int n, const char *rule, hp_severity sev,
                     const char *msg, const char *fix)
{
    HP_ASSERT(n >= 0 && (d->bare || (off >= 0 && off <= d->len)));
    if (off < 0)
        off = 0;
    if (off > d->len)
        off = d->len;
    if (d->bare)
        return diag_add_file(d, rule, sev, msg, fix);
    int line, col;
    diag_linecol(d, off, &line, &col);
    hp_finding *f = grow(d);
    if (!f)
        return NULL;
    f->line = line;
    f->col = col;
    f->len = n;
    f->rule = rule;
    f->severity = sev;
    f->message = msg;
    f->fix = fix;
    ptrdiff_t ls = off - (col - 1);
    ptrdiff_t le = ls;
    while (le < d->len && d->src[le] != '\n')
        le++;
    if (le > ls && d->src[le - 1] == '\r')
        le--;
    f->source.s = d->src + ls;
    f->source.len = le - ls;
    return f;
}

hp_finding *diag_add_file(diag_list *d, const char *rule, hp_severity sev, const char *msg,
                          const char *fix)
{
    hp_finding *f = grow(d);
    if (!f)
        return NULL;
    f->rule = rule;
    f->severity = sev;
    f->message = msg;
    f->fix = fix;
    return f;
}

static int cmp_finding(const void *x, const void *y)
{
    const hp_finding *a = x, *b = y;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    if (a->col != b->col)
        return a->col < b->col ? -1 : 1;
    int c = strcmp(a->rule, b->rule);
    if (c)
        return c;
    return strcmp(a->message, b->message);
}

void diag_sort(diag_list *d)
{
    /* findings are mostly added in source order: sort only when they are not */
    for (int i = 1; i < d->n; i++) {
        if (cmp_finding(&d->v[i - 1], &d->v[i]) > 0) {
            qsort(d->v, (size_t)d->n, sizeof *d->v, cmp_finding);
            return;
        }
    }
}

void diag_lines_build(arena *a, const char *src, ptrdiff_t len, lines *l)
{
    ptrdiff_t cnt = 1;
    for (const char *p = src, *e = src + len; p < e;) {
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        if (!nl)
            break;
        cnt++;
        p = nl + 1;
    }
    l->start = NEW(a, int32_t, cnt);
    l->n = cnt;
    if (!l->start) {
        l->n = 0;
        return;
    }
    ptrdiff_t k = 0;
    l->start[k++] = 0;
    for (const char *p = src, *e = src + len; p < e && k < cnt;) {
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        if (!nl)
            break;
        l->start[k++] = (int32_t)(nl + 1 - src);
        p = nl + 1;
    }
}

ptrdiff_t diag_lines_find(const lines *l, ptrdiff_t off)
{
    ptrdiff_t lo = 0, hi = l->n - 1;
    if (hi < 0)
        return 0;
    while (lo < hi) {
        ptrdiff_t mid = lo + (hi - lo + 1) / 2;
        if (l->start[mid] <= off)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}
