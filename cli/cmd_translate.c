/* cmd_translate.c: hipport translate: CUDA to HIP for files and trees. */
#define _XOPEN_SOURCE 700
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "hipify_cli.h"
#include "opt.h"

enum {
    O_HELP = 1,
    O_OUTPUT,
    O_OUTDIR,
    O_INPLACE,
    O_BACKUP,
    O_EXCLUDE,
    O_EXT,
    O_JOBS,
    O_LAUNCH,
    O_ROC,
    O_HIPVER,
    O_PYTORCH,
    O_ANNOTATE,
    O_STATS,
    O_RENAME,
    O_FORCE,
    O_QUIET,
    O_COLOR,
    O_FAILON,
    O_NOFOLLOW,
    O_COMPAT,
    O_INCDIR,
    O_SKIP_EXCLUDED,
    O_STDIN_NAME,
    O_DEFINE,
    O_UNDEF,
    O_NO_OUTPUT,
    O_EXAMINE,
    O_GGL,
    O_CHEVRON,
    O_IGNORED,
    O_IGNORED_VALUE
};

static const opt options[] = {
    {'o', "output", "FILE", "write the translation of one file to FILE", O_OUTPUT},
    {'O', "output-dir", "DIR", "mirror the input trees under DIR", O_OUTDIR},
    {0, "in-place", NULL, "replace each input (temporary file, rename; no link followed)",
     O_INPLACE},
    {0, "backup", "SUFFIX", "with --in-place, keep each original as FILE+SUFFIX", O_BACKUP},
    {0, "exclude", "GLOB", "skip tree paths matching GLOB (repeatable)", O_EXCLUDE},
    {0, "ext", "EXT", "also take files with this extension from trees (repeatable)", O_EXT},
    {'j', "jobs", "N", "worker threads (default: the online CPUs)", O_JOBS},
    {0, "launch", "chevron|ggl", "kernel launches as <<<...>>> (default) or hipLaunchKernelGGL",
     O_LAUNCH},
    {0, "roc", NULL, "use rocBLAS, rocRAND, rocSPARSE, rocSOLVER, MIOpen directly", O_ROC},
    {0, "hip-version", "X.Y", "the HIP that will compile the output (default: newest known)",
     O_HIPVER},
    {0, "pytorch", "[auto|masquerade|v2]",
     "PyTorch extension mappings (auto: for the installed PyTorch)", O_PYTORCH},
    {0, "annotate", NULL, "insert a comment above each line that needs a human", O_ANNOTATE},
    {0, "stats", "[text|json]", "print statistics of the run", O_STATS},
    {0, "rename", "none|hip|pytorch", "output file names (with -O): keep, .cu to .hip, PyTorch's",
     O_RENAME},
    {'I', "include-dir", "DIR", "with --rename=pytorch: where the project's headers are found",
     O_INCDIR},
    {0, "skip-excluded-preprocessor-conditional-blocks", NULL,
     "leave #if branches that -D/-U exclude untranslated", O_SKIP_EXCLUDED},
    {'D', "define", "NAME[=VALUE]", "a macro for --skip-excluded-...", O_DEFINE},
    {'U', "undefine", "NAME", "a macro known to be undefined, likewise", O_UNDEF},
    {'f', "force", NULL, "replace outputs (and backups) that exist and differ", O_FORCE},
    {'q', "quiet", NULL, "do not print warnings and notes", O_QUIET},
    {0, "color", "auto|always|never", "colour diagnostics (default: auto)", O_COLOR},
    {0, "fail-on", "error|warning|note|never", "exit 1 on diagnostics this severe (default never)",
     O_FAILON},
    {0, "no-follow", NULL, "do not follow links to directories in trees (never in place)",
     O_NOFOLLOW},
    {0, "compat-header", NULL, "print hipport_compat.h (for output sent to stdout) and exit",
     O_COMPAT},
    {0, "stdin-name", "FILE", "the file that '-' (standard input) stands for (default stdin.cu)",
     O_STDIN_NAME},
    {'h', "help", NULL, "show this help", O_HELP},
    /* hipify-clang's spellings */
    {0, "inplace", NULL, NULL, O_INPLACE},
    {0, "o-dir", "DIR", NULL, O_OUTDIR},
    {0, "print-stats", NULL, NULL, O_STATS},
    {0, "no-output", NULL, NULL, O_NO_OUTPUT},
    {0, "examine", NULL, NULL, O_EXAMINE},
    {0, "hip-kernel-execution-syntax", NULL, NULL, O_GGL},
    {0, "cuda-kernel-execution-syntax", NULL, NULL, O_CHEVRON},
    {0, "default-preprocessor", NULL, NULL, O_SKIP_EXCLUDED},
    {0, "experimental", NULL, NULL, O_IGNORED},
    {0, "no-backup", NULL, NULL, O_IGNORED},
    {0, "save-temps", NULL, NULL, O_IGNORED},
    {0, "cuda-path", "DIR", NULL, O_IGNORED_VALUE},
    {0, "cuda-gpu-arch", "ARCH", NULL, O_IGNORED_VALUE},
    {0, "temp-dir", "DIR", NULL, O_IGNORED_VALUE},
    {0, NULL, NULL, NULL, 0},
};

