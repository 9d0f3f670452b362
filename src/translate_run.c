/* translate_run.c: translate over files and trees (output paths, renaming, safe writes) and
 * the statistics of a run. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "os.h"
#include "run.h"
#include "str.h"
#include "twrite.h"
#include "xlate.h"

#include "banned.h"

typedef struct trun {
    const hp_translate_opts *t;
    const hp_run_opts *r;
    warp_cache *headers; /* the headers the files include, read once (NULL: each time) */
} trun;

/* The output name of a relative path under --rename. */
static const char *renamed(arena *a, const char *rel, int mode)
{
    if (mode == HP_RENAME_NONE)
        return rel;
    size_t n = strlen(rel);
    if (mode == HP_RENAME_HIP) {
        if (n > 3 && strcmp(rel + n - 3, ".cu") == 0)
            return arena_printf(a, "%.*s.hip", (int)(n - 3), rel);
        return rel;
    }
    return rel; /* HP_RENAME_PYTORCH goes through hp_project_run */
}

static void fail(hp_file_result *res, hp_status s, const char *err)
{
    res->status = s;
    res->error = err;
}

/* direct: an output found missing is created in place (only this job writes it); else, as
 * for an output that several jobs write (the compat header), through a temporary file and a
 * rename, so that a job never reads another's half-written file. */
static void write_output(arena *a, hp_file_result *res, const char *out, const char *data,
                         ptrdiff_t len, int mode, int may_replace, int durable, int direct)
{
    const char *err = NULL;
    hp_status s;
    int oe;
    if (direct) {
        /* The usual case first: nothing is there and the directory exists (one call), or
         * only the directory is missing. Anything else takes the general path below. */
        s = os_write_new(a, out, data, len, mode, durable, &oe, &err);
        if (s != HP_OK && oe == ENOENT && os_mkdirs_for(out) == 0)
            s = os_write_new(a, out, data, len, mode, durable, &oe, &err);
        if (s == HP_OK || oe == 0) {
            if (s != HP_OK) {
                fail(res, s, arena_printf(a, "cannot write '%s': %s", out, err));
                return;
            }
            res->out_path = out;
            res->written = 1;
            return;
        }
    }
    os_stat st;
    int exists = os_stat_path(out, 0, &st) == 0;
    if (exists) {
        if (st.is_dir) {
            fail(res, HP_EIO, arena_printf(a, "output '%s' is a directory", out));
            return;
        }
        char *old;
        ptrdiff_t oldlen;
        if (st.is_reg && os_read_file(a, out, OS_MAX_TEXT_FILE, &old, &oldlen, &err) == HP_OK &&
            oldlen == len && memcmp(old, data, (size_t)len) == 0) {
            res->out_path = out;
            return;
        }
        if (!may_replace) {
            fail(res, HP_EEXIST,
                 arena_printf(a, "output '%s' exists and differs (use --force to replace it)",
                              out));
            return;
        }
    }
    int e = os_mkdirs_for(out);
    if (e) {
        fail(res, HP_EIO, arena_printf(a, "cannot create the directory of '%s': %s", out,
                                       strerror(e)));
        return;
    }
    if (exists || !direct) {
        s = os_write_atomic(a, out, data, len, mode, durable, &err);
    } else {
        s = os_write_new(a, out, data, len, mode, durable, &oe, &err);
        os_stat lst;
        if (s != HP_OK && os_stat_path(out, 1, &lst) == 0) {
            if (!lst.is_link) {
                /* a file appeared meanwhile: judged as one that was there */
                write_output(a, res, out, data, len, mode, may_replace, durable, 0);
                return;
            }
            if (may_replace) /* a link to a missing file, and --force */
                s = os_write_atomic(a, out, data, len, mode, durable, &err);
        }
    }
    if (s != HP_OK) {
        fail(res, s, arena_printf(a, "cannot write '%s': %s", out, err));
        return;
    }
    res->out_path = out;
    res->written = 1;
}

void twrite_output(arena *a, hp_file_result *res, const char *out, const char *data,
                   ptrdiff_t len, int mode, int may_replace, int durable)
{
    write_output(a, res, out, data, len, mode, may_replace, durable, 1);
}

