/* warp_env.c: the headers a file includes, read and lexed once per run (the run's header cache,
 * shared by its threads) and walked for the macros whose value is a full warp mask, which the
 * warp builtins of the file may name (xlate_warp.c classifies them). */
#include "warp_env.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "os.h"
#include "str.h"
#include "xlate.h"

#include "banned.h"

/* ------------------------------------------------------------------ masks in headers */

#define ENV_MAX_DEPTH 8
#define ENV_MAX_FILES 64
#define ENV_MAX_BYTES ((ptrdiff_t)4 << 20)

typedef struct env_walk {
    arena *a;
    const lex_filter *filter; /* the marks of the file's own tokens */
    warp_env *env;
    warp_env_cache *cache;
    const char *seen[ENV_MAX_FILES];
    int nseen;
    const char *gseen[ENV_MAX_FILES]; /* the headers read for their guarded helpers only */
    int ngseen;
} env_walk;

/* A header as the walk sees it: its bytes and tokens, or that it could not be read. */
typedef struct hdr {
    struct hdr *next; /* in its hash chain */
    char *path;
    int ok;
    char *src;
    ptrdiff_t len;
    lex_out lx;
    hp_str *cuda;     /* its CUDA-like names, in order, with repeats (into src) */
    ptrdiff_t ncuda;
    int guard;        /* a directive of it tests cuda.h's guard (env_guarded) */
    /* the indexes of its macros and constants (xlate_warp.c), built in a under the cache's
     * build_mu on the first includer's use */
    _Atomic(struct warp_idx *) warp;
    arena a; /* holds src, the tokens and cuda */
} hdr;

/* A directory's listing, to answer an include that names nothing without a failed open: most
 * quoted includes of a project name files found through -I paths, not beside the includer. */
typedef struct dirl {
    struct dirl *next; /* in its hash chain */
    char *path;
    ptrdiff_t plen;
    int ok;            /* listed */
    os_dirent *ents;   /* sorted bytewise */
    char **folded;     /* the same names in ASCII lower case, sorted */
    ptrdiff_t n;
    arena a;
} dirl;

#define DIRS_CAP 256 /* chains of the listings' table */

/* An angled include's answer for the includers of one directory: the header found through
 * the -I search, or none (found NULL). Every file of a directory asks the same questions. */
typedef struct angl {
    struct angl *next; /* in its hash chain */
    const char *found;
    ptrdiff_t klen;
    char key[]; /* the directory, a NUL, the include */
} angl;

#define ANGL_CAP 1024 /* chains of the angled answers' table */

struct warp_env_cache {
    pthread_rwlock_t mu; /* lookups read, insertions write */
    pthread_mutex_t build_mu; /* what the headers' shared mask indexes add to their arenas */
    hdr **slot;
    ptrdiff_t cap, n;
    ptrdiff_t budget, used;
    dirl *dslot[DIRS_CAP];
    angl *aslot[ANGL_CAP];
};

warp_env_cache *warp_env_cache_new(ptrdiff_t budget)
{
    warp_env_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->cap = 1024;
    c->slot = calloc((size_t)c->cap, sizeof *c->slot);
    if (!c->slot || pthread_rwlock_init(&c->mu, NULL) != 0) {
        free(c->slot);
        free(c);
        return NULL;
    }
    if (pthread_mutex_init(&c->build_mu, NULL) != 0) {
        pthread_rwlock_destroy(&c->mu);
        free(c->slot);
        free(c);
        return NULL;
    }
    c->budget = budget;
    return c;
}

void warp_env_cache_free(warp_env_cache *c)
{
    if (!c)
        return;
    for (ptrdiff_t i = 0; i < c->cap; i++) {
        for (hdr *h = c->slot[i], *next; h; h = next) {
            next = h->next;
            arena_release(&h->a);
            free(h->path);
            free(h);
        }
    }
    free(c->slot);
    for (int i = 0; i < ANGL_CAP; i++) {
        for (angl *g = c->aslot[i], *next; g; g = next) {
            next = g->next;
            free((void *)g->found);
            free(g);
        }
    }
    for (int i = 0; i < DIRS_CAP; i++) {
        for (dirl *d = c->dslot[i], *next; d; d = next) {
            next = d->next;
            arena_release(&d->a);
            free(d);
        }
    }
    pthread_rwlock_destroy(&c->mu);
    pthread_mutex_destroy(&c->build_mu);
    free(c);
}

