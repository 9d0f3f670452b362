/* cmd_doctor.c: hipport doctor: this machine's GPUs, ROCm, PyTorch and Triton, and their fit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "opt.h"

extern char **environ;

/* --env NAME[=VALUE], added to the list dest */
static int env_opt(opt_state *s, const opt *o, const char *v)
{
    if (!v[0] || v[0] == '=')
        return opt_usage(s, "bad value for --env: '%s' (NAME=VALUE or NAME)", v);
    return opt_add(s, o->dest, NULL, v, strlen(v));
}

/* --python-path DIR, added to the list dest */
static int python_path(opt_state *s, const opt *o, const char *v)
{
    if (v[0] != '/')
        return opt_usage(s, "--python-path needs an absolute directory: '%s'", v);
    return opt_add(s, o->dest, NULL, v, strlen(v));
}

static int no_operand(opt_state *s, const opt *o, const char *v)
{
    (void)o;
    return opt_usage(s, "unexpected argument '%s' (doctor looks at the machine; --root DIR reads "
                        "another root)",
                     v);
}

int cmd_doctor(int argc, char **argv)
{
    const char *cmd = "doctor";
    hp_doctor_opts o;
    hp_doctor_opts_init(&o);
    opt_list env_set = {NULL, 0, 0}, pypaths = {NULL, 0, 0};
    int json = 0, color = 0, rc;
    int fail_on = HP_SEV_ERROR;
    hp_ctx *ctx = NULL;
    char *text = NULL;
    static const char *const formats[] = {"text", "json", NULL};
    const opt options[] = {
        OPT_ENUM(0, "format", "text|json", &json, formats, NULL, "report format (default: text)"),
        OPT_FLAG(0, "json", &json, 1, "the same as --format=json"),
        OPT_STRING(0, "root", "DIR", &o.root,
                   "read DIR as the machine's root (a fake sysfs, /proc, /opt/rocm, ...)"),
        OPT_STRING(0, "env-file", "FILE", &o.env_file,
                   "judge the NAME=value lines of FILE instead of the environment"),
        OPT_CALL('e', "env", "NAME[=VALUE]", env_opt, &env_set,
                 "set (or with no value unset) a variable judged (repeatable)"),
        OPT_CALL(0, "python-path", "DIR", python_path, &pypaths,
                 "also look for PyTorch and Triton in DIR (repeatable)"),
        OPT_FLAG(0, "no-libs", &o.no_libs, 1, "do not look inside PyTorch's GPU libraries"),
        OPT_CALL(0, "fail-on", "error|warning|note|never", cli_opt_fail_on, &fail_on,
                 "exit 1 on findings this severe (default error)"),
        OPT_ENUM(0, "color", "auto|always|never", &color, cli_color_words, NULL,
                 "colour the text report (default: auto)"),
        OPT_CALL('h', "help", NULL, cli_opt_help, NULL, "show this help"),
        OPT_END(),
    };
    const opt operand = OPT_CALL(0, NULL, NULL, no_operand, NULL, NULL);
    opt_state os;
    opt_init(&os, argc, argv, cmd);
    if ((rc = opt_parse(&os, options, &operand)) != OPT_CONTINUE)
        goto done;
    rc = EXIT_OK;
    /* this machine: this process's environment; a fake root brings its own (ROOT/environ) */
    if (!o.root || strcmp(o.root, "/") == 0)
        o.env = (const char *const *)environ;
    o.env_set = env_set.n ? opt_list_items(&env_set) : NULL;
    o.python_paths = pypaths.n ? opt_list_items(&pypaths) : NULL;
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
    opt_list_free(&env_set);
    opt_list_free(&pypaths);
    return rc;
}
