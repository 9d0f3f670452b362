/* os_posix.c: the operating-system layer for POSIX systems. */
#define _GNU_SOURCE 1
#include "os.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "banned.h"

int os_stat_path(const char *path, int nofollow, os_stat *st)
{
    struct stat sb;
    memset(st, 0, sizeof *st);
    int rc = nofollow ? lstat(path, &sb) : stat(path, &sb);
    if (rc != 0)
        return errno;
    st->exists = 1;
    st->is_dir = S_ISDIR(sb.st_mode);
    st->is_reg = S_ISREG(sb.st_mode);
    st->is_link = S_ISLNK(sb.st_mode);
    st->dev = (unsigned long long)sb.st_dev;
    st->ino = (unsigned long long)sb.st_ino;
    st->size = (long long)sb.st_size;
    st->mode = (unsigned)sb.st_mode;
    return 0;
}

static const char *errstr(arena *a, const char *what, int e)
{
    return arena_printf(a, "%s: %s", what, strerror(e));
}

hp_status os_read_file(arena *a, const char *path, ptrdiff_t max, char **data, ptrdiff_t *len,
                       const char **err)
{
    return os_read_file_mode(a, path, max, data, len, NULL, err);
}

hp_status os_read_file_mode(arena *a, const char *path, ptrdiff_t max, char **data,
                            ptrdiff_t *len, unsigned *mode, const char **err)
{
    *data = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
        *err = errstr(a, "cannot open", errno);
        return HP_EIO;
    }
    os_meta m;
    hp_status s = os_read_fd(a, fd, max, data, len, &m, err);
    close(fd);
    if (mode && m.valid)
        *mode = m.mode;
    return s;
}

static void meta_of(const struct stat *sb, os_meta *m)
{
    m->valid = 1;
    m->uid = (unsigned)sb->st_uid;
    m->gid = (unsigned)sb->st_gid;
    m->mode = (unsigned)sb->st_mode & 07777u;
    m->atime_sec = (long long)sb->st_atim.tv_sec;
    m->atime_nsec = (long long)sb->st_atim.tv_nsec;
    m->mtime_sec = (long long)sb->st_mtim.tv_sec;
    m->mtime_nsec = (long long)sb->st_mtim.tv_nsec;
}

hp_status os_read_fd(arena *a, int fd, ptrdiff_t max, char **data, ptrdiff_t *len,
                     os_meta *meta, const char **err)
{
    *data = NULL;
    *len = 0;
    if (meta)
        memset(meta, 0, sizeof *meta);
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        *err = errstr(a, "cannot stat", errno);
        return HP_EIO;
    }
    if (S_ISDIR(sb.st_mode)) {
        *err = "is a directory";
        return HP_EIO;
    }
    if (!S_ISREG(sb.st_mode)) {
        *err = "not a regular file";
        return HP_EIO;
    }
    if (meta)
        meta_of(&sb, meta);
    if (sb.st_size > (off_t)max) {
        *err = arena_printf(a, "file too large (%lld bytes, limit %lld)", (long long)sb.st_size,
                            (long long)max);
        return HP_ETOOBIG;
    }
    ptrdiff_t cap = (ptrdiff_t)sb.st_size;
    char *p = arena_alloc_nozero(a, 1, 16, cap + 1);
    if (!p) {
        *err = "out of memory";
        return HP_ENOMEM;
    }
    /* Each read asks for one byte more than fstat reported: a file that has grown since shows
     * it in the same call, and a short read (the end of a regular file) ends the loop without
     * a second call to find the end. */
    ptrdiff_t got = 0;
    for (;;) {
        ssize_t r = read(fd, p + got, (size_t)(cap + 1 - got));
        if (r < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            *err = errstr(a, "read error", errno);
            return HP_EIO;
        }
        if (r == 0)
            break; /* truncated since fstat: take what is there */
        got += r;
        if (got > cap) {
            *err = "file changed while being read";
            return HP_EIO;
        }
        if (got == cap)
            break;
    }
    p[got] = 0;
    *data = p;
    *len = got;
    return HP_OK;
}

static const char *dir_of(arena *a, const char *path, const char **base)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        *base = path;
        return ".";
    }
    *base = slash + 1;
    if (slash == path)
        return "/";
    return arena_strndup(a, path, slash - path);
}

int os_write_all(int fd, const void *data, ptrdiff_t left)
{
    const char *p = data;
    while (left > 0) {
        ssize_t w = write(fd, p, (size_t)left);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        p += w;
        left -= w;
    }
    return 0;
}

