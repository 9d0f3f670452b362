/* opt.c: command-line options declared once in a table that both parses and prints help. */
#include "opt.h"

#include <string.h>

void opt_init(opt_state *s, int argc, char **argv, const char *cmd)
{
    memset(s, 0, sizeof *s);
    s->argc = argc;
    s->argv = argv;
    s->i = 1;
    s->cmd = cmd;
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

static int usage_error(const opt_state *s, const char *what, const char *name)
{
    fprintf(stderr, "hipport %s: %s '%s'\ntry 'hipport %s --help'\n", s->cmd, what, name, s->cmd);
    return OPT_ERROR;
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
        return usage_error(s, "unknown option", a);
    fprintf(stderr, "hipport %s: unknown option '%s' (did you mean '--%s'?)\ntry 'hipport %s --help'\n",
            s->cmd, a, near.best, s->cmd);
    return OPT_ERROR;
}

int opt_next(opt_state *s, const opt *table, const char **val)
{
    *val = NULL;
    if (s->cluster && *s->cluster) {
        char c = *s->cluster++;
        for (const opt *o = table; o->longname; o++) {
            if (o->shortname != c)
                continue;
            if (o->arg && o->arg[0] != '[') {
                if (*s->cluster) {
                    *val = s->cluster;
                    s->cluster = NULL;
                } else if (s->i < s->argc) {
                    *val = s->argv[s->i++];
                } else {
                    char name[3] = {'-', c, 0};
                    return usage_error(s, "missing value for option", name);
                }
            }
            return o->id;
        }
        char name[3] = {'-', c, 0};
        return usage_error(s, "unknown option", name);
    }
    s->cluster = NULL;
    if (s->i >= s->argc)
        return OPT_END;
    char *a = s->argv[s->i++];
    if (s->done || a[0] != '-' || a[1] == 0) {
        *val = a;
        return OPT_OPERAND;
    }
    if (a[1] == '-' && a[2] == 0) {
        s->done = 1;
        return opt_next(s, table, val);
    }
    if (a[1] == '-') {
        const char *name = a + 2;
        const char *eq = strchr(name, '=');
        size_t n = eq ? (size_t)(eq - name) : strlen(name);
        for (const opt *o = table; o->longname; o++) {
            if (strlen(o->longname) != n || strncmp(o->longname, name, n) != 0)
                continue;
            if (!o->arg) {
                if (eq)
                    return usage_error(s, "option takes no value:", a);
                return o->id;
            }
            if (eq) {
                *val = eq + 1;
            } else if (o->arg[0] == '[') {
                *val = NULL;
            } else if (s->i < s->argc) {
                *val = s->argv[s->i++];
            } else {
                return usage_error(s, "missing value for option", a);
            }
            return o->id;
        }
        return unknown_long(s, table, a, n);
    }
    s->cluster = a + 1;
    return opt_next(s, table, val);
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
