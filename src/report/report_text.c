/* report_text.c: findings as compiler-style text, with the source line, a caret and the fix. */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "hipport.h"
#include "report.h"
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
    /* pieces rather than a format: a run can print hundreds of thousands of findings */
    buf_adds(b, bold);
    buf_adds(b, f->path);
    buf_addc(b, ':');
    if (f->line > 0) {
        buf_addint(b, f->line);
        buf_addc(b, ':');
        buf_addint(b, f->col);
        buf_addc(b, ':');
    }
    buf_adds(b, reset);
    buf_addc(b, ' ');
    if (o->color)
        buf_adds(b, sev_color(f->severity));
    buf_adds(b, hp_severity_name(f->severity));
    buf_addc(b, ':');
    buf_adds(b, reset);
    buf_addc(b, ' ');
    buf_adds(b, f->message);
    buf_adds(b, " [");
    buf_adds(b, f->rule);
    buf_adds(b, "]\n");
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
        buf_adds(b, reset);
        buf_addc(b, '\n');
    }
    if (o->show_fix && f->fix && f->fix[0]) {
        buf_adds(b, "    fix: ");
        buf_adds(b, f->fix);
        buf_addc(b, '\n');
    }
}

char *hp_report_text(const hp_finding *f, int n, const hp_report_opts *o)
{
    hp_report_opts def = {0, 0, 0};
    if (!o)
        o = &def;
    buf b;
    buf_init_heap(&b, 1024);
    report_text_items(&b, f, n, o);
    return buf_take(&b);
}

void report_text_items(buf *b, const hp_finding *f, int n, const hp_report_opts *o)
{
    for (int i = 0; i < n; i++)
        one(b, &f[i], o);
}