void twrite_result(arena *a, hp_file_result *res, const hp_translate_result *tr)
{
    hp_tstats *st = NEW(a, hp_tstats, 1);
    if (st)
        *st = tr->stats;
    res->stats = st;
    res->changed = tr->changed;
    res->findings = tr->findings;
    res->nfindings = tr->nfindings;
    res->unsupported = tr->unsupported;
    res->nunsupported = tr->nunsupported;
    res->conv = tr->conv;
    res->nconv = tr->nconv;
    res->needs_compat = tr->needs_compat;
}

void twrite_compat(arena *a, hp_file_result *res, const char *out, int hip_version, int force)
{
    const char *slash = strrchr(out, '/');
    const char *path = slash ? arena_printf(a, "%.*s/hipport_compat.h", (int)(slash - out), out)
                             : "hipport_compat.h";
    const char *text = hp_compat_header(hip_version);
    const char *saved = res->out_path;
    int written = res->written;
    /* every file that needs it writes it: never half-written where another job reads it */
    write_output(a, res, path, text, (ptrdiff_t)strlen(text), -1, force, 0, 0);
    res->out_path = saved;
    res->written = written;
}

static void translate_job(void *ud, hp_ctx *ctx, const run_job *job, hp_file_result *res)
{
    trun *tr = ud;
    const hp_run_opts *r = tr->r;
    arena *a = &ctx->a;
    memset(res, 0, sizeof *res);
    res->path = job->path;
    char *data;
    ptrdiff_t len;
    const char *err;
    unsigned imode = 0;
    if (!run_read_source_mode(a, job, 0, res, &data, &len, &imode))
        return;
    hp_status s;
    /* masks #defined in the headers this file includes (as the compiler would see them) */
    warp_env *env = NEW(a, warp_env, 1);
    warp_env_collect(a, job->path, data, len, env, tr->headers);
    hp_translate_result tr_out;
    s = xlate_buffer(ctx, tr->t, job->path, data, len, env, &tr_out);
    if (s != HP_OK) {
        fail(res, s, s == HP_ENOMEM ? "out of memory" : hp_status_name(s));
        return;
    }
    twrite_result(a, res, &tr_out);

    int mode = (int)(imode & 07777u);
    switch (r->mode) {
    case HP_OUT_STDOUT:
        res->out = tr_out.out;
        res->out_len = tr_out.out_len;
        break;
    case HP_OUT_FILE:
        twrite_output(a, res, r->output, tr_out.out, tr_out.out_len, mode, 1, 1);
        break;
    case HP_OUT_DIR: {
        const char *rel = renamed(a, job->rel, r->rename);
        const char *out = arena_printf(a, "%s%s%s", r->output,
                                       str_ends(str_cstr(r->output), S("/")) ? "" : "/", rel);
        twrite_output(a, res, out, tr_out.out, tr_out.out_len, mode, r->force, 0);
        break;
    }
    case HP_OUT_INPLACE:
        if (!tr_out.changed)
            break;
        if (r->backup && r->backup[0]) {
            const char *bk = arena_printf(a, "%s%s", job->path, r->backup);
            s = os_backup(a, job->path, bk, r->force, &err);
            if (s != HP_OK) {
                fail(res, s, err);
                break;
            }
        }
        s = os_write_atomic(a, job->path, tr_out.out, tr_out.out_len, -1, 1, &err);
        if (s != HP_OK)
            fail(res, s, arena_printf(a, "cannot write '%s': %s", job->path, err));
        else {
            res->out_path = job->path;
            res->written = 1;
        }
        break;
    case HP_OUT_NONE:
        break;
    }
    /* hipport_compat.h goes next to a regular output, never next to -o /dev/null */
    if (tr_out.needs_compat && res->status == HP_OK && res->out_path &&
        !os_is_special(res->out_path))
        twrite_compat(a, res, res->out_path, tr->t->hip_version, r->force);
}

