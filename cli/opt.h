/* opt.h: command-line options declared once in a table that both parses and prints help. */
#ifndef HP_CLI_OPT_H
#define HP_CLI_OPT_H

#include <stdio.h>

typedef struct opt {
    char shortname;       /* 0 if none */
    const char *longname; /* without the dashes; NULL ends the table */
    const char *arg;      /* NULL: a flag; "X": a required value; "[X]": optional, as --o=X */
    const char *help;     /* one line; NULL hides the option from help */
    int id;
} opt;

typedef struct opt_state {
    int argc;
    char **argv;
    int i;            /* next argv index */
    int done;         /* "--" seen: the rest are operands */
    const char *cluster; /* rest of a -abc cluster */
    const char *cmd;  /* for messages */
} opt_state;

enum { OPT_END = -1, OPT_OPERAND = -2, OPT_ERROR = -3 };

void opt_init(opt_state *s, int argc, char **argv, const char *cmd);
/* Returns the id of the next option (with *val set for options with values), OPT_OPERAND with
 * *val the operand, OPT_END, or OPT_ERROR after printing a usage error. */
int opt_next(opt_state *s, const opt *table, const char **val);
void opt_help(FILE *f, const opt *table);

/* "Did you mean": a running choice of the candidate nearest a mistyped word. opt_near_init,
 * then opt_near_try for each candidate; best is NULL when none is near enough (an edit
 * distance, transpositions counted as one edit, of at most a third of the word, at least 1). */
typedef struct opt_near {
    const char *word;
    size_t len;
    const char *best;
    int dist;
} opt_near;
void opt_near_init(opt_near *n, const char *word, size_t len);
void opt_near_try(opt_near *n, const char *cand);

#endif
