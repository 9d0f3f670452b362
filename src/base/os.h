/* os.h: the operating-system layer: whole-file reads, atomic writes, directory listings. */
#ifndef HP_OS_H
#define HP_OS_H

#include <stddef.h>

#include "arena.h"
#include "hipport.h"

/* Largest file a text command reads (bytes). */
#define OS_MAX_TEXT_FILE ((ptrdiff_t)256 << 20)

typedef struct os_stat {
    int exists;
    int is_dir;
    int is_reg;
    int is_link;
    unsigned long long dev;
    unsigned long long ino;
    long long size;
    unsigned mode;
} os_stat;

/* What a replaced file keeps: its owner, group and mode; a backup also its times. */
typedef struct os_meta {
    int valid;
    unsigned uid, gid;
    unsigned mode; /* st_mode & 07777 */
    long long atime_sec, atime_nsec, mtime_sec, mtime_nsec;
} os_meta;

/* Stats path (following symlinks unless nofollow). Returns 0 or errno. */
int os_stat_path(const char *path, int nofollow, os_stat *st);

/* Reads a whole file into the arena; *data is followed by one NUL byte that is not counted.
 * On failure returns the status and sets *err to a one-line reason (in the arena). */
hp_status os_read_file(arena *a, const char *path, ptrdiff_t max, char **data, ptrdiff_t *len,
                       const char **err);
/* The same, also giving the file's mode (st_mode) when mode is not NULL. */
hp_status os_read_file_mode(arena *a, const char *path, ptrdiff_t max, char **data,
                            ptrdiff_t *len, unsigned *mode, const char **err);

/* Reads the regular file open on fd as os_read_file does (fd is not closed); meta (may be
 * NULL) receives its owner, group, mode and times. */
hp_status os_read_fd(arena *a, int fd, ptrdiff_t max, char **data, ptrdiff_t *len,
                     os_meta *meta, const char **err);

/* Writes all of p[0..n) to fd (retrying short writes). Returns 0 or errno. */
int os_write_all(int fd, const void *p, ptrdiff_t n);

/* The process's umask (read once). */
unsigned os_umask(void);

/* Is path a device, pipe, socket or terminal (after symlinks), or one of the process's
 * descriptors (/dev/stdout, /dev/fd/N, a link into /proc/self/fd) whatever it is open on? */
int os_is_special(const char *path);

/* Writes data into path, a device, pipe or terminal (-o /dev/null, -o /dev/stdout): replacing
 * it by a rename would put a regular file where the device was. HP_EIO with *err on failure. */
hp_status os_write_special(arena *a, const char *path, const void *data, ptrdiff_t len,
                           const char **err);

/* Lists a directory's entry names, sorted bytewise, without "." and "..". */
typedef struct os_dirent {
    const char *name;
    int type; /* OS_DT_* from readdir, OS_DT_UNKNOWN if the file system does not say */
} os_dirent;
enum { OS_DT_UNKNOWN, OS_DT_REG, OS_DT_DIR, OS_DT_LNK, OS_DT_OTHER };
int os_list_dir(arena *a, const char *path, os_dirent **ents, ptrdiff_t *n);

/* Canonical absolute path (symlinks resolved) for a path that exists, or NULL. */
char *os_realpath(arena *a, const char *path);

/* The number of online CPUs (at least 1). */
int os_cpu_count(void);

/* Monotonic time in seconds. */
double os_now(void);

/* Asks for huge pages under the whole 2 MiB pages of a large block, so that touching it costs
 * fewer page faults; a hint, ignored where the system has none. */
void os_advise_huge(void *p, ptrdiff_t n);

/* Peak resident set size of this process in bytes, or 0 if unknown. */
long long os_peak_rss(void);

/* Reads a whole small file (for sysfs, version files); NULL when missing. */
char *os_slurp(arena *a, const char *path, ptrdiff_t max, ptrdiff_t *len);

#endif
