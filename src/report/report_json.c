/* report_json.c: findings as JSON ({"version":1,"findings":[...],"summary":{...}}), one
 * finding per line so that reports diff well; and baselines read back from that format. */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "hipport.h"
#include "json.h"
#include "report.h"
#include "str.h"

#include "banned.h"

static void jstr(buf *b, const char *s)
{
    if (!s)
        buf_adds(b, "null");
    else
        buf_add_jstr(b, s);
}

/* The items, each preceded by ",\n" (the first by "\n" alone unless comma_first). */
static void items(buf *b, const hp_finding *f, int n, int comma_first)
{
    for (int i = 0; i < n; i++) {
        buf_adds(b, i || comma_first ? ",\n{\"path\":" : "\n{\"path\":");
        jstr(b, f[i].path);
        if (f[i].path && !buf_is_utf8(f[i].path)) {
            /* a JSON string holds text: the path's bytes, percent-encoded, find the file */
            buf_adds(b, ",\"path_raw\":\"");
            buf_add_pct(b, f[i].path);
            buf_addc(b, '"');
        }
        buf_addf(b, ",\"line\":%d,\"column\":%d,\"rule\":", f[i].line, f[i].col);
        jstr(b, f[i].rule);
        buf_adds(b, ",\"severity\":");
        jstr(b, hp_severity_name(f[i].severity));
        buf_adds(b, ",\"message\":");
        jstr(b, f[i].message);
        buf_adds(b, ",\"fix\":");
        jstr(b, f[i].fix && f[i].fix[0] ? f[i].fix : NULL);
        buf_addc(b, '}');
    }
}

void report_json_items(buf *b, const hp_finding *f, int n)
{
    items(b, f, n, 1);
}

char *hp_report_json_items(const hp_finding *f, int n)
{
    buf b;
    buf_init_heap(&b, 256 + (ptrdiff_t)n * 256);
    items(&b, f, n, 1);
    return buf_take(&b);
}

static const char json_head[] = "{\"version\":1,\"findings\":[";

static void json_tail(buf *b, int n, const long long count[4], const hp_check_summary *s)
{
    hp_check_summary zero = {0, 0, 0, 0};
    if (!s)
        s = &zero;
    buf_addf(b,
             "%s],\n\"summary\":{\"files\":%lld,\"failed\":%lld,\"findings\":%d,\"errors\":%lld,"
             "\"warnings\":%lld,\"notes\":%lld,\"suppressed\":%lld,\"baselined\":%lld}}\n",
             n ? "\n" : "", s->files, s->failed, n, count[HP_SEV_ERROR], count[HP_SEV_WARNING],
             count[HP_SEV_NOTE], s->suppressed, s->baselined);
}

int hp_report_json_write(const char *const *piece, const ptrdiff_t *len, int npieces, int n,
                         const long long count[4], const hp_check_summary *s,
                         int (*write)(void *ud, const char *p, ptrdiff_t n), void *ud)
{
    int rc = write(ud, json_head, (ptrdiff_t)sizeof json_head - 1);
    int first = 1;
    for (int i = 0; !rc && i < npieces; i++) {
        if (len[i] <= 0)
            continue;
        /* the first item is preceded by a newline alone */
        rc = write(ud, piece[i] + first, len[i] - first);
        first = 0;
    }
    if (rc)
        return rc;
    buf b;
    buf_init_heap(&b, 512);
    json_tail(&b, n, count, s);
    ptrdiff_t tl = b.len;
    char *tail = buf_take(&b);
    rc = tail ? write(ud, tail, tl) : -1;
    free(tail);
    return rc;
}

static int to_buf(void *ud, const char *p, ptrdiff_t n)
{
    buf *b = ud;
    buf_add(b, p, n);
    return 0;
}

char *hp_report_json_join(const char *const *piece, const ptrdiff_t *len, int npieces, int n,
                          const long long count[4], const hp_check_summary *s)
{
    ptrdiff_t total = 256;
    for (int i = 0; i < npieces; i++)
        total += len[i];
    buf b;
    buf_init_heap(&b, total);
    hp_report_json_write(piece, len, npieces, n, count, s, to_buf, &b);
    return buf_take(&b);
}

char *hp_report_json(const hp_finding *f, int n, const hp_check_summary *s)
{
    long long count[4] = {0, 0, 0, 0};
    for (int i = 0; i < n; i++)
        if (f[i].severity >= HP_SEV_NONE && f[i].severity <= HP_SEV_ERROR)
            count[f[i].severity]++;
    buf b;
    buf_init_heap(&b, 4096);
    buf_adds(&b, json_head);
    items(&b, f, n, 0);
    json_tail(&b, n, count, s);
    return buf_take(&b);
}

/* ------------------------------------------------------------------ baselines */

typedef struct bentry {
    const char *path, *rule, *message;
    unsigned hash;
    int count; /* findings it may still absorb */
} bentry;

struct hp_baseline {
    arena a;
    bentry *slot; /* open addressing */
    ptrdiff_t cap;
};

static unsigned key_hash(const char *path, const char *rule, const char *message)
{
    unsigned h = str_hash(path, (ptrdiff_t)strlen(path), 1);
    h = str_hash(rule, (ptrdiff_t)strlen(rule), h);
    return str_hash(message, (ptrdiff_t)strlen(message), h);
}

/* "./a.cu" and "a.cu" name the same file. */
static const char *norm_path(const char *p)
{
    while (p[0] == '.' && p[1] == '/')
        p += 2;
    return p;
}

