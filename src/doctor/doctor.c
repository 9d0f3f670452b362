/* doctor.c: hipport doctor's run: the GPUs (KFD topology, PCI, NVIDIA driver), ROCm, HIP,
 * driver and CUDA versions. Python installs, libraries and the rules live in doctor_py.c,
 * doctor_libs.c and doctor_rules.c, the report in doctor_report.c, and what they share
 * (findings, the environment judged, globs under the root) in doc.c. */
#define _GNU_SOURCE 1
#include "doctor.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctx.h"
#include "gpuinfo.h"
#include "rule_ids.h"
#include "str.h"

#include "banned.h"


/* ---------------------------------------------------------------- GPUs */

static int parse_bdf(const char *s, unsigned *dom, unsigned *bus, unsigned *dev, unsigned *fn)
{
    unsigned a, b, c, e;
    char tail;
    if (!s || sscanf(s, "%x:%x:%x.%x%c", &a, &b, &c, &e, &tail) != 4)
        return 0;
    *dom = a;
    *bus = b;
    *dev = c;
    *fn = e;
    return 1;
}

static int same_bdf(const char *x, const char *y)
{
    unsigned a[4], b[4];
    return parse_bdf(x, &a[0], &a[1], &a[2], &a[3]) && parse_bdf(y, &b[0], &b[1], &b[2], &b[3]) &&
           memcmp(a, b, sizeof a) == 0;
}

static unsigned ull_u(unsigned long long v)
{
    return v > 0xffffffffull ? 0xffffffffu : (unsigned)v;
}

static int ull_i(unsigned long long v)
{
    return v > 0x7fffffffull ? 0x7fffffff : (int)v;
}

/* The target id: processor plus the features it has, in LLVM's order (sramecc, xnack). */
static const char *target_id(doctor *d, const char *arch, hp_feature sramecc, hp_feature xnack)
{
    return doc_printf(d, "%s%s%s", arch,
                      sramecc == HP_FEATURE_UNSUPPORTED ? ""
                      : sramecc == HP_FEATURE_ON        ? ":sramecc+"
                                                        : ":sramecc-",
                      xnack == HP_FEATURE_UNSUPPORTED ? ""
                      : xnack == HP_FEATURE_ON        ? ":xnack+"
                                                      : ":xnack-");
}

/* The process XNACK mode on a processor with the xnack feature (KFD's rules): gfx90a and newer
 * gfx9 set it per process, which HSA_XNACK asks for; older gfx9 and gfx1010 follow the
 * driver's amdgpu.noretry (0: on); gfx1011 and newer RDNA run with it off. Without either
 * setting it is off (noretry defaults to 1 on discrete GPUs). */
static hp_feature xnack_state(doctor *d, unsigned version, const char **basis)
{
    const char *x = doc_getenv(d, "HSA_XNACK");
    int noretry0 = d->noretry && strcmp(d->noretry, "0") == 0;
    if (version >= 100101) {
        *basis = "RDNA GPUs after gfx1010 always run with it off";
        return HP_FEATURE_OFF;
    }
    if (version >= 90010 && version < 100000) {
        if (x && strcmp(x, "1") == 0) {
            *basis = "HSA_XNACK=1";
            return HP_FEATURE_ON;
        }
        if (x && strcmp(x, "0") == 0) {
            *basis = "HSA_XNACK=0";
            return HP_FEATURE_OFF;
        }
        if (noretry0) {
            *basis = "amdgpu.noretry=0";
            return HP_FEATURE_ON;
        }
        *basis = "the default; HSA_XNACK=1 turns it on";
        return HP_FEATURE_OFF;
    }
    /* one mode for every process: the driver's */
    if (noretry0) {
        *basis = "amdgpu.noretry=0; this processor cannot change it per process";
        return HP_FEATURE_ON;
    }
    *basis = "the driver's default; only amdgpu.noretry=0 turns it on for this processor";
    return HP_FEATURE_OFF;
}

