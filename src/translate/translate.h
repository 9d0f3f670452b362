/* translate.h: the translation driver (translate.c): one buffer translated, with the masks of
 * the headers it includes. */
#ifndef HP_TRANSLATE_H
#define HP_TRANSLATE_H

#include "hipport.h"
#include "lex.h"
#include "warp_env.h"

/* The lexer's filter for the translation pass: every name translate() may act on lets it
 * through. */
const lex_filter *translate_filter(void);

/* Translation with an environment (hp_translate_buffer passes none). */
hp_status translate_buffer(hp_ctx *ctx, const hp_translate_opts *o, const char *path,
                           const char *src, ptrdiff_t len, const warp_env *env,
                           hp_translate_result *out);

#endif
