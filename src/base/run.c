/* run.c: a per-file job over inputs and trees. One walker thread enumerates files (or, for
 * run_list, job numbers) into a bounded queue, N workers process them, and the calling thread
 * hands results to on_file in input order. A result occupies slot seq % nslots until it has
 * been handed over, so memory is bounded by the slots, never by the tree, and no worker can
 * wait on a later file. */
#include "run.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "os.h"
#include "str.h"

#include "banned.h"

int run_is_binary(const char *data, ptrdiff_t len)
{
    ptrdiff_t n = len < 8192 ? len : 8192;
    return n > 0 && memchr(data, 0, (size_t)n) != NULL;
}

int run_read_source(arena *a, const run_job *job, int skip_tree_binary, hp_file_result *res,
                    char **data, ptrdiff_t *len)
{
    return run_read_source_mode(a, job, skip_tree_binary, res, data, len, NULL);
}

int run_read_source_mode(arena *a, const run_job *job, int skip_tree_binary,
                         hp_file_result *res, char **data, ptrdiff_t *len, unsigned *mode)
{
    const char *err;
    hp_status s = os_read_file_mode(a, job->path, OS_MAX_TEXT_FILE, data, len, mode, &err);
    if (s != HP_OK) {
        res->status = s;
        res->error = err;
        return 0;
    }
    if (run_is_binary(*data, *len)) {
        if (skip_tree_binary && job->from_tree) {
            res->skipped = 1;
        } else {
            res->status = HP_EBINARY;
            res->error = "binary file (a NUL byte in the first 8 KiB)";
        }
        return 0;
    }
    return 1;
}

int run_is_c_family(const char *name, const hp_run_opts *r)
{
    static const char *const exts[] = {"cu", "cuh", "c", "cc", "cpp", "cxx", "c++", "h", "hh",
                                       "hpp", "hxx", "h++", "inl", "inc", "ipp", "tpp", "hip",
                                       "cuhpp"};
    const char *dot = strrchr(name, '.');
    if (!dot || dot == name)
        return 0;
    dot++;
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
        if (strcmp(dot, exts[i]) == 0)
            return 1;
    for (int i = 0; r && i < r->nexts; i++) {
        const char *e = r->exts[i];
        if (e[0] == '.')
            e++;
        if (strcmp(dot, e) == 0)
            return 1;
    }
    return 0;
}

typedef struct slot {
    hp_ctx *ctx;        /* the job's memory, and so the result's (without detach) */
    arena ra;           /* with detach: the result, copied out of the worker's context */
    hp_file_result res;
    long long seq;
    long long next_seq; /* the only job that may take this slot next */
    int state;          /* 0 free, 1 working, 2 done */
} slot;

typedef struct claim_entry {
    const char *rel, *path;
    int root;
    uint32_t hash;
} claim_entry;

typedef struct pool {
    pthread_mutex_t mu;
    pthread_cond_t cv_job;  /* a job was queued, or the walk ended */
    pthread_cond_t cv_room; /* the queue has room */
    pthread_cond_t cv_done; /* a result is ready, or the walk ended */
    pthread_cond_t cv_slot; /* a slot was freed */
    run_job *q;
    int qcap, qhead, qlen;
    int walk_done;
    long long total; /* jobs queued so far */
    slot *slots;
    int nslots;
    const run_spec *spec;
    const hp_run_opts *r;
    arena walk_arena;
    walk_opts wo;
    const char *const *paths;
    int npaths;
    long long nlist; /* run_list and run_replay: the number of jobs (paths is then NULL) */
    const run_record *replay; /* run_replay: the jobs (NULL: run_list's numbers) */
    int stop; /* the writer asked to stop */
    long long awaited; /* the result the writer sleeps for, or -1 */
    int slot_waiters;  /* workers waiting for their slot (the writer must free some) */
    hp_ctx **wctx;     /* with detach: one context per worker, kept warm from file to file */
    int nworkers;      /* workers that took their index */
    /* spec->unique_rel: the relative paths taken so far (by the walk's thread only), with
     * their paths and inputs, and an open-addressing table of their indexes (-1: free) */
    arena claim_arena;
    claim_entry *claims;
    ptrdiff_t nclaims, *claim_slot, cap_slots;
} pool;

