/* test_run.c: the worker pool hands over the same results whatever the number of workers,
 * every field of every result included (with several workers results are copied out of the
 * workers' contexts: a field left out of the copy would differ here, or fail under ASan). */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "hipport.h"
#include "run.h"

typedef struct sink {
    char *text;
    size_t len;
    FILE *f;
    const char *root; /* output paths are written relative to it */
} sink;

static void put_str(FILE *f, const char *what, const char *s)
{
    fprintf(f, " %s=%s", what, s ? s : "(null)");
}

static void put_hstr(FILE *f, const char *what, hp_str s)
{
    fprintf(f, " %s=%.*s", what, (int)s.len, s.s ? s.s : "");
}

/* Every field of the result, as text. */
static void on_file(void *ud, const hp_file_result *r)
{
    sink *k = ud;
    FILE *f = k->f;
    fprintf(f, "#%lld", r->seq);
    put_str(f, "path", r->path);
    const char *out = r->out_path;
    if (out && strncmp(out, k->root, strlen(k->root)) == 0)
        out += strlen(k->root);
    put_str(f, "out", out);
    fprintf(f, " status=%d changed=%d compat=%d skipped=%d written=%d suppressed=%d",
            (int)r->status, r->changed, r->needs_compat, r->skipped, r->written, r->suppressed);
    put_str(f, "error", r->error);
    if (r->out)
        fprintf(f, " bytes=%.*s", (int)r->out_len, r->out);
    for (int i = 0; i < r->nfindings; i++) {
        const hp_finding *g = &r->findings[i];
        fprintf(f, "\n  finding %d:%d+%d %d", g->line, g->col, g->len, (int)g->severity);
        put_str(f, "path", g->path);
        put_str(f, "rule", g->rule);
        put_str(f, "msg", g->message);
        put_str(f, "fix", g->fix);
        put_hstr(f, "src", g->source);
    }
    for (int i = 0; i < r->nunsupported; i++)
        put_hstr(f, "\n  unsupported", r->unsupported[i]);
    for (int i = 0; i < r->nconv; i++) {
        put_hstr(f, "\n  conv", r->conv[i].cuda);
        put_hstr(f, "as", r->conv[i].hip);
        fprintf(f, " family=%d", r->conv[i].family);
    }
    if (r->stats) {
        const hp_tstats *t = r->stats;
        fprintf(f, "\n  stats %lld %lld %lld %lld %lld %lld %lld %lld", t->converted,
                t->unsupported, t->files, t->lines, t->bytes, t->launches, t->changed_lines,
                t->replaced_bytes);
    }
    if (r->report)
        fprintf(f, "\n  report=%.*s", (int)r->report_len, r->report);
    fputc('\n', f);
}

static int put_file(const char *dir, const char *name, const char *text)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

