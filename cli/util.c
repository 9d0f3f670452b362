/* util.c: messages, colour and progress for the command files. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "opt.h"

void cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "hipport %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "hipport %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\ntry 'hipport %s --help'\n", cmd);
    return EXIT_USAGE;
}

const char *const cli_color_words[] = {"auto", "always", "never", NULL};

int cli_opt_help(opt_state *s, const opt *o, const char *v)
{
    (void)o;
    (void)v;
    cli_help(stdout, s->cmd, s->table);
    return EXIT_OK;
}

int cli_opt_hip_version(opt_state *s, const opt *o, const char *v)
{
    int hv = hp_hip_version_parse(v);
    int newest = hp_hip_version_newest();
    if (hv < 0)
        return opt_usage(s, "bad value for %s: '%s' (like 6.2)", s->name, v);
    if (hv < 100 || hv > newest)
        return opt_usage(s, "%s %s: hipport knows HIP 1.0 to %d.%d (name %d.%d for a newer HIP)",
                         s->name, v, newest / 100, newest % 100, newest / 100, newest % 100);
    *(int *)o->dest = hv;
    return OPT_CONTINUE;
}

int cli_opt_fail_on(opt_state *s, const opt *o, const char *v)
{
    int sev = hp_severity_parse(v);
    if (sev < 0)
        return opt_usage(s, "bad value for %s: '%s' (error, warning, note or never)", s->name,
                         v);
    *(int *)o->dest = sev;
    return OPT_CONTINUE;
}

int cli_opt_exclude(opt_state *s, const opt *o, const char *v)
{
    if (!hp_glob_valid(v))
        return opt_usage(s, "%s '%s': a '[' without its ']' (write [[] for a '[' itself)",
                         s->name, v);
    return opt_add(s, o->dest, NULL, v, strlen(v));
}

int cli_isatty(FILE *f)
{
    return isatty(fileno(f));
}

int cli_use_color(FILE *f, int mode)
{
    if (mode == 1)
        return 1;
    if (mode == 2)
        return 0;
    const char *nc = getenv("NO_COLOR");
    if (nc && nc[0])
        return 0;
    const char *term = getenv("TERM");
    if (term && strcmp(term, "dumb") == 0)
        return 0;
    return cli_isatty(f);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cli_progress_init(cli_progress *p)
{
    memset(p, 0, sizeof *p);
    p->enabled = cli_isatty(stderr) && !getenv("HIPPORT_NO_PROGRESS");
    p->start = p->last = now();
    p->after = 0.5;
    const char *e = getenv("HIPPORT_PROGRESS_AFTER");
    if (e && *e) {
        char *end;
        double v = strtod(e, &end);
        if (*end == 0 && v >= 0 && v < 1e6)
            p->after = v;
    }
}

void cli_progress_update(cli_progress *p, long long files, long long bytes)
{
    if (!p->enabled)
        return;
    double t = now();
    /* only for runs that last, and at most ten times a second */
    if (t - p->start < p->after || (p->shown && t - p->last < 0.1))
        return;
    p->last = t;
    double mb = (double)bytes / 1e6;
    /* \033[K clears what a longer previous line left */
    fprintf(stderr, "\r%lld files, %.1f MB, %.1f MB/s\033[K", files, mb, mb / (t - p->start));
    p->shown = 1;
}

void cli_progress_done(cli_progress *p)
{
    if (p->shown)
        fprintf(stderr, "\r\033[K");
    p->shown = 0;
}

void cli_help(FILE *f, const char *cmd, const opt *table)
{
    const char *t = hp_help_text(cmd);
    if (!t) {
        fprintf(f, "usage: hipport %s [options]\n", cmd);
    } else {
        /* @HIP_NEWEST@ stands for the newest HIP the tables know */
        static const char key[] = "@HIP_NEWEST@";
        for (const char *p = t;;) {
            const char *k = strstr(p, key);
            if (!k) {
                fputs(p, f);
                break;
            }
            fwrite(p, 1, (size_t)(k - p), f);
            fprintf(f, "%d.%d", hp_hip_version_newest() / 100, hp_hip_version_newest() % 100);
            p = k + sizeof key - 1;
        }
    }
    if (table) {
        fprintf(f, "\noptions:\n");
        opt_help(f, table);
    }
}

char *cli_read_all(FILE *f, ptrdiff_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    while (b) {
        if (n + 1 >= cap) {
            char *nb = cap < ((size_t)1 << 30) ? realloc(b, cap * 2) : NULL;
            if (!nb) {
                free(b);
                return NULL;
            }
            b = nb;
            cap *= 2;
        }
        size_t got = fread(b + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) {
                free(b);
                return NULL;
            }
            break;
        }
    }
    if (!b)
        return NULL;
    b[n] = 0;
    *len = (ptrdiff_t)n;
    return b;
}