static const char *nv_family(int major, int minor)
{
    switch (major) {
    case 5: return "Maxwell";
    case 6: return "Pascal";
    case 7: return minor >= 5 ? "Turing" : "Volta";
    case 8: return minor == 9 ? "Ada Lovelace" : "Ampere";
    case 9: return "Hopper";
    case 10:
    case 11:
    case 12: return "Blackwell";
    default: return "";
    }
}

/* The processor the runtime will claim for a KFD node (HSA_OVERRIDE_GFX_VERSION_<node>, then
 * HSA_OVERRIDE_GFX_VERSION), or NULL when there is no valid override. */
static const char *override_arch(doctor *d, int node)
{
    char name[64];
    snprintf(name, sizeof name, "HSA_OVERRIDE_GFX_VERSION_%d", node);
    const char *v = doc_getenv(d, name);
    if (!v)
        v = doc_getenv(d, "HSA_OVERRIDE_GFX_VERSION");
    unsigned a, b, c;
    if (!v || gpuinfo_gfx_parse_override(v, &a, &b, &c) < 0)
        return NULL;
    char buf[32];
    snprintf(buf, sizeof buf, "gfx%u%x%x", a, b, c);
    return doc_printf(d, "%s", buf);
}

static void amd_features(doctor *d, hp_doctor_gpu *g, const gfx_info *gi, int known,
                         unsigned long long capability, int have_cap)
{
    g->xnack = HP_FEATURE_UNSUPPORTED;
    g->sramecc = HP_FEATURE_UNSUPPORTED;
    g->xnack_basis = "";
    if (!known)
        return;
    if (gi->xnack)
        g->xnack = xnack_state(d, gi->version, &g->xnack_basis);
    else
        g->xnack_basis = "the processor has no xnack feature";
    if (gi->sramecc)
        g->sramecc = have_cap && (capability & 0x04000000ull) ? HP_FEATURE_ON : HP_FEATURE_OFF;
}

/* The effective target: the override's processor with this GPU's feature states. */
static void amd_effective(doctor *d, hp_doctor_gpu *g)
{
    g->effective = g->target;
    const char *ov = g->kfd_node >= 0 ? override_arch(d, g->kfd_node) : NULL;
    if (!ov) {
        /* a PCI-only GPU: only the global variable applies */
        const char *v = doc_getenv(d, "HSA_OVERRIDE_GFX_VERSION");
        unsigned a, b, c;
        if (g->kfd_node < 0 && v && gpuinfo_gfx_parse_override(v, &a, &b, &c) >= 0)
            ov = doc_printf(d, "gfx%u%x%x", a, b, c);
    }
    if (!ov || strcmp(ov, g->arch) == 0)
        return;
    gfx_info e;
    if (!gpuinfo_gfx_by_name(ov, (ptrdiff_t)strlen(ov), &e)) {
        g->effective = ov;
        return;
    }
    const char *basis;
    hp_feature x = e.xnack ? (g->xnack != HP_FEATURE_UNSUPPORTED ? g->xnack
                                                                 : xnack_state(d, e.version, &basis))
                           : HP_FEATURE_UNSUPPORTED;
    hp_feature s = e.sramecc ? (g->sramecc == HP_FEATURE_ON ? HP_FEATURE_ON : HP_FEATURE_OFF)
                             : HP_FEATURE_UNSUPPORTED;
    g->effective = target_id(d, ov, s, x);
}

static hp_doctor_gpu *new_gpu(doctor *d, hp_vendor v, const char *source)
{
    hp_doctor_gpu *g = DOC_PUSH(d, d->gpus);
    g->vendor = v;
    g->source = source;
    g->arch = g->target = g->effective = g->name = g->family = g->bdf = g->driver = "";
    g->xnack_basis = g->cc_basis = g->uuid = g->device_node = "";
    g->kfd_node = -1;
    g->xnack = g->sramecc = HP_FEATURE_UNSUPPORTED;
    return g;
}

