/* doctor_report.c: doctor's report as readable text or as JSON. */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "hipport.h"
#include "str.h"

#include "banned.h"

static const char *vendor_name(hp_vendor v)
{
    return v == HP_VENDOR_AMD ? "amd" : v == HP_VENDOR_NVIDIA ? "nvidia" : "none";
}

static const char *feature_name(hp_feature f)
{
    return f == HP_FEATURE_ON ? "on" : f == HP_FEATURE_OFF ? "off" : "unsupported";
}

static const char *verdict_name(hp_verdict v)
{
    switch (v) {
    case HP_VERDICT_RUNS: return "runs";
    case HP_VERDICT_WONT_RUN: return "will-not-run";
    case HP_VERDICT_NO_GPU_CODE: return "no-gpu-code";
    case HP_VERDICT_UNKNOWN: return "unknown";
    }
    return "unknown";
}

static char *to_malloc(buf *b)
{
    char *out = malloc((size_t)b->len + 1);
    if (out) {
        if (b->len)
            memcpy(out, b->data, (size_t)b->len);
        out[b->len] = 0;
    }
    return out;
}

/* ---------------------------------------------------------------- JSON */

static void jstr(buf *b, const char *s)
{
    buf_add_jstr(b, s);
}

static void jkey(buf *b, const char *k, int *first)
{
    if (!*first)
        buf_addc(b, ',');
    *first = 0;
    jstr(b, k);
    buf_addc(b, ':');
}

static void jkv(buf *b, const char *k, const char *v, int *first)
{
    jkey(b, k, first);
    jstr(b, v);
}

static void jki(buf *b, const char *k, long long v, int *first)
{
    jkey(b, k, first);
    buf_addint(b, v);
}

static void jfindings(buf *b, const hp_finding *f, int n)
{
    buf_addc(b, '[');
    for (int i = 0; i < n; i++) {
        int first = 1;
        buf_adds(b, i ? ",\n  {" : "\n  {");
        jkv(b, "path", f[i].path, &first);
        jki(b, "line", f[i].line, &first);
        jki(b, "column", f[i].col, &first);
        jkv(b, "rule", f[i].rule, &first);
        jkv(b, "severity", hp_severity_name(f[i].severity), &first);
        jkv(b, "message", f[i].message, &first);
        jkey(b, "fix", &first);
        if (f[i].fix)
            jstr(b, f[i].fix);
        else
            buf_adds(b, "null");
        buf_addc(b, '}');
    }
    buf_adds(b, n ? "\n ]" : "]");
}

static void json_gpu(buf *b, const hp_doctor_gpu *g)
{
    int first = 1;
    buf_addc(b, '{');
    jki(b, "index", g->index, &first);
    jkv(b, "vendor", vendor_name(g->vendor), &first);
    jki(b, "device", g->vendor_index, &first);
    jkv(b, "arch", g->arch, &first);
    jkv(b, "target", g->target, &first);
    jkv(b, "effective_target", g->effective, &first);
    jkv(b, "name", g->name, &first);
    jkv(b, "family", g->family, &first);
    jkv(b, "source", g->source, &first);
    jkv(b, "bdf", g->bdf, &first);
    jkey(b, "pci_id", &first);
    if (g->pci_vendor || g->pci_device)
        buf_addf(b, "\"%04x:%04x\"", g->pci_vendor & 0xffffu, g->pci_device & 0xffffu);
    else
        buf_adds(b, "\"\"");
    jkv(b, "driver", g->driver, &first);
    if (g->vendor == HP_VENDOR_AMD) {
        jki(b, "kfd_node", g->kfd_node, &first);
        jki(b, "gfx_target_version", g->gfx_target_version, &first);
        jki(b, "compute_units", g->compute_units, &first);
        jki(b, "simds", g->simds, &first);
        jki(b, "wavefront", g->wavefront, &first);
        jki(b, "lds_kb", g->lds_kb, &first);
        jki(b, "xcc", g->xcc, &first);
        jki(b, "max_clock_mhz", g->max_clock_mhz, &first);
        jki(b, "vram_bytes", g->vram_bytes, &first);
        jkv(b, "xnack", feature_name(g->xnack), &first);
        jkv(b, "xnack_basis", g->xnack_basis, &first);
        jkv(b, "sramecc", feature_name(g->sramecc), &first);
    } else {
        jkey(b, "compute_capability", &first);
        if (g->cc_major) {
            buf_addc(b, '"');
            buf_addint(b, g->cc_major);
            buf_addc(b, '.');
            buf_addint(b, g->cc_minor);
            buf_addc(b, '"');
        } else {
            buf_adds(b, "\"\"");
        }
        jkv(b, "compute_capability_basis", g->cc_basis, &first);
        jki(b, "wavefront", g->wavefront, &first);
    }
    jkv(b, "uuid", g->uuid, &first);
    jkv(b, "device_node", g->device_node, &first);
    buf_addc(b, '}');
}

