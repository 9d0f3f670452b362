/* os_tree.h: files below a directory opened once (an output directory, a tree translated in
 * place): every path is resolved from that directory one component at a time and never
 * through a symbolic link, and every file is written to a temporary file beside it, then
 * renamed into place. The temporary files in flight are registered, so that
 * hp_abort_writes (a signal handler's call) can remove them. */
#ifndef HP_OS_TREE_H
#define HP_OS_TREE_H

#include <stddef.h>

#include "arena.h"
#include "hipport.h"
#include "os.h"

typedef struct os_tree os_tree;

/* A tree below dir. dir itself is taken as named (links in its own path are followed: whoever
 * named it chose them); with create it is made, with its parents, at the first write when it
 * is missing. Opening it waits for the first use, whose error says why it failed. NULL only
 * when memory runs out. Thread-safe once made: any number of threads may read and write
 * below it at once. */
os_tree *os_tree_new(const char *dir, int create);
void os_tree_free(os_tree *t);
/* dir as given to os_tree_new. */
const char *os_tree_path(const os_tree *t);

/* Why os_tree_read failed, beyond its message. */
enum { OS_READ_LINK = 1, OS_READ_MISSING };

/* Reads rel (a '/'-separated path below the tree, without "..") into a, followed by a NUL.
 * Never through a link: when rel or a directory on its way is a symbolic link, *kind is
 * OS_READ_LINK; when rel does not exist, OS_READ_MISSING; else 0. meta (may be NULL)
 * receives the file's owner, group, mode and times. Errors: HP_EIO, HP_ETOOBIG, HP_ENOMEM,
 * with *err. */
hp_status os_tree_read(os_tree *t, arena *a, const char *rel, ptrdiff_t max, char **data,
                       ptrdiff_t *len, os_meta *meta, int *kind, const char **err);

/* How os_tree_put writes. */
typedef struct os_put {
    const void *data;
    ptrdiff_t len;
    int mode;     /* a new file's mode (exactly, whatever the umask); -1: 0666 less the umask */
    int replace;  /* a file there that differs is replaced, and a symbolic link there is
                   * replaced by the file (never followed); else HP_EEXIST */
    int durable;  /* flushed to the disk before the rename */
    int mkdirs;   /* missing directories on the way are made */
    /* The file there is replaced whatever it holds (in place: it was just read). Without it,
     * a file there is read and compared first. */
    int known;
    /* The owner, group and mode the file gets, new or replacing (NULL: a new file gets mode
     * and a replacing one those of the file it replaces). */
    const os_meta *keep;
    int keep_times; /* with keep: its access and modification times too (a backup) */
    /* The file is expected to be there already, the same (hipport_compat.h, which many files
     * write): it is compared before anything is written. */
    int look_first;
    /* Without replace: may the file there, which holds old[0..oldlen) and differs, be
     * replaced all the same (it is the caller's own)? May be NULL. */
    int (*owned)(void *ud, const char *rel, const char *old, ptrdiff_t oldlen);
    void *owned_ud;
} os_put;

/* What os_tree_put did (*outcome), or what stopped it. */
enum {
    OS_PUT_WRITTEN = 1, /* the file was written */
    OS_PUT_SAME,        /* it held these bytes already: left untouched (its times too) */
    OS_PUT_DIR,         /* a directory is there (HP_EIO) */
    OS_PUT_LINK,        /* a symbolic link is there, or on the way (HP_EIO) */
    OS_PUT_DIFFERS,     /* a different file is there and may not be replaced (HP_EEXIST) */
    OS_PUT_OTHER        /* a device, pipe or socket is there (HP_EIO) */
};

/* Writes p->data to rel below the tree: a temporary file beside it (".NAME.hipport-PID-N"),
 * renamed over it. A replaced file keeps its owner, group and mode (as root too; otherwise as
 * far as the system lets a user give files away). A new file never replaces one that appeared
 * meanwhile (it is then judged as a file that was there). *outcome is OS_PUT_WRITTEN or
 * OS_PUT_SAME on success, else what was in the way, or 0 (a system error, writes aborted by
 * hp_abort_writes). Errors: HP_EIO, HP_EEXIST (OS_PUT_DIFFERS), HP_ENOMEM; *err says why, in
 * a few words and without the path (in a or static). */
hp_status os_tree_put(os_tree *t, arena *a, const char *rel, const os_put *p, int *outcome,
                      const char **err);

/* Is name one of the library's temporary files (".NAME.hipport-PID-N")? Such files are never
 * inputs. */
int os_tree_is_temp(const char *name);

#endif