static void amd_from_kfd(doctor *d, const sysfs_kfd_node *k)
{
    hp_doctor_gpu *g = new_gpu(d, HP_VENDOR_AMD, "kfd");
    const sysfs_props *p = &k->props;
    unsigned long long v;
    g->kfd_node = k->node;
    if (sysfs_prop(p, "vendor_id", &v))
        g->pci_vendor = ull_u(v);
    if (sysfs_prop(p, "device_id", &v))
        g->pci_device = ull_u(v);
    gfx_info gi;
    int known = 0;
    if (sysfs_prop(p, "gfx_target_version", &v) && v > 999999) {
        doc_find(d, doc_printf(d, "/sys/class/kfd/kfd/topology/nodes/%d/properties", k->node),
                 RID_DOC004, HP_SEV_WARNING, "look for amdgpu and kfd messages in dmesg",
                 "gfx_target_version %llu is no processor version (major*10000 + minor*100 + "
                 "stepping)", v);
    } else if (sysfs_prop(p, "gfx_target_version", &v) && v) {
        g->gfx_target_version = ull_u(v);
        known = gpuinfo_gfx_by_version(g->gfx_target_version, &gi);
        if (known) {
            g->arch = gi.name;
        } else {
            char buf[32];
            gpuinfo_gfx_format_version(g->gfx_target_version, buf, sizeof buf);
            g->arch = doc_printf(d, "%s", buf);
        }
    } else {
        /* old kernels print no gfx_target_version: the PCI id says it */
        const char *arch;
        if (gpuinfo_amd_pci_name(g->pci_device, &arch)) {
            g->arch = arch;
            known = gpuinfo_gfx_by_name(arch, (ptrdiff_t)strlen(arch), &gi);
        }
    }
    const char *name = gpuinfo_amd_pci_name(g->pci_device, NULL);
    g->name = name ? name : "";
    if (known)
        g->family = gi.family;
    unsigned long long simd = 0, per = 0, dom = 0, loc = 0;
    if (sysfs_prop(p, "simd_count", &simd))
        g->simds = ull_i(simd);
    if (sysfs_prop(p, "simd_per_cu", &per) && per)
        g->compute_units = ull_i(simd / per);
    if (sysfs_prop(p, "wave_front_size", &v))
        g->wavefront = ull_i(v);
    if (sysfs_prop(p, "lds_size_in_kb", &v))
        g->lds_kb = ull_i(v);
    g->xcc = sysfs_prop(p, "num_xcc", &v) ? ull_i(v) : 1;
    if (sysfs_prop(p, "max_engine_clk_fcompute", &v))
        g->max_clock_mhz = ull_i(v);
    g->vram_bytes = k->vram_bytes;
    sysfs_prop(p, "domain", &dom);
    if (sysfs_prop(p, "location_id", &loc))
        g->bdf = doc_printf(d, "%04x:%02x:%02x.%x", ull_u(dom),
                            (unsigned)(loc >> 8) & 0xffu, (unsigned)(loc >> 3) & 0x1fu,
                            (unsigned)loc & 7u);
    if (sysfs_prop(p, "drm_render_minor", &v) && v)
        g->device_node = doc_printf(d, "/dev/dri/renderD%llu", v);
    if (sysfs_prop(p, "unique_id", &v) && v)
        g->uuid = doc_printf(d, "GPU-%016llx", v);
    unsigned long long cap = 0;
    int have_cap = sysfs_prop(p, "capability", &cap);
    amd_features(d, g, &gi, known, cap, have_cap);
    g->target = g->arch[0] ? target_id(d, g->arch, g->sramecc, g->xnack) : "";
    amd_effective(d, g);
}

static void amd_from_pci(doctor *d, const sysfs_pci_dev *p)
{
    hp_doctor_gpu *g = new_gpu(d, HP_VENDOR_AMD, "pci");
    g->pci_vendor = p->vendor;
    g->pci_device = p->device;
    g->bdf = p->bdf;
    g->driver = p->driver ? p->driver : "";
    const char *arch = NULL;
    const char *name = gpuinfo_amd_pci_name(p->device, &arch);
    g->name = name ? name : "";
    gfx_info gi;
    int known = arch && gpuinfo_gfx_by_name(arch, (ptrdiff_t)strlen(arch), &gi);
    if (known) {
        g->arch = gi.name;
        g->family = gi.family;
        g->wavefront = gi.wave;
        g->gfx_target_version = gi.version;
    }
    /* without KFD nothing says whether SRAM ECC is on: leave both features unstated */
    amd_features(d, g, &gi, 0, 0, 0);
    if (known && gi.xnack)
        g->xnack = xnack_state(d, gi.version, &g->xnack_basis);
    g->target = g->arch[0] ? target_id(d, g->arch, g->sramecc, g->xnack) : "";
    amd_effective(d, g);
}

