/* report_text.c: findings as compiler-style text, with the source line, a caret and the fix. */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "hipport.h"
#include "str.h"

#include "banned.h"

static const char *sev_color(hp_severity s)
{
    switch (s) {
    case HP_SEV_ERROR: return "\033[1;31m";
    case HP_SEV_WARNING: return "\033[1;35m";
    case HP_SEV_NOTE: return "\033[1;36m";
    default: return "";
    }
}

static void one(buf *b, const hp_finding *f, const hp_report_opts *o)
{
    const char *bold = o->color ? "\033[1m" : "";
    const char *reset = o->color ? "\033[0m" : "";
    if (f->line > 0)
        buf_addf(b, "%s%s:%d:%d:%s ", bold, f->path, f->line, f->col, reset);
    else
        buf_addf(b, "%s%s:%s ", bold, f->path, reset);
    buf_addf(b, "%s%s:%s %s [%s]\n", o->color ? sev_color(f->severity) : "",
             hp_severity_name(f->severity), reset, f->message, f->rule);
    if (o->show_source && f->line > 0 && f->source.len > 0) {
        buf_adds(b, "    ");
        buf_addstr(b, f->source);
        buf_adds(b, "\n    ");
        /* keep tabs so the caret lines up */
        for (int i = 0; i < f->col - 1 && i < f->source.len; i++)
            buf_addc(b, f->source.s[i] == '\t' ? '\t' : ' ');
        buf_adds(b, o->color ? "\033[1;32m^" : "^");
        for (int i = 1; i < f->len && f->col - 1 + i < f->source.len && i < 200; i++)
            buf_addc(b, '~');
        buf_addf(b, "%s\n", reset);
    }
    if (o->show_fix && f->fix && f->fix[0])
        buf_addf(b, "    fix: %s\n", f->fix);
}

char *hp_report_text(const hp_finding *f, int n, const hp_report_opts *o)
{
    hp_report_opts def = {0, 0, 0};
    if (!o)
        o = &def;
    buf b;
    buf_init_heap(&b, 1024);
    for (int i = 0; i < n; i++)
        one(&b, &f[i], o);
    return buf_take(&b);
}
