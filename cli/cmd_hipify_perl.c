/* cmd_hipify_perl.c: hipport hipify-perl: hipify-perl's command line, outputs and statistics,
 * over hipport's translator. */
#define _XOPEN_SOURCE 700
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "hipify_cli.h"
#include "hipify_opt.h"

/* What a file's statistics count, hipify-perl's way: converted references by CUDA name, with
 * the count of the HIP name they became. */
typedef struct pstats {
    long long converted;
    long long warnings;
    long long lines;
    hnames *to;     /* CUDA name -> HIP name */
    hnames *count;  /* HIP name -> references */
} pstats;

typedef struct state {
    const char *cmd;
    const char *name;  /* the file as named on the command line */
    int quiet;         /* -quiet-warnings */
    int print_stats;
    int io_errors;
    FILE *out;         /* translated bytes, or NULL */
    pstats file, total;
} state;

static void pstats_init(pstats *p)
{
    memset(p, 0, sizeof *p);
    p->to = hnames_new();
    p->count = hnames_new();
}

static void pstats_free(pstats *p)
{
    hnames_free(p->to);
    hnames_free(p->count);
}

static void count_conv(pstats *p, const hp_conv *c)
{
    if (!c->hip.len)
        return; /* a removed header: counted, not named */
    hnames_add2(p->to, c->cuda, c->hip, 1);
    hnames_add(p->count, c->hip, 1);
}

static void print_stats(const pstats *p, const char *name)
{
    /* hipify-perl's own spelling of "statistics" is kept: scripts match these lines */
    fprintf(stderr, "\n[HIPIFY] info: file '%s' statisitics:\n", name);
    fprintf(stderr, "  CONVERTED refs count: %lld\n", p->converted);
    fprintf(stderr, "  TOTAL lines of code: %lld\n", p->lines);
    fprintf(stderr, "  WARNINGS: %lld\n", p->warnings);
    fprintf(stderr, "[HIPIFY] info: CONVERTED refs by names:\n");
    hnames_sort(p->to);
    for (int i = 0; i < hnames_count(p->to); i++)
        fprintf(stderr, "  %s => %s: %lld\n", hnames_key(p->to, i), hnames_value(p->to, i),
                hnames_lookup(p->count, hnames_value(p->to, i)));
}

/* A finding as hipify-perl prints its warnings. */
static void print_finding(const state *s, const hp_finding *f)
{
    const char *what = f->severity >= HP_SEV_WARNING ? "warning" : "note";
    if (strcmp(f->rule, "HP-UNSUPPORTED") == 0 && f->len > 0 && f->col >= 1 &&
        f->col - 1 + f->len <= f->source.len) {
        fprintf(stderr, "  %s: %s:%d: unsupported identifier \"%.*s\"\n", what, s->name,
                f->line, f->len, f->source.s + f->col - 1);
        return;
    }
    fprintf(stderr, "  %s: %s:%d: %s [%s]\n", what, s->name, f->line, f->message, f->rule);
}

static void on_file(void *ud, const hp_file_result *r)
{
    state *s = ud;
    if (r->status != HP_OK) {
        fprintf(stderr, "hipport %s: '%s': %s\n", s->cmd, s->name,
                r->error ? r->error : hp_status_name(r->status));
        s->io_errors++;
        return;
    }
    if (r->out && s->out)
        fwrite(r->out, 1, (size_t)r->out_len, s->out);
    for (int i = 0; i < r->nfindings && !s->quiet; i++) {
        print_finding(s, &r->findings[i]);
        if (r->findings[i].severity >= HP_SEV_WARNING)
            s->file.warnings++;
    }
    if (r->stats) {
        s->file.converted += r->stats->converted + r->stats->launches;
        s->file.lines += r->stats->lines;
    }
    for (int i = 0; i < r->nconv; i++) {
        count_conv(&s->file, &r->conv[i]);
        count_conv(&s->total, &r->conv[i]);
    }
}

/* Is item in the comma-separated list (as paths resolved, when real)? The entry is copied to
 * match[0..PATH_MAX) when given. */
static int in_list(const char *list, const char *item, int real, char *match)
{
    char want[PATH_MAX];
    if (real && !realpath(item, want))
        return 0;
    for (const char *p = list; p && *p;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        char entry[PATH_MAX];
        if (n && n < sizeof entry) {
            memcpy(entry, p, n);
            entry[n] = 0;
            char got[PATH_MAX];
            if ((!real && strcmp(entry, item) == 0) ||
                (real && realpath(entry, got) && strcmp(got, want) == 0)) {
                if (match)
                    memcpy(match, entry, n + 1);
                return 1;
            }
        }
        p = comma ? comma + 1 : NULL;
    }
    return 0;
}