static int cmp_folded(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* A name (a pointer to it) against a listing's entry. */
static int cmp_entry(const void *key, const void *ent)
{
    return strcmp(*(const char *const *)key, ((const os_dirent *)ent)->name);
}

/* src[0..len) in ASCII lower case, into dst (which may be src). */
static void fold_ascii(char *dst, const char *src, ptrdiff_t len)
{
    for (ptrdiff_t b = 0; b < len; b++)
        dst[b] = src[b] >= 'A' && src[b] <= 'Z' ? (char)(src[b] - 'A' + 'a') : src[b];
}

/* The listing of path[0..plen) in its chain, or NULL (under the cache's lock). */
static dirl *dirs_find(warp_env_cache *c, const char *path, ptrdiff_t plen, unsigned hash)
{
    for (dirl *d = c->dslot[hash]; d; d = d->next)
        if (d->plen == plen && memcmp(d->path, path, (size_t)plen) == 0)
            return d;
    return NULL;
}

/* The listing of the directory path[0..plen), listed on its first use; NULL where the cache
 * is full. */
static dirl *dirs_get(warp_env_cache *c, const char *path, ptrdiff_t plen)
{
    unsigned hash = str_hash(path, plen, 0) & (DIRS_CAP - 1);
    dirl *d;
    pthread_rwlock_rdlock(&c->mu);
    d = dirs_find(c, path, plen, hash);
    int full = c->used >= c->budget;
    pthread_rwlock_unlock(&c->mu);
    if (d || full)
        return d;
    dirl *nd = calloc(1, sizeof *nd);
    if (!nd)
        return NULL;
    arena_init(&nd->a, 4096);
    jmp_buf jb;
    nd->a.oom = &jb;
    if (setjmp(jb)) {
        arena_release(&nd->a);
        free(nd);
        return NULL;
    }
    nd->path = arena_strndup(&nd->a, path, plen);
    nd->plen = plen;
    nd->ok = os_list_dir(&nd->a, nd->path, &nd->ents, &nd->n) == 0;
    if (nd->ok) {
        nd->folded = NEW(&nd->a, char *, nd->n + 1);
        for (ptrdiff_t k = 0; k < nd->n; k++) {
            ptrdiff_t len = (ptrdiff_t)strlen(nd->ents[k].name);
            char *f = arena_strndup(&nd->a, nd->ents[k].name, len);
            fold_ascii(f, f, len);
            nd->folded[k] = f;
        }
        qsort(nd->folded, (size_t)nd->n, sizeof *nd->folded, cmp_folded);
    }
    nd->a.oom = NULL;
    pthread_rwlock_wrlock(&c->mu);
    d = dirs_find(c, path, plen, hash);
    if (!d) {
        nd->next = c->dslot[hash];
        c->dslot[hash] = nd;
        c->used += (ptrdiff_t)sizeof *nd + nd->a.used;
        d = nd;
        nd = NULL;
    }
    pthread_rwlock_unlock(&c->mu);
    if (nd) {
        arena_release(&nd->a);
        free(nd);
    }
    return d;
}

/* Whether the name s[0..len) is in the listing: 2 exactly, as a directory; 1 some other way
 * (another type, or a name that differs only in ASCII case, which a case-insensitive file
 * system would open); 0 not at all. */
static int dirs_has(const dirl *d, const char *s, ptrdiff_t len)
{
    char key[256];
    if (len >= (ptrdiff_t)sizeof key)
        return 1;
    fold_ascii(key, s, len);
    key[len] = 0;
    const char *kp = key;
    if (!bsearch(&kp, d->folded, (size_t)d->n, sizeof *d->folded, cmp_folded))
        return 0;
    memcpy(key, s, (size_t)len);
    const os_dirent *e = bsearch(&kp, d->ents, (size_t)d->n, sizeof *d->ents, cmp_entry);
    return e && e->type == OS_DT_DIR ? 2 : 1;
}

/* 1 where path certainly names nothing: some component past its first dirlen bytes (a
 * directory that exists, the includer's) is missing from its directory's listing. 0 where it
 * may exist, or where a listing cannot say: a component that is empty, "." or "..", holds a
 * byte outside ASCII (a file system may fold or normalize it), or passes through a link or an
 * entry of unknown type. */
static int path_absent(warp_env_cache *c, const char *path, ptrdiff_t dirlen)
{
    if (dirlen <= 0 || path[dirlen] != '/')
        return 0;
    ptrdiff_t at = dirlen; /* path[0..at) is a directory that exists */
    for (;;) {
        const char *comp = path + at + 1;
        const char *slash = strchr(comp, '/');
        ptrdiff_t len = slash ? slash - comp : (ptrdiff_t)strlen(comp);
        if (len == 0 || (comp[0] == '.' && (len == 1 || (len == 2 && comp[1] == '.'))))
            return 0;
        for (ptrdiff_t b = 0; b < len; b++)
            if ((unsigned char)comp[b] >= 0x80)
                return 0;
        const dirl *d = dirs_get(c, path, at);
        if (!d || !d->ok)
            return 0;
        int has = dirs_has(d, comp, len);
        if (has == 0)
            return 1;
        if (!slash || has != 2)
            return 0;
        at += 1 + len;
    }
}

static hdr *cache_find(warp_env_cache *c, const char *path, unsigned hash)
{
    for (hdr *h = c->slot[hash & (unsigned)(c->cap - 1)]; h; h = h->next)
        if (strcmp(h->path, path) == 0)
            return h;
    return NULL;
}

/* The header at path from the cache, read and lexed on its first use; NULL where the cache
 * is full (the caller reads it itself). */
static void cuda_list(arena *a, const char *src, const lex_out *lx, hp_str **out, ptrdiff_t *n);

/* An xlate over the tokens lx of src[0..len), allocating in a. */
static void xlate_over(xlate *x, arena *a, const char *src, ptrdiff_t len, const lex_out *lx)
{
    memset(x, 0, sizeof *x);
    x->a = a;
    x->src = src;
    x->len = len;
    x->t = lx->toks;
    x->nt = lx->n;
    x->dirs = lx->dirs;
    x->ndirs = lx->ndirs;
}

/* Does a directive of the file test cuda.h's guard? */
static int any_cuda_guard(const xlate *x)
{
    for (ptrdiff_t d = 0; d < x->ndirs; d++)
        if (warp_env_tests_cuda_guard(x, x->dirs[d]))
            return 1;
    return 0;
}

static hdr *cache_get(warp_env_cache *c, const char *path)
{
    unsigned hash = str_hash(path, (ptrdiff_t)strlen(path), 0);
    pthread_rwlock_rdlock(&c->mu);
    hdr *h = cache_find(c, path, hash);
    int full = c->used >= c->budget;
    pthread_rwlock_unlock(&c->mu);
    if (h || full)
        return h;
    /* read and lexed outside the lock; two threads may do it at once, the first one kept */
    hdr *nh = calloc(1, sizeof *nh);
    char *p = nh ? malloc(strlen(path) + 1) : NULL;
    if (!p) {
        free(nh);
        return NULL;
    }
    memcpy(p, path, strlen(path) + 1);
    nh->path = p;
    arena_init(&nh->a, 4096);
    const char *err;
    if (os_read_file(&nh->a, path, ENV_MAX_BYTES, &nh->src, &nh->len, &err) == HP_OK) {
        lex_all(&nh->a, nh->src, nh->len, &nh->lx);
        nh->ok = nh->lx.toks != NULL;
        if (nh->ok) {
            cuda_list(&nh->a, nh->src, &nh->lx, &nh->cuda, &nh->ncuda);
            xlate hx;
            xlate_over(&hx, &nh->a, nh->src, nh->len, &nh->lx);
            nh->guard = any_cuda_guard(&hx);
        }
    }
    if (!nh->ok) {
        /* nothing kept but the name */
        arena_release(&nh->a);
        arena_init(&nh->a, 4096);
    }
    ptrdiff_t size = (ptrdiff_t)sizeof *nh + (ptrdiff_t)strlen(path) + nh->a.used;
    pthread_rwlock_wrlock(&c->mu);
    h = cache_find(c, path, hash);
    if (!h && c->n >= c->cap) {
        /* twice the chains: each entry moves to the chain its hash picks now */
        hdr **ns = calloc((size_t)c->cap * 2, sizeof *ns);
        if (ns) {
            for (ptrdiff_t i = 0; i < c->cap; i++) {
                for (hdr *e = c->slot[i], *next; e; e = next) {
                    next = e->next;
                    unsigned eh = str_hash(e->path, (ptrdiff_t)strlen(e->path), 0);
                    ptrdiff_t b = eh & (unsigned)(c->cap * 2 - 1);
                    e->next = ns[b];
                    ns[b] = e;
                }
            }
            free(c->slot);
            c->slot = ns;
            c->cap *= 2;
        }
    }
    if (!h) {
        ptrdiff_t b = hash & (unsigned)(c->cap - 1);
        nh->next = c->slot[b];
        c->slot[b] = nh;
        c->n++;
        c->used += size;
        h = nh;
        nh = NULL;
    }
    pthread_rwlock_unlock(&c->mu);
    if (nh) {
        arena_release(&nh->a);
        free(nh->path);
        free(nh);
    }
    return h;
}

static void env_add(env_walk *w, hp_str name, int kind)
{
    warp_env *e = w->env;
    if (nameidx_get(&e->ix, name) >= 0)
        return; /* the first definition wins, as the preprocessor's would */
    if (e->n == e->cap) {
        int ncap = e->cap ? e->cap * 2 : 8;
        e->names = arena_grow(w->a, e->names, (ptrdiff_t)e->cap * (ptrdiff_t)sizeof(hp_str),
                              (ptrdiff_t)ncap * (ptrdiff_t)sizeof(hp_str), _Alignof(hp_str));
        e->kind = arena_grow(w->a, e->kind, e->cap, ncap, 1);
        e->cap = ncap;
    }
    e->names[e->n] = name;
    e->kind[e->n] = (unsigned char)kind;
    e->n++;
    if (2 * (ptrdiff_t)e->n > e->ix.cap) {
        /* at most half full: a new index for twice the names */
        if (!nameidx_init(&e->ix, w->a, 2 * (ptrdiff_t)e->n))
            return;
        for (int k = 0; k < e->n; k++)
            nameidx_put(&e->ix, e->names[k], k, 0);
    } else {
        nameidx_put(&e->ix, name, e->n - 1, 0);
    }
}

int warp_env_cuda_like_name(hp_str s)
{
#define P(lit) {(lit), (ptrdiff_t)sizeof(lit) - 1}
    static const hp_str prefixes[] = {P("CUDA_"),    P("CU_"),       P("cublas"),   P("cusparse"),
                                      P("cufft"),    P("curand"),    P("cusolver"), P("cudnn"),
                                      P("nvrtc"),    P("CUBLAS_"),   P("CUSPARSE_"), P("CUFFT_"),
                                      P("CURAND_"),  P("CUSOLVER_"), P("CUDNN_"),   P("NVRTC_")};
#undef P
    if (s.len < 4 || (s.s[0] != 'c' && s.s[0] != 'C' && s.s[0] != 'n' && s.s[0] != 'N'))
        return 0;
    if (s.s[0] == 'c' && s.s[1] == 'u') {
        if (s.s[2] >= 'A' && s.s[2] <= 'Z')
            return 1; /* cuInit, cuMemAlloc */
        if (s.s[2] == 'd' && s.s[3] == 'a' && s.len > 4 && s.s[4] >= 'A' && s.s[4] <= 'Z')
            return 1; /* cudaMalloc */
    }
    /* a library's prefix, then a capital (cublasSgemm) or, in capitals, an underscore
     * (CUBLAS_OP_N); cublas_handle is a project's own */
    for (size_t k = 0; k < sizeof prefixes / sizeof *prefixes; k++) {
        hp_str p = prefixes[k];
        if (s.len > p.len && s.s[0] == p.s[0] && s.s[1] == p.s[1] && str_starts(s, p) &&
            (p.s[p.len - 1] == '_' || (s.s[p.len] >= 'A' && s.s[p.len] <= 'Z')))
            return 1;
    }
    return 0;
}

/* The CUDA-like identifiers of a header's tokens, in order (repeats kept), in a. */
static void cuda_list(arena *a, const char *src, const lex_out *lx, hp_str **out, ptrdiff_t *n)
{
    ptrdiff_t cap = 0, k = 0;
    hp_str *v = NULL;
    for (ptrdiff_t i = 0; i < lx->n; i++) {
        const tok *t = &lx->toks[i];
        if (t->kind != TK_IDENT)
            continue;
        hp_str name = str_make(src + t->off, t->len);
        if (!warp_env_cuda_like_name(name))
            continue;
        if (k == cap) {
            ptrdiff_t ncap = cap ? cap * 2 : 16;
            hp_str *nv = arena_grow(a, v, cap * (ptrdiff_t)sizeof *v, ncap * (ptrdiff_t)sizeof *v,
                                    _Alignof(hp_str));
            if (!nv)
                break;
            v = nv;
            cap = ncap;
        }
        v[k++] = name;
    }
    *out = v;
    *n = k;
}

/* Notes the CUDA-like names a header mentions: the header declares them, or its own
 * translation reports them; either way the includer need not. */
static void env_cuda_names(env_walk *w, const hp_str *names, ptrdiff_t count)
{
    warp_env *e = w->env;
    for (ptrdiff_t k = 0; k < count; k++) {
        hp_str n = names[k];
        if (e->ncuda >= 4096 || nameidx_get(&e->cuda_ix, n) >= 0)
            continue;
        if (e->ncuda == e->capcuda) {
            int ncap = e->capcuda ? e->capcuda * 2 : 32;
            e->cuda_names = arena_grow(w->a, e->cuda_names,
                                       (ptrdiff_t)e->capcuda * (ptrdiff_t)sizeof(hp_str),
                                       (ptrdiff_t)ncap * (ptrdiff_t)sizeof(hp_str),
                                       _Alignof(hp_str));
            e->capcuda = ncap;
        }
        e->cuda_names[e->ncuda++] = n;
        if (2 * (ptrdiff_t)e->ncuda > e->cuda_ix.cap) {
            /* rebuilt, twice as large, from the list */
            if (!nameidx_init(&e->cuda_ix, w->a, 2 * (ptrdiff_t)e->ncuda + 32))
                continue;
            for (int j = 0; j < e->ncuda; j++)
                nameidx_put(&e->cuda_ix, e->cuda_names[j], j, 0);
        } else {
            nameidx_put(&e->cuda_ix, n, e->ncuda - 1, 0);
        }
    }
}

#define GUARD_MACRO "__cuda_cuda_h__"

/* Whether the directive at h tests cuda.h's include guard: #ifdef __cuda_cuda_h__ or
 * #if defined(__cuda_cuda_h__) (alone). */
int warp_env_tests_cuda_guard(const xlate *hx, ptrdiff_t h)
{
    int sub = hx->t[h].sub;
    if (sub != PP_IFDEF && sub != PP_IF)
        return 0;
    ptrdiff_t k = xlate_next(hx, xlate_next(hx, h)), end = k;
    while (end < hx->nt && hx->t[end].kind != TK_PP_END)
        end++;
    int named = 0, other = 0;
    for (; k < end; k = xlate_next(hx, k)) {
        if (xlate_is(hx, k, GUARD_MACRO))
            named = 1;
        else if (!xlate_is(hx, k, "defined") && !xlate_punct(hx, k, '(') &&
                 !xlate_punct(hx, k, ')'))
            other = 1;
    }
    return named && !other;
}

static void guarded_add(env_walk *w, hp_str name, const char *file, int line)
{
    warp_env *e = w->env;
    if (e->nguarded >= 1024 || nameidx_get(&e->guarded_ix, name) >= 0)
        return;
    if (e->nguarded == e->capguarded) {
        int ncap = e->capguarded ? e->capguarded * 2 : 16;
        ptrdiff_t oc = e->capguarded, nc = ncap;
        e->guarded = arena_grow(w->a, e->guarded, oc * (ptrdiff_t)sizeof(hp_str),
                                nc * (ptrdiff_t)sizeof(hp_str), _Alignof(hp_str));
        e->guarded_file = arena_grow(w->a, e->guarded_file, oc * (ptrdiff_t)sizeof(char *),
                                     nc * (ptrdiff_t)sizeof(char *), _Alignof(char *));
        e->guarded_line = arena_grow(w->a, e->guarded_line, oc * (ptrdiff_t)sizeof(int),
                                     nc * (ptrdiff_t)sizeof(int), _Alignof(int));
        e->capguarded = ncap;
    }
    e->guarded[e->nguarded] = name;
    e->guarded_file[e->nguarded] = file;
    e->guarded_line[e->nguarded] = line;
    e->nguarded++;
    if (2 * (ptrdiff_t)e->nguarded > e->guarded_ix.cap) {
        if (!nameidx_init(&e->guarded_ix, w->a, 4 * (ptrdiff_t)e->nguarded + 16))
            return;
        for (int k = 0; k < e->nguarded; k++)
            nameidx_put(&e->guarded_ix, e->guarded[k], k, 0);
    } else {
        nameidx_put(&e->guarded_ix, name, e->nguarded - 1, 0);
    }
}

static void plain_add(env_walk *w, hp_str name)
{
    warp_env *e = w->env;
    if (e->nplain >= 8192 || nameidx_get(&e->plain_ix, name) >= 0)
        return;
    if (e->nplain == e->capplain) {
        int ncap = e->capplain ? e->capplain * 2 : 64;
        e->plain = arena_grow(w->a, e->plain, (ptrdiff_t)e->capplain * (ptrdiff_t)sizeof(hp_str),
                              (ptrdiff_t)ncap * (ptrdiff_t)sizeof(hp_str), _Alignof(hp_str));
        e->capplain = ncap;
    }
    e->plain[e->nplain++] = name;
    if (2 * (ptrdiff_t)e->nplain > e->plain_ix.cap) {
        if (!nameidx_init(&e->plain_ix, w->a, 4 * (ptrdiff_t)e->nplain + 64))
            return;
        for (int k = 0; k < e->nplain; k++)
            nameidx_put(&e->plain_ix, e->plain[k], k, 0);
    } else {
        nameidx_put(&e->plain_ix, name, e->nplain - 1, 0);
    }
}

int warp_env_guard_step(const xlate *x, ptrdiff_t i, int *depth, int *open_at)
{
    int sub = x->t[i].sub;
    if (sub == PP_IF || sub == PP_IFDEF || sub == PP_IFNDEF) {
        (*depth)++;
        if (*open_at < 0 && warp_env_tests_cuda_guard(x, i)) {
            *open_at = *depth;
            return 1;
        }
    } else if ((sub == PP_ELIF || sub == PP_ELSE) && *depth == *open_at) {
        *open_at = -1;
    } else if (sub == PP_ENDIF) {
        if (*depth == *open_at)
            *open_at = -1;
        (*depth)--;
    }
    return 0;
}

/* The functions and macros a header defines inside '#ifdef __cuda_cuda_h__' (up to its #else
 * or #endif): a #define's name, and at brace depth 0 a name followed by a parameter list and
 * a body. have: whether a directive of the header tests cuda.h's guard (the cache knows it),
 * or -1. */
static void env_guarded(env_walk *w, const char *path, const xlate *hx, int have)
{
    if (have < 0)
        have = any_cuda_guard(hx);
    if (!have) {
        /* its macros, defined whatever cuda.h's guard says (checkCudaErrors of a runtime
         * helper header beside a driver one that defines it under the guard) */
        for (ptrdiff_t d = 0; d < hx->ndirs; d++) {
            ptrdiff_t h = hx->dirs[d], n = xlate_next(hx, xlate_next(hx, h));
            if (hx->t[h].sub == PP_DEFINE && n < hx->nt && hx->t[n].kind == TK_IDENT)
                plain_add(w, xlate_text(hx, n));
        }
        return;
    }
    int depth = 0, open_at = -1, line = 0, braces = 0;
    for (ptrdiff_t i = 0; i < hx->nt; i++) {
        const tok *t = &hx->t[i];
        if (t->kind == TK_PP_HASH) {
            if (warp_env_guard_step(hx, i, &depth, &open_at)) {
                line = 1;
                for (ptrdiff_t b = 0; b < t->off; b++)
                    line += hx->src[b] == '\n';
            } else if (t->sub == PP_DEFINE) {
                ptrdiff_t n = xlate_next(hx, xlate_next(hx, i));
                if (n < hx->nt && hx->t[n].kind == TK_IDENT) {
                    if (open_at > 0)
                        guarded_add(w, xlate_text(hx, n), path, line);
                    else
                        plain_add(w, xlate_text(hx, n));
                }
            }
            continue;
        }
        if (t->flags & TF_PP)
            continue;
        if (t->kind == TK_PUNCT && t->sub == '{')
            braces++;
        else if (t->kind == TK_PUNCT && t->sub == '}' && braces > 0)
            braces--;
        if (open_at < 0 || braces != 0 || t->kind != TK_IDENT)
            continue;
        ptrdiff_t open = xlate_next(hx, i);
        if (!xlate_punct(hx, open, '('))
            continue;
        lex_args a;
        if (!xlate_args(hx, open, &a))
            continue;
        ptrdiff_t after = xlate_next(hx, a.close);
        while (after < hx->nt && hx->t[after].kind == TK_IDENT)
            after = xlate_next(hx, after); /* const, noexcept */
        if (xlate_punct(hx, after, '{'))
            guarded_add(w, xlate_text(hx, i), path, line);
    }
}

/* lx: the file's tokens when they are at hand (a cached header), else NULL */
/* An angled include's header found in the tree: beside the includer, or in a directory up to
 * four levels above it or in one of those directories' subdirectories (a project's -I
 * directory, such as a samples tree's Common/); NULL where none is (or no cache can say). */
/* Is the angled include one of the system's, the toolkit's or a framework's (<vector>,
 * <stdio.h>, <cuda_runtime.h>, <thrust/sort.h>, <torch/extension.h>), never a project's
 * helper header? Those are not searched for in the tree. */
static int system_header(hp_str inc)
{
    if (!memchr(inc.s, '.', (size_t)inc.len))
        return 1; /* the C++ library's */
    static const char *const prefixes[] = {"cuda_runtime", "cuda.h", "cuda_fp", "cuda_bf",
                                           "cublas", "cufft", "curand", "cusparse", "cusolver",
                                           "cudnn", "thrust/", "cub/", "torch/",
                                           "c10/", "ATen/", "hip/", "sys/", "std", "math.h",
                                           "string.h", "assert.h", "time.h", "limits.h",
                                           "float.h", "errno.h", "ctype.h", "unistd.h",
                                           "pthread.h", "omp.h", "mpi.h", "GL/", "boost/"};
    for (size_t k = 0; k < sizeof prefixes / sizeof *prefixes; k++)
        if (str_starts(inc, str_cstr(prefixes[k])))
            return 1;
    return 0;
}

static const char *search_angled(env_walk *w, const char *path, int dirlen, hp_str inc)
{
    ptrdiff_t at = dirlen;
    for (int up = 0; up < 5 && at > 0; up++) {
        const char *c = arena_join(w->a, path, at, '/', inc.s, inc.len);
        if (c && !path_absent(w->cache, c, at))
            return c;
        /* the directories projects name with -I: probing each subdirectory of every level
         * for every angled include (<vector>, <cuda_runtime.h>) cost more than the
         * translation of the tree */
        static const char *const inc_dirs[] = {"Common", "common", "include", "inc", "utils",
                                               "util", "helpers"};
        for (size_t k = 0; up > 0 && k < sizeof inc_dirs / sizeof *inc_dirs; k++) {
            const char *sub = arena_join(w->a, path, at, '/', inc_dirs[k],
                                         (ptrdiff_t)strlen(inc_dirs[k]));
            const char *cc = sub ? arena_join(w->a, sub, (ptrdiff_t)strlen(sub), '/', inc.s,
                                              inc.len)
                                 : NULL;
            if (cc && !path_absent(w->cache, cc, at))
                return cc;
        }
        while (at > 0 && path[at - 1] != '/')
            at--;
        if (at > 0)
            at--; /* path[0..at) is the parent */
    }
    return NULL;
}

/* search_angled's answer, asked once per directory of includers and include (the run's
 * table; the search itself where the table is full or memory short) */
static const char *find_angled(env_walk *w, const char *path, int dirlen, hp_str inc)
{
    warp_env_cache *c = w->cache;
    if (!c || !dirlen || inc.len < 3 || inc.s[0] == '/' || system_header(inc))
        return NULL;
    ptrdiff_t klen = (ptrdiff_t)dirlen + 1 + inc.len;
    char stack[512];
    char *key = klen <= (ptrdiff_t)sizeof stack ? stack : malloc((size_t)klen);
    if (!key)
        return search_angled(w, path, dirlen, inc);
    memcpy(key, path, (size_t)dirlen);
    key[dirlen] = 0;
    memcpy(key + dirlen + 1, inc.s, (size_t)inc.len);
    unsigned hash = str_hash(key, klen, 0) & (ANGL_CAP - 1);
    const char *found = NULL;
    int have = 0, full;
    pthread_rwlock_rdlock(&c->mu);
    for (angl *g = c->aslot[hash]; g; g = g->next)
        if (g->klen == klen && memcmp(g->key, key, (size_t)klen) == 0) {
            found = g->found;
            have = 1;
            break;
        }
    full = c->used >= c->budget;
    pthread_rwlock_unlock(&c->mu);
    if (have || full) {
        if (key != stack)
            free(key);
        return have ? found : search_angled(w, path, dirlen, inc);
    }
    const char *res = search_angled(w, path, dirlen, inc);
    angl *g = malloc(sizeof *g + (size_t)klen);
    char *copy = res ? strdup(res) : NULL;
    if (!g || (res && !copy)) {
        free(g);
        free(copy);
        if (key != stack)
            free(key);
        return res;
    }
    memcpy(g->key, key, (size_t)klen);
    g->klen = klen;
    g->found = copy;
    if (key != stack)
        free(key);
    pthread_rwlock_wrlock(&c->mu);
    angl *dup = NULL;
    for (angl *h = c->aslot[hash]; h; h = h->next)
        if (h->klen == klen && memcmp(h->key, g->key, (size_t)klen) == 0)
            dup = h;
    if (!dup) {
        g->next = c->aslot[hash];
        c->aslot[hash] = g;
        c->used += (ptrdiff_t)sizeof *g + klen + (copy ? (ptrdiff_t)strlen(copy) + 1 : 0);
    }
    pthread_rwlock_unlock(&c->mu);
    if (dup) {
        free(copy);
        free(g);
    }
    return res;
}

/* The mask indexes of the cached header h (whose tokens hx holds) in its arena, or NULL where
 * memory ran out; under mu. */
static struct warp_idx *shared_index(hdr *h, const xlate *hx, pthread_mutex_t *mu)
{
    xlate ix = *hx;
    ix.a = &h->a;
    jmp_buf jb, *old = h->a.oom;
    h->a.oom = &jb;
    if (setjmp(jb)) {
        h->a.oom = old;
        return NULL;
    }
    struct warp_idx *r = xlate_warp_index(&ix, mu);
    h->a.oom = old;
    return r;
}

/* guard_only: a header reached through an angled include, read for its guarded helpers only */
static void env_file(env_walk *w, const char *path, const char *src, ptrdiff_t len,
                     const hdr *have, int depth, int guard_only)
{
    xlate hx;
    lex_out lx;
    if (have)
        lx = have->lx;
    else if (depth == 0)
        lex_all_marked(w->a, src, len, w->filter, &lx);
    else
        lex_all(w->a, src, len, &lx);
    xlate_over(&hx, w->a, src, len, &lx);
    hx.env = w->env;
    if (have && !guard_only && depth > 0 && w->cache) {
        /* its #defines are classified below: the indexes, shared read-only once built */
        hdr *h = (hdr *)have;
        struct warp_idx *wi = atomic_load_explicit(&h->warp, memory_order_acquire);
        if (!wi) {
            pthread_mutex_lock(&w->cache->build_mu);
            wi = atomic_load_explicit(&h->warp, memory_order_relaxed);
            if (!wi) {
                wi = shared_index(h, &hx, &w->cache->build_mu);
                atomic_store_explicit(&h->warp, wi, memory_order_release);
            }
            pthread_mutex_unlock(&w->cache->build_mu);
        }
        hx.warp = wi;
    }
    if (depth == 0 && lx.toks)
        w->env->lx = lx;
    if (depth > 0 && lx.toks && !guard_only) {
        if (have) {
            env_cuda_names(w, have->cuda, have->ncuda);
        } else {
            hp_str *names;
            ptrdiff_t n;
            cuda_list(w->a, src, &lx, &names, &n);
            env_cuda_names(w, names, n);
        }
    }
    if (depth > 0 && lx.toks)
        env_guarded(w, path, &hx, have ? have->guard : -1);
    const char *slash = strrchr(path, '/');
    int dirlen = slash ? (int)(slash - path) : 0;
    for (ptrdiff_t d = 0; d < hx.ndirs; d++) {
        ptrdiff_t h = hx.dirs[d];
        ptrdiff_t name = xlate_next(&hx, h), op = xlate_next(&hx, name);
        if (hx.t[h].sub == PP_DEFINE && op < hx.nt && hx.t[op].kind == TK_IDENT && !guard_only) {
            /* #define NAME value: NAME is op here */
            int kind = xlate_warp_macro_mask(&hx, xlate_text(&hx, op));
            if (kind)
                env_add(w, xlate_text(&hx, op), kind);
            continue;
        }
        if (hx.t[h].sub != PP_INCLUDE || depth >= ENV_MAX_DEPTH || op >= hx.nt)
            continue;
        int angled = hx.t[op].kind == TK_HEADER && hx.t[op].len >= 3;
        if (!angled && (hx.t[op].kind != TK_STRING || hx.t[op].len < 3 || src[hx.t[op].off] != '"'))
            continue;
        hp_str inc = str_make(src + hx.t[op].off + 1, hx.t[op].len - 2);
        const char *child = angled ? find_angled(w, path, dirlen, inc)
                            : inc.s[0] == '/' || !dirlen
                                ? arena_strndup(w->a, inc.s, inc.len)
                                : arena_join(w->a, path, dirlen, '/', inc.s, inc.len);
        if (child && !angled && w->cache && inc.s[0] != '/' && dirlen &&
            path_absent(w->cache, child, dirlen)) {
            /* "helper.h" not beside the includer: found through -I, as an angled one is */
            child = find_angled(w, path, dirlen, inc);
            angled = 1;
        }
        if (!child)
            continue;
        int child_guard_only = guard_only || angled;
        /* the headers read for their guarded helpers only are a list of their own: one of
         * them read again through a quoted include is read for everything */
        const char **seenv = child_guard_only ? w->gseen : w->seen;
        int *nseenp = child_guard_only ? &w->ngseen : &w->nseen;
        int seen = 0;
        for (int k = 0; k < *nseenp; k++)
            if (strcmp(seenv[k], child) == 0)
                seen = 1;
        if (seen || *nseenp == ENV_MAX_FILES)
            continue;
        seenv[(*nseenp)++] = child;
        if (!angled && w->cache && inc.s[0] != '/' && dirlen && path_absent(w->cache, child, dirlen))
            continue;
        hdr *ch = w->cache ? cache_get(w->cache, child) : NULL;
        if (ch) {
            if (ch->ok)
                env_file(w, child, ch->src, ch->len, ch, depth + 1, child_guard_only);
            continue;
        }
        char *data;
        ptrdiff_t dlen;
        const char *err;
        if (os_read_file(w->a, child, ENV_MAX_BYTES, &data, &dlen, &err) != HP_OK)
            continue;
        env_file(w, child, data, dlen, NULL, depth + 1, child_guard_only);
    }
}

void warp_env_collect(arena *a, const char *path, const char *src, ptrdiff_t len,
                      const lex_filter *filter, warp_env *env, warp_env_cache *cache)
{
    env_walk w;
    memset(&w, 0, sizeof w);
    w.a = a;
    w.filter = filter;
    w.env = env;
    w.cache = cache;
    w.seen[w.nseen++] = path;
    env_file(&w, path, src, len, NULL, 0, 0);
}