hp_status hp_translate_run(const hp_translate_opts *t, const hp_run_opts *r,
                           const char *const *paths, int npaths)
{
    if (npaths <= 0)
        return HP_EUSAGE;
    if ((r->mode == HP_OUT_FILE || r->mode == HP_OUT_DIR) && (!r->output || !r->output[0]))
        return HP_EUSAGE;
    if (r->rename == HP_RENAME_PYTORCH) {
        /* PyTorch's names need the whole project: headers renamed with their includers */
        hp_project_opts p;
        hp_project_opts_init(&p);
        return hp_project_run(t, r, &p, paths, npaths);
    }
    /* Headers are read once per run, except in place: a header may then be rewritten while the
     * run goes on, and each includer reads what is there when it gets to it. */
    trun tr = {t, r, r->mode == HP_OUT_INPLACE ? NULL : warp_cache_new(HEADER_CACHE_BYTES)};
    run_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.fn = translate_job;
    spec.ud = &tr;
    /* a result is copied out of the worker's context, except the whole output for stdout */
    spec.detach = r->mode != HP_OUT_STDOUT;
    if (r->mode == HP_OUT_DIR) {
        os_stat st;
        if (os_stat_path(r->output, 0, &st) == 0) {
            spec.skip_dev = st.dev;
            spec.skip_ino = st.ino;
            spec.have_skip = 1;
        }
    }
    hp_status s = run_files(r, &spec, paths, npaths);
    warp_cache_free(tr.headers);
    return s;
}

/* ------------------------------------------------------------------ statistics */

typedef struct name_count {
    char *name;
    long long count;
} name_count;

typedef struct file_stat {
    char *path;
    hp_tstats st;
    int failed;
} file_stat;

struct hp_stats {
    hp_tstats total;
    long long failed;
    name_count *names; /* open addressing */
    long long nnames, capnames;
    file_stat *files;
    long long nfiles, capfiles;
};

hp_stats *hp_stats_new(void)
{
    return calloc(1, sizeof(hp_stats));
}

void hp_stats_free(hp_stats *st)
{
    if (!st)
        return;
    for (long long i = 0; i < st->capnames; i++)
        free(st->names[i].name);
    for (long long i = 0; i < st->nfiles; i++)
        free(st->files[i].path);
    free(st->names);
    free(st->files);
    free(st);
}

static char *dupn(const char *s, ptrdiff_t n)
{
    char *p = malloc((size_t)n + 1);
    if (p) {
        memcpy(p, s, (size_t)n);
        p[n] = 0;
    }
    return p;
}

static void count_name(hp_stats *st, hp_str name)
{
    if (2 * (st->nnames + 1) > st->capnames) {
        long long ncap = st->capnames ? st->capnames * 2 : 64;
        name_count *nv = calloc((size_t)ncap, sizeof *nv);
        if (!nv)
            return;
        for (long long i = 0; i < st->capnames; i++) {
            if (!st->names[i].name)
                continue;
            unsigned long long h =
                str_hash(st->names[i].name, (ptrdiff_t)strlen(st->names[i].name), 0);
            long long j = (long long)(h & (unsigned long long)(ncap - 1));
            while (nv[j].name)
                j = (j + 1) & (ncap - 1);
            nv[j] = st->names[i];
        }
        free(st->names);
        st->names = nv;
        st->capnames = ncap;
    }
    unsigned long long h = str_hash(name.s, name.len, 0);
    long long j = (long long)(h & (unsigned long long)(st->capnames - 1));
    while (st->names[j].name) {
        if (str_eqc(name, st->names[j].name)) {
            st->names[j].count++;
            return;
        }
        j = (j + 1) & (st->capnames - 1);
    }
    st->names[j].name = dupn(name.s, name.len);
    st->names[j].count = 1;
    st->nnames++;
}

void hp_stats_add(hp_stats *st, const hp_file_result *r)
{
    if (!st)
        return;
    if (st->nfiles == st->capfiles) {
        long long ncap = st->capfiles ? st->capfiles * 2 : 64;
        file_stat *nv = realloc(st->files, (size_t)ncap * sizeof *nv);
        if (!nv)
            return;
        st->files = nv;
        st->capfiles = ncap;
    }
    file_stat *f = &st->files[st->nfiles++];
    memset(f, 0, sizeof *f);
    f->path = dupn(r->path, (ptrdiff_t)strlen(r->path));
    if (r->status != HP_OK || !r->stats) {
        f->failed = 1;
        st->failed++;
        return;
    }
    f->st = *r->stats;
    hp_tstats *t = &st->total;
    for (int i = 0; i < HP_MAX_FAMILIES; i++)
        t->refs[i] += r->stats->refs[i];
    t->converted += r->stats->converted;
    t->unsupported += r->stats->unsupported;
    t->files += r->stats->files;
    t->lines += r->stats->lines;
    t->bytes += r->stats->bytes;
    for (int i = 0; i < r->nunsupported; i++)
        count_name(st, r->unsupported[i]);
}

