/* os_posix.c: the operating-system layer for POSIX systems. */
#define _GNU_SOURCE 1
#include "os.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
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

/* Does path name one of the process's descriptors: /dev/stdout, /dev/stderr, /dev/fd/N, or a
 * link into /proc's descriptor directories (what those are on Linux)? */
static int names_descriptor(const char *path)
{
    if (strcmp(path, "/dev/stdout") == 0 || strcmp(path, "/dev/stderr") == 0 ||
        strncmp(path, "/dev/fd/", 8) == 0 || strncmp(path, "/proc/self/fd/", 14) == 0)
        return 1;
    char target[256];
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n <= 0)
        return 0;
    target[n] = 0;
    if (strncmp(target, "/proc/self/fd/", 14) == 0 || strncmp(target, "/dev/fd/", 8) == 0)
        return 1;
    return strncmp(target, "/proc/", 6) == 0 && strstr(target, "/fd/") != NULL;
}

int os_is_special(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0 || S_ISDIR(sb.st_mode))
        return 0;
    /* a descriptor is written into whatever it is open on: -o /dev/stdout with the standard
     * output sent to a file must not replace the link /dev/stdout by a file */
    return !S_ISREG(sb.st_mode) || names_descriptor(path);
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

/* The CPUs this process may run on, as nproc counts them: a run under taskset, or in a
 * container given a CPU set, that started a thread per online CPU would put several on each
 * of its own (16 threads on 2 CPUs took 3.4 times as long as cp -r of ggml's tree, instead of
 * 1.3). The online count when the affinity mask cannot be read. */
int os_cpu_count(void)
{
#ifdef CPU_COUNT
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int k = CPU_COUNT(&set);
        if (k >= 1)
            return k > 1024 ? 1024 : k;
    }
#endif
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

