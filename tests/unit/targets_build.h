/* targets_build.h: writes the binary formats of hipport targets in memory (ELF files,
 * archives, offload bundles, compressed bundles, offloading binaries, fatbins) for the unit
 * tests, and scans the result. */
#ifndef HP_TARGETS_BUILD_H
#define HP_TARGETS_BUILD_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hipport.h"

/* A growable byte buffer; tests abort on out of memory. */
typedef struct bb {
    unsigned char *p;
    size_t len, cap;
} bb;

static inline void bb_reserve(bb *b, size_t n)
{
    if (b->len + n <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n)
        cap *= 2;
    unsigned char *p = realloc(b->p, cap);
    if (!p)
        abort();
    memset(p + b->cap, 0, cap - b->cap);
    b->p = p;
    b->cap = cap;
}

static inline void bb_bytes(bb *b, const void *p, size_t n)
{
    bb_reserve(b, n);
    if (n)
        memcpy(b->p + b->len, p, n);
    b->len += n;
}

static inline void bb_str(bb *b, const char *s)
{
    bb_bytes(b, s, strlen(s));
}

static inline void bb_zero(bb *b, size_t n)
{
    bb_reserve(b, n);
    memset(b->p + b->len, 0, n);
    b->len += n;
}

static inline void bb_align(bb *b, size_t a)
{
    while (b->len % a)
        bb_zero(b, 1);
}

/* An integer of size bytes at off (little-endian unless be). */
static inline void bb_set(bb *b, size_t off, uint64_t v, int size, int be)
{
    bb_reserve(b, off + (size_t)size > b->len ? off + (size_t)size - b->len : 0);
    if (off + (size_t)size > b->len)
        b->len = off + (size_t)size;
    for (int i = 0; i < size; i++)
        b->p[off + (size_t)(be ? size - 1 - i : i)] = (unsigned char)(v >> (8 * i));
}

static inline void bb_int(bb *b, uint64_t v, int size)
{
    bb_set(b, b->len, v, size, 0);
}