static int claim_grow(pool *p)
{
    ptrdiff_t ncap = p->cap_slots ? p->cap_slots * 2 : 1024;
    ptrdiff_t *slots = NEW(&p->claim_arena, ptrdiff_t, ncap);
    claim_entry *c = arena_grow(&p->claim_arena, p->claims,
                                p->cap_slots / 2 * (ptrdiff_t)sizeof *c,
                                ncap / 2 * (ptrdiff_t)sizeof *c, _Alignof(claim_entry));
    if (!slots || !c)
        return 0;
    for (ptrdiff_t k = 0; k < ncap; k++)
        slots[k] = -1;
    for (ptrdiff_t k = 0; k < p->nclaims; k++) {
        ptrdiff_t at = (ptrdiff_t)(c[k].hash & (uint32_t)(ncap - 1));
        while (slots[at] >= 0)
            at = (at + 1) & (ncap - 1);
        slots[at] = k;
    }
    p->claim_slot = slots;
    p->claims = c;
    p->cap_slots = ncap;
    return 1;
}

/* With spec->unique_rel and several inputs: does this file's relative path repeat one of an
 * earlier input's (t1/a.cu and t2/a.cu of "-O out t1 t2", whose outputs would be one file)?
 * Then *fixed is the item as an error, and it is returned instead; the same file reached
 * through two inputs is no collision. In the walk's thread, so in the walk's order: the first
 * input wins, whatever the number of jobs. */
static const walk_item *claim(pool *p, const walk_item *it, walk_item *fixed)
{
    if (!p->spec->unique_rel || p->npaths < 2 || it->status != HP_OK || it->skip)
        return it;
    if (p->nclaims * 2 >= p->cap_slots && !claim_grow(p))
        return it; /* out of memory: the run goes on without the check */
    ptrdiff_t len = (ptrdiff_t)strlen(it->rel);
    uint32_t h = hp_hash(it->rel, len, 0);
    ptrdiff_t at = (ptrdiff_t)(h & (uint32_t)(p->cap_slots - 1));
    for (; p->claim_slot[at] >= 0; at = (at + 1) & (p->cap_slots - 1)) {
        const claim_entry *c = &p->claims[p->claim_slot[at]];
        if (c->hash != h || strcmp(c->rel, it->rel) != 0)
            continue;
        if (c->root == it->root)
            return it;
        os_stat a, b;
        if (os_stat_path(c->path, 0, &a) == 0 && os_stat_path(it->path, 0, &b) == 0 &&
            a.dev == b.dev && a.ino == b.ino)
            return it; /* one file, named twice */
        *fixed = *it;
        fixed->status = HP_EEXIST;
        fixed->error = arena_printf(&p->claim_arena,
                                    "its output would be that of '%s' too (both inputs hold "
                                    "'%s'): translate such inputs into separate output "
                                    "directories",
                                    c->path, it->rel);
        return fixed->error ? fixed : it;
    }
    claim_entry *c = &p->claims[p->nclaims];
    c->rel = arena_strndup(&p->claim_arena, it->rel, len);
    c->path = arena_strndup(&p->claim_arena, it->path, (ptrdiff_t)strlen(it->path));
    c->root = it->root;
    c->hash = h;
    if (c->rel && c->path)
        p->claim_slot[at] = p->nclaims++;
    return it;
}

/* Whether the writer, waiting for result `next`, should run: the walk is over and every result
 * handed over, or `next` is ready and either half the slots hold results ready in order after
 * it, or a worker waits for a slot, or the walk is over (the last results come one by one).
 * Waking the writer for half the slots at a time instead of for each result saves a sleep and
 * a wake-up per file. Called with the lock held. */
static int writer_should_run(const pool *p, long long next)
{
    if (p->walk_done && next == p->total)
        return 1;
    const slot *s = &p->slots[next % p->nslots];
    if (!(s->state == 2 && s->seq == next))
        return 0;
    if (p->slot_waiters > 0 || p->walk_done || p->stop)
        return 1;
    int want = p->nslots / 2, n = 1;
    for (long long k = next + 1; n < want; k++, n++) {
        const slot *t = &p->slots[k % p->nslots];
        if (!(t->state == 2 && t->seq == k))
            return 0;
    }
    return 1;
}