/* The space-separated targets as a JSON array. */
static void jtargets(buf *b, const char *targets)
{
    buf_addc(b, '[');
    hp_str ts = str_cstr(targets);
    int nt = 0;
    while (ts.len > 0) {
        ptrdiff_t sp = str_chr(ts, ' ');
        hp_str one = str_cut(ts, 0, sp < 0 ? ts.len : sp);
        ts = sp < 0 ? str_make(ts.s + ts.len, 0) : str_cut(ts, sp + 1, ts.len);
        if (!one.len)
            continue;
        if (nt++)
            buf_addc(b, ',');
        buf_addc(b, '"');
        buf_add_json(b, one);
        buf_addc(b, '"');
    }
    buf_addc(b, ']');
}

static void json_lib(buf *b, const hp_doctor_lib *l)
{
    int f = 1;
    buf_addc(b, '{');
    jkv(b, "path", l->path, &f);
    jkey(b, "scanned", &f);
    buf_adds(b, l->scanned ? "true" : "false");
    jki(b, "code_objects", l->ncode, &f);
    jkey(b, "targets", &f);
    jtargets(b, l->targets);
    jkv(b, "gpu", l->gpu, &f);
    jkey(b, "verdict", &f);
    if (l->scanned && (l->gpu[0] || !l->ncode))
        jstr(b, verdict_name(l->gpu[0] ? l->verdict : HP_VERDICT_NO_GPU_CODE));
    else
        buf_adds(b, "null");
    jkv(b, "reason", l->reason, &f);
    buf_addc(b, '}');
}

static void json_torch(buf *b, const hp_doctor_torch *t)
{
    int f = 1;
    buf_addc(b, '{');
    jkv(b, "site", t->site, &f);
    jkv(b, "version", t->version, &f);
    jkv(b, "build", t->build, &f);
    jkv(b, "cuda", t->cuda, &f);
    jkv(b, "hip", t->hip, &f);
    jkv(b, "metadata", t->metadata, &f);
    jkv(b, "triton_requirement", t->triton_pin, &f);
    jkey(b, "bundles_runtime", &f);
    buf_adds(b, t->bundles_runtime ? "true" : "false");
    jkey(b, "libraries", &f);
    buf_addc(b, '[');
    for (int k = 0; k < t->nlibs; k++) {
        buf_adds(b, k ? ",\n    " : "\n    ");
        json_lib(b, &t->libs[k]);
    }
    buf_adds(b, t->nlibs ? "]}" : "]}");
}

