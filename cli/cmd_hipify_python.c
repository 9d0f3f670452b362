/* cmd_hipify_python.c: hipport hipify-python: PyTorch's hipify for extension projects
 * (torch.utils.hipify.hipify(project_directory, output_directory, ...)) on the command line. */
#define _XOPEN_SOURCE 700
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "hipify_cli.h"
#include "hipify_opt.h"

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

/* A value of a list option (the opt_list dest); it may come as one "[a;b]" string
 * (hipify_torch's form). */
static int add_list(opt_state *s, const opt *o, const char *v)
{
    size_t len = strlen(v);
    if (!strchr(v, ';') && v[0] != '[')
        return opt_add(s, o->dest, NULL, v, len);
    const char *p = v[0] == '[' ? v + 1 : v;
    const char *end = len && v[len - 1] == ']' ? v + len - 1 : v + len;
    while (p <= end) {
        const char *semi = memchr(p, ';', (size_t)(end - p));
        const char *stop = semi ? semi : end;
        if (stop > p) {
            int rc = opt_add(s, o->dest, NULL, p, (size_t)(stop - p));
            if (rc != OPT_CONTINUE)
                return rc;
        }
        p = stop + 1;
    }
    return OPT_CONTINUE;
}

static int no_operand(opt_state *s, const opt *o, const char *v)
{
    (void)o;
    return opt_usage(s, "unexpected argument '%s' (the project is -p DIR)", v);
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
    opt_list incdirs = {NULL, 0, 0}, includes = {NULL, 0, 0}, ignores = {NULL, 0, 0};
    opt_list extra = {NULL, 0, 0};
    s.unsupported = hnames_new();
    const char *project = NULL, *output = NULL, *which = "auto";
    int rc, color = 0, detailed = 0, launch = t.launch;
    char *outbuf = NULL;
    static const char *const launches[] = {"chevron", "ggl", NULL};
    static const int launch_values[] = {HP_LAUNCH_CHEVRON, HP_LAUNCH_GGL};
    const opt options[] = {
        OPT_STRING('p', "project-directory", "DIR", &project, "the project (default: .)"),
        OPT_STRING(0, "output-directory", "DIR", &output,
                   "the hipified copy (default: PROJECT_amd)"),
        HOPT_MULTI("header-include-dirs", "DIR", add_list, &incdirs,
                   "the include directories (also \"[a;b]\")"),
        HOPT_MULTI("includes", "GLOB", add_list, &includes,
                   "take only files matching these globs (default: *)"),
        HOPT_MULTI("ignores", "GLOB", add_list, &ignores, "leave files matching these globs alone"),
        HOPT_MULTI("extra-files", "FILE", add_list, &extra,
                   "also take these files, whatever their extension"),
        OPT_FLAG(0, "hipify-extra-files-only", &p.extra_only, 1,
                 "only the extra files (and the headers they include)"),
        OPT_FLAG(0, "show-detailed", &detailed, 1, "unsupported names and launches at the end"),
        OPT_STRING(0, "pytorch", "WHICH", &which,
                   "auto (the installed one), masquerade (< 2.11) or v2"),
        OPT_CALL(0, "hip-version", "X.Y", cli_opt_hip_version, &t.hip_version,
                 "the HIP that will compile the output"),
        OPT_ENUM(0, "launch", "FORM", &launch, launches, launch_values,
                 "kernel launches as chevron (default) or ggl"),
        OPT_FLAG(0, "hip-clang-launch", &launch, HP_LAUNCH_CHEVRON, NULL),
        OPT_FLAG(0, "quiet", &s.quiet, 1, "print no per-file lines, warnings or notes"),
        OPT_ENUM(0, "color", "WHEN", &color, cli_color_words, NULL,
                 "colour diagnostics: auto, always or never"),
        OPT_FLAG(0, "force", &r.force, 1,
                 "replace files of the output directory that hipify-python did not write"),
        OPT_CALL('h', "help", NULL, hopt_help_opt, NULL, "show this help"),
        OPT_END(),
    };
    const opt operand = OPT_CALL(0, NULL, NULL, no_operand, NULL, NULL);
    if (!s.unsupported) {
        cli_error(cmd, "out of memory");
        rc = EXIT_INTERNAL;
        goto done;
    }
    opt_state os;
    opt_init(&os, argc, argv, cmd);
    if ((rc = hopt_parse(&os, options, &operand, HS_PYTHON)) != OPT_CONTINUE)
        goto done;
    rc = EXIT_OK;
    t.launch = (hp_launch)launch;
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
    p.include_dirs = opt_list_items(&incdirs);
    p.ninclude_dirs = incdirs.n;
    p.includes = opt_list_items(&includes);
    p.nincludes = includes.n;
    p.ignores = opt_list_items(&ignores);
    p.nignores = ignores.n;
    p.extra_files = opt_list_items(&extra);
    p.nextra_files = extra.n;
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
    opt_list_free(&incdirs);
    opt_list_free(&includes);
    opt_list_free(&ignores);
    opt_list_free(&extra);
    free(outbuf);
    return rc;
}
