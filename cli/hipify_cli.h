/* hipify_cli.h: what the hipify-python, hipify-perl and hipify-clang interfaces share. */
#ifndef HP_CLI_HIPIFY_CLI_H
#define HP_CLI_HIPIFY_CLI_H

#include <stdio.h>
#include <string.h>

#include "hipport.h"

static inline hp_str str_of(const char *s)
{
    hp_str r = {s, (ptrdiff_t)strlen(s)};
    return r;
}

/* Counts of names (sorted bytewise when printed). */
typedef struct hnames hnames;
hnames *hnames_new(void);
void hnames_free(hnames *h);
/* Adds count to key (and remembers value for it: the HIP name a CUDA name became). */
void hnames_add2(hnames *h, hp_str key, hp_str value, long long count);
void hnames_add(hnames *h, hp_str key, long long count);
int hnames_count(const hnames *h);
/* The i-th entry in sorted order (after hnames_sort). */
void hnames_sort(hnames *h);
const char *hnames_key(const hnames *h, int i);
const char *hnames_value(const hnames *h, int i);
long long hnames_get(const hnames *h, int i);
long long hnames_lookup(const hnames *h, const char *key);
/* "a, b, c" and a newline (PyTorch's list of unsupported calls). */
void hnames_print_list(hnames *h, FILE *f);

/* Parses --pytorch=auto|masquerade|v2 into *mode; for auto, finds the installed PyTorch and
 * says on stderr which generation it picked (unless quiet). 0 on a bad value. */
int hipify_pytorch_mode(const char *cmd, const char *which, int *mode, int quiet);

/* path relative to dir when path is dir/rest (as the walk joins them), else path. */
const char *hipify_below(const char *path, const char *dir);

/* Is the command named through a link (argv[0]) one of the hipify interfaces? Runs it. */
int cmd_hipify_perl(int argc, char **argv);
int cmd_hipify_clang(int argc, char **argv);
int cmd_hipify_python(int argc, char **argv);

#endif
