/* opt.h: command-line options declared once in a table that parses, stores the values and
 * prints help (in the manner of git's parse-options). */
#ifndef HP_CLI_OPT_H
#define HP_CLI_OPT_H

#include <stddef.h>
#include <stdio.h>

typedef struct opt opt;
typedef struct opt_state opt_state;

/* A callback: stores or acts on val (NULL for a flag or an absent optional value). Returns
 * OPT_CONTINUE, or the exit code of the command, which then ends (EXIT_OK after help, the
 * code cli_usage returns after a usage message). */
typedef int opt_fn(opt_state *s, const opt *o, const char *val);

/* What an option does with its value; dest names where it goes. */
enum {
    OPTION_IGNORE, /* accepted and dropped (another tool's spelling); a value is taken if arg */
    OPTION_SET,    /* a flag: *(int *)dest = value */
    OPTION_STRING, /* *(const char **)dest = the value */
    OPTION_INT,    /* *(int *)dest = a whole number from value to max */
    OPTION_ENUM,   /* *(int *)dest = values[k] (k without values) for the value words[k]; an
                    * absent optional value ("[a|b]") is words[0] */
    OPTION_LIST,   /* appended to the opt_list dest, after prefix when there is one */
    OPTION_CALL    /* fn(state, option, value) */
};

/* Flags of the hipify tables (hipify_opt.h). */
enum {
    OPTF_GLUED = 1, /* the value may be glued to the name: -Idir, -DNAME (hipify-clang) */
    OPTF_MULTI = 2  /* takes every following operand as one more value (argparse nargs='+') */
};

struct opt {
    char shortname;           /* 0 if none */
    const char *longname;     /* without the dashes; NULL ends the table */
    const char *arg;          /* NULL: a flag; "X": a required value; "[X]": optional, as --o=X */
    const char *help;         /* one line; NULL hides the option from help */
    int kind;                 /* OPTION_... */
    void *dest;
    int value, max;           /* OPTION_SET: the value set; OPTION_INT: the range */
    const char *const *words; /* OPTION_ENUM: the values' names, NULL-terminated */
    const int *values;        /* OPTION_ENUM: what each name stores (NULL: its index) */
    const char *prefix;       /* OPTION_LIST: put before each value ("+" for --enable) */
    opt_fn *fn;               /* OPTION_CALL */
    int flags;                /* OPTF_... */
};

#define OPT_FLAG(s, l, d, v, h) {.shortname = (s), .longname = (l), .help = (h), \
                                 .kind = OPTION_SET, .dest = (d), .value = (v)}
#define OPT_STRING(s, l, a, d, h) {.shortname = (s), .longname = (l), .arg = (a), .help = (h), \
                                   .kind = OPTION_STRING, .dest = (d)}
#define OPT_INT(s, l, a, d, lo, hi, h) {.shortname = (s), .longname = (l), .arg = (a), \
                                        .help = (h), .kind = OPTION_INT, .dest = (d), \
                                        .value = (lo), .max = (hi)}
#define OPT_ENUM(s, l, a, d, w, v, h) {.shortname = (s), .longname = (l), .arg = (a), \
                                       .help = (h), .kind = OPTION_ENUM, .dest = (d), \
                                       .words = (w), .values = (v)}
#define OPT_LIST(s, l, a, d, p, h) {.shortname = (s), .longname = (l), .arg = (a), .help = (h), \
                                    .kind = OPTION_LIST, .dest = (d), .prefix = (p)}
#define OPT_CALL(s, l, a, f, d, h) {.shortname = (s), .longname = (l), .arg = (a), .help = (h), \
                                    .kind = OPTION_CALL, .fn = (f), .dest = (d)}
#define OPT_ARGS(d) {.kind = OPTION_LIST, .dest = (d)} /* operands, into the list d */
#define OPT_IGNORE(l, a, h) {.longname = (l), .arg = (a), .help = (h), .kind = OPTION_IGNORE}
#define OPT_END() {.longname = NULL}

enum { OPT_CONTINUE = -1 };

/* Strings gathered by OPTION_LIST, each a copy owned by the list. v is NULL-terminated (or
 * NULL while the list is empty). */
typedef struct opt_list {
    char **v;
    int n, cap;
} opt_list;
/* Appends prefix (or nothing) and v[0..n); -1 when memory runs out. */
int opt_list_push(opt_list *l, const char *prefix, const char *v, size_t n);
/* The items, never NULL. */
const char *const *opt_list_items(const opt_list *l);
void opt_list_free(opt_list *l);

struct opt_state {
    int argc;
    char **argv;
    int i;               /* next argv index */
    int done;            /* "--" seen: the rest are operands */
    const char *cluster; /* rest of a -abc cluster */
    const char *cmd;     /* for messages */
    FILE *err;           /* usage messages (stderr) */
    const opt *table;    /* the table being parsed (help prints it) */
    int style;           /* hipify_opt.h: whose spellings */
    const opt *list;     /* hipify-python: the list option that takes the next operands */
    const char *word;    /* the argument being parsed, as given ("--doc-format=md") */
    char name[64];       /* the option as messages name it ("--jobs", "-hip-version") */
};

void opt_init(opt_state *s, int argc, char **argv, const char *cmd);
/* Parses argv[1..argc): each option stores its value as its table entry says, and each operand
 * is stored as operand says (an OPTION_LIST or OPTION_CALL entry). Returns OPT_CONTINUE when
 * all is parsed, else the exit code the command ends with: EXIT_USAGE after a usage message,
 * or what a callback returned. */
int opt_parse(opt_state *s, const opt *table, const opt *operand);
/* opt_list_push for a parser or a callback: OPT_CONTINUE, or EXIT_INTERNAL after saying that
 * memory ran out. */
int opt_add(const opt_state *s, opt_list *l, const char *prefix, const char *v, size_t n);
/* The step of a parser: the next option (*found, with *val set for options with values) or
 * operand (*val), OPT_NEXT_END, or OPT_NEXT_ERROR after a usage message. opt_parse and
 * hopt_parse are opt_run with their step. */
enum { OPT_NEXT_END, OPT_NEXT_OPTION, OPT_NEXT_OPERAND, OPT_NEXT_ERROR };
typedef int opt_next_fn(opt_state *s, const opt *table, const opt **found, const char **val);
int opt_run(opt_state *s, const opt *table, const opt *operand, opt_next_fn *step);
/* For steps: o is found (s->name: dash and its name, for messages); OPT_NEXT_OPTION. */
int opt_found(opt_state *s, const opt *o, const char *dash, const opt **found);
/* For steps: the next argument as the value of the option spelled so; OPT_NEXT_OPTION, or
 * OPT_NEXT_ERROR after a usage message when there is none. */
int opt_value(opt_state *s, const char *spelled, const char **val);
/* Stores val as o says (the parsers' common step; s->name spells o in messages). */
int opt_store(opt_state *s, const opt *o, const char *val);
/* "hipport CMD: message" and "try 'hipport CMD --help'" on s->err; returns EXIT_USAGE. */
int opt_usage(const opt_state *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
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
