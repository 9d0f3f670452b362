/* cmd_doctor.c: hipport doctor: this machine's GPUs, ROCm, PyTorch and Triton, and their fit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "opt.h"

extern char **environ;

enum {
    O_HELP = 1,
    O_FORMAT,
    O_JSON,
    O_ROOT,
    O_ENVFILE,
    O_ENV,
    O_PYPATH,
    O_NOLIBS,
    O_FAILON,
    O_COLOR
};

static const opt options[] = {
    {0, "format", "text|json", "report format (default: text)", O_FORMAT},
    {0, "json", NULL, "the same as --format=json", O_JSON},
    {0, "root", "DIR", "read DIR as the machine's root (a fake sysfs, /proc, /opt/rocm, ...)",
     O_ROOT},
    {0, "env-file", "FILE", "judge the NAME=value lines of FILE instead of the environment",
     O_ENVFILE},
    {'e', "env", "NAME[=VALUE]", "set (or with no value unset) a variable judged (repeatable)",
     O_ENV},
    {0, "python-path", "DIR", "also look for PyTorch and Triton in DIR (repeatable)", O_PYPATH},
    {0, "no-libs", NULL, "do not look inside PyTorch's GPU libraries", O_NOLIBS},
    {0, "fail-on", "error|warning|note|never", "exit 1 on findings this severe (default error)",
     O_FAILON},
    {0, "color", "auto|always|never", "colour the text report (default: auto)", O_COLOR},
    {'h', "help", NULL, "show this help", O_HELP},
    {0, NULL, NULL, NULL, 0},
};

int cmd_doctor(int argc, char **argv)
{
    const char *cmd = "doctor";
    hp_doctor_opts o;
    hp_doctor_opts_init(&o);
    const char **env_set = calloc((size_t)argc + 1, sizeof *env_set);
    const char **pypaths = calloc((size_t)argc + 1, sizeof *pypaths);
    int nenv = 0, npy = 0, json = 0, color = 0, rc = EXIT_OK;
    int fail_on = HP_SEV_ERROR;
    hp_ctx *ctx = NULL;
    char *text = NULL;
    if (!env_set || !pypaths) {
        cli_error(cmd, "out of memory");
        rc = EXIT_INTERNAL;
        goto done;
    }
    opt_state os;
    opt_init(&os, argc, argv, cmd);
    const char *v;
    int id;
    while ((id = opt_next(&os, options, &v)) != OPT_END) {
        switch (id) {
        case OPT_ERROR: rc = EXIT_USAGE; goto done;
        case OPT_OPERAND:
            rc = cli_usage(cmd, "unexpected argument '%s' (doctor looks at the machine; "
                                "--root DIR reads another root)",
                           v);
            goto done;
        case O_HELP: cli_help(stdout, cmd, options); goto done;
        case O_FORMAT: {
            static const char *const formats[] = {"text", "json", NULL};
            int k = cli_word(cmd, "format", v, formats);
            if (k < 0) {
                rc = EXIT_USAGE;
                goto done;
            }
            json = k;
            break;
        }
        case O_JSON: json = 1; break;
        case O_ROOT: o.root = v; break;
        case O_ENVFILE: o.env_file = v; break;
        case O_ENV:
            if (!v[0] || v[0] == '=') {
                rc = cli_usage(cmd, "bad value for --env: '%s' (NAME=VALUE or NAME)", v);
                goto done;
            }
            env_set[nenv++] = v;
            break;
        case O_PYPATH:
            if (v[0] != '/') {
                rc = cli_usage(cmd, "--python-path needs an absolute directory: '%s'", v);
                goto done;
            }
            pypaths[npy++] = v;
            break;
        case O_NOLIBS: o.no_libs = 1; break;
        case O_FAILON:
            if ((fail_on = cli_fail_on(cmd, v)) < 0) {
                rc = EXIT_USAGE;
                goto done;
            }
            break;
        case O_COLOR:
            if ((color = cli_color(cmd, v)) < 0) {
                rc = EXIT_USAGE;
                goto done;
            }
            break;
        default: break;
        }
    }
    /* this machine: this process's environment; a fake root brings its own (ROOT/environ) */
    if (!o.root || strcmp(o.root, "/") == 0)
        o.env = (const char *const *)environ;
    o.env_set = nenv ? env_set : NULL;
    o.python_paths = npy ? pypaths : NULL;
    ctx = hp_ctx_new();
    if (!ctx) {
        cli_error(cmd, "out of memory");
        rc = EXIT_INTERNAL;
        goto done;
    }
    hp_doctor_report r;
    hp_status st = hp_doctor_run(ctx, &o, &r);
    if (st == HP_EIO) {
        for (int i = 0; i < r.nproblems; i++)
            cli_error(cmd, "'%s': %s", r.problems[i].path, r.problems[i].message);
        rc = EXIT_IO;
        goto done;
    }
    if (st != HP_OK) {
        cli_error(cmd, "%s", hp_status_name(st));
        rc = st == HP_EUSAGE ? EXIT_USAGE : EXIT_INTERNAL;
        goto done;
    }
    hp_report_opts ro = {json ? 0 : cli_use_color(stdout, color), 0, 1};
    text = hp_doctor_format(&r, json, &ro);
    if (!text) {
        cli_error(cmd, "out of memory");
        rc = EXIT_INTERNAL;
        goto done;
    }
    fputs(text, stdout);
    fflush(stdout);
    for (int i = 0; i < r.nproblems; i++)
        cli_error(cmd, "'%s': %s", r.problems[i].path, r.problems[i].message);
    if (ferror(stdout)) {
        cli_error(cmd, "error writing standard output");
        rc = EXIT_IO;
    } else if (r.nproblems) {
        rc = EXIT_IO;
    } else if (fail_on != HP_SEV_NONE) {
        for (int i = 0; i < r.nfindings; i++)
            if ((int)r.findings[i].severity >= fail_on)
                rc = EXIT_FINDINGS;
    }
done:
    free(text);
    hp_ctx_free(ctx);
    free(env_set);
    free(pypaths);
    return rc;
}
