/* doc.c: what doctor's parts share (doctor.c, doctor_libs.c, doctor_py.c, doctor_rules.c):
 * growing arrays, printing into the run's arena, findings, the environment judged (the
 * process's or a fake root's) and globs under the root. */
#define _GNU_SOURCE 1
#include "doctor.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "str.h"

#include "banned.h"

extern char **environ;

void *doc_grow(arena *a, void *old, int *cap, ptrdiff_t size)
{
    int ncap = *cap ? *cap * 2 : 8;
    void *p = arena_grow(a, old, (ptrdiff_t)*cap * size, (ptrdiff_t)ncap * size,
                         _Alignof(max_align_t));
    *cap = ncap;
    return p;
}

char *doc_printf(doctor *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    char *p = arena_alloc_nozero(d->a, 1, 1, (ptrdiff_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

void doc_find(doctor *d, const char *path, const char *rule, hp_severity sev, const char *fix,
              const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    char *msg = arena_alloc_nozero(d->a, 1, 1, (ptrdiff_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(msg, (size_t)n + 1, fmt, ap);
    va_end(ap);
    hp_finding *f = DOC_PUSH(d, d->findings);
    f->path = arena_strndup(d->a, path, (ptrdiff_t)strlen(path));
    f->rule = rule;
    f->severity = sev;
    f->message = msg;
    f->fix = fix;
}

/* ---------------------------------------------------------------- environment */

const char *doc_getenv(const doctor *d, const char *name)
{
    for (int i = 0; i < d->env_name.n; i++)
        if (strcmp(d->env_name.v[i], name) == 0)
            return d->env_value.v[i];
    return NULL;
}

static int env_name_ok(const char *s, ptrdiff_t n)
{
    if (n <= 0 || n > 255 || (s[0] >= '0' && s[0] <= '9'))
        return 0;
    for (ptrdiff_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '_'))
            return 0;
    }
    return 1;
}

static void env_put(doctor *d, const char *name, ptrdiff_t nlen, const char *val, ptrdiff_t vlen)
{
    if (!env_name_ok(name, nlen))
        return;
    for (int i = 0; i < d->env_name.n; i++)
        if ((ptrdiff_t)strlen(d->env_name.v[i]) == nlen &&
            memcmp(d->env_name.v[i], name, (size_t)nlen) == 0) {
            if (val)
                d->env_value.v[i] = arena_strndup(d->a, val, vlen);
            else {
                /* unset: move the last one here */
                d->env_name.v[i] = d->env_name.v[d->env_name.n - 1];
                d->env_value.v[i] = d->env_value.v[d->env_value.n - 1];
                d->env_name.n--;
                d->env_value.n--;
            }
            return;
        }
    if (!val)
        return;
    *(const char **)DOC_PUSH(d, d->env_name) = arena_strndup(d->a, name, nlen);
    *(const char **)DOC_PUSH(d, d->env_value) = arena_strndup(d->a, val, vlen);
}

static void env_assign(doctor *d, const char *kv)
{
    const char *eq = strchr(kv, '=');
    if (eq)
        env_put(d, kv, eq - kv, eq + 1, (ptrdiff_t)strlen(eq + 1));
    else
        env_put(d, kv, (ptrdiff_t)strlen(kv), NULL, 0);
}

/* NAME=value lines: '#' comments, an optional "export ", a value quoted as a whole loses its
 * quotes; anything else is taken as it is. */
static void env_from_text(doctor *d, const char *text, ptrdiff_t len)
{
    hp_str t = str_make(text, len);
    while (t.len > 0) {
        ptrdiff_t nl = str_chr(t, '\n');
        hp_str line = str_cut(t, 0, nl < 0 ? t.len : nl);
        t = nl < 0 ? str_make(t.s + t.len, 0) : str_cut(t, nl + 1, t.len);
        if (line.len && line.s[line.len - 1] == '\r')
            line.len--;
        while (line.len && (line.s[0] == ' ' || line.s[0] == '\t')) {
            line.s++;
            line.len--;
        }
        if (!line.len || line.s[0] == '#')
            continue;
        if (str_starts(line, S("export ")))
            line = str_cut(line, 7, line.len);
        ptrdiff_t eq = str_chr(line, '=');
        if (eq <= 0)
            continue;
        hp_str val = str_cut(line, eq + 1, line.len);
        if (val.len >= 2 && (val.s[0] == '"' || val.s[0] == '\'') &&
            val.s[val.len - 1] == val.s[0])
            val = str_cut(val, 1, val.len - 1);
        env_put(d, line.s, eq, val.s, val.len);
    }
}

/* The environment judged: env_file, else env, else a fake root's ROOT/environ; then env_set. */
hp_status doc_load_env(doctor *d)
{
    const hp_doctor_opts *o = d->o;
    if (o->env_file) {
        char *text;
        ptrdiff_t len;
        const char *err;
        hp_status st = os_read_file(d->a, o->env_file, SYSFS_SMALL, &text, &len, &err);
        if (st != HP_OK) {
            sysfs_problem_add(&d->fs, o->env_file, err);
            return HP_EIO;
        }
        env_from_text(d, text, len);
    } else if (o->env) {
        for (const char *const *e = o->env; *e; e++)
            env_assign(d, *e);
    } else if (!d->fs.real) {
        ptrdiff_t len;
        char *text = sysfs_read(&d->fs, "/environ", SYSFS_SMALL, &len);
        if (text)
            env_from_text(d, text, len);
    }
    if (o->env_set)
        for (const char *const *e = o->env_set; *e; e++)
            env_assign(d, *e);
    return HP_OK;
}

/* ---------------------------------------------------------------- globbing under the root */

static int has_magic(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] == '*' || s[i] == '?' || s[i] == '[')
            return 1;
    return 0;
}

int doc_glob(doctor *d, const char *pattern, const char **out, int max)
{
    enum { MAXP = 256 };
    const char **cur = NEW(d->a, const char *, MAXP);
    const char **next = NEW(d->a, const char *, MAXP);
    int ncur = 1, nnext;
    cur[0] = "";
    const char *p = pattern;
    while (*p == '/')
        p++;
    while (*p && ncur) {
        const char *slash = strchr(p, '/');
        size_t clen = slash ? (size_t)(slash - p) : strlen(p);
        nnext = 0;
        if (clen == 0) {
            p = slash + 1;
            continue;
        }
        for (int i = 0; i < ncur && nnext < MAXP; i++) {
            if (!has_magic(p, clen)) {
                next[nnext++] = doc_printf(d, "%s/%.*s", cur[i], (int)clen, p);
                continue;
            }
            /* the patterns are guesses: a missing or looping directory is no problem */
            const char *dir = cur[i][0] ? cur[i] : "/";
            if (!sysfs_is_dir(&d->fs, dir))
                continue;
            os_dirent *ents;
            ptrdiff_t ne;
            sysfs_list(&d->fs, dir, &ents, &ne);
            for (ptrdiff_t k = 0; k < ne && nnext < MAXP; k++) {
                if (ents[k].name[0] == '.' && p[0] != '.')
                    continue;
                if (str_glob(str_make(p, (ptrdiff_t)clen), str_cstr(ents[k].name), 1))
                    next[nnext++] = doc_printf(d, "%s/%s", cur[i], ents[k].name);
            }
        }
        const char **t = cur;
        cur = next;
        next = t;
        ncur = nnext;
        p = slash ? slash + 1 : p + clen;
    }
    int n = 0;
    for (int i = 0; i < ncur && n < max; i++)
        if (sysfs_exists(&d->fs, cur[i]))
            out[n++] = cur[i];
    return n;
}