/* The canonical form strings are compared in: as written in JSON (invalid UTF-8 replaced),
 * so that a finding matches its own entry whatever bytes its message holds. */
static const char *canon(arena *a, const char *s)
{
    buf b;
    buf_init(&b, a, 64);
    buf_add_json(&b, str_cstr(s));
    return buf_cstr(&b);
}

static bentry *lookup(hp_baseline *b, const char *path, const char *rule, const char *message,
                      int insert)
{
    path = canon(&b->a, norm_path(path));
    rule = canon(&b->a, rule);
    message = canon(&b->a, message);
    unsigned h = key_hash(path, rule, message);
    for (ptrdiff_t j = (ptrdiff_t)(h & (unsigned)(b->cap - 1));; j = (j + 1) & (b->cap - 1)) {
        bentry *e = &b->slot[j];
        if (!e->path) {
            if (!insert)
                return NULL;
            e->path = path;
            e->rule = rule;
            e->message = message;
            e->hash = h;
            return e;
        }
        if (e->hash == h && strcmp(e->path, path) == 0 && strcmp(e->rule, rule) == 0 &&
            strcmp(e->message, message) == 0)
            return e;
    }
}

static hp_baseline *bad(hp_baseline *b, char *why, ptrdiff_t whylen, const char *msg)
{
    if (why && whylen > 0) {
        size_t n = strlen(msg);
        if (n >= (size_t)whylen)
            n = (size_t)whylen - 1;
        memcpy(why, msg, n);
        why[n] = 0;
    }
    if (b) {
        arena_release(&b->a);
        free(b);
    }
    return NULL;
}

/* The bytes of a percent-encoded path (path_raw), NUL-terminated; NULL if malformed. */
static char *pct_decode(arena *a, hp_str s)
{
    char *out = arena_alloc_nozero(a, 1, 1, s.len + 1);
    if (!out)
        return NULL;
    ptrdiff_t n = 0;
    for (ptrdiff_t i = 0; i < s.len; i++) {
        if (s.s[i] != '%') {
            out[n++] = s.s[i];
            continue;
        }
        if (i + 2 >= s.len)
            return NULL;
        int v = 0;
        for (int k = 1; k <= 2; k++) {
            char c = s.s[i + k];
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (d < 0)
                return NULL;
            v = v * 16 + d;
        }
        if (v == 0)
            return NULL;
        out[n++] = (char)v;
        i += 2;
    }
    out[n] = 0;
    return out;
}

hp_baseline *hp_baseline_parse(const char *text, ptrdiff_t len, char *why, ptrdiff_t whylen)
{
    hp_baseline *b = calloc(1, sizeof *b);
    if (!b)
        return bad(NULL, why, whylen, "out of memory");
    arena_init(&b->a, 1 << 16);
    const char *err = NULL;
    ptrdiff_t off = 0;
    json *root = json_parse(&b->a, text, len, &err, &off);
    if (!root) {
        char msg[128];
        buf tmp;
        buf_init(&tmp, &b->a, 128);
        buf_addf(&tmp, "not JSON: %s at byte %td", err, off);
        size_t n = (size_t)tmp.len < sizeof msg - 1 ? (size_t)tmp.len : sizeof msg - 1;
        memcpy(msg, tmp.data, n);
        msg[n] = 0;
        return bad(b, why, whylen, msg);
    }
    /* the format's version: 1 is the only one; a report without one predates it */
    const json *ver = json_get(root, "version");
    if (ver && !(ver->kind == JSON_NUMBER && ver->number == 1.0))
        return bad(b, why, whylen,
                   "a hipport JSON report of another format version (this hipport reads version 1)");
    const json *fs = json_get(root, "findings");
    if (!fs || fs->kind != JSON_ARRAY)
        return bad(b, why, whylen, "not a hipport JSON report (no \"findings\" array)");
    b->cap = 16;
    while (b->cap < 2 * fs->n + 2)
        b->cap *= 2;
    b->slot = NEW(&b->a, bentry, b->cap);
    if (!b->slot)
        return bad(b, why, whylen, "out of memory");
    for (ptrdiff_t i = 0; i < fs->n; i++) {
        const json *p = json_get(&fs->items[i], "path");
        const json *raw = json_get(&fs->items[i], "path_raw");
        char *rawpath = raw && raw->kind == JSON_STRING ? pct_decode(&b->a, raw->str) : NULL;
        const json *r = json_get(&fs->items[i], "rule");
        const json *m = json_get(&fs->items[i], "message");
        if (!p || !r || !m || p->kind != JSON_STRING || r->kind != JSON_STRING ||
            m->kind != JSON_STRING)
            return bad(b, why, whylen, "a finding lacks a string path, rule or message");
        bentry *e = lookup(b, rawpath ? rawpath : p->str.s, r->str.s, m->str.s, 1);
        e->count++;
    }
    return b;
}

int hp_baseline_filter(hp_baseline *b, hp_finding *f, int n)
{
    if (!b)
        return n;
    int w = 0;
    arena_mark m = arena_save(&b->a);
    for (int i = 0; i < n; i++) {
        arena_rewind(&b->a, m);
        bentry *e = lookup(b, f[i].path ? f[i].path : "", f[i].rule ? f[i].rule : "",
                           f[i].message ? f[i].message : "", 0);
        if (e && e->count > 0) {
            e->count--;
            continue;
        }
        f[w++] = f[i];
    }
    return w;
}

void hp_baseline_free(hp_baseline *b)
{
    if (!b)
        return;
    arena_release(&b->a);
    free(b);
}
