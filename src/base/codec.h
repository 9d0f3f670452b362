/* codec.h: zlib and zstd, loaded at run time with dlopen (libz.so.1, libzstd.so.1) so that
 * the binary links against neither; when a library is missing, callers say so and go on. */
#ifndef HP_CODEC_H
#define HP_CODEC_H

#include <stddef.h>

#include "arena.h"

typedef enum codec_kind { CODEC_ZLIB = 0, CODEC_ZSTD = 1 } codec_kind;

typedef enum codec_result {
    CODEC_OK = 0,
    CODEC_UNAVAILABLE, /* the library could not be loaded */
    CODEC_CORRUPT,     /* the data did not decompress */
    CODEC_SIZE,        /* the data decompressed to another size than expected */
    CODEC_NOMEM        /* out of memory */
} codec_result;

const char *codec_name(codec_kind k);     /* "zlib", "zstd" */
const char *codec_soname(codec_kind k);   /* "libz.so.1", "libzstd.so.1" */

/* Is the library for k loadable here? */
int codec_available(codec_kind k);

/* Decompresses one zlib stream or zstd frame at the start of src[0..n) into exactly want
 * bytes allocated in a. When used is not NULL it receives the number of input bytes the
 * stream took (n when the library cannot tell); data after the stream is ignored. */
codec_result codec_decompress(arena *a, codec_kind k, const void *src, size_t n, size_t want,
                              unsigned char **out, size_t *used);

/* Compresses src[0..n) (for tests that build compressed inputs); *out is in a. */
codec_result codec_compress(arena *a, codec_kind k, const void *src, size_t n,
                            unsigned char **out, size_t *outlen);

/* Tests: pretend that no codec library is present (on != 0) or stop pretending. The
 * environment variable HIPPORT_NO_CODECS=1 has the same effect for a whole process. */
void codec_pretend_missing(int on);

#endif