hp_status os_write_special(arena *a, const char *path, const void *data, ptrdiff_t len,
                           const char **err)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_TRUNC);
    if (fd < 0) {
        *err = errstr(a, "cannot open", errno);
        return HP_EIO;
    }
    int e = os_write_all(fd, data, len);
    if (close(fd) != 0 && !e)
        e = errno;
    if (e) {
        *err = errstr(a, "write error", e);
        return HP_EIO;
    }
    return HP_OK;
}

int os_is_special(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode);
}

static hp_status write_new(arena *a, const char *path, const void *data, ptrdiff_t len,
                          int mode, int old_mode, int durable, const char **err);

hp_status os_write_atomic(arena *a, const char *path, const void *data, ptrdiff_t len, int mode,
                          int durable, const char **err)
{
    struct stat sb;
    int have_old = stat(path, &sb) == 0;
    if (have_old && S_ISDIR(sb.st_mode)) {
        *err = "is a directory";
        return HP_EIO;
    }
    if (have_old && !S_ISREG(sb.st_mode))
        return os_write_special(a, path, data, len, err);
    return write_new(a, path, data, len, mode, have_old ? (int)(sb.st_mode & 07777u) : -1,
                     durable, err);
}

static pthread_once_t umask_once = PTHREAD_ONCE_INIT;
static unsigned umask_value;

static void read_umask(void)
{
    mode_t um = umask(022);
    umask(um);
    umask_value = (unsigned)um & 0777u;
}

/* The process's umask, read once: reading it means setting it, which threads must not race. */
unsigned os_umask(void)
{
    pthread_once(&umask_once, read_umask);
    return umask_value;
}

hp_status os_write_new(arena *a, const char *path, const void *data, ptrdiff_t len, int mode,
                       int durable, int *open_errno, const char **err)
{
    /* Created in place, exclusively: nothing is there to replace, and a file that appeared
     * meanwhile is left alone. A write that fails removes what it created. */
    unsigned m = mode >= 0 ? (unsigned)mode : 0666u & ~os_umask();
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, (mode_t)m);
    *open_errno = fd < 0 ? errno : 0;
    if (fd < 0) {
        struct stat lb;
        if (errno != EEXIST)
            *err = errstr(a, "cannot create", errno);
        else if (lstat(path, &lb) == 0 && S_ISLNK(lb.st_mode))
            *err = "a symbolic link to a missing file is there (not followed, not replaced)";
        else
            *err = "a file appeared there while it was being written (left as it is)";
        return HP_EIO;
    }
    int e = os_write_all(fd, data, len);
    if (e) {
        *err = errstr(a, "write error", e);
        goto fail;
    }
    /* open() applied the umask: the exact mode where the umask took bits of it */
    if ((m & ~os_umask()) != m && fchmod(fd, (mode_t)m) != 0) {
        *err = errstr(a, "cannot set mode", errno);
        goto fail;
    }
    if (durable && fsync(fd) != 0) {
        *err = errstr(a, "cannot flush", errno);
        goto fail;
    }
    int c = close(fd);
    fd = -1;
    if (c != 0) {
        *err = errstr(a, "write error", errno);
        goto fail;
    }
    return HP_OK;
fail:
    if (fd >= 0)
        close(fd);
    unlink(path);
    return HP_EIO;
}

/* Writes a temporary file beside path and renames it over path. The mode is `mode`, else
 * old_mode (the replaced file's), else what the umask leaves of 0666. */
static hp_status write_new(arena *a, const char *path, const void *data, ptrdiff_t len,
                          int mode, int old_mode, int durable, const char **err)
{
    const char *base;
    const char *dir = dir_of(a, path, &base);
    char *tmp = arena_printf(a, "%s/.%s.hipport-XXXXXX", dir, base);
    if (!tmp) {
        *err = "out of memory";
        return HP_ENOMEM;
    }
    int fd = mkstemp(tmp);
    if (fd < 0) {
        *err = errstr(a, "cannot create temporary file", errno);
        return HP_EIO;
    }
    unsigned m;
    if (mode >= 0) {
        m = (unsigned)mode;
    } else if (old_mode >= 0) {
        m = (unsigned)old_mode;
    } else {
        m = 0666u & ~os_umask();
    }
    int e = os_write_all(fd, data, len);
    if (e) {
        *err = errstr(a, "write error", e);
        goto fail;
    }
    if (fchmod(fd, (mode_t)m) != 0) {
        *err = errstr(a, "cannot set mode", errno);
        goto fail;
    }
    if (durable && fsync(fd) != 0) {
        *err = errstr(a, "cannot flush", errno);
        goto fail;
    }
    if (close(fd) != 0) {
        fd = -1;
        *err = errstr(a, "write error", errno);
        goto fail;
    }
    fd = -1;
    if (rename(tmp, path) != 0) {
        *err = errstr(a, "cannot rename temporary file", errno);
        goto fail;
    }
    return HP_OK;
fail:
    if (fd >= 0)
        close(fd);
    unlink(tmp);
    return HP_EIO;
}

