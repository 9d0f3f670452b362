/* os_map.c: read-only memory maps of whole files (see os_map.h). */
#define _POSIX_C_SOURCE 200809L
#include "os_map.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "banned.h"

static const char *reason(arena *a, const char *what, int err)
{
    const char *r = arena_printf(a, "%s: %s", what, strerror(err));
    return r ? r : what;
}

hp_status os_map_file(arena *a, const char *path, os_map *m, const char **why)
{
    memset(m, 0, sizeof *m);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
        *why = reason(a, "cannot open", errno);
        return HP_EIO;
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        *why = reason(a, "cannot stat", errno);
        close(fd);
        return HP_EIO;
    }
    if (S_ISDIR(sb.st_mode)) {
        *why = "is a directory";
        close(fd);
        return HP_EIO;
    }
    if (!S_ISREG(sb.st_mode)) {
        *why = "not a regular file";
        close(fd);
        return HP_EIO;
    }
    if ((uintmax_t)sb.st_size > (uintmax_t)(PTRDIFF_MAX / 2)) {
        *why = "file too large";
        close(fd);
        return HP_ETOOBIG;
    }
    if (sb.st_size == 0) {
        close(fd);
        return HP_OK;
    }
    void *p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int err = errno;
    close(fd);
    if (p == MAP_FAILED) {
        *why = reason(a, "cannot map", err);
        return HP_EIO;
    }
    m->data = p;
    m->len = (ptrdiff_t)sb.st_size;
    m->mapped = 1;
    return HP_OK;
}

void os_unmap_file(os_map *m)
{
    if (m->mapped)
        munmap((void *)(uintptr_t)m->data, (size_t)m->len);
    memset(m, 0, sizeof *m);
}
