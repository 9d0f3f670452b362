/* cmd_hipify_python.c: hipport hipify-python: PyTorch's hipify for extension projects
 * (torch.utils.hipify.hipify(project_directory, output_directory, ...)) on the command line. */
#define _XOPEN_SOURCE 700
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "hipify_cli.h"
#include "hipify_opt.h"

enum {
    P_PROJECT = 1,
    P_OUTPUT,
    P_INCDIRS,
    P_INCLUDES,
    P_IGNORES,
    P_EXTRA,
    P_EXTRA_ONLY,
    P_DETAILED,
    P_PYTORCH,
    P_HIPVER,
    P_LAUNCH,
    P_CLANG_LAUNCH,
    P_QUIET,
    P_COLOR,
    P_FORCE,
    P_HELP
};

static const hopt options[] = {
    {"project-directory", HO_VALUE, P_PROJECT, "the project (default: .)", "DIR"},
    {"p", HO_VALUE, P_PROJECT, NULL, "DIR"},
    {"output-directory", HO_VALUE, P_OUTPUT, "the hipified copy (default: PROJECT_amd)", "DIR"},
    {"header-include-dirs", HO_LIST, P_INCDIRS, "the include directories (also \"[a;b]\")",
     "DIR"},
    {"includes", HO_LIST, P_INCLUDES, "take only files matching these globs (default: *)",
     "GLOB"},
    {"ignores", HO_LIST, P_IGNORES, "leave files matching these globs alone", "GLOB"},
    {"extra-files", HO_LIST, P_EXTRA, "also take these files, whatever their extension",
     "FILE"},
    {"hipify-extra-files-only", HO_FLAG, P_EXTRA_ONLY,
     "only the extra files (and the headers they include)", NULL},
    {"show-detailed", HO_FLAG, P_DETAILED, "unsupported names and launches at the end", NULL},
    {"pytorch", HO_VALUE, P_PYTORCH, "auto (the installed one), masquerade (< 2.11) or v2",
     "WHICH"},
    {"hip-version", HO_VALUE, P_HIPVER, "the HIP that will compile the output", "X.Y"},
    {"launch", HO_VALUE, P_LAUNCH, "kernel launches as chevron (default) or ggl", "FORM"},
    {"hip-clang-launch", HO_FLAG, P_CLANG_LAUNCH, NULL, NULL},
    {"quiet", HO_FLAG, P_QUIET, "print no per-file lines, warnings or notes", NULL},
    {"color", HO_VALUE, P_COLOR, "colour diagnostics: auto, always or never", "WHEN"},
    {"force", HO_FLAG, P_FORCE,
     "replace files of the output directory that hipify-python did not write", NULL},
    {"help", HO_FLAG, P_HELP, "show this help", NULL},
    {"h", HO_FLAG, P_HELP, NULL, NULL},
    {NULL, 0, 0, NULL, NULL},
};

typedef struct state {
    const char *cmd;
    const char *project, *output;
    int quiet;
    int io_errors;
    int launches;
    hp_report_opts ro;
    hnames *unsupported;
} state;

static void on_file(void *ud, const hp_file_result *r)
{
    state *s = ud;
    if (r->status != HP_OK) {
        fprintf(stderr, "hipport %s: '%s': %s\n", s->cmd, r->path,
                r->error ? r->error : hp_status_name(r->status));
        s->io_errors++;
        return;
    }
    if (r->skipped) {
        if (!s->quiet)
            fprintf(stderr, "hipport %s: note: '%s' left as it is: %s\n", s->cmd, r->path,
                    r->error ? r->error : "skipped");
        return;
    }
    if (r->stats)
        s->launches += (int)r->stats->launches;
    for (int i = 0; i < r->nunsupported; i++)
        hnames_add(s->unsupported, r->unsupported[i], 1);
    if (s->quiet)
        return;
    if (r->nfindings) {
        char *text = hp_report_text(r->findings, r->nfindings, &s->ro);
        if (text)
            fputs(text, stderr);
        free(text);
    }
    /* PyTorch's progress line: SOURCE -> HIPIFIED [status] */
    const char *rel = hipify_below(r->path, s->project);
    const char *orel = r->out_path ? hipify_below(r->out_path, s->output) : rel;
    if (r->out_path && strcmp(r->out_path, r->path) == 0)
        orel = rel;
    const char *status = !r->changed && strcmp(rel, orel) == 0 ? "[skipped, no changes]"
                         : r->written                          ? "[ok]"
                                                               : "[skipped, already hipified]";
    printf("%s -> %s %s\n", r->path, r->out_path ? r->out_path : r->path, status);
}

