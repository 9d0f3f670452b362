/* doctor.h: the state shared by doctor's files: one run over a machine (or a fake root), the
 * environment it judges, what it found and the findings it makes. */
#ifndef HP_DOCTOR_H
#define HP_DOCTOR_H

#include <stdarg.h>
#include <string.h>

#include "arena.h"
#include "hipport.h"
#include "sysfs.h"

/* A PyTorch GPU library that was looked into, with what the targets API said about it. */
typedef struct doc_scan {
    int torch;               /* index in doctor.torch */
    int lib;                 /* index in that install's libs */
    hp_vendor vendor;        /* whose GPUs the library is for */
    int kernels;             /* it should carry GPU code (libtorch_*, not libc10_*) */
    hp_targets_result res;   /* valid when the scan succeeded */
    int ok;
} doc_scan;

/* A growable array in the run's arena. */
#define DOC_VEC(T) struct { T *v; int n, cap; }

typedef struct doctor {
    hp_ctx *ctx;             /* owner of every result */
    arena *a;                /* ctx's arena */
    const hp_doctor_opts *o;
    sysfs fs;
    DOC_VEC(const char *) env_name;   /* the environment judged */
    DOC_VEC(const char *) env_value;
    DOC_VEC(hp_doctor_gpu) gpus;
    DOC_VEC(hp_doctor_rocm) rocm;
    DOC_VEC(const char *) pydirs;
    DOC_VEC(const char *) pykeys;     /* canonical forms of pydirs, to skip repeats */
    DOC_VEC(hp_doctor_torch) torch;
    DOC_VEC(hp_doctor_triton) triton;
    DOC_VEC(hp_doctor_rocm_sdk) rocm_sdk;
    DOC_VEC(doc_scan) scans;
    DOC_VEC(hp_finding) findings;
    hp_doctor_report *r;
    int kfd_present;
    const char *amdgpu_state; /* /sys/module/amdgpu/initstate ("live"), NULL if absent */
    const char *noretry;      /* /sys/module/amdgpu/parameters/noretry, NULL if absent */
} doctor;

/* Grows the storage of a DOC_VEC (doubling *cap); returns the new storage. */
void *doc_grow(arena *a, void *old, int *cap, ptrdiff_t size);
/* Appends a zeroed element to a DOC_VEC and evaluates to a pointer to it. */
#define DOC_PUSH(d, vec)                                                                       \
    ((vec).n == (vec).cap ? (void)((vec).v = doc_grow((d)->a, (vec).v, &(vec).cap,           \
                                                      (ptrdiff_t)sizeof *(vec).v))           \
                          : (void)0,                                                         \
     memset(&(vec).v[(vec).n], 0, sizeof *(vec).v), &(vec).v[(vec).n++])

/* The value of an environment variable as judged, or NULL. */
const char *doc_getenv(const doctor *d, const char *name);
/* Loads the environment to judge into d (the process's, or the fake root's environ file). */
hp_status doc_load_env(doctor *d);
/* Adds a finding about path (a file or an environment variable). */
void doc_find(doctor *d, const char *path, const char *rule, hp_severity sev, const char *fix,
              const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
char *doc_printf(doctor *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Machine paths matching a pattern whose components may hold '*' ("/usr/lib/python3*"),
 * sorted per component; at most max of them. */
int doc_glob(doctor *d, const char *pattern, const char **out, int max);

void doctor_py_run(doctor *d); /* doctor_py.c: PyTorch and Triton installs */
void doctor_libs_run(doctor *d);   /* doctor_libs.c: GPU code in PyTorch's libraries */
void doctor_rules_run(doctor *d);  /* doctor_rules.c: ENV001-ENV004, DOC001-DOC004 */

/* doctor_libs.c: would the library of scan s run on a GPU with this target? */
hp_verdict doctor_libs_scan_match(doctor *d, const doc_scan *s, const char *target,
                                  const char **reason);

#endif