int cmd_hipify_perl(int argc, char **argv)
{
    const char *cmd = "hipify-perl";
    hp_translate_opts t;
    hp_translate_opts_init(&t);
    t.record_names = 1;
    state s;
    memset(&s, 0, sizeof s);
    s.cmd = cmd;
    pstats_init(&s.total);
    opt_list files = {NULL, 0, 0};
    int rc, inplace = 0, no_output = 0, version = 0, examine = 0, launch = t.launch;
    const char *output = NULL, *excl_dirs = NULL, *excl_files = NULL;
    const opt options[] = {
        /* the default; -hip-kernel-execution-syntax overrides it */
        OPT_IGNORE("cuda-kernel-execution-syntax", NULL,
                   "keep CUDA kernel launch syntax (default)"),
        OPT_FLAG(0, "examine", &examine, 1, "combines -no-output and -print-stats"),
        OPT_STRING(0, "exclude-dirs", "DIRS", &excl_dirs,
                   "skip files in these directories (comma-separated)"),
        OPT_STRING(0, "exclude-files", "FILES", &excl_files, "skip these files (comma-separated)"),
        OPT_IGNORE("experimental", NULL, "accepted; HIP's experimental APIs are translated"),
        OPT_CALL(0, "help", NULL, hopt_help_opt, NULL, "show this help"),
        OPT_FLAG(0, "hip-kernel-execution-syntax", &launch, HP_LAUNCH_GGL,
                 "kernel launches as hipLaunchKernelGGL calls"),
        OPT_FLAG(0, "inplace", &inplace, 1, "back the input up as FILE.prehip and replace it"),
        OPT_FLAG(0, "no-output", &no_output, 1, "write no translated output"),
        OPT_STRING(0, "o", "FILE", &output, "write the translation to FILE (one input)"),
        OPT_FLAG(0, "print-stats", &s.print_stats, 1,
                 "print translation statistics (standard error)"),
        OPT_FLAG(0, "quiet-warnings", &s.quiet, 1, "print no warnings"),
        OPT_FLAG(0, "roc", &t.roc, 1, "translate to roc* libraries instead of hip* where possible"),
        OPT_FLAG(0, "version", &version, 1, "print the HIP version of the tables"),
        OPT_IGNORE("whitelist", "NAMES", "accepted (hipport reports no unknown cuda* names)"),
        OPT_CALL(0, "hip-version", "X.Y", cli_opt_hip_version, &t.hip_version,
                 "the HIP that will compile the output (hipport)"),
        OPT_END(),
    };
    const opt operand = OPT_ARGS(&files);
    if (!s.total.to || !s.total.count) {
        cli_error(cmd, "out of memory");
        rc = EXIT_INTERNAL;
        goto done;
    }
    opt_state os;
    opt_init(&os, argc, argv, cmd);
    if ((rc = hopt_parse(&os, options, &operand, HS_PERL)) != OPT_CONTINUE)
        goto done;
    rc = EXIT_OK;
    t.launch = (hp_launch)launch;
    if (examine)
        no_output = s.print_stats = 1;
    int nfiles = files.n;
    if (version) {
        int hv = t.hip_version > 0 ? t.hip_version : hp_hip_version_newest();
        fprintf(stderr, "HIP version %d.%d.0\n", hv / 100, hv % 100);
    }
    if (output && (nfiles > 1 || inplace)) {
        rc = cli_usage(cmd, nfiles > 1 ? "-o takes one input file" : "-o and -inplace exclude "
                                                                       "each other");
        goto done;
    }
    for (int i = 0; i < nfiles; i++) {
        const char *f = files.v[i];
        char dir[PATH_MAX];
        if (excl_dirs && realpath(f, dir)) {
            char *slash = strrchr(dir, '/');
            if (slash == dir)
                dir[1] = 0;
            else if (slash)
                *slash = 0;
            char entry[PATH_MAX];
            if (in_list(excl_dirs, dir, 1, entry)) {
                fprintf(stderr, "Skipping the file: %s in the excluded directory: %s \n", f,
                        entry);
                continue;
            }
        }
        if (excl_files && in_list(excl_files, f, 0, NULL)) {
            fprintf(stderr, "Skipping the excluded file: %s \n", f);
            continue;
        }
        struct stat sb;
        if (stat(f, &sb) == 0 && S_ISDIR(sb.st_mode)) {
            cli_error(cmd, "'%s' is a directory (hipify-perl takes files)", f);
            s.io_errors++;
            continue;
        }
        hp_run_opts r;
        hp_run_opts_init(&r);
        r.jobs = 1;
        r.on_file = on_file;
        r.ud = &s;
        r.force = 1;
        s.out = NULL;
        if (inplace && !no_output) {
            /* hipify-perl keeps the original in FILE.prehip and always translates from it:
             * the original is backed up there (the first time), then FILE replaced by the
             * translation of FILE.prehip, keeping FILE's owner, group and mode */
            r.mode = HP_OUT_INPLACE;
            r.backup = ".prehip";
            r.backup_source = 1;
        } else if (output && !no_output) {
            r.mode = HP_OUT_FILE;
            r.output = output;
        } else if (!no_output) {
            r.mode = HP_OUT_STDOUT;
            s.out = stdout;
        }
        s.name = f;
        pstats_free(&s.file);
        pstats_init(&s.file);
        hp_status st = hp_translate_run(&t, &r, &f, 1);
        if (st != HP_OK) {
            cli_error(cmd, "%s", hp_status_name(st));
            rc = EXIT_INTERNAL;
            goto done;
        }
        if (s.print_stats && s.file.converted + s.file.warnings > 0)
            print_stats(&s.file, f);
        s.total.converted += s.file.converted;
        s.total.warnings += s.file.warnings;
        s.total.lines += s.file.lines;
    }
    if (s.print_stats && nfiles > 1) {
        print_stats(&s.total, "GLOBAL");
        fprintf(stderr, "\n");
    }
    fflush(stdout);
    if (ferror(stdout)) {
        cli_error(cmd, "error writing standard output");
        rc = EXIT_IO;
    } else if (s.io_errors) {
        rc = EXIT_IO;
    }
done:
    pstats_free(&s.file);
    pstats_free(&s.total);
    opt_list_free(&files);
    return rc;
}