static void fill_error(const run_job *job, hp_file_result *res)
{
    memset(res, 0, sizeof *res);
    res->seq = job->seq;
    res->path = job->path;
    res->status = job->status;
    res->error = job->error;
}

static void process(pool *p, hp_ctx *ctx, const run_job *job, hp_file_result *res)
{
    if (job->status != HP_OK || job->skip) {
        fill_error(job, res);
        res->skipped = job->skip;
        return;
    }
    double t0 = os_now();
    p->spec->fn(p->spec->ud, ctx, job, res);
    res->seq = job->seq;
    res->seconds = os_now() - t0;
}

static int want_file(void *ud, const char *name)
{
    pool *p = ud;
    if (p->spec->want)
        return p->spec->want(p->spec->want_ud, name);
    return run_is_c_family(name, p->r);
}

/* ---- inline mode (one worker): walk and process in the calling thread */

typedef struct inline_state {
    pool *p;
    hp_ctx *ctx;
    long long seq;
    long long bytes;
} inline_state;

/* One job in the calling thread, handed over at once. */
static void inline_job(inline_state *s, const run_job *job)
{
    hp_file_result res;
    hp_ctx_reset(s->ctx);
    process(s->p, s->ctx, job, &res);
    s->seq++;
    if (s->p->r->on_file)
        s->p->r->on_file(s->p->r->ud, &res);
    if (res.stats)
        s->bytes += res.stats->bytes;
    if (s->p->r->on_progress)
        s->p->r->on_progress(s->p->r->ud, s->seq, s->bytes);
}

/* ---- the record of a walk's jobs (run_spec.record) */

void run_record_init(run_record *rec)
{
    memset(rec, 0, sizeof *rec);
    arena_init(&rec->a, (ptrdiff_t)1 << 16);
}

void run_record_free(run_record *rec)
{
    free(rec->v);
    arena_release(&rec->a);
    memset(rec, 0, sizeof *rec);
}

/* Keeps a copy of job j (by the walk's thread only). */
static void record_job(pool *p, const run_job *j)
{
    run_record *rec = p->spec->record;
    if (!rec || rec->failed)
        return;
    if (rec->n == rec->cap) {
        long long ncap = rec->cap ? rec->cap * 2 : 256;
        run_job *nv = realloc(rec->v, (size_t)ncap * sizeof *nv);
        if (!nv) {
            rec->failed = 1;
            return;
        }
        rec->v = nv;
        rec->cap = ncap;
    }
    run_job c = *j;
    c.owned = NULL;
    c.path = arena_strndup(&rec->a, j->path, (ptrdiff_t)strlen(j->path));
    c.rel = arena_strndup(&rec->a, j->rel, (ptrdiff_t)strlen(j->rel));
    c.error = j->error ? arena_strndup(&rec->a, j->error, (ptrdiff_t)strlen(j->error)) : NULL;
    if (!c.path || !c.rel || (j->error && !c.error)) {
        rec->failed = 1;
        return;
    }
    rec->v[rec->n++] = c;
}

static int inline_emit(void *ud, const walk_item *it)
{
    inline_state *s = ud;
    walk_item fixed;
    it = claim(s->p, it, &fixed);
    run_job job = {s->seq, it->path, it->rel, it->from_tree, it->status, it->error, NULL,
                   it->root, it->skip};
    record_job(s->p, &job);
    inline_job(s, &job);
    return 0;
}

/* ---- threaded mode */

/* A queued job's strings, in one malloc'd block that the job owns until a worker copies them
 * into its slot's arena (the walker frees its own copies as it leaves each directory). */
static char *job_strings(const walk_item *it, const char **path, const char **rel,
                         const char **error)
{
    size_t lp = strlen(it->path) + 1, lr = strlen(it->rel) + 1;
    size_t le = it->error ? strlen(it->error) + 1 : 0;
    char *m = malloc(lp + lr + le);
    if (!m)
        return NULL;
    memcpy(m, it->path, lp);
    memcpy(m + lp, it->rel, lr);
    if (le)
        memcpy(m + lp + lr, it->error, le);
    *path = m;
    *rel = m + lp;
    *error = le ? m + lp + lr : NULL;
    return m;
}

/* Queues a copy of job r (NULL: a job of run_list's, a number only), numbered in order;
 * returns 1 where the writer asked to stop (nothing queued). */
