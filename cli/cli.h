/* cli.h: what the command files share: exit codes, messages, colour, the command list. */
#ifndef HP_CLI_H
#define HP_CLI_H

#include <stdio.h>

#include "hipport.h"

/* Exit codes, the same for every command. */
enum {
    EXIT_OK = 0,       /* done; no finding at or above --fail-on */
    EXIT_FINDINGS = 1, /* findings at or above --fail-on, or a target mismatch */
    EXIT_USAGE = 2,    /* bad command line */
    EXIT_IO = 3,       /* some input could not be read or written; the rest was processed */
    EXIT_INTERNAL = 4  /* a bug */
};

/* "hipport CMD: message" on stderr. */
void cli_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* A usage error: the message and "try 'hipport CMD --help'"; returns EXIT_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* What the option tables of the commands share (opt.h): the words of --color (auto, always,
 * never: the modes of cli_use_color) and --jobs' range; callbacks that print the help of the
 * table parsed, store --hip-version X.Y (int, as hp_hip_version_parse gives it) and --fail-on
 * error|warning|note|never (int, a severity or HP_SEV_NONE), and add a valid --exclude glob to
 * a list. */
extern const char *const cli_color_words[];
enum { CLI_JOBS_MAX = 1024 };
struct opt;
struct opt_state;
int cli_opt_help(struct opt_state *s, const struct opt *o, const char *v);
int cli_opt_hip_version(struct opt_state *s, const struct opt *o, const char *v);
int cli_opt_fail_on(struct opt_state *s, const struct opt *o, const char *v);
int cli_opt_exclude(struct opt_state *s, const struct opt *o, const char *v);
/* Should output to f be coloured (mode 0 auto, 1 always, 2 never)? */
int cli_use_color(FILE *f, int mode);
/* Is f a terminal? */
int cli_isatty(FILE *f);
/* The whole of f (standard input: '-'), NUL-terminated, in malloc'd memory; NULL on a read
 * error or when memory runs out. */
char *cli_read_all(FILE *f, ptrdiff_t *len);

/* Prints the help page of a command (docs/help/<cmd>.txt) and its options. */
void cli_help(FILE *f, const char *cmd, const struct opt *table);

/* Progress on stderr for long runs on a terminal. */
typedef struct cli_progress {
    int enabled;
    double start, last;
    double after; /* seconds before the first line (HIPPORT_PROGRESS_AFTER, default 0.5) */
    int shown;
} cli_progress;
void cli_progress_init(cli_progress *p);
void cli_progress_update(cli_progress *p, long long files, long long bytes);
void cli_progress_done(cli_progress *p);

int cmd_translate(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_targets(int argc, char **argv);
int cmd_help(int argc, char **argv);

#endif
