/* translate_run.c: translate over files and trees (output paths, renaming, safe writes) and
 * the statistics of a run. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "os.h"
#include "os_tree.h"
#include "run.h"
#include "str.h"
#include "twrite.h"
#include "translate.h"
#include "xlate.h"

#include "banned.h"

typedef struct trun {
    const hp_translate_opts *t;
    const hp_run_opts *r;
    warp_env_cache *headers; /* the headers the files include, read once (NULL: each time) */
    twrite_to out;       /* -O: the output directory; -o: the output file's directory */
    const char *oname;   /* -o: the output's name in it */
    int ospecial;        /* -o names a device, pipe or terminal: written into */
    os_tree **roots;     /* in place: each input's tree (a file's: its directory) */
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

/* Reads a file to translate in place, from its tree: never through a link. */
static int read_in_place(arena *a, os_tree *t, const run_job *job, hp_file_result *res,
                         char **data, ptrdiff_t *len, os_meta *meta)
{
    const char *err;
    int kind;
    hp_status s = os_tree_read(t, a, job->rel, OS_MAX_TEXT_FILE, data, len, meta, &kind, &err);
    if (s != HP_OK && kind == OS_READ_LINK && job->from_tree) {
        res->skipped = 1;
        res->error = "a symbolic link (not followed in place: neither it nor what it names is "
                     "replaced)";
        return 0;
    }
    if (s != HP_OK) {
        fail(res, s, kind == OS_READ_LINK ? "a symbolic link: in place, links are not followed "
                                            "and not replaced (name the file it points to)"
                                          : err);
        return 0;
    }
    if (run_is_binary(*data, *len)) {
        fail(res, HP_EBINARY, "binary file (a NUL byte in the first 8 KiB)");
        return 0;
    }
    return 1;
}

/* In place: the backup of a file (bytes data, metadata meta) at rel+suffix, with the file's
 * owner, group, mode and times; an existing one is kept when it holds the same bytes and
 * replaced only with force. */
static hp_status write_backup(arena *a, os_tree *t, const char *rel, const char *bk,
                              const char *data, ptrdiff_t len, const os_meta *meta,
                              const hp_run_opts *r, const char **err)
{
    os_put p;
    memset(&p, 0, sizeof p);
    p.data = data;
    p.len = len;
    p.mode = -1;
    p.replace = r->force;
    p.durable = 1;
    p.keep = meta;
    p.keep_times = 1;
    int outcome;
    const char *e = NULL;
    hp_status s = os_tree_put(t, a, arena_printf(a, "%s%s", rel, r->backup), &p, &outcome, &e);
    if (s == HP_OK)
        return HP_OK;
    if (outcome == OS_PUT_DIFFERS)
        *err = arena_printf(a, "backup '%s' exists (use --force to replace it)", bk);
    else
        *err = arena_printf(a, "cannot write the backup '%s': %s", bk, e);
    return s;
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
    os_meta meta;
    os_tree *root = NULL;
    const char *src = NULL; /* in place: what is translated (the file, or its backup) */
    ptrdiff_t srclen = 0;
    const char *bk = NULL;
    if (r->mode == HP_OUT_INPLACE) {
        root = tr->roots[job->input];
        if (!read_in_place(a, root, job, res, &data, &len, &meta))
            return;
        imode = meta.mode;
        src = data;
        srclen = len;
        if (r->backup && r->backup[0])
            bk = arena_printf(a, "%s%s", job->path, r->backup);
        if (bk && r->backup_source) {
            /* the backup is the original: translated again, or made now */
            char *b;
            ptrdiff_t blen;
            int kind;
            os_meta bmeta;
            const char *rel = arena_printf(a, "%s%s", job->rel, r->backup);
            hp_status s = os_tree_read(root, a, rel, OS_MAX_TEXT_FILE, &b, &blen, &bmeta,
                                       &kind, &err);
            if (s == HP_OK && run_is_binary(b, blen)) {
                fail(res, HP_EBINARY, arena_printf(a, "the backup '%s' is a binary file", bk));
                return;
            } else if (s == HP_OK) {
                src = b;
                srclen = blen;
            } else if (kind == OS_READ_MISSING) {
                s = write_backup(a, root, job->rel, bk, data, len, &meta, r, &err);
                if (s != HP_OK) {
                    fail(res, s, err);
                    return;
                }
            } else {
                fail(res, s, arena_printf(a, "cannot read the backup '%s': %s", bk,
                                          kind == OS_READ_LINK ? "a symbolic link (not followed)"
                                                               : err));
                return;
            }
        }
    } else if (!run_read_source_mode(a, job, 0, res, &data, &len, &imode)) {
        return;
    } else {
        src = data;
        srclen = len;
    }
    hp_status s;
    /* masks #defined in the headers this file includes (as the compiler would see them) */
    warp_env *env = NEW(a, warp_env, 1);
    warp_env_collect(a, job->path, src, srclen, translate_filter(), env, tr->headers);
    hp_translate_result tr_out;
    s = translate_buffer(ctx, tr->t, job->path, src, srclen, env, &tr_out);
    if (s != HP_OK) {
        fail(res, s, s == HP_ENOMEM ? "out of memory" : hp_status_name(s));
        return;
    }
    twrite_result(a, res, &tr_out);

    int mode = (int)(imode & 07777u);
    const twrite_to *to = NULL;
    const char *orel = NULL;
    twrite_to inplace;
    switch (r->mode) {
    case HP_OUT_STDOUT:
        res->out = tr_out.out;
        res->out_len = tr_out.out_len;
        break;
    case HP_OUT_FILE:
        if (tr->ospecial) {
            s = os_write_special(a, r->output, tr_out.out, tr_out.out_len, &err);
            if (s != HP_OK)
                fail(res, s, arena_printf(a, "cannot write '%s': %s", r->output, err));
            else {
                res->out_path = r->output;
                res->written = 1;
            }
            break;
        }
        to = &tr->out;
        orel = tr->oname;
        twrite_output(a, res, to, orel, r->output, tr_out.out, tr_out.out_len, mode);
        break;
    case HP_OUT_DIR: {
        orel = renamed(a, job->rel, r->rename);
        const char *out = arena_printf(a, "%s%s%s", r->output,
                                       str_ends(str_cstr(r->output), S("/")) ? "" : "/", orel);
        to = &tr->out;
        twrite_output(a, res, to, orel, out, tr_out.out, tr_out.out_len, mode);
        break;
    }
    case HP_OUT_INPLACE: {
        memset(&inplace, 0, sizeof inplace);
        inplace.tree = root;
        inplace.force = r->force;
        to = &inplace;
        orel = job->rel;
        if (tr_out.out_len == len && memcmp(tr_out.out, data, (size_t)len) == 0)
            break; /* it holds the translation already */
        if (bk && !r->backup_source) {
            s = write_backup(a, root, job->rel, bk, data, len, &meta, r, &err);
            if (s != HP_OK) {
                fail(res, s, err);
                break;
            }
        }
        os_put p;
        memset(&p, 0, sizeof p);
        p.data = tr_out.out;
        p.len = tr_out.out_len;
        p.mode = -1;
        p.known = 1;
        p.keep = &meta;
        p.durable = 1;
        int outcome;
        s = os_tree_put(root, a, job->rel, &p, &outcome, &err);
        if (s != HP_OK)
            fail(res, s, arena_printf(a, "cannot write '%s': %s", job->path, err));
        else {
            res->out_path = job->path;
            res->written = 1;
        }
        break;
    }
    case HP_OUT_NONE:
        break;
    }
    /* hipport_compat.h goes next to a regular output, never next to -o /dev/null; one that
     * differs is replaced only with --force (-o replaces its own output, not that) */
    if (tr_out.needs_compat && res->status == HP_OK && res->out_path && to) {
        twrite_to cto = *to;
        cto.force = r->force;
        twrite_compat(a, res, &cto, orel, res->out_path, tr->t->hip_version);
    }
}