static inline void bb_free(bb *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

/* A bare ELF64 little-endian header with no sections (an AMDGPU code object or a cubin). */
static inline void bb_elf_header(bb *b, unsigned machine, unsigned osabi, unsigned abiversion,
                                 uint32_t flags, unsigned type)
{
    size_t at = b->len;
    bb_zero(b, 64);
    memcpy(b->p + at, "\x7f" "ELF", 4);
    b->p[at + 4] = 2;
    b->p[at + 5] = 1;
    b->p[at + 6] = 1;
    b->p[at + 7] = (unsigned char)osabi;
    b->p[at + 8] = (unsigned char)abiversion;
    bb_set(b, at + 16, type, 2, 0);
    bb_set(b, at + 18, machine, 2, 0);
    bb_set(b, at + 20, 1, 4, 0);
    bb_set(b, at + 48, flags, 4, 0);
    bb_set(b, at + 52, 64, 2, 0);
}

/* An ELF host file with the named sections (x86-64, relocatable). Either class and byte
 * order; section contents are placed after the header, the table at the end. */
typedef struct bb_section {
    const char *name;
    uint32_t type;    /* 0: PROGBITS */
    const void *data;
    size_t size;
} bb_section;

static inline void bb_elf_host(bb *b, int is64, int be, const bb_section *secs, int n)
{
    size_t hdr = is64 ? 64 : 52, shent = is64 ? 64 : 40;
    bb_zero(b, hdr);
    memcpy(b->p, "\x7f" "ELF", 4);
    b->p[4] = (unsigned char)(is64 ? 2 : 1);
    b->p[5] = (unsigned char)(be ? 2 : 1);
    b->p[6] = 1;
    bb_set(b, 16, 1, 2, be);                     /* ET_REL */
    bb_set(b, 18, is64 ? 62 : 3, 2, be);          /* x86-64 / i386 */
    bb_set(b, 20, 1, 4, be);
    /* names: "" then each name, then ".shstrtab" */
    bb names = {0};
    bb_zero(&names, 1);
    size_t *name_off = calloc((size_t)n + 1, sizeof *name_off);
    size_t *data_off = calloc((size_t)n + 1, sizeof *data_off);
    if (!name_off || !data_off)
        abort();
    for (int i = 0; i < n; i++) {
        name_off[i] = names.len;
        bb_str(&names, secs[i].name);
        bb_zero(&names, 1);
    }
    size_t shstr_name = names.len;
    bb_str(&names, ".shstrtab");
    bb_zero(&names, 1);
    for (int i = 0; i < n; i++) {
        bb_align(b, 8);
        data_off[i] = b->len;
        bb_bytes(b, secs[i].data, secs[i].size);
    }
    size_t shstr_off = b->len;
    bb_bytes(b, names.p, names.len);
    bb_align(b, 8);
    size_t shoff = b->len;
    bb_zero(b, shent * (size_t)(n + 2));
    for (int i = 0; i <= n; i++) {
        size_t at = shoff + shent * (size_t)(i + 1);
        int last = i == n;
        uint32_t type = last ? 3 : secs[i].type ? secs[i].type : 1;
        uint64_t off = last ? shstr_off : data_off[i];
        uint64_t size = last ? names.len : secs[i].size;
        bb_set(b, at, last ? shstr_name : name_off[i], 4, be);
        bb_set(b, at + 4, type, 4, be);
        if (is64) {
            bb_set(b, at + 24, off, 8, be);
            bb_set(b, at + 32, size, 8, be);
        } else {
            bb_set(b, at + 16, off, 4, be);
            bb_set(b, at + 20, size, 4, be);
        }
    }
    if (is64) {
        bb_set(b, 40, shoff, 8, be);
        bb_set(b, 58, shent, 2, be);
        bb_set(b, 60, (uint64_t)n + 2, 2, be);
        bb_set(b, 62, (uint64_t)n + 1, 2, be);
    } else {
        bb_set(b, 32, shoff, 4, be);
        bb_set(b, 46, shent, 2, be);
        bb_set(b, 48, (uint64_t)n + 2, 2, be);
        bb_set(b, 50, (uint64_t)n + 1, 2, be);
    }
    free(name_off);
    free(data_off);
    bb_free(&names);
}

/* An uncompressed offload bundle: entries (id, payload) with payloads 8-aligned. */
typedef struct bb_entry {
    const char *id;
    const void *data;
    size_t size;
} bb_entry;

static inline void bb_bundle(bb *b, const bb_entry *e, int n)
{
    size_t start = b->len;
    bb_str(b, "__CLANG_OFFLOAD_BUNDLE__");
    bb_int(b, (uint64_t)n, 8);
    size_t *fix = calloc((size_t)n + 1, sizeof *fix);
    if (!fix)
        abort();
    for (int i = 0; i < n; i++) {
        fix[i] = b->len;
        bb_int(b, 0, 8);
        bb_int(b, e[i].size, 8);
        bb_int(b, strlen(e[i].id), 8);
        bb_str(b, e[i].id);
    }
    for (int i = 0; i < n; i++) {
        bb_align(b, 8);
        bb_set(b, fix[i], b->len - start, 8, 0);
        bb_bytes(b, e[i].data, e[i].size);
    }
    free(fix);
}

/* One fatbin entry header (64 bytes) followed by size payload bytes. */
static inline void bb_fatbin_entry(bb *b, unsigned kind, unsigned arch, uint64_t flags,
                                   size_t size)
{
    size_t at = b->len;
    bb_zero(b, 64);
    bb_set(b, at, kind, 2, 0);
    bb_set(b, at + 2, 0x101, 2, 0);
    bb_set(b, at + 4, 64, 4, 0);
    bb_set(b, at + 8, size, 8, 0);
    bb_set(b, at + 24, kind == 1 ? 0 : 8, 2, 0);
    bb_set(b, at + 26, kind == 1 ? 9 : 1, 2, 0);
    bb_set(b, at + 28, arch, 4, 0);
    bb_set(b, at + 40, flags | 0x11, 8, 0);
    bb_zero(b, size);
}

/* Patches the fat_size of the container at start to cover everything after its header. */
static inline void bb_fatbin_close(bb *b, size_t start)
{
    bb_set(b, start + 8, b->len - start - 16, 8, 0);
}

static inline void bb_fatbin_open(bb *b)
{
    bb_int(b, 0xBA55ED50u, 4);
    bb_int(b, 1, 2);
    bb_int(b, 16, 2);
    bb_int(b, 0, 8);
}

/* Scans b with a fresh context and renders the pieces as "vendor:target:kind[:z][:?]" joined
 * by spaces (z: compressed, ?: not readable), and the notes' severities as "E", "W", "N". */
typedef struct scanned {
    hp_ctx *ctx;
    hp_targets_result r;
    hp_status st;
    char pieces[2048];
    char notes[256];
} scanned;

static inline void scan_bytes(scanned *s, const void *p, size_t n)
{
    memset(s, 0, sizeof *s);
    s->ctx = hp_ctx_new();
    if (!s->ctx)
        abort();
    s->st = hp_targets_scan(s->ctx, "t", p, (ptrdiff_t)n, &s->r);
    size_t k = 0;
    for (int i = 0; i < s->r.ncode && k < sizeof s->pieces - 128; i++) {
        const hp_gpu_code *c = &s->r.code[i];
        int w = snprintf(s->pieces + k, sizeof s->pieces - k, "%s%s:%s:%s%s%s", i ? " " : "",
                         hp_vendor_name(c->vendor), c->target, c->kind,
                         c->compressed ? ":z" : "", c->readable ? "" : ":?");
        if (w > 0)
            k += (size_t)w;
    }
    k = 0;
    for (int i = 0; i < s->r.nnotes && k < sizeof s->notes - 2; i++)
        s->notes[k++] = s->r.notes[i].severity == HP_SEV_ERROR     ? 'E'
                        : s->r.notes[i].severity == HP_SEV_WARNING ? 'W'
                                                                    : 'N';
    s->notes[k] = 0;
}

static inline void scan_done(scanned *s)
{
    hp_ctx_free(s->ctx);
    s->ctx = NULL;
}

#endif
