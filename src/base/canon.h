/* canon.h: canonical paths (as realpath(3) gives them), memoized per directory for runs that
 * resolve many paths under few directories. Safe to share between threads. */
#ifndef HP_CANON_H
#define HP_CANON_H

#include "arena.h"

typedef struct canon canon;

canon *canon_new(void); /* NULL when out of memory */
void canon_free(canon *c);

/* The canonical path of path (in a), or NULL where realpath(3) fails (or memory ran out). The
 * file system is taken not to change under the paths resolved while c lives. */
const char *canon_path(canon *c, arena *a, const char *path);

#endif
