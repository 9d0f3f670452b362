/* os_tree.c: files below a directory opened once, never through a symbolic link, written
 * through registered temporary files renamed into place.
 *
 * Directories: a path below the tree is opened from the tree's own descriptor one component
 * at a time with O_NOFOLLOW, so a link anywhere on the way (also one made while the run goes
 * on) stops the write instead of leading it elsewhere. The descriptors of the directories in
 * use are cached (a few dozen, least recently used first out, counted while in use), so that
 * the files of one directory cost one lookup, not one open per component.
 *
 * Temporary files are named ".NAME.hipport-PID-N" (N counts this process's files). Each is
 * registered in a fixed table from before it is created until it has been renamed or removed;
 * hp_abort_writes, which a signal handler calls, removes what the table holds. The table's
 * states:
 *   FREE -> CLAIMED (a writer took the slot and writes the name) -> CREATING (the file is
 *   being created) -> ACTIVE (it exists) -> FREE (renamed or removed)
 * hp_abort_writes first marks writes aborted (a writer that then moves a slot to CREATING sees
 * it and gives up), waits for the slots that other threads are creating, and takes every
 * CREATING or ACTIVE slot for itself (DYING) before it reads the name: a name is only ever
 * written in CLAIMED, so it never reads one half written. A slot that its own thread was
 * creating when the signal came is known by a thread-local index and not waited for.
 *
 * A later run removes the temporary files a killed run left (SIGKILL cannot be caught): when
 * it first opens a directory it did not make, the files there that match the pattern, are
 * regular, are the caller's (or the caller is root) and whose process is gone are removed. */
#define _GNU_SOURCE 1
#include "os_tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "str.h"

#include "banned.h"

/* ------------------------------------------------------------------ the registry */

enum { T_FREE, T_CLAIMED, T_CREATING, T_ACTIVE, T_DYING };

typedef struct tslot {
    atomic_int state;
    int dirfd;               /* the directory the file is in (held open while registered) */
    char name[NAME_MAX + 1]; /* written only in CLAIMED */
} tslot;

enum { NSLOTS = 512 };
static tslot slots[NSLOTS];
static atomic_int aborted;
static atomic_uint slot_hint;
static atomic_ullong temp_seq;

/* The slot this thread is creating a file for, or -1 (read by hp_abort_writes when it runs
 * in this thread: the initial-exec model keeps that read free of any call). */
#if defined(__GNUC__)
__attribute__((tls_model("initial-exec")))
#endif
static _Thread_local int tl_creating = -1;

void hp_abort_writes(void)
{
    atomic_store(&aborted, 1);
    for (int i = 0; i < NSLOTS; i++) {
        tslot *s = &slots[i];
        for (;;) {
            int st = atomic_load(&s->state);
            if (st == T_CREATING && i != tl_creating)
                continue; /* another thread is in open(): its file exists in a moment */
            if (st != T_CREATING && st != T_ACTIVE)
                break;
            if (atomic_compare_exchange_strong(&s->state, &st, T_DYING)) {
                unlinkat(s->dirfd, s->name, 0);
                break;
            }
        }
    }
}

/* Takes a free slot for a file named name in dirfd; -1 when all are taken. */
static int slot_claim(int dirfd, const char *name)
{
    unsigned start = atomic_fetch_add(&slot_hint, 1u);
    for (unsigned k = 0; k < NSLOTS; k++) {
        int i = (int)((start + k) % NSLOTS);
        int want = T_FREE;
        if (atomic_compare_exchange_strong(&slots[i].state, &want, T_CLAIMED)) {
            size_t n = strlen(name);
            memcpy(slots[i].name, name, n + 1);
            slots[i].dirfd = dirfd;
            return i;
        }
    }
    return -1;
}

/* The file is renamed or removed: the slot is free again (unless hp_abort_writes has it). */
static void slot_release(int i)
{
    int want = T_ACTIVE;
    atomic_compare_exchange_strong(&slots[i].state, &want, T_FREE);
}

/* Is a file of this process named name registered now? */
static int registered(const char *name)
{
    for (int i = 0; i < NSLOTS; i++) {
        int st = atomic_load(&slots[i].state);
        if ((st == T_CREATING || st == T_ACTIVE) && strcmp(slots[i].name, name) == 0)
            return 1;
    }
    return 0;
}

