/* json.h: a small JSON reader (RFC 8259) into an arena tree, for baselines and tests. */
#ifndef HP_JSON_H
#define HP_JSON_H

#include <stddef.h>

#include "arena.h"
#include "hipport.h"

typedef enum json_kind {
    JSON_NULL = 0,
    JSON_BOOL,
    JSON_NUMBER,
    JSON_STRING,
    JSON_ARRAY,
    JSON_OBJECT
} json_kind;

typedef struct json {
    json_kind kind;
    int boolean;
    double number;
    int integral;        /* the number was written without fraction or exponent */
    hp_str str;          /* decoded string (arena; NUL-terminated) */
    struct json *items;  /* array elements or object values */
    hp_str *keys;        /* object keys (decoded, NUL-terminated) */
    ptrdiff_t n;
} json;

/* Parses text[0..len). NULL on error, with *err a static reason and *erroff the byte offset.
 * Nesting is limited to 512 levels; duplicate keys are kept (json_get returns the first). */
json *json_parse(arena *a, const char *text, ptrdiff_t len, const char **err,
                 ptrdiff_t *erroff);
/* The value of key in an object, or NULL. */
const json *json_get(const json *obj, const char *key);

#endif
