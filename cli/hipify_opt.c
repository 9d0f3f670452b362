/* hipify_opt.c: parsing the command lines of hipify-perl, hipify-clang and PyTorch's hipify. */
#include "hipify_opt.h"
#include "opt.h"

#include <string.h>

#include "cli.h"

void hopt_init(hparse *p, int argc, char **argv, int style, const char *cmd)
{
    memset(p, 0, sizeof *p);
    p->argc = argc;
    p->argv = argv;
    p->i = 1;
    p->style = style;
    p->cmd = cmd;
}

static int usage(const hparse *p, const char *what, const char *arg)
{
    cli_usage(p->cmd, "%s '%s'", what, arg);
    return HO_ERROR;
}

/* The option named name[0..n), exactly or (perl, python) by a unique prefix. */
static const hopt *lookup(const hparse *p, const hopt *t, const char *name, size_t n, int *ambig)
{
    *ambig = 0;
    for (const hopt *o = t; o->name; o++)
        if (strlen(o->name) == n && strncmp(o->name, name, n) == 0)
            return o;
    if (p->style == HS_CLANG)
        return NULL;
    const hopt *found = NULL;
    for (const hopt *o = t; o->name; o++) {
        if (strlen(o->name) < 2 || strncmp(o->name, name, n) != 0)
            continue;
        if (found && found->id != o->id) {
            *ambig = 1;
            return NULL;
        }
        found = o;
    }
    return found;
}

int hopt_next(hparse *p, const hopt *t, const char **val)
{
    *val = NULL;
    if (p->i >= p->argc)
        return HO_END;
    char *a = p->argv[p->i++];
    if (p->dashdash || a[0] != '-' || a[1] == 0) {
        *val = a;
        if (p->list_id && !p->dashdash)
            return p->list_id; /* one more value of a list */
        return HO_OPERAND;
    }
    p->list_id = 0;
    if (strcmp(a, "--") == 0) {
        p->dashdash = 1;
        return p->style == HS_CLANG ? HO_DASHDASH : hopt_next(p, t, val);
    }
    const char *name = a + 1 + (a[1] == '-');
    int dashes = a[1] == '-' ? 2 : 1;
    /* glued forms: -Idir, -DNAME=1 (hipify-clang), -pDIR (python) */
    if (dashes == 1) {
        for (const hopt *o = t; o->name; o++) {
            size_t n = strlen(o->name);
            int glued = o->arg == HO_GLUED || (p->style == HS_PYTHON && n == 1);
            if (glued && strncmp(name, o->name, n) == 0 && name[n] && name[n] != '=') {
                *val = name + n;
                return o->id;
            }
        }
    }
    const char *eq = strchr(name, '=');
    size_t n = eq ? (size_t)(eq - name) : strlen(name);
    if (p->style == HS_PYTHON && dashes == 1 && n > 1)
        return usage(p, "unknown option", a); /* argparse: one dash, one letter */
    int ambig;
    const hopt *o = lookup(p, t, name, n, &ambig);
    if (!o && !ambig) {
        opt_near near;
        opt_near_init(&near, name, n);
        for (const hopt *c = t; c->name; c++)
            if (c->help && strlen(c->name) > 1)
                opt_near_try(&near, c->name);
        if (near.best) {
            cli_usage(p->cmd, "unknown option '%s' (did you mean '%s%s'?)", a,
                      dashes == 2 || p->style != HS_PERL ? "--" : "-", near.best);
            return HO_ERROR;
        }
    }
    if (!o)
        return usage(p, ambig ? "ambiguous option" : "unknown option", a);
    if (o->arg == HO_FLAG) {
        if (eq)
            return usage(p, "option takes no value:", a);
        return o->id;
    }
    if (eq) {
        *val = eq + 1;
    } else if (p->i < p->argc) {
        *val = p->argv[p->i++];
    } else {
        return usage(p, "missing value for option", a);
    }
    if (o->arg == HO_LIST)
        p->list_id = o->id;
    return o->id;
}

void hopt_help(FILE *f, const hopt *t, int style)
{
    for (const hopt *o = t; o->name; o++) {
        if (!o->help)
            continue;
        /* a hidden one-letter spelling of the same option is shown in front: -p, --project */
        const char *letter = NULL;
        for (const hopt *q = t; q->name; q++)
            if (q != o && q->id == o->id && !q->help && strlen(q->name) == 1)
                letter = q->name;
        int one = strlen(o->name) == 1;
        const char *dash = style == HS_PERL || one ? "-" : "--";
        const char *meta = o->meta ? o->meta : "VALUE";
        char name[64], left[96];
        if (letter)
            snprintf(name, sizeof name, "-%s, %s%s", letter, dash, o->name);
        else
            snprintf(name, sizeof name, "%s%s", dash, o->name);
        switch (o->arg) {
        case HO_FLAG:
            snprintf(left, sizeof left, "  %s", name);
            break;
        case HO_LIST:
            snprintf(left, sizeof left, "  %s %s...", name, meta);
            break;
        case HO_GLUED:
            snprintf(left, sizeof left, "  %s%s", name, meta);
            break;
        default:
            snprintf(left, sizeof left,
                     style == HS_PYTHON || (one && style == HS_CLANG) ? "  %s %s" : "  %s=%s", name,
                     meta);
            break;
        }
        if (strlen(left) > 34)
            fprintf(f, "%s\n%36s%s\n", left, "", o->help);
        else
            fprintf(f, "%-36s%s\n", left, o->help);
    }
}