/* dir of a file input ("." for a bare name) */
static const char *dir_of(arena *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return ".";
    if (slash == path)
        return "/";
    return arena_strndup(a, path, slash - path);
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
    trun tr;
    memset(&tr, 0, sizeof tr);
    tr.t = t;
    tr.r = r;
    tr.headers = r->mode == HP_OUT_INPLACE ? NULL : warp_env_cache_new(HEADER_CACHE_BYTES);
    hp_run_opts rr = *r;
    run_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.fn = translate_job;
    spec.ud = &tr;
    /* a result is copied out of the worker's context, except the whole output for stdout */
    spec.detach = r->mode != HP_OUT_STDOUT;
    arena a;
    arena_init(&a, 4096);
    hp_status st = HP_OK;
    if (r->mode == HP_OUT_DIR) {
        os_stat ost;
        if (os_stat_path(r->output, 0, &ost) == 0) {
            spec.skip_dev = ost.dev;
            spec.skip_ino = ost.ino;
            spec.have_skip = 1;
        }
        tr.out.tree = os_tree_new(r->output, 1);
        tr.out.force = r->force;
        spec.unique_rel = 1; /* -O out t1 t2: t1/a.cu and t2/a.cu cannot both be out/a.cu */
        if (!tr.out.tree)
            st = HP_ENOMEM;
    } else if (r->mode == HP_OUT_FILE) {
        tr.ospecial = os_is_special(r->output);
        const char *slash = strrchr(r->output, '/');
        tr.oname = slash ? slash + 1 : r->output;
        tr.out.tree = os_tree_new(dir_of(&a, r->output), 1);
        tr.out.force = 1;
        tr.out.durable = 1;
        if (!tr.out.tree)
            st = HP_ENOMEM;
    } else if (r->mode == HP_OUT_INPLACE) {
        /* each input is the tree it is written in: links below it are never followed */
        rr.follow_symlinks = 0;
        spec.report_links = 1;
        tr.roots = calloc((size_t)npaths, sizeof *tr.roots);
        for (int i = 0; tr.roots && i < npaths && st == HP_OK; i++) {
            os_stat ist;
            int dir = os_stat_path(paths[i], 0, &ist) == 0 && ist.is_dir;
            tr.roots[i] = os_tree_new(dir ? paths[i] : dir_of(&a, paths[i]), 0);
            if (!tr.roots[i])
                st = HP_ENOMEM;
        }
        if (!tr.roots)
            st = HP_ENOMEM;
    }
    if (st == HP_OK)
        st = run_files(&rr, &spec, paths, npaths);
    for (int i = 0; tr.roots && i < npaths; i++)
        os_tree_free(tr.roots[i]);
    free(tr.roots);
    os_tree_free(tr.out.tree);
    warp_env_cache_free(tr.headers);
    arena_release(&a);
    return st;
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
            buf_add_jstr(&b, sorted[i].name);
            buf_addf(&b, ":%lld", sorted[i].count);
        }
        buf_adds(&b, "}},\"files\":[");
        for (long long i = 0; i < st->nfiles; i++) {
            const file_stat *f = &st->files[i];
            buf_adds(&b, i ? ",{\"path\":" : "{\"path\":");
            buf_add_jstr(&b, f->path);
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
