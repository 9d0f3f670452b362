/* hipify_opt.h: the command-line spellings of the tools that hipport stands in for: hipify-perl
 * (Getopt::Long: -name or --name, -name=value or -name value, unique prefixes), hipify-clang
 * (LLVM: -name or --name, =value or a separate value, -Idir and -Dmacro glued) and PyTorch's
 * hipify (argparse: --name value, --name=value, -p value, unique prefixes of long names, lists
 * that take every value up to the next option). The tables are opt tables (opt.h): longname is
 * the name, with one dash or two; arg names the value in help; shortname is argparse's
 * one-letter spelling (-p, --project-directory); flags OPTF_GLUED and OPTF_MULTI. */
#ifndef HP_CLI_HIPIFY_OPT_H
#define HP_CLI_HIPIFY_OPT_H

#include <stdio.h>

#include "opt.h"

enum { HS_PERL, HS_CLANG, HS_PYTHON };

/* A list that takes the following operands too (python): fn stores each value. */
#define HOPT_MULTI(l, a, f, d, h) {.longname = (l), .arg = (a), .help = (h), \
                                   .kind = OPTION_CALL, .fn = (f), .dest = (d), \
                                   .flags = OPTF_MULTI}

/* Parses argv[1..argc) as opt_parse does, in the spellings of style; after "--" (s->done) all
 * are operands. */
int hopt_parse(opt_state *s, const opt *table, const opt *operand, int style);
/* The callback of --help: the command's page and the options of the table parsed. */
int hopt_help_opt(opt_state *s, const opt *o, const char *v);
void hopt_help(FILE *f, const opt *table, int style);

#endif