/* A small tree: converted names, names HIP lacks, findings, a launch, a file that fails. */
static int make_tree(char *dir)
{
    snprintf(dir, 256, "%s/hipport-run-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir))
        return -1;
    char src[300];
    snprintf(src, sizeof src, "%s/src", dir);
    if (mkdir(src, 0755) != 0)
        return -1;
    static const char *const files[][2] = {
        {"a.cu", "#include <cuda_runtime.h>\n__global__ void k(float *x) {\n"
                 "    unsigned m = __ballot_sync(0xffffffff, x[threadIdx.x] > 0);\n"
                 "    x[threadIdx.x & 31] = m;\n}\n"
                 "void f(float *x) { k<<<1, 64>>>(x); cudaDeviceSynchronize(); }\n"},
        {"b.cu", "#include <cuda_runtime.h>\nvoid g() { cudaDeviceFlushGPUDirectRDMAWrites("
                 "cudaFlushGPUDirectRDMAWritesTargetCurrentDevice, "
                 "cudaFlushGPUDirectRDMAWritesToOwner); cudaFree(0); }\n"},
        {"c.h", "#pragma once\nint plain(int x);\n"},
        {"d.cu", "__global__ void r(float *v) {\n"
                 "    for (int o = 16; o > 0; o /= 2) v[0] += __shfl_down_sync(0xffffffff, v[0], o);\n}\n"},
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        if (put_file(src, files[i][0], files[i][1]) != 0)
            return -1;
    /* a binary file met in the walk: skipped */
    char bin[320];
    snprintf(bin, sizeof bin, "%s/e.cu", src);
    FILE *f = fopen(bin, "wb");
    if (!f)
        return -1;
    fwrite("int a;\n\0\1\2", 1, 10, f);
    return fclose(f);
}

static void rm_tree(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "test_run: could not remove %s\n", dir);
}

/* Run options that print every result into k (a memory stream over k->text). */
static int sink_open(sink *k, const char *dir, hp_run_opts *r, int jobs)
{
    memset(k, 0, sizeof *k);
    k->root = dir;
    k->f = open_memstream(&k->text, &k->len);
    hp_run_opts_init(r);
    r->jobs = jobs;
    r->on_file = on_file;
    r->ud = k;
    return k->f != NULL;
}

/* The text of the results, or NULL when the run failed. */
static char *sink_close(sink *k, hp_status s)
{
    fclose(k->f);
    if (s == HP_OK)
        return k->text;
    free(k->text);
    return NULL;
}

static char *translate_with(const char *dir, int jobs, int stdout_mode)
{
    sink k;
    hp_run_opts r;
    if (!sink_open(&k, dir, &r, jobs))
        return NULL;
    hp_translate_opts t;
    hp_translate_opts_init(&t);
    t.record_names = 1;
    t.launch = HP_LAUNCH_GGL;
    char out[300], src[300];
    snprintf(out, sizeof out, "%s/out%d", dir, jobs);
    snprintf(src, sizeof src, "%s/src", dir);
    r.mode = stdout_mode ? HP_OUT_STDOUT : HP_OUT_DIR;
    r.output = stdout_mode ? NULL : out;
    const char *paths[] = {src, "/nonexistent-input-of-hipport.cu"};
    char *text = sink_close(&k, hp_translate_run(&t, &r, paths, 2));
    /* the output directory differs by name only */
    char tag[32];
    snprintf(tag, sizeof tag, "/out%d/", jobs);
    for (char *p = text; p && (p = strstr(p, tag)) != NULL;)
        memcpy(p, "/outN/", 6), memmove(p + 6, p + strlen(tag), strlen(p + strlen(tag)) + 1);
    return text;
}

static char *check_with(const char *dir, int jobs, int render)
{
    sink k;
    hp_run_opts r;
    if (!sink_open(&k, dir, &r, jobs))
        return NULL;
    hp_check_opts o;
    hp_check_opts_init(&o);
    o.render = render;
    char src[300];
    snprintf(src, sizeof src, "%s/src", dir);
    const char *paths[] = {src};
    return sink_close(&k, hp_check_run(&o, &r, paths, 1));
}

TEST(run_results_same_for_any_jobs)
{
    char dir[256];
    int made = make_tree(dir) == 0;
    if (!made) {
        rm_tree(dir);
        CHECK(!"could not make the tree");
    }
    int ok = 1;
    char *base = translate_with(dir, 1, 0);
    for (int j = 2; ok && base && j <= 8; j *= 2) {
        char *other = translate_with(dir, j, 0);
        ok = other && strcmp(base, other) == 0;
        if (!ok)
            fprintf(stderr, "translate -j %d differs:\n%s\n---\n%s\n", j, base,
                    other ? other : "(failed)");
        free(other);
    }
    ok = ok && base && strstr(base, "conv=cudaDeviceSynchronize") &&
         strstr(base, "unsupported=cudaDeviceFlushGPUDirectRDMAWrites") &&
         strstr(base, "rule=HP-UNSUPPORTED") && strstr(base, "status=0");
    free(base);
    base = translate_with(dir, 1, 1);
    char *other = translate_with(dir, 3, 1);
    ok = ok && base && other && strcmp(base, other) == 0 && strstr(base, "bytes=");
    free(base);
    free(other);
    for (int render = HP_RENDER_NONE; ok && render <= HP_RENDER_JSON; render++) {
        base = check_with(dir, 1, render);
        other = check_with(dir, 4, render);
        ok = base && other && strcmp(base, other) == 0 && strstr(base, "rule=WAVE006") &&
             (render == HP_RENDER_NONE || strstr(base, "report="));
        if (!ok)
            fprintf(stderr, "check (render %d) differs:\n%s\n---\n%s\n", render,
                    base ? base : "(failed)", other ? other : "(failed)");
        free(base);
        free(other);
    }
    rm_tree(dir);
    CHECK(ok);
}

/* run_replay over a walk's record: the same jobs, in the same order, with the same numbers,
 * paths, walk errors and skips as a second walk of the tree gives, at one and at several
 * workers. */
static void job_as_result(void *ud, hp_ctx *ctx, const run_job *job, hp_file_result *res)
{
    (void)ud;
    (void)ctx;
    memset(res, 0, sizeof *res);
    res->path = job->path;
    res->status = job->status;
    res->error = job->error;
    res->skipped = job->skip;
    if (job->rel && strcmp(job->rel, job->path) != 0)
        res->out_path = job->rel; /* shown as out= */
}

static int want_all(void *ud, const char *name)
{
    (void)ud;
    (void)name;
    return 1;
}

static char *walk_with(const char *dir, int jobs, run_record *rec, int replay)
{
    sink k;
    hp_run_opts r;
    if (!sink_open(&k, "", &r, jobs))
        return NULL;
    run_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.fn = job_as_result;
    spec.want = want_all;
    spec.detach = jobs > 1;
    spec.record = replay ? NULL : rec;
    char src[300];
    snprintf(src, sizeof src, "%s/src", dir);
    const char *paths[] = {src, "/nonexistent-input-of-hipport.cu"};
    return sink_close(&k, replay ? run_replay(&r, &spec, rec) : run_files(&r, &spec, paths, 2));
}

TEST(run_replay_same_as_walk)
{
    char dir[256];
    int made = make_tree(dir) == 0;
    if (!made) {
        rm_tree(dir);
        CHECK(!"could not make the tree");
    }
    int ok = 1;
    for (int jobs = 1; ok && jobs <= 3; jobs += 2) {
        run_record rec;
        run_record_init(&rec);
        char *walked = walk_with(dir, jobs, &rec, 0);
        char *again = walk_with(dir, jobs, NULL, 0);
        char *replayed = walk_with(dir, jobs, &rec, 1);
        ok = walked && again && replayed && !rec.failed && rec.n >= 6 &&
             strcmp(walked, replayed) == 0 && strcmp(again, replayed) == 0 &&
             strstr(replayed, "#0 ") && strstr(replayed, "nonexistent-input") &&
             strstr(replayed, "/src/d.cu");
        if (!ok)
            fprintf(stderr, "-j %d: walked:\n%s\n---\nreplayed:\n%s\n", jobs,
                    walked ? walked : "(failed)", replayed ? replayed : "(failed)");
        free(walked);
        free(again);
        free(replayed);
        run_record_free(&rec);
    }
    rm_tree(dir);
    CHECK(ok);
}
