/* opt.c: command-line options declared once in a table that parses, stores the values and
 * prints help. */
#include "opt.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void opt_init(opt_state *s, int argc, char **argv, const char *cmd)
{
    memset(s, 0, sizeof *s);
    s->argc = argc;
    s->argv = argv;
    s->i = 1;
    s->cmd = cmd;
    s->err = stderr;
}

void opt_near_init(opt_near *n, const char *word, size_t len)
{
    n->word = word;
    n->len = len;
    n->best = NULL;
    n->dist = (int)(len / 3 > 1 ? len / 3 : 1) + 1; /* the first distance too far */
}

/* The optimal string alignment distance of a[0..na) and b[0..nb), or a value of at least
 * limit when it is that far or the words are too long to compare. */
static int distance(const char *a, size_t na, const char *b, size_t nb, int limit)
{
    enum { MAX = 48 };
    if (na >= MAX || nb >= MAX)
        return limit;
    int d[MAX + 1][MAX + 1];
    for (size_t i = 0; i <= na; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= nb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= na; i++)
        for (size_t j = 1; j <= nb; j++) {
            int cost = a[i - 1] != b[j - 1];
            int v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v)
                v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < v)
                v = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[na][nb];
}

void opt_near_try(opt_near *n, const char *cand)
{
    int d = distance(n->word, n->len, cand, strlen(cand), n->dist);
    if (d < n->dist) {
        n->dist = d;
        n->best = cand;
    }
}

int opt_usage(const opt_state *s, const char *fmt, ...)
{
    va_list ap;
    fprintf(s->err, "hipport %s: ", s->cmd);
    va_start(ap, fmt);
    vfprintf(s->err, fmt, ap);
    va_end(ap);
    fprintf(s->err, "\ntry 'hipport %s --help'\n", s->cmd);
    return EXIT_USAGE;
}

int opt_list_push(opt_list *l, const char *prefix, const char *v, size_t n)
{
    if (l->n == l->cap) {
        int ncap = l->cap ? 2 * l->cap : 8;
        char **nv = realloc(l->v, ((size_t)ncap + 1) * sizeof *nv);
        if (!nv)
            return -1;
        l->v = nv;
        l->cap = ncap;
    }
    size_t np = prefix ? strlen(prefix) : 0;
    char *p = malloc(np + n + 1);
    if (!p)
        return -1;
    if (np)
        memcpy(p, prefix, np);
    memcpy(p + np, v, n);
    p[np + n] = 0;
    l->v[l->n++] = p;
    l->v[l->n] = NULL;
    return 0;
}

const char *const *opt_list_items(const opt_list *l)
{
    static const char *const none[] = {NULL};
    return l->v ? (const char *const *)l->v : none;
}

void opt_list_free(opt_list *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}

int opt_add(const opt_state *s, opt_list *l, const char *prefix, const char *v, size_t n)
{
    if (opt_list_push(l, prefix, v, n) == 0)
        return OPT_CONTINUE;
    fprintf(s->err, "hipport %s: out of memory\n", s->cmd);
    return EXIT_INTERNAL;
}

/* "bad value for --format: 'xml' (text, json or sarif)" */
static int bad_word(const opt_state *s, const char *const *words, const char *v)
{
    int n = 0;
    while (words[n])
        n++;
    char list[256];
    size_t len = 0;
    list[0] = 0;
    for (int i = 0; i < n && len < sizeof list; i++) {
        int k = snprintf(list + len, sizeof list - len, "%s%s",
                         i == 0 ? "" : i == n - 1 ? " or " : ", ", words[i]);
        if (k < 0)
            break;
        len += (size_t)k;
    }
    return opt_usage(s, "bad value for %s: '%s' (%s)", s->name, v, list);
}

int opt_store(opt_state *s, const opt *o, const char *val)
{
    switch (o->kind) {
    case OPTION_IGNORE: break;
    case OPTION_SET: *(int *)o->dest = o->value; break;
    case OPTION_STRING: *(const char **)o->dest = val; break;
    case OPTION_INT: {
        char *end;
        long n = strtol(val, &end, 10);
        if (end == val || *end || n < o->value || n > o->max)
            return opt_usage(s, "bad value for %s: '%s' (%d to %d)", s->name, val, o->value,
                             o->max);
        *(int *)o->dest = (int)n;
        break;
    }
    case OPTION_ENUM: {
        const char *v = val ? val : o->words[0];
        int k = 0;
        while (o->words[k] && strcmp(v, o->words[k]) != 0)
            k++;
        if (!o->words[k])
            return bad_word(s, o->words, v);
        *(int *)o->dest = o->values ? o->values[k] : k;
        break;
    }
    case OPTION_LIST: return opt_add(s, o->dest, o->prefix, val, strlen(val));
    case OPTION_CALL: return o->fn(s, o, val);
    default: break;
    }
    return OPT_CONTINUE;
}