static int cmp_names(const void *x, const void *y)
{
    const name_count *a = x, *b = y;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return strcmp(a->name, b->name);
}

static void json_str(buf *b, const char *s)
{
    buf_addc(b, '"');
    buf_add_json(b, str_cstr(s));
    buf_addc(b, '"');
}

char *hp_stats_format(const hp_stats *st, int json, double seconds)
{
    arena a;
    arena_init(&a, 1 << 16);
    buf b;
    buf_init(&b, &a, 4096);
    name_count *sorted = NULL;
    long long ns = 0;
    if (st->nnames) {
        sorted = malloc((size_t)st->nnames * sizeof *sorted);
        for (long long i = 0; sorted && i < st->capnames; i++)
            if (st->names[i].name)
                sorted[ns++] = st->names[i];
        if (sorted)
            qsort(sorted, (size_t)ns, sizeof *sorted, cmp_names);
    }
    const hp_tstats *t = &st->total;
    int nf = hp_family_count();
    if (json) {
        buf_adds(&b, "{\"version\":1,\"total\":{");
        buf_addf(&b, "\"files\":%lld,\"failed\":%lld,\"lines\":%lld,\"bytes\":%lld,", t->files,
                 st->failed, t->lines, t->bytes);
        buf_addf(&b, "\"seconds\":%.6f,\"converted\":%lld,\"unsupported\":%lld,\"families\":{",
                 seconds, t->converted, t->unsupported);
        int first = 1;
        for (int i = 0; i < nf && i < HP_MAX_FAMILIES; i++) {
            if (!t->refs[i])
                continue;
            buf_addf(&b, "%s\"%s\":%lld", first ? "" : ",", hp_family_name(i), t->refs[i]);
            first = 0;
        }
        buf_adds(&b, "},\"unsupported_names\":{");
        for (long long i = 0; i < ns; i++) {
            if (i)
                buf_addc(&b, ',');
            json_str(&b, sorted[i].name);
            buf_addf(&b, ":%lld", sorted[i].count);
        }
        buf_adds(&b, "}},\"files\":[");
        for (long long i = 0; i < st->nfiles; i++) {
            const file_stat *f = &st->files[i];
            buf_adds(&b, i ? ",{\"path\":" : "{\"path\":");
            json_str(&b, f->path);
            if (f->failed) {
                buf_adds(&b, ",\"failed\":true}");
                continue;
            }
            buf_addf(&b, ",\"lines\":%lld,\"bytes\":%lld,\"converted\":%lld,\"unsupported\":%lld",
                     f->st.lines, f->st.bytes, f->st.converted, f->st.unsupported);
            buf_adds(&b, ",\"families\":{");
            first = 1;
            for (int k = 0; k < nf && k < HP_MAX_FAMILIES; k++) {
                if (!f->st.refs[k])
                    continue;
                buf_addf(&b, "%s\"%s\":%lld", first ? "" : ",", hp_family_name(k),
                         f->st.refs[k]);
                first = 0;
            }
            buf_adds(&b, "}}");
        }
        buf_adds(&b, "]}\n");
    } else {
        double mb = (double)t->bytes / 1e6;
        buf_addf(&b, "files: %lld (%lld failed), lines: %lld, bytes: %lld, time: %.3f s", t->files,
                 st->failed, t->lines, t->bytes, seconds);
        if (seconds > 0)
            buf_addf(&b, " (%.1f MB/s)", mb / seconds);
        buf_addf(&b, "\nconverted references: %lld\n", t->converted);
        for (int i = 0; i < nf && i < HP_MAX_FAMILIES; i++)
            if (t->refs[i])
                buf_addf(&b, "  %-12s %lld\n", hp_family_name(i), t->refs[i]);
        buf_addf(&b, "unsupported references: %lld\n", t->unsupported);
        for (long long i = 0; i < ns; i++)
            buf_addf(&b, "  %-40s %lld\n", sorted[i].name, sorted[i].count);
    }
    free(sorted);
    char *out = dupn(b.data, b.len);
    arena_release(&a);
    return out;
}
