/* hipify_opt.h: the command-line spellings of the tools that hipport stands in for: hipify-perl
 * (Getopt::Long: -name or --name, -name=value or -name value, unique prefixes), hipify-clang
 * (LLVM: -name or --name, =value or a separate value, -Idir and -Dmacro glued) and PyTorch's
 * hipify (argparse: --name value, --name=value, -p value, unique prefixes of long names, lists
 * that take every value up to the next option). */
#ifndef HP_CLI_HIPIFY_OPT_H
#define HP_CLI_HIPIFY_OPT_H

#include <stdio.h>

enum { HO_FLAG, HO_VALUE, HO_LIST, HO_GLUED };

typedef struct hopt {
    const char *name; /* without dashes; NULL ends the table */
    int arg;          /* HO_FLAG, HO_VALUE, HO_LIST (python), HO_GLUED (-Idir, -I dir) */
    int id;
    const char *help; /* one line; NULL hides it */
    const char *meta; /* the value's name in help ("DIR") */
} hopt;

enum { HS_PERL, HS_CLANG, HS_PYTHON };

typedef struct hparse {
    int argc;
    char **argv;
    int i;
    int style;
    int dashdash;     /* "--" was seen */
    int list_id;      /* the list option that takes the next operands, or 0 */
    const char *cmd;
} hparse;

/* Results besides option ids (which are positive). */
enum { HO_END = -1, HO_OPERAND = -2, HO_ERROR = -3, HO_DASHDASH = -4 };

void hopt_init(hparse *p, int argc, char **argv, int style, const char *cmd);
/* The next option's id (with *val), HO_OPERAND (*val the operand), HO_DASHDASH once at "--"
 * (hipify-clang: what follows are compiler options, returned as operands), HO_END, or
 * HO_ERROR after printing a usage error. */
int hopt_next(hparse *p, const hopt *table, const char **val);
void hopt_help(FILE *f, const hopt *table, int style);

#endif
