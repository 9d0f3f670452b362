/* cmd_translate.c: hipport translate: CUDA to HIP for files and trees. */
#define _XOPEN_SOURCE 700
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "hipify_cli.h"
#include "opt.h"

typedef struct state {
    hp_run_opts *r;
    FILE *out;       /* translated bytes (stdout mode) */
    int quiet;
    hp_report_opts ro;
    hp_stats *stats;
    int io_errors;
    int fail_on;     /* hp_severity, HP_SEV_NONE: never */
    int failed;      /* a diagnostic at or above fail_on */
    int stats_form;  /* --stats: 0 none, 1 text, 2 json */
    int no_output;   /* --no-output */
    cli_progress progress;
} state;

static void on_file(void *ud, const hp_file_result *r)
{
    state *s = ud;
    if (s->stats)
        hp_stats_add(s->stats, r);
    if (r->status != HP_OK) {
        cli_progress_done(&s->progress);
        fprintf(stderr, "hipport translate: '%s': %s\n", r->path, r->error ? r->error :
                hp_status_name(r->status));
        s->io_errors++;
        return;
    }
    if (r->skipped) {
        /* in place, a symbolic link: not followed, not replaced */
        if (!s->quiet && r->error) {
            cli_progress_done(&s->progress);
            fprintf(stderr, "hipport translate: note: '%s' skipped: %s\n", r->path, r->error);
        }
        return;
    }
    for (int i = 0; i < r->nfindings; i++)
        if (s->fail_on != HP_SEV_NONE && (int)r->findings[i].severity >= s->fail_on)
            s->failed = 1;
    if (!s->quiet && r->nfindings) {
        cli_progress_done(&s->progress);
        char *text = hp_report_text(r->findings, r->nfindings, &s->ro);
        if (text)
            fputs(text, stderr);
        free(text);
    }
    if (r->out && s->out) {
        fwrite(r->out, 1, (size_t)r->out_len, s->out);
        if (r->needs_compat && !s->quiet)
            fprintf(stderr, "%s: note: the translation includes \"hipport_compat.h\": write it "
                            "with 'hipport translate --compat-header > hipport_compat.h'\n",
                    r->path);
    }
}

/* '-': standard input, translated as the file name (to standard output or r->output), and
 * reported through on_file as a file of a run is. */
static hp_status translate_stdin(const hp_translate_opts *t, const hp_run_opts *r, state *s,
                                 const char *name)
{
    ptrdiff_t len;
    char *src = cli_read_all(stdin, &len);
    hp_file_result res;
    memset(&res, 0, sizeof res);
    res.path = name;
    if (!src) {
        res.status = HP_EIO;
        res.error = "cannot read standard input";
        on_file(s, &res);
        return HP_OK;
    }
    hp_ctx *ctx = hp_ctx_new();
    if (!ctx) {
        free(src);
        return HP_ENOMEM;
    }
    hp_translate_result tr;
    hp_status st = hp_translate_buffer(ctx, t, name, src, len, &tr);
    if (st == HP_OK) {
        res.changed = tr.changed;
        res.needs_compat = tr.needs_compat;
        res.findings = tr.findings;
        res.nfindings = tr.nfindings;
        res.unsupported = tr.unsupported;
        res.nunsupported = tr.nunsupported;
        res.stats = &tr.stats;
        if (r->mode == HP_OUT_FILE) {
            char why[256];
            res.status = hp_write_file(r->output, tr.out, tr.out_len, why, sizeof why);
            if (res.status != HP_OK)
                res.error = why;
            else
                res.out_path = r->output;
        } else if (r->mode == HP_OUT_STDOUT) {
            res.out = tr.out;
            res.out_len = tr.out_len;
        }
        on_file(s, &res);
    }
    hp_ctx_free(ctx);
    free(src);
    return st;
}

static void on_progress(void *ud, long long files, long long bytes)
{
    state *s = ud;
    cli_progress_update(&s->progress, files, bytes);
}