/* The process id in a temporary file's name, or 0 when name is not one. */
static long temp_pid(const char *name)
{
    size_t n = strlen(name);
    if (n < 14 || name[0] != '.')
        return 0;
    size_t i = n;
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
        i--;
    if (i == n || i == 0 || name[i - 1] != '-')
        return 0;
    size_t end = --i;
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
        i--;
    if (i == end || end - i > 18)
        return 0;
    static const char tag[] = ".hipport-";
    size_t t = sizeof tag - 1;
    if (i < t + 2 || memcmp(name + i - t, tag, t) != 0)
        return 0;
    long pid = 0;
    for (size_t k = i; k < end; k++)
        pid = pid * 10 + (name[k] - '0');
    return pid;
}

int os_tree_is_temp(const char *name)
{
    return temp_pid(name) > 0;
}

/* This process's id, asked once (a child of fork asks again). */
static atomic_long my_pid;

static void forget_pid(void)
{
    atomic_store(&my_pid, 0);
}

static void register_forget(void)
{
    pthread_atfork(NULL, NULL, forget_pid);
}

static long self_pid(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    long pid = atomic_load(&my_pid);
    if (pid == 0) {
        pthread_once(&once, register_forget);
        pid = (long)getpid();
        atomic_store(&my_pid, pid);
    }
    return pid;
}

/* Creates a registered temporary file for name in dirfd with mode m (the umask applies).
 * Returns the descriptor and sets *slot and tmp, or -1 with *e. */
static int temp_create(int dirfd, const char *name, unsigned m, char tmp[NAME_MAX + 1],
                       int *slot, int *e)
{
    for (int tries = 0; tries < 100; tries++) {
        unsigned long long seq = atomic_fetch_add(&temp_seq, 1ull);
        /* ".NAME.hipport-PID-N" within NAME_MAX: a long NAME is cut short */
        char tail[64];
        int tl = snprintf(tail, sizeof tail, ".hipport-%ld-%llu", self_pid(), seq);
        size_t room = NAME_MAX - 1 - (size_t)tl, n = strlen(name);
        if (n > room)
            n = room;
        tmp[0] = '.';
        memcpy(tmp + 1, name, n);
        memcpy(tmp + 1 + n, tail, (size_t)tl + 1);
        int i = slot_claim(dirfd, tmp);
        if (i < 0) {
            *e = EAGAIN;
            return -1;
        }
        tl_creating = i;
        atomic_store(&slots[i].state, T_CREATING);
        if (atomic_load(&aborted)) {
            atomic_store(&slots[i].state, T_FREE);
            tl_creating = -1;
            *e = EINTR;
            return -1;
        }
        int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                        (mode_t)(m & 07777u));
        int err = errno;
        atomic_store(&slots[i].state, fd >= 0 ? T_ACTIVE : T_FREE);
        tl_creating = -1;
        if (fd >= 0) {
            *slot = i;
            return fd;
        }
        if (err != EEXIST) {
            *e = err;
            return -1;
        }
        /* a file of a killed process of the same id and number: the next number */
    }
    *e = EEXIST;
    return -1;
}

