/* doctor_libs.c: whether PyTorch's GPU libraries carry code for this machine's GPUs. The only
 * part of doctor that uses the targets API (hp_targets_scan_file, hp_targets_match). */
#include <stdlib.h>
#include <string.h>

#include "doctor.h"

#include "banned.h"

/* PyTorch's GPU libraries. libtorch_* hold the kernels; libc10_* may hold a few or none. */
static const struct {
    const char *file;
    hp_vendor vendor;
    int kernels; /* a build without GPU code here is broken */
} lib_names[] = {
    {"libtorch_hip.so", HP_VENDOR_AMD, 1},
    {"libc10_hip.so", HP_VENDOR_AMD, 0},
    {"libtorch_cuda.so", HP_VENDOR_NVIDIA, 1},
    {"libc10_cuda.so", HP_VENDOR_NVIDIA, 0},
};

/* RUNS < NO_GPU_CODE < UNKNOWN < WONT_RUN */
static int rank(hp_verdict v)
{
    switch (v) {
    case HP_VERDICT_RUNS: return 0;
    case HP_VERDICT_NO_GPU_CODE: return 1;
    case HP_VERDICT_UNKNOWN: return 2;
    case HP_VERDICT_WONT_RUN: return 3;
    }
    return 2;
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The distinct targets of a scan, sorted, space-separated. */
static const char *target_list(doctor *d, const hp_targets_result *res)
{
    const char **v = NEW(d->a, const char *, res->ncode + 1);
    int n = 0;
    for (int i = 0; i < res->ncode; i++) {
        const char *t = res->code[i].target;
        if (!t || !*t)
            continue;
        int dup = 0;
        for (int k = 0; k < n && !dup; k++)
            dup = strcmp(v[k], t) == 0;
        if (!dup)
            v[n++] = t;
    }
    qsort(v, (size_t)n, sizeof *v, cmp_str);
    size_t len = 1;
    for (int i = 0; i < n; i++)
        len += strlen(v[i]) + 1;
    char *out = arena_alloc_nozero(d->a, 1, 1, (ptrdiff_t)len);
    size_t off = 0;
    for (int i = 0; i < n; i++) {
        size_t l = strlen(v[i]);
        if (i)
            out[off++] = ' ';
        memcpy(out + off, v[i], l);
        off += l;
    }
    out[off] = 0;
    return out;
}

hp_verdict doctor_libs_scan_match(doctor *d, const doc_scan *s, const char *target,
                                  const char **reason)
{
    *reason = "";
    if (!s->ok)
        return HP_VERDICT_NO_GPU_CODE;
    const char *r = NULL;
    hp_verdict v = hp_targets_match(d->ctx, &s->res, target, &r);
    *reason = r ? r : "";
    return v;
}

static void judge(doctor *d, doc_scan *s, hp_doctor_lib *lib)
{
    const char *vendor = s->vendor == HP_VENDOR_AMD ? "AMD" : "NVIDIA";
    int checked = 0;
    for (int i = 0; i < d->gpus.n; i++) {
        const hp_doctor_gpu *g = &d->gpus.v[i];
        if (g->vendor != s->vendor || !g->effective[0])
            continue;
        int seen = 0;
        for (int k = 0; k < i && !seen; k++)
            seen = d->gpus.v[k].vendor == s->vendor &&
                   strcmp(d->gpus.v[k].effective, g->effective) == 0;
        if (seen)
            continue;
        const char *reason;
        hp_verdict v = doctor_libs_scan_match(d, s, g->effective, &reason);
        if (!checked || rank(v) > rank(lib->verdict)) {
            lib->verdict = v;
            lib->gpu = g->effective;
            lib->reason = reason;
        }
        checked++;
    }
    if (!checked) {
        lib->verdict = s->res.ncode ? HP_VERDICT_RUNS : HP_VERDICT_NO_GPU_CODE;
        lib->gpu = "";
        lib->reason = doc_printf(d, "no %s GPU with a known target to check it against", vendor);
    }
}

void doctor_libs_run(doctor *d)
{
    for (int ti = 0; ti < d->torch.n; ti++) {
        hp_doctor_torch *t = &d->torch.v[ti];
        DOC_VEC(hp_doctor_lib) libs = {NULL, 0, 0};
        for (size_t k = 0; k < sizeof lib_names / sizeof *lib_names; k++) {
            const char *path = doc_printf(d, "%s/torch/lib/%s", t->site, lib_names[k].file);
            if (!sysfs_exists(&d->fs, path))
                continue;
            hp_doctor_lib *lib = DOC_PUSH(d, libs);
            lib->path = path;
            lib->targets = lib->gpu = lib->reason = "";
            doc_scan *s = DOC_PUSH(d, d->scans);
            s->torch = ti;
            s->lib = libs.n - 1;
            s->vendor = lib_names[k].vendor;
            s->kernels = lib_names[k].kernels;
            const char *host = sysfs_host(&d->fs, path);
            hp_status st = !host                         ? HP_ELOOP
                           : !sysfs_is_file(&d->fs, path) ? HP_EIO /* a FIFO would block */
                                                          : hp_targets_scan_file(d->ctx, host, &s->res);
            if (st != HP_OK) {
                lib->reason = st == HP_EIO && host && !sysfs_is_file(&d->fs, path)
                                  ? "not a regular file"
                                  : doc_printf(d, "could not be read for GPU code: %s",
                                               s->res.nnotes && s->res.notes[0].message
                                                   ? s->res.notes[0].message
                                                   : hp_status_name(st));
                sysfs_problem_add(&d->fs, path, lib->reason);
                continue;
            }
            s->ok = 1;
            lib->scanned = 1;
            lib->ncode = s->res.ncode;
            lib->targets = target_list(d, &s->res);
            judge(d, s, lib);
        }
        t->libs = libs.v;
        t->nlibs = libs.n;
    }
}
