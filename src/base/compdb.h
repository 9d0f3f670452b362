/* compdb.h: compilation databases (hp_compdb_read in hipport.h); the parser alone, for the
 * fuzzer. */
#ifndef HP_COMPDB_H
#define HP_COMPDB_H

#include <stddef.h>

#include "hipport.h"

/* Parses a compilation database's text (file names it in errors); as hp_compdb_read. */
hp_status compdb_parse(hp_ctx *ctx, const char *file, const char *text, ptrdiff_t len,
                       const hp_compdb_entry **out, int *nout, const char **err);

#endif
