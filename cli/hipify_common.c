/* hipify_common.c: name counts for the statistics of the hipify interfaces, and the choice of
 * the PyTorch generation. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hipify_cli.h"

typedef struct hentry {
    char *key;
    char *value;
    long long count;
} hentry;

struct hnames {
    hentry *v;
    int n, cap;
};

hnames *hnames_new(void)
{
    return calloc(1, sizeof(hnames));
}

void hnames_free(hnames *h)
{
    if (!h)
        return;
    for (int i = 0; i < h->n; i++) {
        free(h->v[i].key);
        free(h->v[i].value);
    }
    free(h->v);
    free(h);
}

static char *dup(hp_str s)
{
    char *p = malloc((size_t)s.len + 1);
    if (p) {
        if (s.len)
            memcpy(p, s.s, (size_t)s.len);
        p[s.len] = 0;
    }
    return p;
}

/* Entries are few (the names of one run): a linear search is enough. */
void hnames_add2(hnames *h, hp_str key, hp_str value, long long count)
{
    if (!h)
        return;
    for (int i = 0; i < h->n; i++)
        if ((ptrdiff_t)strlen(h->v[i].key) == key.len &&
            memcmp(h->v[i].key, key.s, (size_t)key.len) == 0) {
            h->v[i].count += count;
            return;
        }
    if (h->n == h->cap) {
        int ncap = h->cap ? h->cap * 2 : 32;
        hentry *nv = realloc(h->v, (size_t)ncap * sizeof *nv);
        if (!nv)
            return;
        h->v = nv;
        h->cap = ncap;
    }
    hentry *e = &h->v[h->n];
    e->key = dup(key);
    e->value = dup(value);
    if (!e->key || !e->value) {
        free(e->key);
        free(e->value);
        return;
    }
    e->count = count;
    h->n++;
}

void hnames_add(hnames *h, hp_str key, long long count)
{
    hp_str none = {"", 0};
    hnames_add2(h, key, none, count);
}

int hnames_count(const hnames *h)
{
    return h ? h->n : 0;
}

static int cmp_entry(const void *a, const void *b)
{
    return strcmp(((const hentry *)a)->key, ((const hentry *)b)->key);
}

void hnames_sort(hnames *h)
{
    if (h && h->n)
        qsort(h->v, (size_t)h->n, sizeof *h->v, cmp_entry);
}

const char *hnames_key(const hnames *h, int i)
{
    return h->v[i].key;
}

const char *hnames_value(const hnames *h, int i)
{
    return h->v[i].value;
}

long long hnames_get(const hnames *h, int i)
{
    return h->v[i].count;
}

long long hnames_lookup(const hnames *h, const char *key)
{
    for (int i = 0; h && i < h->n; i++)
        if (strcmp(h->v[i].key, key) == 0)
            return h->v[i].count;
    return 0;
}

void hnames_print_list(hnames *h, FILE *f)
{
    hnames_sort(h);
    for (int i = 0; h && i < h->n; i++)
        fprintf(f, "%s%s", i ? ", " : "", h->v[i].key);
    fputc('\n', f);
}

int hipify_pytorch_mode(const char *cmd, const char *which, int *mode, int quiet)
{
    if (strcmp(which, "masquerade") == 0) {
        *mode = HP_PYTORCH_MASQUERADE;
        return 1;
    }
    if (strcmp(which, "v2") == 0) {
        *mode = HP_PYTORCH_V2;
        return 1;
    }
    if (strcmp(which, "auto") != 0) {
        cli_usage(cmd, "bad value for --pytorch: '%s' (auto, masquerade or v2)", which);
        return 0;
    }
    hp_pytorch_info info;
    hp_pytorch_detect(getenv("PYTHONPATH"), &info);
    *mode = info.mode;
    if (quiet)
        return 1;
    if (info.found)
        fprintf(stderr,
                "hipport %s: note: PyTorch %s (%s): %s\n", cmd, info.version, info.path,
                info.mode == HP_PYTORCH_MASQUERADE
                    ? "the mappings of PyTorch before 2.11 (MasqueradingAsCUDA); "
                      "--pytorch=v2 for hipify 2.0"
                    : "the mappings of hipify 2.0 (PyTorch 2.11 and newer: CUDA spellings "
                      "kept); --pytorch=masquerade for older PyTorch");
    else
        fprintf(stderr,
                "hipport %s: note: no PyTorch found on the Python path: the mappings of hipify "
                "2.0 (PyTorch 2.11 and newer); --pytorch=masquerade for older PyTorch\n",
                cmd);
    return 1;
}

const char *hipify_below(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    if (strncmp(path, dir, n) == 0 && path[n] == '/')
        return path + n + 1;
    if (strcmp(dir, ".") == 0 && strncmp(path, "./", 2) == 0)
        return path + 2;
    return path;
}
