/* codec.c: zlib and zstd through dlopen (see codec.h). The prototypes below are the stable C
 * ABIs of zlib's uncompress/compress2 and zstd's simple API; no header of either is needed. */
#include "codec.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"

typedef int (*zlib_uncompress_fn)(unsigned char *dst, unsigned long *dstlen,
                                  const unsigned char *src, unsigned long srclen);
typedef int (*zlib_uncompress2_fn)(unsigned char *dst, unsigned long *dstlen,
                                   const unsigned char *src, unsigned long *srclen);
typedef int (*zlib_compress2_fn)(unsigned char *dst, unsigned long *dstlen,
                                 const unsigned char *src, unsigned long srclen, int level);
typedef unsigned long (*zlib_bound_fn)(unsigned long srclen);
typedef size_t (*zstd_decompress_fn)(void *dst, size_t cap, const void *src, size_t n);
typedef size_t (*zstd_compress_fn)(void *dst, size_t cap, const void *src, size_t n, int level);
typedef size_t (*zstd_bound_fn)(size_t n);
typedef unsigned (*zstd_iserror_fn)(size_t code);
typedef size_t (*zstd_framesize_fn)(const void *src, size_t n);

static struct {
    pthread_once_t once;
    int disabled; /* HIPPORT_NO_CODECS */
    zlib_uncompress_fn z_uncompress;
    zlib_uncompress2_fn z_uncompress2; /* zlib 1.2.9 and later: reports the input used */
    zlib_compress2_fn z_compress2;
    zlib_bound_fn z_bound;
    zstd_decompress_fn s_decompress;
    zstd_compress_fn s_compress;
    zstd_bound_fn s_bound;
    zstd_iserror_fn s_iserror;
    zstd_framesize_fn s_framesize;
} lib = {PTHREAD_ONCE_INIT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

static int pretend_missing;

/* dlsym returns void *; going through a union avoids the object-to-function pointer cast
 * that ISO C leaves undefined. */
typedef union sym {
    void *obj;
    void (*fn)(void);
} sym;

static void (*lookup(void *h, const char *name))(void)
{
    sym s;
    s.obj = h ? dlsym(h, name) : NULL;
    return s.obj ? s.fn : NULL;
}

static void load(void)
{
    const char *env = getenv("HIPPORT_NO_CODECS");
    if (env && env[0] && strcmp(env, "0") != 0) {
        lib.disabled = 1;
        return;
    }
    void *z = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
    if (z) {
        lib.z_uncompress = (zlib_uncompress_fn)lookup(z, "uncompress");
        lib.z_uncompress2 = (zlib_uncompress2_fn)lookup(z, "uncompress2");
        lib.z_compress2 = (zlib_compress2_fn)lookup(z, "compress2");
        lib.z_bound = (zlib_bound_fn)lookup(z, "compressBound");
    }
    void *s = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
    if (s) {
        lib.s_decompress = (zstd_decompress_fn)lookup(s, "ZSTD_decompress");
        lib.s_compress = (zstd_compress_fn)lookup(s, "ZSTD_compress");
        lib.s_bound = (zstd_bound_fn)lookup(s, "ZSTD_compressBound");
        lib.s_iserror = (zstd_iserror_fn)lookup(s, "ZSTD_isError");
        lib.s_framesize = (zstd_framesize_fn)lookup(s, "ZSTD_findFrameCompressedSize");
    }
}

static void init(void)
{
    pthread_once(&lib.once, load);
}

void codec_pretend_missing(int on)
{
    pretend_missing = on;
}

const char *codec_name(codec_kind k)
{
    return k == CODEC_ZSTD ? "zstd" : "zlib";
}

const char *codec_soname(codec_kind k)
{
    return k == CODEC_ZSTD ? "libzstd.so.1" : "libz.so.1";
}

int codec_available(codec_kind k)
{
    init();
    if (lib.disabled || pretend_missing)
        return 0;
    if (k == CODEC_ZSTD)
        return lib.s_decompress && lib.s_iserror;
    return lib.z_uncompress != NULL;
}

codec_result codec_decompress(arena *a, codec_kind k, const void *src, size_t n, size_t want,
                              unsigned char **out, size_t *used)
{
    *out = NULL;
    if (used)
        *used = n;
    if (!codec_available(k))
        return CODEC_UNAVAILABLE;
    if (want > (size_t)PTRDIFF_MAX / 2)
        return CODEC_NOMEM;
    /* one spare byte, so that data longer than announced is caught */
    unsigned char *dst = arena_alloc_nozero(a, 1, 16, (ptrdiff_t)want + 1);
    if (!dst)
        return CODEC_NOMEM;
    if (k == CODEC_ZSTD) {
        /* one frame; padding after it (between bundles) is not part of the data */
        if (lib.s_framesize) {
            size_t f = lib.s_framesize(src, n);
            if (!lib.s_iserror(f) && f <= n)
                n = f;
            if (used)
                *used = n;
        }
        size_t r = lib.s_decompress(dst, want + 1, src, n);
        if (lib.s_iserror(r))
            return CODEC_CORRUPT;
        if (r != want)
            return CODEC_SIZE;
    } else {
        unsigned long got = (unsigned long)want + 1, srclen = (unsigned long)n;
        int r;
        if (lib.z_uncompress2) {
            r = lib.z_uncompress2(dst, &got, src, &srclen);
            if (used)
                *used = srclen;
        } else {
            r = lib.z_uncompress(dst, &got, src, srclen);
        }
        if (r == -5 /* Z_BUF_ERROR: more data than room */)
            return CODEC_SIZE;
        if (r != 0)
            return CODEC_CORRUPT;
        if (got != want)
            return CODEC_SIZE;
    }
    *out = dst;
    return CODEC_OK;
}

codec_result codec_compress(arena *a, codec_kind k, const void *src, size_t n,
                            unsigned char **out, size_t *outlen)
{
    *out = NULL;
    *outlen = 0;
    if (!codec_available(k))
        return CODEC_UNAVAILABLE;
    if (k == CODEC_ZSTD) {
        if (!lib.s_compress || !lib.s_bound)
            return CODEC_UNAVAILABLE;
        size_t cap = lib.s_bound(n);
        unsigned char *dst = arena_alloc_nozero(a, 1, 16, (ptrdiff_t)cap);
        if (!dst)
            return CODEC_NOMEM;
        size_t r = lib.s_compress(dst, cap, src, n, 3);
        if (lib.s_iserror(r))
            return CODEC_CORRUPT;
        *out = dst;
        *outlen = r;
        return CODEC_OK;
    }
    if (!lib.z_compress2 || !lib.z_bound)
        return CODEC_UNAVAILABLE;
    unsigned long cap = lib.z_bound((unsigned long)n);
    unsigned char *dst = arena_alloc_nozero(a, 1, 16, (ptrdiff_t)cap);
    if (!dst)
        return CODEC_NOMEM;
    if (lib.z_compress2(dst, &cap, src, (unsigned long)n, 6) != 0)
        return CODEC_CORRUPT;
    *out = dst;
    *outlen = cap;
    return CODEC_OK;
}