/* Is the temporary file name (of process pid) left over from a process that is gone? */
static int stale(long pid, const char *name)
{
    if (pid == self_pid())
        return !registered(name); /* an earlier process of the same id (containers) */
    return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Removes the stale temporary files in the directory open on dirfd. */
static void sweep(int dirfd)
{
    int d = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
    if (d < 0)
        return;
    DIR *dp = fdopendir(d);
    if (!dp) {
        close(d);
        return;
    }
    uid_t me = geteuid();
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        long pid = temp_pid(e->d_name);
        if (pid <= 0 || !stale(pid, e->d_name))
            continue;
        struct stat sb;
        if (fstatat(dirfd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(sb.st_mode))
            continue;
        if (me != 0 && sb.st_uid != me)
            continue;
        unlinkat(dirfd, e->d_name, 0);
    }
    closedir(dp);
}

/* ------------------------------------------------------------------ directories */

enum { NDIRS = 64 };

typedef struct tdir {
    char *rel;               /* malloc'd; NULL: the entry is free */
    unsigned hash;
    int fd;
    int refs;                /* users now */
    unsigned long long used; /* for least-recently-used eviction */
} tdir;

struct os_tree {
    char *path;
    int create;
    pthread_mutex_t mu;
    int root;       /* the tree's descriptor, -1 until opened */
    int root_errno; /* why it could not be opened (then every use fails) */
    int root_made;  /* the open made it */
    tdir dirs[NDIRS];
    unsigned long long clock;
};

/* A directory in use: its descriptor, and the cache entry to give back (-1: the root, -2: a
 * descriptor of the caller's own, closed on release). */
typedef struct tref {
    int fd;
    int slot;
} tref;

os_tree *os_tree_new(const char *dir, int create)
{
    os_tree *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    size_t n = strlen(dir);
    t->path = malloc(n + 1);
    if (!t->path) {
        free(t);
        return NULL;
    }
    memcpy(t->path, dir, n + 1);
    t->create = create;
    t->root = -1;
    pthread_mutex_init(&t->mu, NULL);
    return t;
}

void os_tree_free(os_tree *t)
{
    if (!t)
        return;
    for (int i = 0; i < NDIRS; i++)
        if (t->dirs[i].rel) {
            close(t->dirs[i].fd);
            free(t->dirs[i].rel);
        }
    if (t->root >= 0)
        close(t->root);
    pthread_mutex_destroy(&t->mu);
    free(t->path);
    free(t);
}

const char *os_tree_path(const os_tree *t)
{
    return t->path;
}

/* The tree's path, then '/' and rel[0..n) (the way messages name what is below it). */
static const char *shown(arena *a, const os_tree *t, const char *rel, ptrdiff_t n)
{
    ptrdiff_t pl = (ptrdiff_t)strlen(t->path);
    if (n == 0)
        return t->path;
    if (pl > 0 && t->path[pl - 1] == '/')
        pl--;
    return arena_join(a, t->path, pl, '/', rel, n);
}

/* mkdir -p path. Returns 0 or errno. */
static int make_dirs(const char *path)
{
    char tmp[PATH_MAX];
    size_t n = strlen(path);
    if (n + 1 >= sizeof tmp)
        return ENAMETOOLONG;
    memcpy(tmp, path, n + 1);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(tmp, 0777) != 0 && errno != EEXIST) {
            int e = errno;
            *p = '/';
            return e;
        }
        *p = '/';
    }
    if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
        return errno;
    return 0;
}

