/* twrite.h: writing translated files safely (twrite.c), for tree and project runs. */
#ifndef HP_TWRITE_H
#define HP_TWRITE_H

#include "arena.h"
#include "hipport.h"
#include "os_tree.h"

/* Where outputs go: the tree they stay below, and what may be replaced there. */
typedef struct twrite_to {
    os_tree *tree;
    int force;   /* replace a file that differs, and a symbolic link in an output's place */
    int durable; /* flushed to the disk before the rename */
    int look_first; /* the output is expected to be there, the same (os_put.look_first) */
    /* Without force: may a file that differs be replaced all the same (os_put.owned)? */
    int (*owned)(void *ud, const char *rel, const char *old, ptrdiff_t oldlen);
    void *owned_ud;
} twrite_to;

/* Writes data to rel below to->tree unless it already holds exactly these bytes
 * (res->written says which), through a temporary file and a rename, never through a link;
 * shown names it in res->out_path and in messages. A new file gets mode (-1: 0666 less the
 * umask); a replaced one keeps its owner, group and mode. Sets res->out_path, or the error. */
void twrite_output(arena *a, hp_file_result *res, const twrite_to *to, const char *rel,
                   const char *shown, const char *data, ptrdiff_t len, int mode);
/* Fills res with what a translation found (statistics, findings, names left and converted,
 * whether it needs hipport_compat.h); the statistics are copied into a. */
void twrite_result(arena *a, hp_file_result *res, const hp_translate_result *tr);
/* Writes hipport_compat.h next to the output rel (shown) unless it is there, the same. */
void twrite_compat(arena *a, hp_file_result *res, const twrite_to *to, const char *rel,
                   const char *shown, int hip_version);

#endif