static void nv_cc(doctor *d, hp_doctor_gpu *g, const char *model)
{
    int a = 0, b = 0;
    g->wavefront = 32; /* every NVIDIA GPU's warp */
    const char *name = g->pci_device ? gpuinfo_nv_pci_name(g->pci_device, &a, &b) : NULL;
    if (name) {
        g->cc_basis = "PCI id table";
        if (!g->name[0])
            g->name = name;
    } else if (model && gpuinfo_nv_model_cc(model, &a, &b)) {
        g->cc_basis = "model name";
    } else {
        a = b = 0;
    }
    g->cc_major = a;
    g->cc_minor = b;
    if (a) {
        g->arch = doc_printf(d, "sm_%d%d", a, b);
        g->target = g->effective = g->arch;
        g->family = nv_family(a, b);
    }
}

static void nv_apply_proc(doctor *d, hp_doctor_gpu *g, const sysfs_nv_gpu *n)
{
    if (n->model && n->model[0])
        g->name = n->model;
    if (n->uuid)
        g->uuid = n->uuid;
    if (n->minor && n->minor[0])
        g->device_node = doc_printf(d, "/dev/nvidia%s", n->minor);
    if (n->excluded && strncmp(n->excluded, "Yes", 3) == 0)
        doc_find(d, doc_printf(d, "/proc/driver/nvidia/gpus/%s/information", n->bdf), RID_DOC004,
                 HP_SEV_WARNING, "see nvidia-smi -q for why the driver excluded the GPU",
                 "the NVIDIA driver excludes GPU %s (%s) from use", n->bdf,
                 n->model ? n->model : "");
}

static int cmp_gpu(const void *x, const void *y)
{
    const hp_doctor_gpu *a = x, *b = y;
    if (a->vendor != b->vendor)
        return a->vendor == HP_VENDOR_AMD ? -1 : 1;
    return a->index - b->index; /* the order found */
}

static void find_gpus(doctor *d)
{
    sysfs_kfd_node *nodes;
    int nn;
    sysfs_kfd_gpus(&d->fs, &nodes, &nn, &d->kfd_present);
    d->amdgpu_state = sysfs_line(&d->fs, "/sys/module/amdgpu/initstate");
    d->noretry = sysfs_line(&d->fs, "/sys/module/amdgpu/parameters/noretry");
    for (int i = 0; i < nn; i++)
        amd_from_kfd(d, &nodes[i]);
    int namd_kfd = d->gpus.n;

    sysfs_pci_dev *pci;
    int np;
    sysfs_pci_gpus(&d->fs, &pci, &np);
    sysfs_nv_gpu *nv;
    int nnv;
    sysfs_nvidia_gpus(&d->fs, &nv, &nnv);
    char *nv_used = NEW(d->a, char, nnv + 1);

    for (int i = 0; i < np; i++) {
        const sysfs_pci_dev *p = &pci[i];
        if (p->vendor == 0x1002) {
            int matched = 0;
            for (int k = 0; k < namd_kfd; k++)
                if (same_bdf(d->gpus.v[k].bdf, p->bdf)) {
                    d->gpus.v[k].driver = p->driver ? p->driver : "";
                    matched = 1;
                }
            if (!matched && namd_kfd == 0)
                amd_from_pci(d, p);
            continue;
        }
        hp_doctor_gpu *g = new_gpu(d, HP_VENDOR_NVIDIA, "pci");
        g->pci_vendor = p->vendor;
        g->pci_device = p->device;
        g->bdf = p->bdf;
        g->driver = p->driver ? p->driver : "";
        const sysfs_nv_gpu *info = NULL;
        for (int k = 0; k < nnv; k++)
            if (!nv_used[k] && same_bdf(nv[k].bdf, p->bdf)) {
                info = &nv[k];
                nv_used[k] = 1;
                break;
            }
        if (info)
            nv_apply_proc(d, g, info);
        nv_cc(d, g, info ? info->model : NULL);
    }
    /* GPUs the driver lists but PCI sysfs does not show (some containers) */
    for (int k = 0; k < nnv; k++) {
        if (nv_used[k])
            continue;
        hp_doctor_gpu *g = new_gpu(d, HP_VENDOR_NVIDIA, "nvidia-driver");
        g->pci_vendor = 0x10de;
        g->bdf = nv[k].bdf ? nv[k].bdf : "";
        g->driver = "nvidia";
        nv_apply_proc(d, g, &nv[k]);
        nv_cc(d, g, nv[k].model);
    }
    for (int i = 0; i < d->gpus.n; i++)
        d->gpus.v[i].index = i;
    if (d->gpus.n > 1)
        qsort(d->gpus.v, (size_t)d->gpus.n, sizeof *d->gpus.v, cmp_gpu);
    int per[3] = {0, 0, 0};
    for (int i = 0; i < d->gpus.n; i++) {
        hp_doctor_gpu *g = &d->gpus.v[i];
        g->index = i;
        g->vendor_index = per[g->vendor]++;
    }
}