static int put_job(pool *p, const run_job *r)
{
    pthread_mutex_lock(&p->mu);
    while (p->qlen == p->qcap && !p->stop)
        pthread_cond_wait(&p->cv_room, &p->mu);
    if (p->stop) {
        pthread_mutex_unlock(&p->mu);
        return 1;
    }
    run_job *j = &p->q[(p->qhead + p->qlen) % p->qcap];
    if (r) {
        *j = *r;
    } else {
        memset(j, 0, sizeof *j);
        j->status = HP_OK;
    }
    j->seq = p->total++;
    p->qlen++;
    pthread_cond_signal(&p->cv_job);
    pthread_mutex_unlock(&p->mu);
    return 0;
}

static int queue_emit(void *ud, const walk_item *it)
{
    pool *p = ud;
    walk_item fixed;
    it = claim(p, it, &fixed);
    const char *path, *rel, *error;
    char *owned = job_strings(it, &path, &rel, &error);
    if (!owned) {
        path = it->path;
        rel = it->rel;
        error = "out of memory";
    }
    run_job j = {0, path, rel, it->from_tree, owned ? it->status : HP_ENOMEM, error, owned,
                 it->root, it->skip};
    record_job(p, &j);
    if (put_job(p, &j)) {
        free(owned);
        return 1;
    }
    return 0;
}