static int is_dir(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* Is dir (which may not exist yet) inside the tree at root (or root itself)? The deepest
 * existing ancestor of dir decides. */
static int inside(const char *dir, const char *root)
{
    char *r = realpath(root, NULL);
    if (!r)
        return 0;
    size_t n = strlen(dir);
    char *probe = malloc(n + 2);
    if (!probe) {
        free(r);
        return 0;
    }
    memcpy(probe, dir, n + 1);
    char *d = NULL;
    for (;;) {
        d = realpath(probe, NULL);
        if (d)
            break;
        char *slash = strrchr(probe, '/');
        while (slash && slash > probe && slash[1] == 0) { /* trailing slashes */
            *slash = 0;
            slash = strrchr(probe, '/');
        }
        if (!slash) {
            memcpy(probe, ".", 2);
            d = realpath(probe, NULL);
            break;
        }
        if (slash == probe) {
            probe[1] = 0;
        } else {
            *slash = 0;
        }
    }
    int res = 0;
    if (d) {
        size_t rl = strlen(r);
        res = strncmp(d, r, rl) == 0 && (d[rl] == '/' || d[rl] == 0 || (rl == 1 && r[0] == '/'));
    }
    free(probe);
    free(r);
    free(d);
    return res;
}

/* --examine: --no-output and --stats (a later --stats=json still picks the form) */
static int examine(opt_state *os, const opt *o, const char *v)
{
    state *s = o->dest;
    (void)os;
    (void)v;
    s->no_output = 1;
    s->stats_form = 1;
    return OPT_CONTINUE;
}

static int rename_mode(opt_state *s, const opt *o, const char *v)
{
    /* in the order of hp_rename */
    static const char *const names[] = {"none", "hip", "pytorch", NULL};
    for (int k = 0; names[k]; k++)
        if (strcmp(v, names[k]) == 0) {
            *(int *)o->dest = k;
            return OPT_CONTINUE;
        }
    return opt_usage(s, "bad value for %s: '%s'", s->name, v);
}

/* --compat-header: the header for the HIP named so far, and the end of the command */
static int compat_header(opt_state *s, const opt *o, const char *v)
{
    (void)s;
    (void)v;
    fputs(hp_compat_header(*(int *)o->dest), stdout);
    return EXIT_OK;
}

int cmd_translate(int argc, char **argv)
{
    const char *cmd = "translate";
    hp_translate_opts t;
    hp_translate_opts_init(&t);
    hp_run_opts r;
    hp_run_opts_init(&r);
    state s;
    memset(&s, 0, sizeof s);
    s.r = &r;
    s.fail_on = HP_SEV_NONE;
    opt_list paths = {NULL, 0, 0}, excl = {NULL, 0, 0}, exts = {NULL, 0, 0};
    opt_list incdirs = {NULL, 0, 0}, macros = {NULL, 0, 0};
    int rc, color = 0, inplace = 0, launch = t.launch, annotate = 0, pytorch = -1;
    const char *stdin_name = "stdin.cu";
    const char *output = NULL, *outdir = NULL;
    static const char *const launches[] = {"chevron", "ggl", NULL};
    static const int launch_values[] = {HP_LAUNCH_CHEVRON, HP_LAUNCH_GGL};
    static const char *const generations[] = {"auto", "masquerade", "v2", NULL};
    static const char *const stats_forms[] = {"text", "json", NULL};
    static const int stats_values[] = {1, 2};
    const opt options[] = {
        OPT_STRING('o', "output", "FILE", &output, "write the translation of one file to FILE (-: standard output)"),
        OPT_STRING('O', "output-dir", "DIR", &outdir, "mirror the input trees under DIR"),
        OPT_FLAG(0, "in-place", &inplace, 1,
                 "replace each input (temporary file, rename; no link followed)"),
        OPT_STRING(0, "backup", "SUFFIX", &r.backup,
                   "with --in-place, keep each original as FILE+SUFFIX"),
        OPT_CALL(0, "exclude", "GLOB", cli_opt_exclude, &excl,
                 "skip tree paths matching GLOB (repeatable)"),
        OPT_LIST(0, "ext", "EXT", &exts, NULL,
                 "also take files with this extension from trees (repeatable)"),
        OPT_INT('j', "jobs", "N", &r.jobs, 1, CLI_JOBS_MAX,
                "worker threads (default: the CPUs this process may use)"),
        OPT_ENUM(0, "launch", "chevron|ggl", &launch, launches, launch_values,
                 "kernel launches as <<<...>>> (default) or hipLaunchKernelGGL"),
        OPT_FLAG(0, "roc", &t.roc, 1,
                 "use rocBLAS, rocRAND, rocSPARSE, rocSOLVER, MIOpen directly"),
        OPT_CALL(0, "hip-version", "X.Y", cli_opt_hip_version, &t.hip_version,
                 "the HIP that will compile the output (default: newest known)"),
        OPT_ENUM(0, "pytorch", "[auto|masquerade|v2]", &pytorch, generations, NULL,
                 "PyTorch extension mappings (auto: for the installed PyTorch)"),
        OPT_FLAG(0, "annotate", &annotate, 1,
                 "insert a comment above each line that needs a human"),
        OPT_ENUM(0, "stats", "[text|json]", &s.stats_form, stats_forms, stats_values,
                 "print statistics of the run"),
        OPT_CALL(0, "rename", "none|hip|pytorch", rename_mode, &r.rename,
                 "output file names (with -O): keep, .cu to .hip, PyTorch's"),
        OPT_LIST('I', "include-dir", "DIR", &incdirs, NULL,
                 "with --rename=pytorch: where the project's headers are found"),
        OPT_FLAG(0, "skip-excluded-preprocessor-conditional-blocks", &t.skip_excluded, 1,
                 "leave #if branches that -D/-U exclude untranslated"),
        OPT_LIST('D', "define", "NAME[=VALUE]", &macros, "-D", "a macro for --skip-excluded-..."),
        OPT_LIST('U', "undefine", "NAME", &macros, "-U", "a macro known to be undefined, likewise"),
        OPT_FLAG('f', "force", &r.force, 1, "replace outputs (and backups) that exist and differ"),
        OPT_FLAG('q', "quiet", &s.quiet, 1, "do not print warnings and notes"),
        OPT_ENUM(0, "color", "auto|always|never", &color, cli_color_words, NULL,
                 "colour diagnostics (default: auto)"),
        OPT_CALL(0, "fail-on", "error|warning|note|never", cli_opt_fail_on, &s.fail_on,
                 "exit 1 on diagnostics this severe (default never)"),
        OPT_FLAG(0, "no-follow", &r.follow_symlinks, 0,
                 "do not follow links to directories in trees (never in place)"),
        OPT_CALL(0, "compat-header", NULL, compat_header, &t.hip_version,
                 "print hipport_compat.h (for output sent to stdout) and exit"),
        OPT_STRING(0, "stdin-name", "FILE", &stdin_name,
                   "the file that '-' (standard input) stands for (default stdin.cu)"),
        OPT_CALL('h', "help", NULL, cli_opt_help, NULL, "show this help"),
        /* hipify-clang's spellings */
        OPT_FLAG(0, "inplace", &inplace, 1, NULL),
        OPT_STRING(0, "o-dir", "DIR", &outdir, NULL),
        OPT_FLAG(0, "print-stats", &s.stats_form, 1, NULL),
        OPT_FLAG(0, "no-output", &s.no_output, 1, NULL),
        OPT_CALL(0, "examine", NULL, examine, &s, NULL),
        OPT_FLAG(0, "hip-kernel-execution-syntax", &launch, HP_LAUNCH_GGL, NULL),
        OPT_IGNORE("cuda-kernel-execution-syntax", NULL, NULL),
        OPT_FLAG(0, "default-preprocessor", &t.skip_excluded, 1, NULL),
        OPT_IGNORE("experimental", NULL, NULL),
        OPT_IGNORE("no-backup", NULL, NULL),
        OPT_IGNORE("save-temps", NULL, NULL),
        OPT_IGNORE("cuda-path", "DIR", NULL),
        OPT_IGNORE("cuda-gpu-arch", "ARCH", NULL),
        OPT_IGNORE("temp-dir", "DIR", NULL),
        OPT_END(),
    };
    const opt operand = OPT_ARGS(&paths);
    opt_state os;
    opt_init(&os, argc, argv, cmd);
    if ((rc = opt_parse(&os, options, &operand)) != OPT_CONTINUE)
        goto done;
    rc = EXIT_OK;
    t.launch = (hp_launch)launch;
    if (annotate) {
        t.annotate = 1;
        t.annotator = hp_check_annotations; /* the findings translation cannot fix */
    }
    if (inplace)
        r.mode = HP_OUT_INPLACE;
    int npaths = paths.n, no_output = s.no_output, stats = s.stats_form;
    if (npaths == 0) {
        rc = cli_usage(cmd, "no input files");
        goto done;
    }
    int from_stdin = 0;
    for (int i = 0; i < npaths; i++)
        if (strcmp(paths.v[i], "-") == 0)
            from_stdin = 1;
    if (from_stdin && (npaths > 1 || outdir || r.mode == HP_OUT_INPLACE ||
                       r.rename != HP_RENAME_NONE)) {
        rc = cli_usage(cmd, "'-' (standard input) is one file: alone, to standard output or -o");
        goto done;
    }
    t.macros = opt_list_items(&macros);
    t.nmacros = macros.n;
    if (incdirs.n && r.rename != HP_RENAME_PYTORCH) {
        rc = cli_usage(cmd, "--include-dir needs --rename=pytorch");
        goto done;
    }
    if (no_output) {
        if (output || outdir || r.mode == HP_OUT_INPLACE) {
            rc = cli_usage(cmd, "--no-output excludes -o, -O and --in-place");
            goto done;
        }
        r.mode = HP_OUT_NONE;
    }
    if ((output != NULL) + (outdir != NULL) + (r.mode == HP_OUT_INPLACE) > 1) {
        rc = cli_usage(cmd, "-o, -O and --in-place exclude each other");
        goto done;
    }
    if (r.backup && r.mode != HP_OUT_INPLACE) {
        rc = cli_usage(cmd, "--backup needs --in-place");
        goto done;
    }
    if (r.rename != HP_RENAME_NONE && !outdir) {
        rc = cli_usage(cmd, "--rename needs -O DIR");
        goto done;
    }
    if (output && strcmp(output, "-") == 0)
        output = NULL; /* -o -: standard output, as without -o (a file named '-' is ./-) */
    if (output) {
        if (npaths != 1 || is_dir(paths.v[0])) {
            rc = cli_usage(cmd, "-o takes one input file; use -O DIR for trees");
            goto done;
        }
        if (is_dir(output)) {
            rc = cli_usage(cmd, "'%s' is a directory; use -O DIR to write into it", output);
            goto done;
        }
        r.mode = HP_OUT_FILE;
        r.output = output;
    } else if (outdir) {
        for (int i = 0; i < npaths; i++)
            if (is_dir(paths.v[i]) && inside(outdir, paths.v[i])) {
                rc = cli_usage(cmd, "the output directory '%s' is inside the input tree '%s'",
                               outdir, paths.v[i]);
                goto done;
            }
        if (!is_dir(outdir)) {
            struct stat sb;
            if (stat(outdir, &sb) == 0) {
                rc = cli_usage(cmd, "'%s' exists and is not a directory", outdir);
                goto done;
            }
        }
        r.mode = HP_OUT_DIR;
        r.output = outdir;
    } else if (r.mode != HP_OUT_INPLACE && !no_output) {
        if (npaths != 1 || is_dir(paths.v[0])) {
            rc = cli_usage(cmd, "a tree or several files need -O DIR or --in-place");
            goto done;
        }
        r.mode = HP_OUT_STDOUT;
        s.out = stdout;
    }
    if (pytorch >= 0)
        hipify_pytorch_mode(cmd, generations[pytorch], &t.pytorch, s.quiet);
    else if (r.rename == HP_RENAME_PYTORCH) /* PyTorch's names: its mappings */
        hipify_pytorch_mode(cmd, "auto", &t.pytorch, s.quiet);
    /* quiet: the findings are only counted against --fail-on, so they need no messages */
    t.count_only = s.quiet;
    r.excludes = opt_list_items(&excl);
    r.nexcludes = excl.n;
    r.exts = opt_list_items(&exts);
    r.nexts = exts.n;
    r.on_file = on_file;
    r.on_progress = on_progress;
    r.ud = &s;
    s.ro.color = cli_use_color(stderr, color);
    if (stats)
        s.stats = hp_stats_new();
    cli_progress_init(&s.progress);
    if (r.mode == HP_OUT_STDOUT)
        s.progress.enabled = 0;
    struct timespec ts0, ts1;
    clock_gettime(CLOCK_MONOTONIC, &ts0);
    hp_status st;
    if (from_stdin) {
        st = translate_stdin(&t, &r, &s, stdin_name);
    } else if (r.rename == HP_RENAME_PYTORCH) {
        hp_project_opts p;
        hp_project_opts_init(&p);
        p.include_dirs = opt_list_items(&incdirs);
        p.ninclude_dirs = incdirs.n;
        st = hp_project_run(&t, &r, &p, opt_list_items(&paths), npaths);
    } else {
        st = hp_translate_run(&t, &r, opt_list_items(&paths), npaths);
    }
    clock_gettime(CLOCK_MONOTONIC, &ts1);
    cli_progress_done(&s.progress);
    if (st != HP_OK) {
        cli_error(cmd, "%s", hp_status_name(st));
        rc = st == HP_EUSAGE ? EXIT_USAGE : EXIT_INTERNAL;
        goto done;
    }
    if (s.stats) {
        double secs = (double)(ts1.tv_sec - ts0.tv_sec) + (double)(ts1.tv_nsec - ts0.tv_nsec) * 1e-9;
        char *text = hp_stats_format(s.stats, stats == 2, secs);
        if (text)
            fputs(text, r.mode == HP_OUT_STDOUT ? stderr : stdout);
        free(text);
    }
    fflush(stdout);
    if (ferror(stdout)) {
        cli_error(cmd, "error writing standard output");
        rc = EXIT_IO;
    } else if (s.io_errors) {
        rc = EXIT_IO;
    } else if (s.failed) {
        rc = EXIT_FINDINGS;
    }
done:
    hp_stats_free(s.stats);
    opt_list_free(&paths);
    opt_list_free(&excl);
    opt_list_free(&exts);
    opt_list_free(&incdirs);
    opt_list_free(&macros);
    return rc;
}
