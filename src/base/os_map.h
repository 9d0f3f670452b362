/* os_map.h: read-only memory maps of whole files, for the binary readers (targets), which
 * may meet files of hundreds of megabytes. */
#ifndef HP_OS_MAP_H
#define HP_OS_MAP_H

#include <stddef.h>

#include "arena.h"
#include "hipport.h"

typedef struct os_map {
    const void *data; /* the file's bytes; NULL for an empty file */
    ptrdiff_t len;
    int mapped;       /* munmap on release */
} os_map;

/* Maps path read-only. On failure returns HP_EIO (or HP_ETOOBIG) with *why a one-line
 * reason in a. */
hp_status os_map_file(arena *a, const char *path, os_map *m, const char **why);
void os_unmap_file(os_map *m);

#endif
