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

static int usage_error(const opt_state *s, const char *what, const char *name)
{
    fprintf(stderr, "hipport %s: %s '%s'\ntry 'hipport %s --help'\n", s->cmd, what, name, s->cmd);
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
        return usage_error(s, "unknown option", a);
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
