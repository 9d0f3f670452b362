/* main.c: the hipport command line: a table of commands, one file each. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "hipify_cli.h"
#include "opt.h"

typedef struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"translate", cmd_translate, "translate CUDA sources and trees to HIP"},
    {"check", cmd_check, "find what translation cannot fix (C++, Python, build files)"},
    {"rules", cmd_rules, "list the rules of check, or explain one"},
    {"doctor", cmd_doctor, "GPUs, ROCm, PyTorch and Triton on this machine, and their fit"},
    {"targets", cmd_targets, "GPU code inside binaries, and whether it runs on a GPU"},
    {"hipify-python", cmd_hipify_python, "PyTorch's hipify for extension projects"},
    {"hipify-perl", cmd_hipify_perl, "hipify-perl's command line"},
    {"hipify-clang", cmd_hipify_clang, "hipify-clang's command line"},
    {"help", cmd_help, "help on a command"},
    {NULL, NULL, NULL},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: hipport <command> [options] [--] [paths...]\n\ncommands:\n");
    for (const command *c = commands; c->name; c++)
        fprintf(f, "  %-14s %s\n", c->name, c->summary);
    fprintf(f, "\n'hipport help <command>' or 'hipport <command> --help' describes a command.\n"
               "Exit codes: 0 ok, 1 findings at or above --fail-on (or a target mismatch),\n"
               "2 usage error, 3 some input could not be read or written, 4 internal error;\n"
               "130, 143 or 129 (as shells report it) stopped by SIGINT, SIGTERM or SIGHUP.\n");
}

int cmd_help(int argc, char **argv)
{
    if (argc < 2) {
        usage(stdout);
        return EXIT_OK;
    }
    for (const command *c = commands; c->name; c++) {
        if (strcmp(c->name, argv[1]) == 0 && c->fn != cmd_help) {
            char *args[] = {argv[1], "--help", NULL};
            return c->fn(2, args);
        }
    }
    return cli_usage("help", "unknown command '%s'", argv[1]);
}

/* SIGINT, SIGTERM or SIGHUP: the temporary files of the writes in progress are removed, then
 * the signal takes its default course, so that the status is the one shells give a command
 * that a signal stopped (130, 143, 129) and a calling script stops as well. */
static const int caught[] = {SIGINT, SIGTERM, SIGHUP};

static void on_signal(int sig)
{
    hp_abort_writes();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig);
}

static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof caught / sizeof *caught; i++)
        sigaddset(&sa.sa_mask, caught[i]);
    for (size_t i = 0; i < sizeof caught / sizeof *caught; i++) {
        struct sigaction old;
        /* a signal ignored by whoever started us (nohup, a background job) stays ignored */
        if (sigaction(caught[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(caught[i], &sa, NULL);
    }
}

int main(int argc, char **argv)
{
    catch_signals();
    /* called through a link named like a hipify tool: that tool's command line */
    const char *base = argc > 0 && argv[0] ? strrchr(argv[0], '/') : NULL;
    base = base ? base + 1 : argc > 0 && argv[0] ? argv[0] : "";
    for (const command *c = commands; c->name; c++)
        if (strncmp(c->name, "hipify-", 7) == 0 && strcmp(base, c->name) == 0)
            return c->fn(argc, argv);
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("hipport %s (HIP tables up to %d.%d)\n", HP_VERSION, hp_hip_version_newest() / 100,
               hp_hip_version_newest() % 100);
        return EXIT_OK;
    }
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return EXIT_OK;
    }
    for (const command *c = commands; c->name; c++)
        if (strcmp(c->name, cmd) == 0)
            return c->fn(argc - 1, argv + 1);
    opt_near near;
    opt_near_init(&near, cmd, strlen(cmd));
    for (const command *c = commands; c->name; c++)
        opt_near_try(&near, c->name);
    if (near.best)
        fprintf(stderr, "hipport: unknown command '%s' (did you mean '%s'?)\n", cmd, near.best);
    else
        fprintf(stderr, "hipport: unknown command '%s'\n", cmd);
    fprintf(stderr, "try 'hipport --help'\n");
    return EXIT_USAGE;
}
