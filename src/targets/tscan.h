/* tscan.h: the state of one targets scan, shared by the container readers (ELF hosts and
 * archives in targets.c, offload bundles in bundle.c, NVIDIA fatbins in fatbin.c). */
#ifndef HP_TSCAN_H
#define HP_TSCAN_H

#include <stdint.h>

#include "arena.h"
#include "bin.h"
#include "hipport.h"

/* Limits for untrusted input. */
#define TSCAN_MAX_DEPTH 6                         /* containers inside containers */
#define TSCAN_MAX_CODE 200000                     /* pieces of GPU code listed per file */
#define TSCAN_MAX_NOTES 200                       /* problems reported per file */
#define TSCAN_MAX_INFLATE ((uint64_t)512 << 20)   /* one decompressed blob */
#define TSCAN_INFLATE_RATIO 1024u                 /* ... and at most this times its input */
#define TSCAN_MAX_INFLATE_TOTAL ((uint64_t)1 << 30) /* all decompressed data of a file */

typedef struct tscan {
    arena *out;           /* results: strings, pieces, notes (the hp_ctx arena) */
    arena tmp;            /* decompressed data; released when the scan ends */
    const char *path;     /* for notes */
    hp_gpu_code *code;
    int ncode, capcode;
    hp_finding *notes;
    int nnotes, capnotes;
    int depth;            /* current container depth */
    uint64_t work;        /* bytes walked so far (nested data counts again) */
    uint64_t work_cap;    /* when work passes this, the scan stops */
    uint64_t inflated;    /* bytes decompressed so far */
    int stopped;          /* a limit was reached: nothing more is added */
    int nomem;            /* an allocation failed */
    /* tscan_nested's reader: the dispatch of the file formats (targets.c), which the readers
     * of containers reach through it */
    int (*nested)(struct tscan *s, bin data, const char *where);
} tscan;

/* One piece of GPU code; its strings must be static or live in the result arena. */
typedef struct tscan_piece {
    hp_vendor vendor;
    const char *target;
    const char *kind;
    int compressed;
    int readable;
    const char *where;
    const char *id;
    const char *compression;
    const char *detail;
} tscan_piece;

void tscan_add(tscan *s, const tscan_piece *p);

/* A problem met while reading; sev HP_SEV_ERROR means part of the file could not be read. */
void tscan_note(tscan *s, hp_severity sev, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* "parent > child" (or just child), in the result arena. */
const char *tscan_where(tscan *s, const char *parent, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A copy of text read from a file, made printable: bytes outside ASCII 0x20..0x7e become '?'.
 * An empty or NULL slice gives "". */
const char *tscan_text(tscan *s, hp_str t);

/* Counts n bytes of walking; returns 0 (and stops the scan) once the budget is spent. */
int tscan_work(tscan *s, uint64_t n);

/* Looks at data found inside a container (an archive member, a bundle entry, an offloading
 * image) and lists the GPU code of any container format it recognizes. Returns 1 if the
 * format was recognized, 0 if not (nothing is reported then). */
int tscan_nested(tscan *s, bin data, const char *where);

/* The readers of each format. where names the enclosing container (may be NULL). */
void bundle_scan_region(tscan *s, bin region, const char *where);   /* bundles back to back */
void bundle_scan_rdc_section(tscan *s, hp_str id, bin data, const char *where);
void bundle_offbin_scan_region(tscan *s, bin region, const char *where);   /* .llvm.offloading */
void fatbin_scan_region(tscan *s, bin region, const char *where);   /* .nv_fatbin */
int bundle_is(bin data);    /* "__CLANG_OFFLOAD_BUNDLE__" or "CCOB" */
int bundle_offbin_is(bin data);    /* 10 FF 10 AD */
int fatbin_is(bin data);    /* 50 ED 55 BA */

struct elf_file;
/* Lists a bare AMDGPU code object or an NVIDIA cubin. */
void bundle_scan_amdgpu(tscan *s, const struct elf_file *e, const char *where);
void fatbin_scan_cubin(tscan *s, const struct elf_file *e, const char *where);

/* Is data LLVM bitcode (raw or wrapped)? */
int tscan_is_bitcode(bin data);

#endif
