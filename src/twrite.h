/* twrite.h: writing translated files safely (translate_run.c), shared with project runs. */
#ifndef HP_TWRITE_H
#define HP_TWRITE_H

#include "arena.h"
#include "hipport.h"

/* Writes data to out unless it already holds exactly these bytes (res->written says which);
 * refuses to replace different bytes unless may_replace. Sets res->out_path, or the error. */
void twrite_output(arena *a, hp_file_result *res, const char *out, const char *data,
                   ptrdiff_t len, int mode, int may_replace, int durable);
/* Fills res with what a translation found (statistics, findings, names left and converted,
 * whether it needs hipport_compat.h); the statistics are copied into a. */
void twrite_result(arena *a, hp_file_result *res, const hp_translate_result *tr);
/* Writes hipport_compat.h next to out (unless it is there, the same). */
void twrite_compat(arena *a, hp_file_result *res, const char *out, int hip_version, int force);

#endif