static char *format_json(const hp_doctor_report *r)
{
    arena a;
    arena_init(&a, 1 << 16);
    buf b;
    buf_init(&b, &a, 4096);
    int top = 1;
    buf_addc(&b, '{');
    jkv(&b, "root", r->root, &top);

    buf_adds(&b, "\n");
    jkey(&b, "gpus", &top);
    buf_addc(&b, '[');
    for (int i = 0; i < r->ngpus; i++) {
        buf_adds(&b, i ? ",\n  " : "\n  ");
        json_gpu(&b, &r->gpus[i]);
    }
    buf_addc(&b, ']');

    buf_adds(&b, "\n");
    jkey(&b, "kfd", &top);
    buf_adds(&b, r->kfd_present ? "true" : "false");
    jkey(&b, "rocm", &top);
    buf_addc(&b, '[');
    for (int i = 0; i < r->nrocm; i++) {
        int f = 1;
        buf_adds(&b, i ? "," : "");
        buf_addc(&b, '{');
        jkv(&b, "path", r->rocm[i].path, &f);
        jkv(&b, "version", r->rocm[i].version, &f);
        jkv(&b, "source", r->rocm[i].source, &f);
        buf_addc(&b, '}');
    }
    buf_addc(&b, ']');

    buf_adds(&b, "\n");
    jkey(&b, "hip", &top);
    {
        int f = 1;
        buf_addc(&b, '{');
        jkv(&b, "version", r->hip_version, &f);
        jkv(&b, "source", r->hip_source, &f);
        buf_addc(&b, '}');
    }
    jkv(&b, "amdgpu_dkms", r->amdgpu_version, &top);

    buf_adds(&b, "\n");
    jkey(&b, "nvidia", &top);
    {
        int f = 1;
        buf_addc(&b, '{');
        jkv(&b, "driver", r->nvidia_driver, &f);
        jkv(&b, "driver_cuda", r->nvidia_driver_cuda, &f);
        jkv(&b, "cuda_toolkit", r->cuda_version, &f);
        jkv(&b, "cuda_toolkit_source", r->cuda_source, &f);
        buf_addc(&b, '}');
    }

    buf_adds(&b, "\n");
    jkey(&b, "python", &top);
    {
        int f = 1;
        buf_addc(&b, '{');
        jkey(&b, "searched", &f);
        buf_addc(&b, '[');
        for (int i = 0; i < r->npython_dirs; i++) {
            if (i)
                buf_addc(&b, ',');
            jstr(&b, r->python_dirs[i]);
        }
        buf_addc(&b, ']');
        jkey(&b, "torch", &f);
        buf_addc(&b, '[');
        for (int i = 0; i < r->ntorch; i++) {
            buf_adds(&b, i ? ",\n  " : "\n  ");
            json_torch(&b, &r->torch[i]);
        }
        buf_addc(&b, ']');
        jkey(&b, "triton", &f);
        buf_addc(&b, '[');
        for (int i = 0; i < r->ntriton; i++) {
            int g = 1;
            buf_adds(&b, i ? ",\n  {" : "\n  {");
            jkv(&b, "site", r->triton[i].site, &g);
            jkv(&b, "dist", r->triton[i].dist, &g);
            jkv(&b, "version", r->triton[i].version, &g);
            buf_addc(&b, '}');
        }
        buf_addc(&b, ']');
        jkey(&b, "rocm_sdk_libraries", &f);
        buf_addc(&b, '[');
        for (int i = 0; i < r->nrocm_sdk; i++) {
            int g = 1;
            buf_adds(&b, i ? ",\n  {" : "\n  {");
            jkv(&b, "site", r->rocm_sdk[i].site, &g);
            jkv(&b, "dist", r->rocm_sdk[i].dist, &g);
            jkv(&b, "family", r->rocm_sdk[i].family, &g);
            jkv(&b, "version", r->rocm_sdk[i].version, &g);
            buf_addc(&b, '}');
        }
        buf_adds(&b, "]}");
    }

    buf_adds(&b, "\n");
    jkey(&b, "environment", &top);
    {
        int f = 1;
        buf_addc(&b, '{');
        for (int i = 0; i < r->nenv; i++)
            jkv(&b, r->env[i].name, r->env[i].value, &f);
        buf_addc(&b, '}');
    }

    buf_adds(&b, "\n");
    jkey(&b, "findings", &top);
    jfindings(&b, r->findings, r->nfindings);
    buf_adds(&b, "\n");
    jkey(&b, "problems", &top);
    jfindings(&b, r->problems, r->nproblems);
    buf_adds(&b, "\n}\n");
    char *out = to_malloc(&b);
    arena_release(&a);
    return out;
}