/* Opens the tree's own directory (with the lock held). */
static void open_root(os_tree *t)
{
    if (t->root >= 0 || t->root_errno)
        return;
    int fd = open(t->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT && t->create) {
        int e = make_dirs(t->path);
        if (e) {
            t->root_errno = e;
            return;
        }
        t->root_made = 1;
        fd = open(t->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    }
    if (fd < 0) {
        t->root_errno = errno;
        return;
    }
    t->root = fd;
    if (!t->root_made)
        sweep(fd);
}

/* Opens rel[0..n) below root one component at a time, following no link; with mkdirs the
 * missing ones are made (*made: the last one was). Returns the descriptor, or -1 with *e
 * (ELOOP: a symbolic link) and *bad, the length of the prefix of rel that failed. */
static int open_below(int root, const char *rel, ptrdiff_t n, int mkdirs, int *made, int *e,
                      ptrdiff_t *bad)
{
    int cur = root;
    *made = 0;
    ptrdiff_t i = 0;
    while (i < n) {
        ptrdiff_t j = i;
        while (j < n && rel[j] != '/')
            j++;
        ptrdiff_t cl = j - i;
        if (cl == 0 || (cl == 1 && rel[i] == '.')) {
            i = j + 1;
            continue;
        }
        char comp[NAME_MAX + 1];
        if (cl > NAME_MAX || (cl == 2 && rel[i] == '.' && rel[i + 1] == '.')) {
            *e = cl > NAME_MAX ? ENAMETOOLONG : EINVAL;
            *bad = j;
            if (cur != root)
                close(cur);
            return -1;
        }
        memcpy(comp, rel + i, (size_t)cl);
        comp[cl] = 0;
        int fd = openat(cur, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        *made = 0;
        if (fd < 0 && errno == ENOENT && mkdirs) {
            if (mkdirat(cur, comp, 0777) == 0)
                *made = 1;
            fd = openat(cur, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        }
        if (fd < 0) {
            int err = errno;
            struct stat sb;
            if ((err == ELOOP || err == ENOTDIR) &&
                fstatat(cur, comp, &sb, AT_SYMLINK_NOFOLLOW) == 0)
                err = S_ISLNK(sb.st_mode) ? ELOOP : ENOTDIR;
            *e = err;
            *bad = j;
            if (cur != root)
                close(cur);
            return -1;
        }
        if (cur != root)
            close(cur);
        cur = fd;
        i = j + 1;
    }
    return cur;
}

static const char *dir_error(arena *a, const os_tree *t, const char *rel, ptrdiff_t bad, int e)
{
    const char *p = shown(a, t, rel, bad);
    if (e == ELOOP)
        return arena_printf(a, "'%s' is a symbolic link (not followed)", p);
    if (e == ENOTDIR)
        return arena_printf(a, "'%s' is not a directory", p);
    if (e == EINVAL)
        return arena_printf(a, "'..' in the path '%s'", p);
    return arena_printf(a, "cannot open the directory '%s': %s", p, strerror(e));
}

/* The cache entry of rel[0..n) (hash h), or -1; with the lock held. */
static int find_dir(const os_tree *t, const char *rel, ptrdiff_t n, unsigned h)
{
    for (int i = 0; i < NDIRS; i++) {
        const tdir *d = &t->dirs[i];
        if (d->rel && d->hash == h && strncmp(d->rel, rel, (size_t)n) == 0 && d->rel[n] == 0)
            return i;
    }
    return -1;
}

/* Takes the directory rel[0..n) below the tree for use (dir_release gives it back). */
static hp_status dir_acquire(os_tree *t, arena *a, const char *rel, ptrdiff_t n, int mkdirs,
                             tref *ref, int *link, const char **err)
{
    pthread_mutex_lock(&t->mu);
    open_root(t);
    if (t->root < 0) {
        int e = t->root_errno;
        pthread_mutex_unlock(&t->mu);
        *err = arena_printf(a, "cannot %s the directory '%s': %s",
                            t->create && e != ENOTDIR ? "create" : "open", t->path, strerror(e));
        return HP_EIO;
    }
    if (n == 0) {
        ref->fd = t->root;
        ref->slot = -1;
        pthread_mutex_unlock(&t->mu);
        return HP_OK;
    }
    unsigned h = str_hash(rel, n, 0);
    int i = find_dir(t, rel, n, h);
    if (i >= 0) {
        t->dirs[i].refs++;
        t->dirs[i].used = ++t->clock;
        ref->fd = t->dirs[i].fd;
        ref->slot = i;
        pthread_mutex_unlock(&t->mu);
        return HP_OK;
    }
    /* opened from the nearest directory above it that is open already */
    int base = t->root, anc = -1;
    ptrdiff_t done = 0;
    for (ptrdiff_t k = n - 1; k > 0 && anc < 0; k--)
        if (rel[k] == '/' && (anc = find_dir(t, rel, k, str_hash(rel, k, 0))) >= 0) {
            t->dirs[anc].refs++;
            base = t->dirs[anc].fd;
            done = k + 1;
        }
    pthread_mutex_unlock(&t->mu);

    int made, e;
    ptrdiff_t bad;
    int fd = open_below(base, rel + done, n - done, mkdirs, &made, &e, &bad);
    if (anc >= 0) {
        pthread_mutex_lock(&t->mu);
        t->dirs[anc].refs--;
        pthread_mutex_unlock(&t->mu);
    }
    if (fd < 0) {
        *link = e == ELOOP;
        *err = dir_error(a, t, rel, done + bad, e);
        return HP_EIO;
    }
    if (!made)
        sweep(fd);
    char *key = malloc((size_t)n + 1);
    pthread_mutex_lock(&t->mu);
    int free_i = -1, old_i = -1;
    for (i = 0; i < NDIRS; i++) {
        tdir *d = &t->dirs[i];
        if (!d->rel) {
            if (free_i < 0)
                free_i = i;
            continue;
        }
        if (d->hash == h && strncmp(d->rel, rel, (size_t)n) == 0 && d->rel[n] == 0) {
            /* another thread opened it meanwhile: its entry is used */
            d->refs++;
            d->used = ++t->clock;
            ref->fd = d->fd;
            ref->slot = i;
            pthread_mutex_unlock(&t->mu);
            close(fd);
            free(key);
            return HP_OK;
        }
        if (d->refs == 0 && (old_i < 0 || d->used < t->dirs[old_i].used))
            old_i = i;
    }
    i = free_i >= 0 ? free_i : old_i;
    if (i < 0 || !key) {
        pthread_mutex_unlock(&t->mu);
        free(key);
        ref->fd = fd; /* every entry in use: a descriptor of the caller's own */
        ref->slot = -2;
        return HP_OK;
    }
    tdir *d = &t->dirs[i];
    int evicted = -1;
    if (d->rel) {
        evicted = d->fd;
        free(d->rel);
    }
    memcpy(key, rel, (size_t)n);
    key[n] = 0;
    d->rel = key;
    d->hash = h;
    d->fd = fd;
    d->refs = 1;
    d->used = ++t->clock;
    ref->fd = fd;
    ref->slot = i;
    pthread_mutex_unlock(&t->mu);
    if (evicted >= 0)
        close(evicted);
    return HP_OK;
}

static void dir_release(os_tree *t, const tref *ref)
{
    if (ref->slot == -2) {
        close(ref->fd);
    } else if (ref->slot >= 0) {
        pthread_mutex_lock(&t->mu);
        t->dirs[ref->slot].refs--;
        pthread_mutex_unlock(&t->mu);
    }
}

/* Splits rel into its directory (rel[0..*dlen)) and its last component. */
static const char *split(const char *rel, ptrdiff_t *dlen)
{
    const char *slash = strrchr(rel, '/');
    *dlen = slash ? slash - rel : 0;
    return slash ? slash + 1 : rel;
}

static int bad_name(const char *name)
{
    return !name[0] || strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
           strlen(name) > NAME_MAX;
}

/* ------------------------------------------------------------------ reading */

hp_status os_tree_read(os_tree *t, arena *a, const char *rel, ptrdiff_t max, char **data,
                       ptrdiff_t *len, os_meta *meta, int *kind, const char **err)
{
    *data = NULL;
    *len = 0;
    *kind = 0;
    if (meta)
        memset(meta, 0, sizeof *meta);
    ptrdiff_t dl;
    const char *name = split(rel, &dl);
    if (bad_name(name)) {
        *err = "not a file name";
        return HP_EIO;
    }
    tref ref;
    int link = 0;
    hp_status s = dir_acquire(t, a, rel, dl, 0, &ref, &link, err);
    if (s != HP_OK) {
        *kind = link ? OS_READ_LINK : 0;
        return s;
    }
    int fd = openat(ref.fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        dir_release(t, &ref);
        if (e == ELOOP) {
            *kind = OS_READ_LINK;
            *err = "a symbolic link";
        } else {
            *kind = e == ENOENT ? OS_READ_MISSING : 0;
            *err = arena_printf(a, "cannot open: %s", strerror(e));
        }
        return HP_EIO;
    }
    s = os_read_fd(a, fd, max, data, len, meta, err);
    close(fd);
    dir_release(t, &ref);
    return s;
}

/* ------------------------------------------------------------------ writing */

/* Gives the file open on fd the owner, group and mode of keep (and its times with times), as
 * far as the system allows: GNU sed -i does the same. An owner that cannot be given takes the
 * set-user-ID and set-group-ID bits with it. Returns 0 or errno (of the mode or the times). */
static int give_meta(int fd, const os_meta *keep, int times)
{
    struct stat sb;
    if (fstat(fd, &sb) != 0)
        return errno;
    unsigned m = keep->mode & 07777u;
    int chowned = 0;
    if ((unsigned)sb.st_uid != keep->uid || (unsigned)sb.st_gid != keep->gid) {
        if (fchown(fd, (uid_t)keep->uid, (gid_t)keep->gid) == 0) {
            chowned = 1;
        } else {
            if ((unsigned)sb.st_gid != keep->gid && fchown(fd, (uid_t)-1, (gid_t)keep->gid) == 0)
                chowned = 1;
            m &= ~(unsigned)(S_ISUID | S_ISGID);
        }
    }
    /* a change of owner clears the set-ID bits: the mode is given after it */
    if ((((unsigned)sb.st_mode & 07777u) != m || chowned) && fchmod(fd, (mode_t)m) != 0)
        return errno;
    if (times) {
        struct timespec ts[2];
        ts[0].tv_sec = (time_t)keep->atime_sec;
        ts[0].tv_nsec = (long)keep->atime_nsec;
        ts[1].tv_sec = (time_t)keep->mtime_sec;
        ts[1].tv_nsec = (long)keep->mtime_nsec;
        if (futimens(fd, ts) != 0)
            return errno;
    }
    return 0;
}

/* Renames tmp to name in dirfd unless name exists (EEXIST then). */
static int rename_new(int dirfd, const char *tmp, const char *name)
{
#ifdef RENAME_NOREPLACE
    if (renameat2(dirfd, tmp, dirfd, name, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS)
        return errno;
#endif
    /* a file system without renameat2's flag: a hard link fails on an existing name too */
    if (linkat(dirfd, tmp, dirfd, name, 0) == 0) {
        unlinkat(dirfd, tmp, 0);
        return 0;
    }
    if (errno == EEXIST)
        return EEXIST;
    struct stat sb; /* no hard links either: the check and the rename are two steps */
    if (fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0)
        return EEXIST;
    return renameat(dirfd, tmp, dirfd, name) == 0 ? 0 : errno;
}

static const char *syserr(arena *a, const char *what, int e)
{
    if (e == EINTR)
        return "interrupted (the run is stopping)";
    return arena_printf(a, "%s: %s", what, strerror(e));
}

/* What is at name now, when a new file could not take its place. */
static hp_status judge(arena *a, int dirfd, const char *rel, const char *name, const os_put *p,
                       int tfd, const char *tmp, int *outcome, int *gone, const char **err)
{
    struct stat sb;
    *gone = 0;
    if (fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) != 0) {
        *gone = errno == ENOENT;
        *err = syserr(a, "cannot stat", errno);
        return HP_EIO;
    }
    if (S_ISDIR(sb.st_mode)) {
        *outcome = OS_PUT_DIR;
        *err = "is a directory";
        return HP_EIO;
    }
    if (S_ISLNK(sb.st_mode)) {
        if (p->replace) {
            if (renameat(dirfd, tmp, dirfd, name) != 0) {
                *err = syserr(a, "cannot rename the temporary file", errno);
                return HP_EIO;
            }
            *outcome = OS_PUT_WRITTEN;
            return HP_OK;
        }
        struct stat tb;
        *outcome = OS_PUT_LINK;
        *err = fstatat(dirfd, name, &tb, 0) != 0
                   ? "a symbolic link to a missing file is there (not followed, not replaced)"
                   : "a symbolic link is there (not followed, not replaced)";
        return HP_EIO;
    }
    if (!S_ISREG(sb.st_mode)) {
        *outcome = OS_PUT_OTHER;
        *err = "not a regular file (not replaced)";
        return HP_EIO;
    }
    int same = 0, mine = p->replace;
    os_meta old;
    memset(&old, 0, sizeof old);
    if ((long long)sb.st_size == (long long)p->len || (!mine && p->owned)) {
        int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (fd >= 0) {
            arena_mark mk = arena_save(a);
            char *data;
            ptrdiff_t len;
            const char *rerr;
            if (os_read_fd(a, fd, OS_MAX_TEXT_FILE, &data, &len, &old, &rerr) == HP_OK) {
                same = len == p->len && memcmp(data, p->data, (size_t)len) == 0;
                if (!same && !mine && p->owned)
                    mine = p->owned(p->owned_ud, rel, data, len);
            }
            close(fd);
            arena_rewind(a, mk);
        }
    }
    if (same) {
        *outcome = OS_PUT_SAME;
        return HP_OK;
    }
    if (!mine) {
        *outcome = OS_PUT_DIFFERS;
        *err = "exists and differs";
        return HP_EEXIST;
    }
    if (!old.valid) {
        old.valid = 1;
        old.uid = (unsigned)sb.st_uid;
        old.gid = (unsigned)sb.st_gid;
        old.mode = (unsigned)sb.st_mode & 07777u;
    }
    /* the file replaced keeps its owner, group and mode (unless the caller gave them) */
    int e = p->keep && p->keep->valid ? 0 : give_meta(tfd, &old, 0);
    if (e) {
        *err = syserr(a, "cannot set the mode", e);
        return HP_EIO;
    }
    if (renameat(dirfd, tmp, dirfd, name) != 0) {
        *err = syserr(a, "cannot rename the temporary file", errno);
        return HP_EIO;
    }
    *outcome = OS_PUT_WRITTEN;
    return HP_OK;
}

/* Does name in dirfd hold exactly p's bytes? */
static int holds(arena *a, int dirfd, const char *name, const os_put *p)
{
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    arena_mark mk = arena_save(a);
    char *data;
    ptrdiff_t len;
    const char *err;
    int same = os_read_fd(a, fd, p->len, &data, &len, NULL, &err) == HP_OK && len == p->len &&
               memcmp(data, p->data, (size_t)len) == 0;
    arena_rewind(a, mk);
    close(fd);
    return same;
}

static hp_status put_in(arena *a, int dirfd, const char *rel, const char *name,
                        const os_put *p, int *outcome, const char **err)
{
    if (p->look_first && !p->known && holds(a, dirfd, name, p)) {
        *outcome = OS_PUT_SAME;
        return HP_OK;
    }
    unsigned m;
    const os_meta *keep = p->keep && p->keep->valid ? p->keep : NULL;
    if (keep)
        m = keep->mode;
    else if (p->mode >= 0)
        m = (unsigned)p->mode;
    else
        m = 0666u & ~os_umask();
    char tmp[NAME_MAX + 1];
    int slot, e;
    int fd = temp_create(dirfd, name, m, tmp, &slot, &e);
    if (fd < 0) {
        *err = e == EAGAIN ? "too many files written at once"
                           : syserr(a, "cannot create a temporary file", e);
        return HP_EIO;
    }
    hp_status s;
    e = os_write_all(fd, p->data, p->len);
    if (e) {
        *err = syserr(a, "write error", e);
        goto fail;
    }
    if (keep) {
        e = give_meta(fd, keep, p->keep_times);
        if (e) {
            *err = syserr(a, "cannot set the mode", e);
            goto fail;
        }
    } else if ((m & ~os_umask()) != m && fchmod(fd, (mode_t)m) != 0) {
        /* open() applied the umask: the exact mode where it took bits of it */
        *err = syserr(a, "cannot set the mode", errno);
        goto fail;
    }
    if (p->durable && fsync(fd) != 0) {
        *err = syserr(a, "cannot flush", errno);
        goto fail;
    }
    if (p->known) {
        if (close(fd) != 0) {
            fd = -1;
            *err = syserr(a, "write error", errno);
            goto fail;
        }
        fd = -1;
        if (renameat(dirfd, tmp, dirfd, name) != 0) {
            *err = syserr(a, "cannot rename the temporary file", errno);
            goto fail;
        }
        *outcome = OS_PUT_WRITTEN;
        slot_release(slot);
        return HP_OK;
    }
    for (int tries = 0;; tries++) {
        e = rename_new(dirfd, tmp, name);
        if (e == 0) {
            *outcome = OS_PUT_WRITTEN;
            s = HP_OK;
            break;
        }
        if (e != EEXIST) {
            *err = syserr(a, "cannot rename the temporary file", e);
            goto fail;
        }
        int gone;
        s = judge(a, dirfd, rel, name, p, fd, tmp, outcome, &gone, err);
        if (gone && tries < 2)
            continue; /* gone again between the two looks: the new file's way once more */
        break;
    }
    if (s != HP_OK || *outcome != OS_PUT_WRITTEN)
        unlinkat(dirfd, tmp, 0);
    if (close(fd) != 0 && s == HP_OK && *outcome == OS_PUT_WRITTEN) {
        *err = syserr(a, "write error", errno);
        s = HP_EIO;
    }
    slot_release(slot);
    return s;
fail:
    if (fd >= 0)
        close(fd);
    unlinkat(dirfd, tmp, 0);
    slot_release(slot);
    return HP_EIO;
}

hp_status os_tree_put(os_tree *t, arena *a, const char *rel, const os_put *p, int *outcome,
                      const char **err)
{
    *outcome = 0;
    ptrdiff_t dl;
    const char *name = split(rel, &dl);
    if (bad_name(name)) {
        *err = "not a file name";
        return HP_EIO;
    }
    tref ref;
    int link = 0;
    hp_status s = dir_acquire(t, a, rel, dl, p->mkdirs, &ref, &link, err);
    if (s != HP_OK) {
        if (link)
            *outcome = OS_PUT_LINK;
        return s;
    }
    s = put_in(a, ref.fd, rel, name, p, outcome, err);
    dir_release(t, &ref);
    return s;
}