typedef struct state {
    hp_run_opts *r;
    FILE *out;       /* translated bytes (stdout mode) */
    int quiet;
    hp_report_opts ro;
    hp_stats *stats;
    int io_errors;
    int fail_on;     /* hp_severity, HP_SEV_NONE: never */
    int failed;      /* a diagnostic at or above fail_on */
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
    const char **paths = calloc((size_t)argc + 1, sizeof *paths);
    const char **excl = calloc((size_t)argc + 1, sizeof *excl);
    const char **exts = calloc((size_t)argc + 1, sizeof *exts);
    const char **incdirs = calloc((size_t)argc + 1, sizeof *incdirs);
    char **macros = calloc((size_t)argc + 1, sizeof *macros);
    int npaths = 0, rc = EXIT_OK, color = 0, stats = 0, nincdirs = 0, nmacros = 0;
    int no_output = 0;
    const char *pytorch = NULL, *stdin_name = "stdin.cu";
    const char *output = NULL, *outdir = NULL;
    if (!paths || !excl || !exts || !incdirs || !macros) {
        cli_error(cmd, "out of memory");
        return EXIT_INTERNAL;
    }
    opt_state os;
    opt_init(&os, argc, argv, cmd);
    const char *v;
    int id;
    while ((id = opt_next(&os, options, &v)) != OPT_END) {
        switch (id) {
        case OPT_ERROR: rc = EXIT_USAGE; goto done;
        case OPT_OPERAND: paths[npaths++] = v; break;
        case O_HELP: cli_help(stdout, cmd, options); goto done;
        case O_OUTPUT: output = v; break;
        case O_OUTDIR: outdir = v; break;
        case O_INPLACE: r.mode = HP_OUT_INPLACE; break;
        case O_BACKUP: r.backup = v; break;
        case O_EXCLUDE:
            if (!hp_glob_valid(v)) {
                rc = cli_usage(cmd, "--exclude '%s': a '[' without its ']' (write [[] for a "
                                    "'[' itself)", v);
                goto done;
            }
            excl[r.nexcludes++] = v;
            break;
        case O_EXT: exts[r.nexts++] = v; break;
        case O_JOBS:
            if ((r.jobs = cli_jobs(cmd, v)) == 0) {
                rc = EXIT_USAGE;
                goto done;
            }
            break;
        case O_LAUNCH: {
            static const char *const launches[] = {"chevron", "ggl", NULL};
            int k = cli_word(cmd, "launch", v, launches);
            if (k < 0) {
                rc = EXIT_USAGE;
                goto done;
            }
            t.launch = k ? HP_LAUNCH_GGL : HP_LAUNCH_CHEVRON;
            break;
        }
        case O_ROC: t.roc = 1; break;
        case O_HIPVER:
            if ((t.hip_version = cli_hip_version(cmd, "--hip-version", v)) < 0) {
                rc = EXIT_USAGE;
                goto done;
            }
            break;
        case O_PYTORCH: {
            static const char *const generations[] = {"auto", "masquerade", "v2", NULL};
            pytorch = v ? v : "auto";
            if (cli_word(cmd, "pytorch", pytorch, generations) < 0) {
                rc = EXIT_USAGE;
                goto done;
            }
            break;
        }
        case O_INCDIR: incdirs[nincdirs++] = v; break;
        case O_SKIP_EXCLUDED: t.skip_excluded = 1; break;
        case O_DEFINE:
        case O_UNDEF: {
            size_t n = strlen(v);
            char *m = malloc(n + 3);
            if (!m) {
                rc = EXIT_INTERNAL;
                goto done;
            }
            m[0] = '-';
            m[1] = id == O_DEFINE ? 'D' : 'U';
            memcpy(m + 2, v, n + 1);
            macros[nmacros++] = m;
            break;
        }
        case O_NO_OUTPUT: no_output = 1; break;
        case O_EXAMINE:
            no_output = 1;
            stats = 1;
            break;
        case O_GGL: t.launch = HP_LAUNCH_GGL; break;
        case O_CHEVRON: break;
        case O_IGNORED:
        case O_IGNORED_VALUE: break;
        case O_ANNOTATE:
            t.annotate = 1;
            t.annotator = hp_check_annotations; /* the findings translation cannot fix */
            break;
        case O_STATS:
            if (!v || strcmp(v, "text") == 0)
                stats = 1;
            else if (strcmp(v, "json") == 0)
                stats = 2;
            else {
                rc = cli_usage(cmd, "bad value for --stats: '%s' (text or json)", v);
                goto done;
            }
            break;
        case O_RENAME:
            if (strcmp(v, "none") == 0)
                r.rename = HP_RENAME_NONE;
            else if (strcmp(v, "hip") == 0)
                r.rename = HP_RENAME_HIP;
            else if (strcmp(v, "pytorch") == 0)
                r.rename = HP_RENAME_PYTORCH;
            else {
                rc = cli_usage(cmd, "bad value for --rename: '%s'", v);
                goto done;
            }
            break;
        case O_FORCE: r.force = 1; break;
        case O_QUIET: s.quiet = 1; break;
        case O_COLOR:
            if ((color = cli_color(cmd, v)) < 0) {
                rc = EXIT_USAGE;
                goto done;
            }
            break;
        case O_FAILON:
            if ((s.fail_on = cli_fail_on(cmd, v)) < 0) {
                rc = EXIT_USAGE;
                goto done;
            }
            break;
        case O_NOFOLLOW: r.follow_symlinks = 0; break;
        case O_COMPAT: fputs(hp_compat_header(t.hip_version), stdout); goto done;
        case O_STDIN_NAME: stdin_name = v; break;
        default: break;
        }
    }
    if (npaths == 0) {
        rc = cli_usage(cmd, "no input files");
        goto done;
    }
    int from_stdin = 0;
    for (int i = 0; i < npaths; i++)
        if (strcmp(paths[i], "-") == 0)
            from_stdin = 1;
    if (from_stdin && (npaths > 1 || outdir || r.mode == HP_OUT_INPLACE ||
                       r.rename != HP_RENAME_NONE)) {
        rc = cli_usage(cmd, "'-' (standard input) is one file: alone, to standard output or -o");
        goto done;
    }
    t.macros = (const char *const *)macros;
    t.nmacros = nmacros;
    if (nincdirs && r.rename != HP_RENAME_PYTORCH) {
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
    if (output) {
        if (npaths != 1 || is_dir(paths[0])) {
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
            if (is_dir(paths[i]) && inside(outdir, paths[i])) {
                rc = cli_usage(cmd, "the output directory '%s' is inside the input tree '%s'",
                               outdir, paths[i]);
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
        if (npaths != 1 || is_dir(paths[0])) {
            rc = cli_usage(cmd, "a tree or several files need -O DIR or --in-place");
            goto done;
        }
        r.mode = HP_OUT_STDOUT;
        s.out = stdout;
    }
    if (pytorch)
        hipify_pytorch_mode(cmd, pytorch, &t.pytorch, s.quiet);
    else if (r.rename == HP_RENAME_PYTORCH) /* PyTorch's names: its mappings */
        hipify_pytorch_mode(cmd, "auto", &t.pytorch, s.quiet);
    /* quiet: the findings are only counted against --fail-on, so they need no messages */
    t.count_only = s.quiet;
    r.excludes = excl;
    r.exts = exts;
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
        p.include_dirs = incdirs;
        p.ninclude_dirs = nincdirs;
        st = hp_project_run(&t, &r, &p, paths, npaths);
    } else {
        st = hp_translate_run(&t, &r, paths, npaths);
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
    free(paths);
    free(excl);
    free(exts);
    free(incdirs);
    for (int i = 0; macros && i < nmacros; i++)
        free(macros[i]);
    free(macros);
    return rc;
}