hp_status os_backup(arena *a, const char *path, const char *backup, int force, const char **err)
{
    char *data;
    ptrdiff_t len;
    hp_status s = os_read_file(a, path, PTRDIFF_MAX / 4, &data, &len, err);
    if (s != HP_OK)
        return s;
    struct stat sb;
    if (stat(backup, &sb) == 0 && !force) {
        char *old;
        ptrdiff_t oldlen;
        const char *e2;
        if (os_read_file(a, backup, PTRDIFF_MAX / 4, &old, &oldlen, &e2) != HP_OK ||
            oldlen != len || memcmp(old, data, (size_t)len) != 0) {
            *err = arena_printf(a, "backup '%s' exists (use --force to replace it)", backup);
            return HP_EEXIST;
        }
        return HP_OK;
    }
    return os_write_atomic(a, backup, data, len, -1, 1, err);
}

int os_mkdirs_for(const char *path)
{
    char tmp[PATH_MAX];
    size_t n = strlen(path);
    if (n >= sizeof tmp)
        return ENAMETOOLONG;
    memcpy(tmp, path, n + 1);
    char *slash = strrchr(tmp, '/');
    if (!slash || slash == tmp)
        return 0;
    *slash = 0;
    struct stat sb;
    if (stat(tmp, &sb) == 0 && S_ISDIR(sb.st_mode))
        return 0; /* the usual case in a tree: one call, not one per component */
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
    if (stat(tmp, &sb) != 0)
        return errno;
    if (!S_ISDIR(sb.st_mode))
        return ENOTDIR;
    return 0;
}

static int cmp_dirent(const void *x, const void *y)
{
    const os_dirent *a = x, *b = y;
    return strcmp(a->name, b->name);
}

int os_list_dir(arena *a, const char *path, os_dirent **ents, ptrdiff_t *n)
{
    *ents = NULL;
    *n = 0;
    DIR *d = opendir(path);
    if (!d)
        return errno;
    ptrdiff_t cap = 16, cnt = 0;
    os_dirent *v = NEW(a, os_dirent, cap);
    struct dirent *e;
    errno = 0;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
            continue;
        if (cnt == cap) {
            v = arena_grow(a, v, cap * (ptrdiff_t)sizeof *v, 2 * cap * (ptrdiff_t)sizeof *v,
                           _Alignof(os_dirent));
            cap *= 2;
        }
        v[cnt].name = arena_strndup(a, e->d_name, (ptrdiff_t)strlen(e->d_name));
        switch (e->d_type) {
        case DT_REG: v[cnt].type = OS_DT_REG; break;
        case DT_DIR: v[cnt].type = OS_DT_DIR; break;
        case DT_LNK: v[cnt].type = OS_DT_LNK; break;
        case DT_UNKNOWN: v[cnt].type = OS_DT_UNKNOWN; break;
        default: v[cnt].type = OS_DT_OTHER; break;
        }
        cnt++;
    }
    int rc = errno;
    closedir(d);
    if (cnt > 1)
        qsort(v, (size_t)cnt, sizeof *v, cmp_dirent);
    *ents = v;
    *n = cnt;
    return rc;
}

char *os_realpath(arena *a, const char *path)
{
    char *r = realpath(path, NULL);
    if (!r)
        return NULL;
    char *c = arena_strndup(a, r, (ptrdiff_t)strlen(r));
    free(r);
    return c;
}

int os_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

double os_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

long long os_peak_rss(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (long long)ru.ru_maxrss * 1024;
}

char *os_slurp(arena *a, const char *path, ptrdiff_t max, ptrdiff_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return NULL;
    char *p = arena_alloc_nozero(a, 1, 1, max + 1);
    ptrdiff_t got = 0;
    while (got < max) {
        ssize_t r = read(fd, p + got, (size_t)(max - got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += r;
    }
    close(fd);
    p[got] = 0;
    if (len)
        *len = got;
    return p;
}

void os_advise_huge(void *p, ptrdiff_t n)
{
#ifdef MADV_HUGEPAGE
    /* only the whole 2 MiB pages inside the block; a small block has none */
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t beg = ((uintptr_t)p + huge - 1) & ~(huge - 1);
    uintptr_t end = ((uintptr_t)p + (uintptr_t)n) & ~(huge - 1);
    if (end > beg)
        madvise((void *)beg, end - beg, MADV_HUGEPAGE);
#else
    (void)p;
    (void)n;
#endif
}
