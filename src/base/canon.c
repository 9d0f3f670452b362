/* canon.c: canonical paths with their directories memoized.
 *
 * realpath(3) reads the link of every component of every path it is given (a readlink call
 * each, and getcwd for a relative path): over a tree of thousands of files and their includes
 * that was most of a run's system time. Here a file that is no symbolic link is its
 * directory's canonical form and its name (one lstat), and a directory that is no symbolic
 * link is its parent's canonical form and its name (one lstat, once per run). Below a
 * directory known to be missing nothing is asked of the system at all: includes often name
 * directories that do not exist. ".", "..", links and very deep paths go to realpath(3),
 * whose answer is the reference. */
#include "canon.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "os.h"
#include "str.h"

#include "banned.h"

/* Deeper directories than this are resolved by realpath(3) whole (it bounds the recursion). */
#define CANON_MAX_DEPTH 32

typedef struct cdir {
    struct cdir *next;
    unsigned hash;
    const char *dir;  /* as asked for */
    const char *real; /* canonical, or NULL when it cannot be resolved */
} cdir;

struct canon {
    pthread_mutex_t mu; /* guards the table and a */
    arena a;
    cdir **tab;
    int cap, n;
};

canon *canon_new(void)
{
    canon *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    if (pthread_mutex_init(&c->mu, NULL) != 0) {
        free(c);
        return NULL;
    }
    arena_init(&c->a, 1 << 14);
    return c;
}

void canon_free(canon *c)
{
    if (!c)
        return;
    pthread_mutex_destroy(&c->mu);
    arena_release(&c->a);
    free(c);
}

static cdir *find(const canon *c, const char *dir, unsigned hash)
{
    if (!c->cap)
        return NULL;
    for (cdir *d = c->tab[hash & (unsigned)(c->cap - 1)]; d; d = d->next)
        if (d->hash == hash && strcmp(d->dir, dir) == 0)
            return d;
    return NULL;
}

/* Keeps dir's answer (real may be NULL); returns the entry kept, which another thread may
 * have put there first, or NULL when memory ran out. Called with the lock held. */
static cdir *keep(canon *c, const char *dir, ptrdiff_t len, unsigned hash, const char *real)
{
    cdir *d = find(c, dir, hash);
    if (d)
        return d;
    if (c->n >= c->cap / 2) {
        int ncap = c->cap ? c->cap * 2 : 256;
        cdir **nt = NEW(&c->a, cdir *, ncap);
        if (!nt && !c->cap)
            return NULL;
        for (int i = 0; nt && i < c->cap; i++)
            for (cdir *e = c->tab[i], *next; e; e = next) {
                next = e->next;
                e->next = nt[e->hash & (unsigned)(ncap - 1)];
                nt[e->hash & (unsigned)(ncap - 1)] = e;
            }
        if (nt) { /* else the chains grow longer */
            c->tab = nt;
            c->cap = ncap;
        }
    }
    d = NEW(&c->a, cdir, 1);
    if (!d)
        return NULL;
    d->hash = hash;
    d->dir = arena_strndup(&c->a, dir, len);
    d->real = real ? arena_strndup(&c->a, real, (ptrdiff_t)strlen(real)) : NULL;
    if (!d->dir || (real && !d->real))
        return NULL;
    d->next = c->tab[hash & (unsigned)(c->cap - 1)];
    c->tab[hash & (unsigned)(c->cap - 1)] = d;
    c->n++;
    return d;
}

static const char *real_dir(canon *c, const char *dir, ptrdiff_t len, int depth);

/* dir/base for a canonical dir ("/" is the one that ends with a '/') */
static const char *child_path(arena *a, const char *dir, const char *base, ptrdiff_t blen)
{
    ptrdiff_t dl = strcmp(dir, "/") == 0 ? 0 : (ptrdiff_t)strlen(dir);
    return arena_join(a, dir, dl, '/', base, blen);
}

/* Resolves directory key (len bytes, NUL-terminated) into tmp, without the lock. */
static const char *resolve(canon *c, arena *tmp, const char *key, ptrdiff_t len, int depth)
{
    const char *slash = NULL;
    for (ptrdiff_t i = len; i > 0 && !slash; i--)
        if (key[i - 1] == '/')
            slash = key + i - 1;
    const char *base = slash ? slash + 1 : key;
    ptrdiff_t blen = key + len - base;
    if (depth > CANON_MAX_DEPTH || blen == 0 || (blen == 1 && base[0] == '.') ||
        (blen == 2 && base[0] == '.' && base[1] == '.') || slash == key)
        return os_realpath(tmp, key);
    const char *parent = slash ? real_dir(c, key, slash - key, depth + 1)
                               : real_dir(c, ".", 1, depth + 1);
    if (!parent)
        return NULL; /* below a directory that cannot be resolved */
    os_stat st;
    if (os_stat_path(key, 1, &st) != 0)
        return NULL;
    if (st.is_link)
        return os_realpath(tmp, key);
    return child_path(tmp, parent, base, blen);
}

/* The canonical form of directory dir[0..len), resolved once; NULL where it cannot be. */
static const char *real_dir(canon *c, const char *dir, ptrdiff_t len, int depth)
{
    char stack[512];
    char *key = len < (ptrdiff_t)sizeof stack ? stack : malloc((size_t)len + 1);
    if (!key)
        return NULL;
    memcpy(key, dir, (size_t)len);
    key[len] = 0;
    unsigned hash = str_hash(key, len, 0);
    pthread_mutex_lock(&c->mu);
    cdir *d = find(c, key, hash);
    pthread_mutex_unlock(&c->mu);
    if (!d) {
        /* resolved outside the lock: two threads may both resolve it, the first is kept */
        arena tmp;
        arena_init(&tmp, 1024);
        const char *r = resolve(c, &tmp, key, len, depth);
        pthread_mutex_lock(&c->mu);
        d = keep(c, key, len, hash, r);
        pthread_mutex_unlock(&c->mu);
        arena_release(&tmp);
    }
    if (key != stack)
        free(key);
    return d ? d->real : NULL; /* entries never change once kept */
}

const char *canon_path(canon *c, arena *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (!base[0] || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
        return os_realpath(a, path);
    const char *dir = !slash        ? real_dir(c, ".", 1, 0)
                      : slash == path ? real_dir(c, "/", 1, 0)
                                      : real_dir(c, path, slash - path, 0);
    if (!dir)
        return NULL;
    os_stat st;
    if (os_stat_path(path, 1, &st) != 0)
        return NULL;
    if (st.is_link)
        return os_realpath(a, path);
    return child_path(a, dir, base, (ptrdiff_t)strlen(base));
}
