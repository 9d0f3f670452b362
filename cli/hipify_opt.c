/* hipify_opt.c: parsing the command lines of hipify-perl, hipify-clang and PyTorch's hipify. */
#include "hipify_opt.h"

#include <string.h>

#include "cli.h"

/* Does the word name[0..n) name o (its name, or its one letter)? */
static int names(const opt *o, const char *name, size_t n)
{
    return (strlen(o->longname) == n && strncmp(o->longname, name, n) == 0) ||
           (n == 1 && o->shortname && o->shortname == name[0]);
}

/* The option named name[0..n), exactly or (perl, python) by a unique prefix. */
static const opt *lookup(const opt_state *s, const opt *t, const char *name, size_t n, int *ambig)
{
    *ambig = 0;
    for (const opt *o = t; o->longname; o++)
        if (names(o, name, n))
            return o;
    if (s->style == HS_CLANG)
        return NULL;
    const opt *found = NULL;
    for (const opt *o = t; o->longname; o++) {
        if (strlen(o->longname) < 2 || strncmp(o->longname, name, n) != 0)
            continue;
        if (found) {
            *ambig = 1;
            return NULL;
        }
        found = o;
    }
    return found;
}

/* As in messages: perl's options with one dash, the others' with two. */
static int found_option(opt_state *s, const opt *o, const opt **found)
{
    return opt_found(s, o, s->style == HS_PERL ? "-" : "--", found);
}

static int next(opt_state *s, const opt *t, const opt **found, const char **val)
{
    *val = NULL;
    *found = NULL;
    if (s->i >= s->argc)
        return OPT_NEXT_END;
    char *a = s->argv[s->i++];
    s->word = a;
    if (s->done || a[0] != '-' || a[1] == 0) {
        *val = a;
        if (s->list && !s->done)
            return found_option(s, s->list, found); /* one more value of a list */
        return OPT_NEXT_OPERAND;
    }
    s->list = NULL;
    if (strcmp(a, "--") == 0) {
        s->done = 1;
        return next(s, t, found, val);
    }
    const char *name = a + 1 + (a[1] == '-');
    int dashes = a[1] == '-' ? 2 : 1;
    /* glued forms: -Idir, -DNAME=1 (hipify-clang), -pDIR (python) */
    if (dashes == 1) {
        for (const opt *o = t; o->longname; o++) {
            const char *n = o->flags & OPTF_GLUED ? o->longname : NULL;
            char letter[2] = {o->shortname, 0};
            if (s->style == HS_PYTHON && o->shortname)
                n = letter;
            size_t len = n ? strlen(n) : 0;
            if (n && strncmp(name, n, len) == 0 && name[len] && name[len] != '=') {
                *val = name + len;
                return found_option(s, o, found);
            }
        }
    }
    const char *eq = strchr(name, '=');
    size_t n = eq ? (size_t)(eq - name) : strlen(name);
    if (s->style == HS_PYTHON && dashes == 1 && n > 1) {
        opt_usage(s, "unknown option '%s'", a); /* argparse: one dash, one letter */
        return OPT_NEXT_ERROR;
    }
    int ambig;
    const opt *o = lookup(s, t, name, n, &ambig);
    if (!o && !ambig) {
        opt_near near;
        opt_near_init(&near, name, n);
        for (const opt *c = t; c->longname; c++)
            if (c->help && strlen(c->longname) > 1)
                opt_near_try(&near, c->longname);
        if (near.best) {
            opt_usage(s, "unknown option '%s' (did you mean '%s%s'?)", a,
                      dashes == 2 || s->style != HS_PERL ? "--" : "-", near.best);
            return OPT_NEXT_ERROR;
        }
    }
    if (!o) {
        opt_usage(s, "%s '%s'", ambig ? "ambiguous option" : "unknown option", a);
        return OPT_NEXT_ERROR;
    }
    if (!o->arg) {
        if (eq) {
            opt_usage(s, "option takes no value: '%s'", a);
            return OPT_NEXT_ERROR;
        }
        return found_option(s, o, found);
    }
    if (eq)
        *val = eq + 1;
    else if (opt_value(s, a, val) == OPT_NEXT_ERROR)
        return OPT_NEXT_ERROR;
    if (o->flags & OPTF_MULTI)
        s->list = o;
    return found_option(s, o, found);
}

int hopt_parse(opt_state *s, const opt *table, const opt *operand, int style)
{
    s->style = style;
    return opt_run(s, table, operand, next);
}

int hopt_help_opt(opt_state *s, const opt *o, const char *v)
{
    (void)o;
    (void)v;
    cli_help(stdout, s->cmd, NULL);
    printf("\noptions:\n");
    hopt_help(stdout, s->table, s->style);
    return EXIT_OK;
}

void hopt_help(FILE *f, const opt *t, int style)
{
    for (const opt *o = t; o->longname; o++) {
        if (!o->help)
            continue;
        /* the one-letter spelling is shown in front: -p, --project-directory */
        int one = strlen(o->longname) == 1;
        const char *dash = style == HS_PERL || one ? "-" : "--";
        char name[64], left[96];
        if (o->shortname)
            snprintf(name, sizeof name, "-%c, %s%s", o->shortname, dash, o->longname);
        else
            snprintf(name, sizeof name, "%s%s", dash, o->longname);
        if (!o->arg)
            snprintf(left, sizeof left, "  %s", name);
        else if (o->flags & OPTF_MULTI)
            snprintf(left, sizeof left, "  %s %s...", name, o->arg);
        else if (o->flags & OPTF_GLUED)
            snprintf(left, sizeof left, "  %s%s", name, o->arg);
        else
            snprintf(left, sizeof left,
                     style == HS_PYTHON || (one && style == HS_CLANG) ? "  %s %s" : "  %s=%s", name,
                     o->arg);
        if (strlen(left) > 34)
            fprintf(f, "%s\n%36s%s\n", left, "", o->help);
        else
            fprintf(f, "%-36s%s\n", left, o->help);
    }
}
