/* gpuinfo.h: what doctor knows about GPUs without a runtime: the processor and PCI-id tables of
 * data/tables, gfx_target_version and HSA_OVERRIDE_GFX_VERSION numbers, dotted versions and the
 * CUDA-driver table. Pure functions; nothing here reads files. */
#ifndef HP_GPUINFO_H
#define HP_GPUINFO_H

#include <stddef.h>

/* One AMD processor (a row of data/tables/gfx.tsv). */
typedef struct gfx_info {
    const char *name;     /* LLVM processor: "gfx90a" */
    unsigned version;     /* KFD gfx_target_version: 90010 */
    const char *family;   /* "CDNA2" */
    const char *generic;  /* LLVM generic target covering it ("gfx9-4-generic"), or "" */
    int wave;             /* default wavefront size */
    int xnack;            /* the processor has the xnack feature */
    int sramecc;          /* the processor has the sramecc feature */
    int lds_kb;           /* LDS per workgroup (KiB) */
    const char *products; /* products built on it, or "" */
} gfx_info;

/* Looks a processor up by its gfx_target_version; 1 if known. */
int gpuinfo_gfx_by_version(unsigned version, gfx_info *out);
/* Looks a processor up by name; a target id's ":feature+-" tail is ignored; 1 if known. */
int gpuinfo_gfx_by_name(const char *name, ptrdiff_t len, gfx_info *out);
/* The name rocm_agent_enumerator derives from a gfx_target_version: "gfx" + major in decimal +
 * minor and stepping in hex (90010 -> "gfx90a"). buf holds at least 24 bytes. */
void gpuinfo_gfx_format_version(unsigned version, char *buf, size_t n);
/* Parses HSA_OVERRIDE_GFX_VERSION as the ROCm thunk does: "%u.%u.%u" with nothing after it,
 * major <= 63, minor and stepping <= 255. Returns major*10000 + minor*100 + stepping (with the
 * three numbers in *major, *minor, *step), or -1 when the thunk rejects the value. */
long gpuinfo_gfx_parse_override(const char *s, unsigned *major, unsigned *minor, unsigned *step);
/* Both processors covered by one LLVM generic target (their ISAs are compatible enough to run
 * each other's generic code). */
int gpuinfo_gfx_same_family(const gfx_info *a, const gfx_info *b);
/* Is s a processor name doctor knows, with valid features ("gfx90a:xnack+")? */
int gpuinfo_gfx_valid_target(const char *s, ptrdiff_t len);

/* AMD PCI device id -> marketing name (and *gfx the processor); NULL if unknown. */
const char *gpuinfo_amd_pci_name(unsigned device, const char **gfx);
/* NVIDIA PCI device id -> name and compute capability; NULL if unknown. */
const char *gpuinfo_nv_pci_name(unsigned device, int *major, int *minor);
/* Compute capability from a word of a model name ("NVIDIA A100-SXM4-80GB"); 1 if found. */
int gpuinfo_nv_model_cc(const char *model, int *major, int *minor);

/* Compares dotted numeric versions field by field ("580.65.06" < "580.159.04"); the first
 * character that is neither digit nor '.' ends a version. */
int gpuinfo_ver_cmp(const char *a, const char *b);
/* major*100 + minor of "6.2.41133-dd7f" (602), or -1 when it does not start with N.N. */
int gpuinfo_ver_major_minor(const char *s);

/* How a driver runs a CUDA release: */
enum {
    CUDA_FIT_NATIVE = 0, /* the driver is at least the one the release shipped with */
    CUDA_FIT_MINOR = 1,  /* only through minor version compatibility */
    CUDA_FIT_OLD = 2,    /* too old */
    CUDA_FIT_UNKNOWN = 3 /* the CUDA release is not in the table */
};
/* Fit of CUDA "12.8" (or "12.8.1") on driver "570.124.06"; *need is the driver it needs for
 * all features (static). */
int gpuinfo_cuda_driver_fit(const char *cuda, const char *driver, const char **need);
/* The newest CUDA release (major.minor) the driver runs natively, or NULL (static). */
const char *gpuinfo_cuda_max_for_driver(const char *driver);

#endif