/* ---------------------------------------------------------------- text */

static void size_text(buf *b, long long bytes)
{
    if (bytes >= (1ll << 30))
        buf_addf(b, "%.1f GiB", (double)bytes / (double)(1ll << 30));
    else
        buf_addf(b, "%lld MiB", bytes >> 20);
}

static void text_gpu(buf *b, const hp_doctor_gpu *g)
{
    buf_addf(b, "  [%d] %s", g->index, g->name[0] ? g->name
                                       : g->vendor == HP_VENDOR_AMD ? "AMD GPU"
                                                                    : "NVIDIA GPU");
    if (g->arch[0] || g->family[0]) {
        buf_adds(b, " (");
        buf_adds(b, g->arch[0] ? g->arch : "processor unknown");
        if (g->family[0])
            buf_addf(b, ", %s", g->family);
        buf_addc(b, ')');
    }
    buf_addc(b, '\n');
    if (g->vendor == HP_VENDOR_AMD) {
        if (g->target[0]) {
            buf_addf(b, "      target %s", g->target);
            if (g->xnack != HP_FEATURE_UNSUPPORTED)
                buf_addf(b, "; xnack %s (%s)", feature_name(g->xnack), g->xnack_basis);
            buf_addc(b, '\n');
        }
        if (strcmp(g->effective, g->target) != 0)
            buf_addf(b, "      the runtime will use %s (HSA_OVERRIDE_GFX_VERSION)\n",
                     g->effective);
        const char *sep = "      ";
        if (g->compute_units) {
            buf_addf(b, "%s%d CUs", sep, g->compute_units);
            sep = ", ";
        }
        if (g->wavefront) {
            buf_addf(b, "%swave%d", sep, g->wavefront);
            sep = ", ";
        }
        if (g->lds_kb) {
            buf_addf(b, "%s%d KiB LDS", sep, g->lds_kb);
            sep = ", ";
        }
        if (g->vram_bytes) {
            buf_adds(b, sep);
            size_text(b, g->vram_bytes);
            sep = ", ";
        }
        if (g->xcc > 1) {
            buf_addf(b, "%s%d XCDs", sep, g->xcc);
            sep = ", ";
        }
        if (g->max_clock_mhz) {
            buf_addf(b, "%s%d MHz", sep, g->max_clock_mhz);
            sep = ", ";
        }
        if (sep[0] == ',')
            buf_addc(b, '\n');
    } else if (g->cc_major) {
        buf_addf(b, "      compute capability %d.%d (from the %s), warp %d\n", g->cc_major,
                 g->cc_minor, g->cc_basis, g->wavefront);
    } else {
        buf_adds(b, "      compute capability unknown (not in doctor's tables)\n");
    }
    buf_adds(b, "      ");
    const char *sep = "";
    if (g->bdf[0]) {
        buf_addf(b, "PCI %s", g->bdf);
        if (g->pci_device)
            buf_addf(b, " [%04x:%04x]", g->pci_vendor, g->pci_device);
        if (g->driver[0])
            buf_addf(b, " %s", g->driver);
        sep = ", ";
    }
    if (g->kfd_node >= 0) {
        buf_addf(b, "%sKFD node %d", sep, g->kfd_node);
        sep = ", ";
    }
    if (g->device_node[0]) {
        buf_addf(b, "%s%s", sep, g->device_node);
        sep = ", ";
    }
    if (g->uuid[0])
        buf_addf(b, "%s%s", sep, g->uuid);
    buf_addf(b, "%s(from %s)\n", sep[0] ? "  " : "", g->source);
}