/* argparse list values may come as one "[a;b]" string (hipify_torch's form). */
static void add_list(const char **list, int *n, const char *v, hkeep *keep)
{
    if (!strchr(v, ';') && v[0] != '[') {
        list[(*n)++] = v;
        return;
    }
    size_t len = strlen(v);
    char *copy = hkeep_str(keep, v, len);
    if (!copy)
        return;
    char *p = copy;
    if (*p == '[')
        p++;
    if (len && copy[len - 1] == ']')
        copy[len - 1] = 0;
    while (p) {
        char *semi = strchr(p, ';');
        if (semi)
            *semi = 0;
        if (*p)
            list[(*n)++] = p;
        p = semi ? semi + 1 : NULL;
    }
}

int cmd_hipify_python(int argc, char **argv)
{
    const char *cmd = "hipify-python";
    hp_translate_opts t;
    hp_translate_opts_init(&t);
    t.record_names = 0;
    hp_run_opts r;
    hp_run_opts_init(&r);
    hp_project_opts p;
    hp_project_opts_init(&p);
    p.pytorch_exts = 1;
    p.skip_top_dirs = 1;
    p.copy_others = 1;
    state s;
    memset(&s, 0, sizeof s);
    s.cmd = cmd;
    size_t cap = (size_t)argc * 4 + 4;
    const char **incdirs = calloc(cap, sizeof *incdirs);
    const char **includes = calloc(cap, sizeof *includes);
    const char **ignores = calloc(cap, sizeof *ignores);
    const char **extra = calloc(cap, sizeof *extra);
    s.unsupported = hnames_new();
    hkeep keep = {NULL, 0, 0};
    const char *project = NULL, *output = NULL, *which = "auto";
    int rc = EXIT_OK, color = 0, detailed = 0;
    char *outbuf = NULL;
    if (!incdirs || !includes || !ignores || !extra || !s.unsupported) {
        cli_error(cmd, "out of memory");
        rc = EXIT_INTERNAL;
        goto done;
    }
    hparse ps;
    hopt_init(&ps, argc, argv, HS_PYTHON, cmd);
    const char *v;
    int id;
    while ((id = hopt_next(&ps, options, &v)) != HO_END) {
        switch (id) {
        case HO_ERROR: rc = EXIT_USAGE; goto done;
        case HO_OPERAND:
            rc = cli_usage(cmd, "unexpected argument '%s' (the project is -p DIR)", v);
            goto done;
        case P_HELP:
            cli_help(stdout, cmd, NULL);
            printf("\noptions:\n");
            hopt_help(stdout, options, HS_PYTHON);
            goto done;
        case P_PROJECT: project = v; break;
        case P_OUTPUT: output = v; break;
        case P_INCDIRS: add_list(incdirs, &p.ninclude_dirs, v, &keep); break;
        case P_INCLUDES: add_list(includes, &p.nincludes, v, &keep); break;
        case P_IGNORES: add_list(ignores, &p.nignores, v, &keep); break;
        case P_EXTRA: add_list(extra, &p.nextra_files, v, &keep); break;
        case P_EXTRA_ONLY: p.extra_only = 1; break;
        case P_DETAILED: detailed = 1; break;
        case P_PYTORCH: which = v; break;
        case P_HIPVER:
            if ((t.hip_version = cli_hip_version(cmd, "--hip-version", v)) < 0) {
                rc = EXIT_USAGE;
                goto done;
            }
            break;
        case P_LAUNCH: {
            static const char *const launches[] = {"chevron", "ggl", NULL};
            int k = cli_word(cmd, "launch", v, launches);
            if (k < 0) {
                rc = EXIT_USAGE;
                goto done;
            }
            t.launch = k ? HP_LAUNCH_GGL : HP_LAUNCH_CHEVRON;
            break;
        }
        case P_CLANG_LAUNCH: t.launch = HP_LAUNCH_CHEVRON; break;
        case P_QUIET: s.quiet = 1; break;
        case P_FORCE: r.force = 1; break;
        case P_COLOR:
            if ((color = cli_color(cmd, v)) < 0) {
                rc = EXIT_USAGE;
                goto done;
            }
            break;
        default: break;
        }
    }
    if (!project || !project[0])
        project = ".";
    struct stat sb;
    if (stat(project, &sb) != 0) {
        cli_error(cmd, "the project directory '%s' does not exist", project);
        rc = EXIT_IO;
        goto done;
    }
    if (!S_ISDIR(sb.st_mode)) {
        cli_error(cmd, "the project '%s' is not a directory (-p names the project's directory)",
                  project);
        rc = EXIT_USAGE;
        goto done;
    }
    /* after the arguments are known good: what PyTorch was found is news only for a run */
    if (!hipify_pytorch_mode(cmd, which, &t.pytorch, s.quiet)) {
        rc = EXIT_USAGE;
        goto done;
    }
    if (!output || !output[0]) {
        /* PyTorch's default: the project's path with "_amd" */
        size_t n = strlen(project);
        while (n > 1 && project[n - 1] == '/')
            n--;
        outbuf = malloc(n + 5);
        if (!outbuf) {
            rc = EXIT_INTERNAL;
            goto done;
        }
        memcpy(outbuf, project, n);
        memcpy(outbuf + n, "_amd", 5);
        output = outbuf;
    }
    if (stat(output, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
        rc = cli_usage(cmd, "'%s' exists and is not a directory", output);
        goto done;
    }
    p.include_dirs = incdirs;
    p.includes = includes;
    p.ignores = ignores;
    p.extra_files = extra;
    r.mode = HP_OUT_DIR;
    r.output = output;
    /* What hipify-python wrote in the output directory is recorded there: it replaces its own
     * files, and leaves the others (or files changed since) alone unless --force. */
    p.record = HP_HIPIFY_RECORD;
    /* PyTorch's walk (os.walk) does not enter symbolic links to directories */
    r.follow_symlinks = 0;
    r.on_file = on_file;
    r.ud = &s;
    s.ro.color = cli_use_color(stderr, color);
    s.project = project;
    s.output = output;
    const char *roots[] = {project};
    hp_status st = hp_project_run(&t, &r, &p, roots, 1);
    if (st != HP_OK) {
        cli_error(cmd, "%s", hp_status_name(st));
        rc = st == HP_EUSAGE ? EXIT_USAGE : EXIT_INTERNAL;
        goto done;
    }
    fflush(stdout);
    if (!s.quiet)
        fprintf(stderr, "Successfully preprocessed all matching files.\n");
    if (detailed) {
        /* PyTorch's summary: distinct unsupported names, then the launches rewritten */
        printf("Total number of unsupported CUDA function calls: %d\n",
               hnames_count(s.unsupported));
        hnames_print_list(s.unsupported, stdout);
        printf("\nTotal number of replaced kernel launches: %d\n", s.launches);
    }
    fflush(stdout);
    if (ferror(stdout)) {
        cli_error(cmd, "error writing standard output");
        rc = EXIT_IO;
    } else if (s.io_errors) {
        rc = EXIT_IO;
    }
done:
    hnames_free(s.unsupported);
    free(incdirs);
    free(includes);
    free(ignores);
    free(extra);
    free(outbuf);
    hkeep_free(&keep);
    return rc;
}