/* ---------------------------------------------------------------- versions */

/* The value of "#define NAME value" in a header text, or NULL. */
static const char *define_value(doctor *d, const char *text, const char *name)
{
    size_t nl = strlen(name);
    for (const char *p = text; (p = strstr(p, name)) != NULL; p += nl) {
        const char *q = p;
        while (q > text && (q[-1] == ' ' || q[-1] == '\t'))
            q--;
        if (q - 6 < text || memcmp(q - 6, "define", 6) != 0 || (p[nl] != ' ' && p[nl] != '\t'))
            continue;
        const char *v = p + nl;
        while (*v == ' ' || *v == '\t')
            v++;
        const char *e = v;
        while (*e && *e != '\n' && *e != '\r' && *e != ' ' && *e != '\t' && *e != '/')
            e++;
        if (e > v)
            return arena_strndup(d->a, v, e - v);
    }
    return NULL;
}

/* "NAME=value" lines (hip's version file, .hipVersion). */
static const char *assign_value(doctor *d, const char *text, const char *name)
{
    size_t nl = strlen(name);
    for (const char *p = text; p && *p;) {
        if (strncmp(p, name, nl) == 0 && p[nl] == '=') {
            const char *v = p + nl + 1, *e = v;
            while (*e && *e != '\n' && *e != '\r')
                e++;
            hp_str s = str_trim(str_make(v, e - v));
            return arena_strndup(d->a, s.s, s.len);
        }
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return NULL;
}

static int is_num(const char *s)
{
    if (!s || !*s)
        return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

static const char *three(doctor *d, const char *a, const char *b, const char *c)
{
    if (!is_num(a) || !is_num(b))
        return NULL;
    return is_num(c) ? doc_printf(d, "%s.%s.%s", a, b, c) : doc_printf(d, "%s.%s", a, b);
}

/* The leading "N.N[.N...]" of a version line ("6.2.4-139" -> "6.2.4"). */
static const char *version_prefix(doctor *d, const char *s)
{
    const char *e = s;
    while ((*e >= '0' && *e <= '9') || (*e == '.' && e[1] >= '0' && e[1] <= '9'))
        e++;
    if (e == s || !strchr(s, '.') || strchr(s, '.') > e)
        return NULL;
    return arena_strndup(d->a, s, e - s);
}

static void rocm_install(doctor *d, const char *path)
{
    if (!sysfs_is_dir(&d->fs, path)) {
        if (sysfs_exists(&d->fs, path) && !sysfs_host(&d->fs, path))
            sysfs_problem_add(&d->fs, path, "too many levels of symbolic links (a symlink loop)");
        return;
    }
    const char *key = sysfs_realpath(&d->fs, path);
    for (int i = 0; i < d->rocm.n; i++) {
        const char *k2 = sysfs_realpath(&d->fs, d->rocm.v[i].path);
        if (key && k2 && strcmp(key, k2) == 0)
            return;
    }
    const char *ver = NULL, *src = NULL;
    const char *f = doc_printf(d, "%s/.info/version", path);
    const char *l = sysfs_line(&d->fs, f);
    if (l && (ver = version_prefix(d, l)) != NULL)
        src = f;
    if (!ver) {
        f = doc_printf(d, "%s/include/rocm-core/rocm_version.h", path);
        const char *t = sysfs_read(&d->fs, f, SYSFS_SMALL, NULL);
        if (t && (ver = three(d, define_value(d, t, "ROCM_VERSION_MAJOR"),
                              define_value(d, t, "ROCM_VERSION_MINOR"),
                              define_value(d, t, "ROCM_VERSION_PATCH"))) != NULL)
            src = f;
    }
    if (!ver) {
        const char *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        if (strncmp(base, "rocm-", 5) == 0 && (ver = version_prefix(d, base + 5)) != NULL)
            src = path;
    }
    hp_doctor_rocm *r = DOC_PUSH(d, d->rocm);
    r->path = path;
    r->version = ver ? ver : "";
    r->source = src ? src : "";
}

/* HIP's version from one file: HIP_VERSION_MAJOR, _MINOR and _PATCH as #defines
 * (hip_version.h) or as NAME=VALUE lines (.hipVersion, share/hip/version). */
static int hip_version_in(doctor *d, const char *path, int assigned)
{
    const char *t = sysfs_read(&d->fs, path, SYSFS_SMALL, NULL);
    if (!t)
        return 0;
    const char *(*value)(doctor *, const char *, const char *) =
        assigned ? assign_value : define_value;
    const char *v = three(d, value(d, t, "HIP_VERSION_MAJOR"), value(d, t, "HIP_VERSION_MINOR"),
                          value(d, t, "HIP_VERSION_PATCH"));
    if (!v)
        return 0;
    d->r->hip_version = v;
    d->r->hip_source = path;
    return 1;
}

static void hip_version(doctor *d)
{
    const char *rocm = d->rocm.n ? d->rocm.v[0].path : NULL;
    if (rocm && hip_version_in(d, doc_printf(d, "%s/include/hip/hip_version.h", rocm), 0))
        return;
    if (hip_version_in(d, "/usr/include/hip/hip_version.h", 0))
        return;
    if (rocm && hip_version_in(d, doc_printf(d, "%s/bin/.hipVersion", rocm), 1))
        return;
    hip_version_in(d, "/usr/share/hip/version", 1);
}

/* The "version" string of the "cuda" object in a CUDA version.json. */
static const char *json_cuda_version(doctor *d, const char *t)
{
    const char *p = strstr(t, "\"cuda\"");
    if (!p)
        return NULL;
    p = strstr(p, "\"version\"");
    if (!p)
        return NULL;
    p = strchr(p + 9, ':');
    if (!p)
        return NULL;
    p++;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    if (*p != '"')
        return NULL;
    p++;
    const char *e = strchr(p, '"');
    if (!e || e - p > 64)
        return NULL;
    const char *v = arena_strndup(d->a, p, e - p);
    return version_prefix(d, v) ? v : NULL;
}

static void cuda_toolkit(doctor *d)
{
    const char *dirs[4];
    int n = 0;
    const char *e = doc_getenv(d, "CUDA_HOME");
    if (e && e[0] == '/')
        dirs[n++] = e;
    e = doc_getenv(d, "CUDA_PATH");
    if (e && e[0] == '/')
        dirs[n++] = e;
    dirs[n++] = "/usr/local/cuda";
    for (int i = 0; i < n; i++) {
        const char *f = doc_printf(d, "%s/version.json", dirs[i]);
        const char *t = sysfs_read(&d->fs, f, SYSFS_SMALL, NULL);
        const char *v = t ? json_cuda_version(d, t) : NULL;
        if (!v) {
            f = doc_printf(d, "%s/version.txt", dirs[i]);
            const char *l = sysfs_line(&d->fs, f);
            const char *k = l ? strstr(l, "CUDA Version ") : NULL;
            v = k ? version_prefix(d, k + 13) : NULL;
        }
        if (!v) {
            /* CUDA 13 installs have no version.json: the header says major*1000 + minor*10 */
            f = doc_printf(d, "%s/include/cuda.h", dirs[i]);
            const char *t2 = sysfs_read(&d->fs, f, SYSFS_META, NULL);
            const char *cv = t2 ? define_value(d, t2, "CUDA_VERSION") : NULL;
            long cn = is_num(cv) ? strtol(cv, NULL, 10) : 0;
            if (cn >= 1000 && cn < 100000)
                v = doc_printf(d, "%ld.%ld", cn / 1000, (cn % 1000) / 10);
        }
        if (v) {
            d->r->cuda_version = v;
            d->r->cuda_source = f;
            return;
        }
    }
}

static void find_versions(doctor *d)
{
    const char *rp = doc_getenv(d, "ROCM_PATH");
    if (rp && rp[0] == '/') {
        size_t n = strlen(rp);
        while (n > 1 && rp[n - 1] == '/')
            n--;
        rocm_install(d, arena_strndup(d->a, rp, (ptrdiff_t)n));
    }
    rocm_install(d, "/opt/rocm");
    const char *found[32];
    int nf = doc_glob(d, "/opt/rocm-*", found, 32);
    for (int i = 0; i < nf; i++)
        rocm_install(d, found[i]);
    hip_version(d);
    const char *dkms = sysfs_line(&d->fs, "/sys/module/amdgpu/version");
    d->r->amdgpu_version = dkms ? dkms : "";
    const char *src;
    const char *drv = sysfs_nvidia_driver(&d->fs, &src);
    if (drv) {
        d->r->nvidia_driver = drv;
        const char *mx = gpuinfo_cuda_max_for_driver(drv);
        d->r->nvidia_driver_cuda = mx ? mx : "";
    }
    cuda_toolkit(d);
}

/* ---------------------------------------------------------------- the run */

static int cmp_finding(const void *x, const void *y)
{
    const hp_finding *a = x, *b = y;
    int c = strcmp(a->path, b->path);
    if (!c)
        c = strcmp(a->rule, b->rule);
    if (!c)
        c = (int)b->severity - (int)a->severity;
    if (!c)
        c = strcmp(a->message, b->message);
    return c;
}

static int cmp_var(const void *x, const void *y)
{
    return strcmp(((const hp_doctor_var *)x)->name, ((const hp_doctor_var *)y)->name);
}

static void begin(doctor *d, hp_ctx *ctx, const hp_doctor_opts *o, hp_doctor_report *out)
{
    memset(d, 0, sizeof *d);
    d->ctx = ctx;
    d->a = &ctx->a;
    d->o = o;
    d->r = out;
    sysfs_init(&d->fs, d->a, o->root);
    memset(out, 0, sizeof *out);
    out->root = d->fs.real ? "/" : d->fs.root;
    out->hip_version = out->hip_source = out->amdgpu_version = "";
    out->nvidia_driver = out->nvidia_driver_cuda = out->cuda_version = out->cuda_source = "";
}

static void finish(doctor *d)
{
    hp_doctor_report *r = d->r;
    r->gpus = d->gpus.v;
    r->ngpus = d->gpus.n;
    r->kfd_present = d->kfd_present;
    r->rocm = d->rocm.v;
    r->nrocm = d->rocm.n;
    r->python_dirs = d->pydirs.v;
    r->npython_dirs = d->pydirs.n;
    r->torch = d->torch.v;
    r->ntorch = d->torch.n;
    r->triton = d->triton.v;
    r->ntriton = d->triton.n;
    r->rocm_sdk = d->rocm_sdk.v;
    r->nrocm_sdk = d->rocm_sdk.n;
    /* the variables doctor judges, in a fixed order */
    static const char *const names[] = {
        "HSA_OVERRIDE_GFX_VERSION", "HSA_XNACK",          "HIP_VISIBLE_DEVICES",
        "ROCR_VISIBLE_DEVICES",     "CUDA_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL",
        "PYTORCH_ROCM_ARCH",        "TORCH_CUDA_ARCH_LIST", "ROCM_PATH",
        "HIP_PATH",                 "CUDA_HOME",          "VIRTUAL_ENV",
        "CONDA_PREFIX",             "PYTHONPATH"};
    hp_doctor_var *vars = NEW(d->a, hp_doctor_var, d->env_name.n + 16);
    int nv = 0;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const char *v = doc_getenv(d, names[i]);
        if (v) {
            vars[nv].name = names[i];
            vars[nv++].value = v;
        }
        if (i == 0) {
            /* the per-node overrides, by name, after the global one */
            int first = nv;
            for (int k = 0; k < d->env_name.n; k++)
                if (strncmp(d->env_name.v[k], "HSA_OVERRIDE_GFX_VERSION_", 25) == 0) {
                    vars[nv].name = d->env_name.v[k];
                    vars[nv++].value = d->env_value.v[k];
                }
            qsort(vars + first, (size_t)(nv - first), sizeof *vars, cmp_var);
        }
    }
    r->env = vars;
    r->nenv = nv;
    if (d->findings.n > 1)
        qsort(d->findings.v, (size_t)d->findings.n, sizeof *d->findings.v, cmp_finding);
    r->findings = d->findings.v;
    r->nfindings = d->findings.n;
    hp_finding *pr = NEW(d->a, hp_finding, d->fs.nproblems + 1);
    for (int i = 0; i < d->fs.nproblems; i++) {
        pr[i].path = d->fs.problems[i].path;
        pr[i].rule = "HP-IO";
        pr[i].severity = HP_SEV_ERROR;
        pr[i].message = d->fs.problems[i].message;
    }
    r->problems = pr;
    r->nproblems = d->fs.nproblems;
}

static HP_NOINLINE hp_status run(doctor *d, int full)
{
    if (!d->fs.real && !sysfs_is_dir(&d->fs, "/")) {
        sysfs_problem_add(&d->fs, d->fs.root, "the root is not a directory that can be read");
        finish(d);
        return HP_EIO;
    }
    hp_status st = doc_load_env(d);
    if (st != HP_OK) {
        finish(d);
        return st;
    }
    find_gpus(d);
    if (full) {
        find_versions(d);
        doctor_py_run(d);
        if (!d->o->no_libs)
            doctor_libs_run(d);
        doctor_rules_run(d);
    }
    finish(d);
    return HP_OK;
}

void hp_doctor_opts_init(hp_doctor_opts *o)
{
    memset(o, 0, sizeof *o);
}

static hp_status guarded(hp_ctx *ctx, const hp_doctor_opts *o, hp_doctor_report *out, int full)
{
    doctor d;
    begin(&d, ctx, o, out);
    jmp_buf jb;
    jmp_buf *saved = ctx->a.oom;
    ctx->a.oom = &jb;
    if (setjmp(jb)) {
        ctx->a.oom = saved;
        memset(out, 0, sizeof *out);
        return HP_ENOMEM;
    }
    hp_status st = run(&d, full);
    ctx->a.oom = saved;
    return st;
}

hp_status hp_doctor_run(hp_ctx *ctx, const hp_doctor_opts *o, hp_doctor_report *out)
{
    hp_doctor_opts def;
    if (!o) {
        hp_doctor_opts_init(&def);
        o = &def;
    }
    if (!ctx || !out)
        return HP_EUSAGE;
    return guarded(ctx, o, out, 1);
}

int hp_doctor_gpu_target(hp_ctx *ctx, const char *root, const char **target)
{
    *target = NULL;
    if (!ctx)
        return 0;
    hp_doctor_opts o;
    hp_doctor_opts_init(&o);
    o.root = root;
    int real = !root || !root[0] || strcmp(root, "/") == 0;
    if (real)
        o.env = (const char *const *)environ;
    hp_doctor_report r;
    if (guarded(ctx, &o, &r, 0) != HP_OK)
        return 0;
    for (int i = 0; i < r.ngpus; i++)
        if (r.gpus[i].effective[0]) {
            *target = r.gpus[i].effective;
            return 1;
        }
    return 0;
}