/* path relative to dir when inside it */
static const char *rel(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    if (strncmp(path, dir, n) == 0 && path[n] == '/')
        return path + n + 1;
    return path;
}

static char *format_text(const hp_doctor_report *r, const hp_report_opts *ro)
{
    arena a;
    arena_init(&a, 1 << 16);
    buf b;
    buf_init(&b, &a, 4096);
    const char *bold = ro && ro->color ? "\033[1m" : "";
    const char *reset = ro && ro->color ? "\033[0m" : "";

    buf_addf(&b, "%sGPUs%s\n", bold, reset);
    for (int i = 0; i < r->ngpus; i++)
        text_gpu(&b, &r->gpus[i]);
    if (!r->ngpus)
        buf_adds(&b, "  none found (no KFD topology, NVIDIA driver or GPU on the PCI bus)\n");

    buf_addf(&b, "\n%sROCm and HIP%s\n", bold, reset);
    for (int i = 0; i < r->nrocm; i++)
        buf_addf(&b, "  %sROCm %s at %s%s%s%s\n", i ? "also " : "",
                 r->rocm[i].version[0] ? r->rocm[i].version : "(version unknown)",
                 r->rocm[i].path, r->rocm[i].source[0] ? " (" : "",
                 strcmp(r->rocm[i].source, r->rocm[i].path) == 0 ? "its directory's name"
                                                                 : r->rocm[i].source,
                 r->rocm[i].source[0] ? ")" : "");
    if (!r->nrocm && r->hip_version[0] && strncmp(r->hip_source, "/usr/", 5) == 0)
        /* Debian's and Ubuntu's ROCm packages install under /usr */
        buf_adds(&b, "  ROCm of the distribution's packages, under /usr (no /opt/rocm, no "
                     "$ROCM_PATH)\n");
    else if (!r->nrocm)
        buf_adds(&b, "  no ROCm install (/opt/rocm, $ROCM_PATH, /usr)\n");
    if (r->hip_version[0])
        buf_addf(&b, "  HIP %s (%s)\n", r->hip_version, r->hip_source);
    if (r->amdgpu_version[0])
        buf_addf(&b, "  amdgpu driver %s (DKMS)\n", r->amdgpu_version);

    buf_addf(&b, "\n%sNVIDIA%s\n", bold, reset);
    if (r->nvidia_driver[0])
        buf_addf(&b, "  driver %s%s%s%s\n", r->nvidia_driver,
                 r->nvidia_driver_cuda[0] ? " (runs CUDA up to " : "", r->nvidia_driver_cuda,
                 r->nvidia_driver_cuda[0] ? ")" : "");
    else
        buf_adds(&b, "  no NVIDIA driver loaded\n");
    if (r->cuda_version[0])
        buf_addf(&b, "  CUDA toolkit %s (%s)\n", r->cuda_version, r->cuda_source);

    buf_addf(&b, "\n%sPython%s\n", bold, reset);
    if (r->npython_dirs) {
        buf_adds(&b, "  looked in:\n");
        for (int i = 0; i < r->npython_dirs; i++)
            buf_addf(&b, "    %s\n", r->python_dirs[i]);
    } else {
        buf_adds(&b, "  no site-packages directory found\n");
    }
    for (int i = 0; i < r->ntorch; i++) {
        const hp_doctor_torch *t = &r->torch[i];
        buf_addf(&b, "  PyTorch %s in %s\n", t->version[0] ? t->version : "(version unknown)",
                 t->site);
        if (strcmp(t->build, "rocm") == 0)
            buf_addf(&b, "    ROCm build, HIP %s%s\n", t->hip,
                     t->bundles_runtime ? ", carries its own HIP runtime" : "");
        else if (strcmp(t->build, "cuda") == 0)
            buf_addf(&b, "    CUDA build, CUDA %s\n", t->cuda);
        else
            buf_adds(&b, "    CPU-only build\n");
        if (t->triton_pin[0])
            buf_addf(&b, "    requires %s\n", t->triton_pin);
        for (int k = 0; k < t->nlibs; k++) {
            const hp_doctor_lib *l = &t->libs[k];
            buf_addf(&b, "    %s: ", rel(l->path, t->site));
            if (!l->scanned)
                buf_addf(&b, "not looked into (%s)\n", l->reason);
            else if (!l->ncode)
                buf_adds(&b, "no GPU code\n");
            else if (!l->gpu[0])
                buf_addf(&b, "code for %s; %s\n", l->targets, l->reason);
            else if (l->verdict == HP_VERDICT_RUNS)
                buf_addf(&b, "runs on %s (code for %s)\n", l->gpu, l->targets);
            else if (l->verdict == HP_VERDICT_UNKNOWN)
                buf_addf(&b, "unknown for %s: %s\n", l->gpu, l->reason);
            else
                buf_addf(&b, "WILL NOT RUN on %s (code for %s)\n", l->gpu, l->targets);
        }
    }
    for (int i = 0; i < r->ntriton; i++)
        buf_addf(&b, "  Triton %s%s%s%s in %s\n",
                 r->triton[i].version[0] ? r->triton[i].version : "(version unknown)",
                 r->triton[i].dist[0] ? " (" : "", r->triton[i].dist,
                 r->triton[i].dist[0] ? ")" : "", r->triton[i].site);
    for (int i = 0; i < r->nrocm_sdk; i++)
        buf_addf(&b, "  ROCm libraries %s for GPU family %s (%s) in %s\n",
                 r->rocm_sdk[i].version[0] ? r->rocm_sdk[i].version : "(version unknown)",
                 r->rocm_sdk[i].family, r->rocm_sdk[i].dist, r->rocm_sdk[i].site);
    if (!r->ntorch && !r->ntriton && r->npython_dirs)
        buf_adds(&b, "  no PyTorch or Triton found\n");

    buf_addf(&b, "\n%sEnvironment%s\n", bold, reset);
    for (int i = 0; i < r->nenv; i++)
        buf_addf(&b, "  %s=%s\n", r->env[i].name, r->env[i].value);
    if (!r->nenv)
        buf_adds(&b, "  none of the variables doctor checks is set\n");

    buf_addf(&b, "\n%sFindings%s\n", bold, reset);
    if (r->nfindings) {
        hp_report_opts o = {ro ? ro->color : 0, 0, 1};
        char *t = hp_report_text(r->findings, r->nfindings, &o);
        if (t) {
            /* indent each line by two */
            for (const char *p = t; *p;) {
                const char *nl = strchr(p, '\n');
                size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);
                buf_adds(&b, "  ");
                buf_add(&b, p, (ptrdiff_t)n);
                p += n;
            }
            free(t);
        }
    } else {
        buf_adds(&b, "  none\n");
    }
    int ne = 0, nw = 0, nn = 0;
    for (int i = 0; i < r->nfindings; i++) {
        ne += r->findings[i].severity == HP_SEV_ERROR;
        nw += r->findings[i].severity == HP_SEV_WARNING;
        nn += r->findings[i].severity == HP_SEV_NOTE;
    }
    buf_addf(&b, "\n%d GPU%s; %d error%s, %d warning%s, %d note%s", r->ngpus,
             r->ngpus == 1 ? "" : "s", ne, ne == 1 ? "" : "s", nw, nw == 1 ? "" : "s", nn,
             nn == 1 ? "" : "s");
    if (r->nproblems)
        buf_addf(&b, "; %d input%s could not be read (listed on standard error)", r->nproblems,
                 r->nproblems == 1 ? "" : "s");
    buf_addc(&b, '\n');
    char *out = to_malloc(&b);
    arena_release(&a);
    return out;
}

char *hp_doctor_format(const hp_doctor_report *r, int json, const hp_report_opts *ro)
{
    if (!r)
        return NULL;
    return json ? format_json(r) : format_text(r, ro);
}