static void *walker_main(void *arg)
{
    pool *p = arg;
    if (p->paths)
        walk_paths(&p->walk_arena, &p->wo, p->paths, p->npaths, queue_emit, p);
    for (long long i = 0; !p->paths && i < p->nlist; i++)
        if (put_job(p, p->replay ? &p->replay->v[i] : NULL))
            break;
    pthread_mutex_lock(&p->mu);
    p->walk_done = 1;
    pthread_cond_broadcast(&p->cv_job);
    pthread_cond_broadcast(&p->cv_done);
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* ---- results copied out of the worker's context (run_spec.detach) */

static const char *dup_str(arena *a, const char *s, int *ok)
{
    if (!s)
        return NULL;
    char *d = arena_strndup(a, s, (ptrdiff_t)strlen(s));
    *ok &= d != NULL;
    return d;
}

/* len bytes and a NUL (a file's output, a rendered report) */
static const char *dup_bytes(arena *a, const char *s, ptrdiff_t len, int *ok)
{
    if (!s)
        return NULL;
    char *d = arena_alloc_nozero(a, 1, 1, len + 1);
    if (d) {
        memcpy(d, s, (size_t)len);
        d[len] = 0;
    }
    *ok &= d != NULL;
    return d;
}

static hp_str dup_hstr(arena *a, hp_str s, int *ok)
{
    if (!s.s)
        return s;
    char *d = arena_strndup(a, s.s, s.len);
    *ok &= d != NULL;
    return str_make(d ? d : "", d ? s.len : 0);
}

/* Copies everything r points to into a (every pointer field of hp_file_result; a field added
 * there must be added here). Returns 0 when memory ran out. */
int run_detach(arena *a, hp_file_result *r)
{
    int ok = 1;
    const char *path = r->path;
    r->path = dup_str(a, r->path, &ok);
    r->out_path = dup_str(a, r->out_path, &ok);
    r->error = dup_str(a, r->error, &ok);
    r->out = dup_bytes(a, r->out, r->out_len, &ok);
    if (r->nfindings) {
        hp_finding *f = NEW(a, hp_finding, r->nfindings);
        ok &= f != NULL;
        for (int i = 0; f && i < r->nfindings; i++) {
            const hp_finding *s = &r->findings[i];
            f[i] = *s;
            f[i].path = s->path == path ? r->path : dup_str(a, s->path, &ok);
            f[i].rule = dup_str(a, s->rule, &ok);
            f[i].message = dup_str(a, s->message, &ok);
            f[i].fix = dup_str(a, s->fix, &ok);
            f[i].source = dup_hstr(a, s->source, &ok);
        }
        r->findings = f;
    }
    if (r->nunsupported) {
        hp_str *u = NEW(a, hp_str, r->nunsupported);
        ok &= u != NULL;
        for (int i = 0; u && i < r->nunsupported; i++)
            u[i] = dup_hstr(a, r->unsupported[i], &ok);
        r->unsupported = u;
    }
    if (r->stats) {
        hp_tstats *t = NEW(a, hp_tstats, 1);
        ok &= t != NULL;
        if (t)
            *t = *r->stats;
        r->stats = t;
    }
    if (r->nconv) {
        hp_conv *c = NEW(a, hp_conv, r->nconv);
        ok &= c != NULL;
        for (int i = 0; c && i < r->nconv; i++) {
            c[i] = r->conv[i];
            c[i].cuda = dup_hstr(a, r->conv[i].cuda, &ok);
            c[i].hip = dup_hstr(a, r->conv[i].hip, &ok);
        }
        r->conv = c;
    }
    r->report = dup_bytes(a, r->report, r->report_len, &ok);
    return ok;
}

/* Waits (with the lock held) until slot s is free for job seq: a later job of the same slot
 * must never take it first. The writer frees slots: it is woken if it sleeps with results to
 * hand over. Then takes the slot. */
static void take_slot(pool *p, slot *s, long long seq)
{
    while (s->state != 0 || s->next_seq != seq) {
        p->slot_waiters++;
        if (p->awaited >= 0 && writer_should_run(p, p->awaited))
            pthread_cond_signal(&p->cv_done);
        pthread_cond_wait(&p->cv_slot, &p->mu);
        p->slot_waiters--;
    }
    s->state = 1;
    s->seq = seq;
}

static void *worker_main(void *arg)
{
    pool *p = arg;
    pthread_mutex_lock(&p->mu);
    hp_ctx *own = p->wctx ? p->wctx[p->nworkers++] : NULL;
    for (;;) {
        while (p->qlen == 0 && !p->walk_done)
            pthread_cond_wait(&p->cv_job, &p->mu);
        if (p->qlen == 0)
            break;
        run_job job = p->q[p->qhead];
        p->qhead = (p->qhead + 1) % p->qcap;
        p->qlen--;
        /* A walker that found the queue full sleeps until it is half empty: it then queues
         * half a queue at once instead of being woken for every job. */
        if (p->qlen == p->qcap / 2)
            pthread_cond_signal(&p->cv_room);
        slot *s = &p->slots[job.seq % p->nslots];
        hp_file_result res;
        if (own) {
            /* The job in the worker's own context (its memory warm from the last file), done
             * before its slot is free: only the copy of the result waits for the writer (a
             * large file ahead no longer holds the other workers up). The job's strings stay
             * the walker's until then. */
            pthread_mutex_unlock(&p->mu);
            hp_ctx_reset(own);
            process(p, own, &job, &res);
            pthread_mutex_lock(&p->mu);
            take_slot(p, s, job.seq);
            pthread_mutex_unlock(&p->mu);
            arena_reset(&s->ra);
            if (!run_detach(&s->ra, &res)) {
                arena_reset(&s->ra);
                fill_error(&job, &res);
                int ok = 1;
                res.path = dup_str(&s->ra, job.path ? job.path : "?", &ok);
                if (!ok)
                    res.path = "?";
                res.status = HP_ENOMEM;
                res.error = "out of memory";
            }
            free(job.owned);
        } else {
            take_slot(p, s, job.seq);
            pthread_mutex_unlock(&p->mu);
            hp_ctx_reset(s->ctx);
            if (job.owned) {
                /* the result points at these strings until the writer is done with the slot */
                arena *a = &s->ctx->a;
                job.path = arena_strndup(a, job.path, (ptrdiff_t)strlen(job.path));
                job.rel = arena_strndup(a, job.rel, (ptrdiff_t)strlen(job.rel));
                if (job.error)
                    job.error = arena_strndup(a, job.error, (ptrdiff_t)strlen(job.error));
                free(job.owned);
                job.owned = NULL;
                if (!job.path || !job.rel) {
                    job.path = job.rel = "?";
                    job.status = HP_ENOMEM;
                    job.error = "out of memory";
                }
            }
            process(p, s->ctx, &job, &res);
        }

        pthread_mutex_lock(&p->mu);
        s->res = res;
        s->state = 2;
        /* wake the writer only when it has enough to do (not once per file) */
        if (p->awaited >= 0 && writer_should_run(p, p->awaited))
            pthread_cond_signal(&p->cv_done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static hp_status run_threaded(pool *p, int jobs)
{
    /* A slot with a context of its own holds a whole file's memory: few of them. A detached
     * result is small: many, so that the writer (woken when half the slots are ready) and the
     * walker (woken when the queue is half empty) are woken every few dozen files rather than
     * every few. Check of 10000 tiny files, -j 2: 0.078 s with 12 slots and 24 queued jobs,
     * 0.046 s with 68 and 96 (-j 1: 0.069 s). */
    p->nslots = p->spec->detach ? 32 * jobs + 4 : 4 * jobs + 4;
    p->qcap = p->spec->detach ? 32 * jobs + 32 : 4 * jobs + 16;
    p->q = calloc((size_t)p->qcap, sizeof *p->q);
    p->slots = calloc((size_t)p->nslots, sizeof *p->slots);
    pthread_t *th = calloc((size_t)jobs, sizeof *th);
    hp_status st = HP_OK;
    if (!p->q || !p->slots || !th) {
        st = HP_ENOMEM;
        goto out;
    }
    if (p->spec->detach) {
        p->wctx = calloc((size_t)jobs, sizeof *p->wctx);
        if (!p->wctx) {
            st = HP_ENOMEM;
            goto out;
        }
        for (int i = 0; i < jobs; i++)
            if (!(p->wctx[i] = hp_ctx_new())) {
                st = HP_ENOMEM;
                goto out;
            }
    }
    for (int i = 0; i < p->nslots; i++) {
        p->slots[i].next_seq = i;
        if (p->wctx) {
            arena_init(&p->slots[i].ra, (ptrdiff_t)1 << 14);
            continue;
        }
        p->slots[i].ctx = hp_ctx_new();
        if (!p->slots[i].ctx) {
            st = HP_ENOMEM;
            goto out;
        }
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv_job, NULL);
    pthread_cond_init(&p->cv_room, NULL);
    pthread_cond_init(&p->cv_done, NULL);
    pthread_cond_init(&p->cv_slot, NULL);
    pthread_t walker;
    if (pthread_create(&walker, NULL, walker_main, p) != 0) {
        st = HP_EINTERNAL;
        goto out;
    }
    int started = 0;
    for (; started < jobs; started++)
        if (pthread_create(&th[started], NULL, worker_main, p) != 0)
            break;
    if (started == 0) {
        /* no worker could start: stop the walker and report */
        pthread_mutex_lock(&p->mu);
        p->stop = 1;
        pthread_cond_broadcast(&p->cv_room);
        pthread_mutex_unlock(&p->mu);
        pthread_join(walker, NULL);
        st = HP_EINTERNAL;
        goto out;
    }

    long long next = 0, bytes = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        slot *s = &p->slots[next % p->nslots];
        while (!writer_should_run(p, next)) {
            p->awaited = next;
            pthread_cond_wait(&p->cv_done, &p->mu);
        }
        p->awaited = -1;
        if (!(s->state == 2 && s->seq == next))
            break;
        /* hand over every result that is ready in order, with one lock for all of them */
        long long end = next + 1;
        while (end - next < p->nslots) {
            const slot *t = &p->slots[end % p->nslots];
            if (!(t->state == 2 && t->seq == end))
                break;
            end++;
        }
        pthread_mutex_unlock(&p->mu);
        for (long long k = next; k < end; k++) {
            const slot *t = &p->slots[k % p->nslots];
            if (p->r->on_file)
                p->r->on_file(p->r->ud, &t->res);
            if (t->res.stats)
                bytes += t->res.stats->bytes;
            if (p->r->on_progress)
                p->r->on_progress(p->r->ud, k + 1, bytes);
        }
        pthread_mutex_lock(&p->mu);
        for (; next < end; next++) {
            slot *t = &p->slots[next % p->nslots];
            t->state = 0;
            t->next_seq = t->seq + p->nslots;
        }
        pthread_cond_broadcast(&p->cv_slot);
    }
    pthread_mutex_unlock(&p->mu);
    pthread_join(walker, NULL);
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv_job);
    pthread_cond_destroy(&p->cv_room);
    pthread_cond_destroy(&p->cv_done);
    pthread_cond_destroy(&p->cv_slot);
out:
    for (int i = 0; p->q && i < p->qlen; i++) /* left queued when no worker started */
        free(p->q[(p->qhead + i) % p->qcap].owned);
    if (p->slots)
        for (int i = 0; i < p->nslots; i++) {
            hp_ctx_free(p->slots[i].ctx);
            if (p->wctx)
                arena_release(&p->slots[i].ra);
        }
    for (int i = 0; p->wctx && i < jobs; i++)
        hp_ctx_free(p->wctx[i]);
    free(p->wctx);
    free(p->slots);
    free(p->q);
    free(th);
    return st;
}

static int pool_jobs(const hp_run_opts *r)
{
    int jobs = r->jobs > 0 ? r->jobs : os_cpu_count();
    return jobs > 256 ? 256 : jobs;
}

static void pool_init(pool *p, const hp_run_opts *r, const run_spec *spec)
{
    memset(p, 0, sizeof *p);
    p->awaited = -1;
    arena_init(&p->claim_arena, (ptrdiff_t)1 << 16); /* allocates nothing until used */
    p->spec = spec;
    p->r = r;
}

hp_status run_files(const hp_run_opts *r, const run_spec *spec, const char *const *paths,
                    int npaths)
{
    pool p;
    pool_init(&p, r, spec);
    p.paths = paths;
    p.npaths = npaths;
    arena_init(&p.walk_arena, (ptrdiff_t)1 << 16);
    p.wo.excludes = r->excludes;
    p.wo.nexcludes = r->nexcludes;
    p.wo.want = want_file;
    p.wo.want_ud = &p;
    p.wo.follow_symlinks = r->follow_symlinks;
    p.wo.skip_dev = spec->skip_dev;
    p.wo.skip_ino = spec->skip_ino;
    p.wo.have_skip = spec->have_skip;
    p.wo.report_links = spec->report_links;
    p.wo.skip_hipified_copies = spec->skip_hipified_copies;
    p.wo.skip_dir = spec->skip_dir;
    p.wo.skip_dir_ud = spec->skip_dir_ud;
    p.wo.skip_inner_links = spec->skip_inner_links;
    int jobs = pool_jobs(r);
    /* One input that is no directory is one job: no thread would have anything to do */
    os_stat st1;
    if (npaths == 1 && os_stat_path(paths[0], 0, &st1) == 0 && !st1.is_dir)
        jobs = 1;
    hp_status st = HP_OK;
    if (jobs == 1) {
        inline_state s = {&p, hp_ctx_new(), 0, 0};
        if (!s.ctx) {
            arena_release(&p.walk_arena);
            return HP_ENOMEM;
        }
        walk_paths(&p.walk_arena, &p.wo, paths, npaths, inline_emit, &s);
        hp_ctx_free(s.ctx);
    } else {
        st = run_threaded(&p, jobs);
    }
    arena_release(&p.walk_arena);
    arena_release(&p.claim_arena);
    return st;
}

/* run_list's and run_replay's jobs: n of them, numbers only or rec's */
static hp_status run_jobs(const hp_run_opts *r, const run_spec *spec, long long n,
                          const run_record *rec)
{
    pool p;
    pool_init(&p, r, spec);
    p.nlist = n;
    p.replay = rec;
    int jobs = pool_jobs(r);
    if (jobs > 1 && n > 1)
        return run_threaded(&p, (long long)jobs > n ? (int)n : jobs);
    inline_state s = {&p, hp_ctx_new(), 0, 0};
    if (!s.ctx)
        return HP_ENOMEM;
    for (long long i = 0; i < n; i++) {
        run_job job;
        if (rec) {
            job = rec->v[i];
        } else {
            memset(&job, 0, sizeof job);
            job.status = HP_OK;
        }
        job.seq = i;
        inline_job(&s, &job);
    }
    hp_ctx_free(s.ctx);
    return HP_OK;
}

hp_status run_list(const hp_run_opts *r, const run_spec *spec, long long n)
{
    return run_jobs(r, spec, n, NULL);
}

hp_status run_replay(const hp_run_opts *r, const run_spec *spec, const run_record *rec)
{
    return run_jobs(r, spec, rec->n, rec);
}

void hp_run_opts_init(hp_run_opts *o)
{
    memset(o, 0, sizeof *o);
    o->follow_symlinks = 1;
}
