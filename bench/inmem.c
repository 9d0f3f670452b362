/* inmem.c: the work without the files. Reads every regular file under DIR into memory once,
 * then times, best of RUNS rounds, lexing each file (lex_all), lexing it with the marks the
 * translation pass visits (lex_all_marked with translate_filter) and translating each one
 * (hp_translate_buffer: lexing included, no scan of included headers, nothing written).
 * What translate costs beyond these is the file system's work and the header scan.
 *
 *   inmem DIR [RUNS]
 *
 * Built by run.sh against build/libhipport.a (it needs the library's internal lex.h). */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arena.h"
#include "hipport.h"
#include "lex.h"
#include "translate.h"
#include "xlate.h"

typedef struct file {
    char *path;
    char *data;
    ptrdiff_t len;
} file;

static file *files;
static ptrdiff_t nfiles, capfiles;
static long long total;

static int add(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)ftw;
    if (type != FTW_F || !S_ISREG(st->st_mode))
        return 0;
    if (nfiles == capfiles) {
        capfiles = capfiles ? 2 * capfiles : 1024;
        files = realloc(files, (size_t)capfiles * sizeof *files);
        if (!files)
            return -1;
    }
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "inmem: %s: cannot open\n", path);
        return 0;
    }
    file *f = &files[nfiles];
    f->data = malloc((size_t)st->st_size + 1);
    f->path = strdup(path);
    if (!f->data || !f->path) {
        fclose(fp);
        return -1;
    }
    f->len = (ptrdiff_t)fread(f->data, 1, (size_t)st->st_size, fp);
    fclose(fp);
    total += f->len;
    nfiles++;
    return 0;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: inmem DIR [RUNS]\n");
        return 2;
    }
    int runs = argc == 3 ? atoi(argv[2]) : 9;
    if (runs < 1)
        runs = 1;
    if (nftw(argv[1], add, 32, FTW_PHYS) != 0 || nfiles == 0) {
        fprintf(stderr, "inmem: %s: no files read\n", argv[1]);
        return 2;
    }
    double best_lex = 1e9, best_mark = 1e9, best_tr = 1e9;
    long long ntok = 0, nmarks = 0;
    const lex_filter *filter = translate_filter();
    for (int r = 0; r < runs; r++) {
        arena a;
        arena_init(&a, 1 << 20);
        ntok = 0;
        double t0 = now();
        for (ptrdiff_t i = 0; i < nfiles; i++) {
            lex_out lx;
            lex_all(&a, files[i].data, files[i].len, &lx);
            ntok += lx.n;
            arena_reset(&a);
        }
        double t1 = now();
        if (t1 - t0 < best_lex)
            best_lex = t1 - t0;
        nmarks = 0;
        t0 = now();
        for (ptrdiff_t i = 0; i < nfiles; i++) {
            lex_out lx;
            lex_all_marked(&a, files[i].data, files[i].len, filter, &lx);
            nmarks += lx.nmarks;
            arena_reset(&a);
        }
        t1 = now();
        arena_release(&a);
        if (t1 - t0 < best_mark)
            best_mark = t1 - t0;

        hp_ctx *ctx = hp_ctx_new();
        if (!ctx)
            return 1;
        hp_translate_opts o;
        memset(&o, 0, sizeof o);
        o.launch = HP_LAUNCH_CHEVRON;
        o.compat_header = 1;
        double t2 = now();
        for (ptrdiff_t i = 0; i < nfiles; i++) {
            hp_translate_result res;
            if (hp_translate_buffer(ctx, &o, files[i].path, files[i].data, files[i].len, &res) !=
                HP_OK)
                fprintf(stderr, "inmem: %s: not translated\n", files[i].path);
            hp_ctx_reset(ctx);
        }
        double t3 = now();
        hp_ctx_free(ctx);
        if (t3 - t2 < best_tr)
            best_tr = t3 - t2;
    }
    double mb = (double)total / 1e6;
    printf("in memory, %td files, %.1f MB, %lld tokens (%lld marked), best of %d: lex %.1f ms "
           "(%.0f MB/s), lex with marks %.1f ms, translate %.1f ms (%.0f MB/s)\n",
           nfiles, mb, ntok, nmarks, runs, best_lex * 1e3, mb / best_lex, best_mark * 1e3,
           best_tr * 1e3, mb / best_tr);
    return 0;
}