/* An unknown long option, with the nearest one of the table when there is one. */
static int unknown_long(const opt_state *s, const opt *table, const char *a, size_t n)
{
    opt_near near;
    opt_near_init(&near, a + 2, n);
    for (const opt *o = table; o->longname; o++)
        if (o->help)
            opt_near_try(&near, o->longname);
    if (!near.best)
        return opt_usage(s, "unknown option '%s'", a);
    return opt_usage(s, "unknown option '%s' (did you mean '--%s'?)", a, near.best);
}

int opt_found(opt_state *s, const opt *o, const char *dash, const opt **found)
{
    snprintf(s->name, sizeof s->name, "%s%s", dash, o->longname);
    *found = o;
    return OPT_NEXT_OPTION;
}

int opt_value(opt_state *s, const char *spelled, const char **val)
{
    if (s->i < s->argc) {
        *val = s->argv[s->i++];
        return OPT_NEXT_OPTION;
    }
    opt_usage(s, "missing value for option '%s'", spelled);
    return OPT_NEXT_ERROR;
}

/* hipport's spellings: --name, --name=value or --name value, -n, -nvalue or -n value, -abc. */
static int next(opt_state *s, const opt *table, const opt **found, const char **val)
{
    *val = NULL;
    *found = NULL;
    if (s->cluster && *s->cluster) {
        char c = *s->cluster++;
        char name[3] = {'-', c, 0};
        for (const opt *o = table; o->longname; o++) {
            if (o->shortname != c)
                continue;
            if (o->arg && o->arg[0] != '[') {
                if (*s->cluster) {
                    *val = s->cluster;
                    s->cluster = NULL;
                } else if (opt_value(s, name, val) == OPT_NEXT_ERROR) {
                    return OPT_NEXT_ERROR;
                }
            }
            return opt_found(s, o, "--", found);
        }
        opt_usage(s, "unknown option '%s'", name);
        return OPT_NEXT_ERROR;
    }
    s->cluster = NULL;
    if (s->i >= s->argc)
        return OPT_NEXT_END;
    char *a = s->argv[s->i++];
    s->word = a;
    if (s->done || a[0] != '-' || a[1] == 0) {
        *val = a;
        return OPT_NEXT_OPERAND;
    }
    if (a[1] == '-' && a[2] == 0) {
        s->done = 1;
        return next(s, table, found, val);
    }
    if (a[1] == '-') {
        const char *name = a + 2;
        const char *eq = strchr(name, '=');
        size_t n = eq ? (size_t)(eq - name) : strlen(name);
        for (const opt *o = table; o->longname; o++) {
            if (strlen(o->longname) != n || strncmp(o->longname, name, n) != 0)
                continue;
            if (!o->arg && eq) {
                opt_usage(s, "option takes no value: '%s'", a);
                return OPT_NEXT_ERROR;
            }
            if (eq)
                *val = eq + 1;
            else if (o->arg && o->arg[0] != '[' && opt_value(s, a, val) == OPT_NEXT_ERROR)
                return OPT_NEXT_ERROR;
            return opt_found(s, o, "--", found);
        }
        unknown_long(s, table, a, n);
        return OPT_NEXT_ERROR;
    }
    s->cluster = a + 1;
    return next(s, table, found, val);
}

int opt_run(opt_state *s, const opt *table, const opt *operand, opt_next_fn *step)
{
    s->table = table;
    for (;;) {
        const opt *o;
        const char *val;
        int k = step(s, table, &o, &val);
        if (k == OPT_NEXT_END)
            return OPT_CONTINUE;
        if (k == OPT_NEXT_ERROR)
            return EXIT_USAGE;
        if (k == OPT_NEXT_OPERAND) {
            s->name[0] = 0;
            o = operand;
        }
        int rc = opt_store(s, o, val);
        if (rc != OPT_CONTINUE)
            return rc;
    }
}

int opt_parse(opt_state *s, const opt *table, const opt *operand)
{
    return opt_run(s, table, operand, next);
}

void opt_help(FILE *f, const opt *table)
{
    for (const opt *o = table; o->longname; o++) {
        if (!o->help)
            continue;
        char left[64];
        int n;
        if (o->shortname)
            n = snprintf(left, sizeof left, "  -%c, --%s", o->shortname, o->longname);
        else
            n = snprintf(left, sizeof left, "      --%s", o->longname);
        if (o->arg && n > 0 && (size_t)n < sizeof left) {
            if (o->arg[0] == '[')
                snprintf(left + n, sizeof left - (size_t)n, "[=%.*s]", (int)strlen(o->arg) - 2,
                         o->arg + 1);
            else
                snprintf(left + n, sizeof left - (size_t)n, " %s", o->arg);
        }
        if (strlen(left) > 28)
            fprintf(f, "%s\n%30s%s\n", left, "", o->help);
        else
            fprintf(f, "%-30s%s\n", left, o->help);
    }
}
