/* doctor_rules.c: doctor's findings: the environment rules ENV001-ENV004 checked against the
 * GPUs found, and DOC001 (GPU code in PyTorch's libraries), DOC002 (PyTorch build against the
 * installed ROCm or driver), DOC003 (Triton) and DOC004 (drivers and device files). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor.h"
#include "gpuinfo.h"
#include "rocm_matrix_tab.h"
#include "rule_ids.h"
#include "str.h"

#include "banned.h"

static int count_vendor(const doctor *d, hp_vendor v)
{
    int n = 0;
    for (int i = 0; i < d->gpus.n; i++)
        n += d->gpus.v[i].vendor == v;
    return n;
}

static const char *label(doctor *d, const hp_doctor_gpu *g)
{
    const char *arch = g->arch[0] ? g->arch : "unknown processor";
    if (g->name[0])
        return doc_printf(d, "GPU %d (%s, %s)", g->index, g->name, arch);
    return doc_printf(d, "GPU %d (%s)", g->index, arch);
}

/* Which GPUs a group label covers. */
typedef struct gpu_sel {
    hp_vendor vendor;
    const char *arch;      /* this processor */
    const char *effective; /* and this effective target, unless NULL */
    const char *target;    /* and this target, unless NULL */
    int global_override;   /* only GPUs without a per-node HSA_OVERRIDE_GFX_VERSION_<node> */
} gpu_sel;

static int has_node_override(const doctor *d, const hp_doctor_gpu *g)
{
    char own[64];
    snprintf(own, sizeof own, "HSA_OVERRIDE_GFX_VERSION_%d", g->kfd_node);
    return g->kfd_node >= 0 && doc_getenv(d, own) != NULL;
}

static int selected(const doctor *d, const hp_doctor_gpu *g, const gpu_sel *sel)
{
    return g->vendor == sel->vendor && strcmp(g->arch, sel->arch) == 0 &&
           (!sel->effective || strcmp(g->effective, sel->effective) == 0) &&
           (!sel->target || strcmp(g->target, sel->target) == 0) &&
           (!sel->global_override || !has_node_override(d, g));
}

/* "GPU 2 (NAME, gfx942)" for one GPU, "GPUs 0, 1, 3 (NAME, gfx942)" for several. */
static const char *labels(doctor *d, const gpu_sel *sel)
{
    const hp_doctor_gpu *first = NULL;
    const char *idx = "";
    int n = 0, same_name = 1;
    for (int i = 0; i < d->gpus.n; i++) {
        const hp_doctor_gpu *g = &d->gpus.v[i];
        if (!selected(d, g, sel))
            continue;
        idx = n ? doc_printf(d, "%s, %d", idx, g->index) : doc_printf(d, "%d", g->index);
        if (!first)
            first = g;
        else if (strcmp(first->name, g->name) != 0)
            same_name = 0;
        n++;
    }
    if (!first)
        return "no GPU";
    if (n == 1)
        return label(d, first);
    if (same_name && first->name[0])
        return doc_printf(d, "GPUs %s (%s, %s)", idx, first->name, sel->arch);
    return doc_printf(d, "GPUs %s (%s)", idx, sel->arch);
}

/* The distinct archs of the vendor's GPUs, space-separated ("gfx942 gfx90a"). */
static const char *arch_list(doctor *d, hp_vendor v, const char *sep)
{
    const char *out = "";
    for (int i = 0; i < d->gpus.n; i++) {
        const hp_doctor_gpu *g = &d->gpus.v[i];
        if (g->vendor != v || !g->arch[0])
            continue;
        int seen = 0;
        for (int k = 0; k < i && !seen; k++)
            seen = d->gpus.v[k].vendor == v && strcmp(d->gpus.v[k].arch, g->arch) == 0;
        if (!seen)
            out = out[0] ? doc_printf(d, "%s%s%s", out, sep, g->arch) : g->arch;
    }
    return out;
}

/* ---------------------------------------------------------------- ENV001 */

static const char *env001_fix =
    "build for the GPU's own target (--offload-arch, PYTORCH_ROCM_ARCH) and unset the variable; "
    "keep an override only to run a supported processor's code on an unsupported consumer GPU "
    "of the same family (10.3.0 for gfx1031/gfx1032, 11.0.0 for gfx1101/gfx1102/gfx1103)";

static void env001_one(doctor *d, const char *var, const char *value, int node)
{
    int namd = count_vendor(d, HP_VENDOR_AMD);
    unsigned a, b, c;
    if (gpuinfo_gfx_parse_override(value, &a, &b, &c) < 0) {
        const char *hint = "";
        if (strpbrk(value, "abcdefABCDEF"))
            hint = "; the numbers are decimal: gfx90a is 9.0.10, gfx90c is 9.0.12";
        else if (value[0] && (value[strlen(value) - 1] == ' ' || value[strlen(value) - 1] == '\t'))
            hint = "; it has trailing white space, which the runtime rejects too";
        doc_find(d, var, RID_ENV001, namd ? HP_SEV_ERROR : HP_SEV_WARNING,
                 "write major.minor.stepping in decimal (11.0.0, 10.3.0, 9.4.2) or unset it",
                 "'%s' is not major.minor.stepping in decimal (major up to 63, minor and stepping "
                 "up to 255): the ROCm runtime rejects it (\"HSA_OVERRIDE_GFX_VERSION %s is "
                 "invalid\") and finds no GPU%s",
                 value, value, hint);
        return;
    }
    char claimed[32];
    snprintf(claimed, sizeof claimed, "gfx%u%x%x", a, b, c);
    gfx_info ci;
    int cknown = gpuinfo_gfx_by_name(claimed, (ptrdiff_t)strlen(claimed), &ci);
    if (!namd) {
        if (count_vendor(d, HP_VENDOR_NVIDIA))
            doc_find(d, var, RID_ENV001, HP_SEV_NOTE, "unset it",
                     "has no effect here: it changes what AMD GPUs report (%s) and this machine's "
                     "GPUs are NVIDIA",
                     claimed);
        return;
    }
    /* the GPUs it applies to: a per-node variable to its node; the global one to the GPUs
     * without a per-node variable of their own */
    int any = 0;
    for (int i = 0; i < d->gpus.n; i++) {
        const hp_doctor_gpu *g = &d->gpus.v[i];
        if (g->vendor != HP_VENDOR_AMD)
            continue;
        if (node >= 0 && g->kfd_node != node)
            continue;
        if (node < 0 && g->kfd_node >= 0) {
            char own[64];
            snprintf(own, sizeof own, "HSA_OVERRIDE_GFX_VERSION_%d", g->kfd_node);
            if (doc_getenv(d, own))
                continue;
        }
        any = 1;
        /* one finding per distinct processor */
        int seen = 0;
        for (int k = 0; k < i && !seen; k++) {
            const hp_doctor_gpu *h = &d->gpus.v[k];
            seen = h->vendor == HP_VENDOR_AMD && strcmp(h->arch, g->arch) == 0 &&
                   (node < 0 ? !has_node_override(d, h) : h->kfd_node == node);
        }
        if (seen)
            continue;
        gpu_sel sel = {HP_VENDOR_AMD, g->arch, NULL, NULL, node < 0};
        const char *who = node >= 0 ? label(d, g) : labels(d, &sel);
        gfx_info ri;
        int rknown = g->arch[0] && gpuinfo_gfx_by_name(g->arch, (ptrdiff_t)strlen(g->arch), &ri);
        if (strcmp(claimed, g->arch) == 0) {
            doc_find(d, var, RID_ENV001, HP_SEV_NOTE, "unset it",
                     "has no effect on %s: it already is %s", who, claimed);
        } else if (!cknown) {
            doc_find(d, var, RID_ENV001, HP_SEV_ERROR, env001_fix,
                     "'%s' makes %s claim %s, a processor no ROCm build has code for: every "
                     "kernel launch fails (hipErrorNoBinaryForGpu)",
                     value, who, claimed);
        } else if (rknown && gpuinfo_gfx_same_family(&ri, &ci)) {
            doc_find(d, var, RID_ENV001, HP_SEV_WARNING, env001_fix,
                     "'%s' makes %s claim %s (%s); both are %s, so code built for %s usually "
                     "runs, but %s%s",
                     value, who, claimed, ci.products[0] ? ci.products : ci.family, ri.generic,
                     claimed,
                     ri.family[0] == 'C' ? "an Instinct GPU never needs this and "
                                         : "",
                     "kernels tuned for the other chip can fault or give wrong results; "
                     "prefer code built for the real target");
        } else {
            doc_find(d, var, RID_ENV001, HP_SEV_ERROR, env001_fix,
                     "'%s' makes %s claim %s, a different instruction set (%s vs %s): code "
                     "built for %s stops with HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION or memory "
                     "faults",
                     value, who, claimed, rknown ? ri.family : g->arch,
                     cknown ? ci.family : claimed, claimed);
        }
    }
    if (node >= 0 && !any)
        doc_find(d, var, RID_ENV001, HP_SEV_WARNING, "name a KFD node that holds a GPU",
                 "KFD node %d holds no GPU here, so it applies to nothing", node);
}

static void rule_env001(doctor *d)
{
    const char *v = doc_getenv(d, "HSA_OVERRIDE_GFX_VERSION");
    if (v)
        env001_one(d, "HSA_OVERRIDE_GFX_VERSION", v, -1);
    for (int i = 0; i < d->env_name.n; i++) {
        const char *n = d->env_name.v[i];
        if (strncmp(n, "HSA_OVERRIDE_GFX_VERSION_", 25) != 0)
            continue;
        char *end;
        long node = strtol(n + 25, &end, 10);
        if (end == n + 25 || *end || node < 0 || node > 100000)
            continue;
        env001_one(d, n, d->env_value.v[i], (int)node);
    }
}

/* ---------------------------------------------------------------- ENV002 */

typedef struct vis {
    const char *name;
    const char *value;
    int amd, nvidia; /* whose devices it filters */
} vis;

static const char *env002_fix = "set one visibility variable (ROCR_VISIBLE_DEVICES on Linux "
                                "with ROCm, CUDA_VISIBLE_DEVICES with CUDA) to indices or UUIDs "
                                "of GPUs that exist, and pass it on to child processes";

/* Checks one variable's list against count visible devices; returns the valid entries. */
static int vis_check(doctor *d, const vis *v, int count, const char *vendor, int after_rocr)
{
    if (!v->value[0]) {
        doc_find(d, v->name, RID_ENV002, HP_SEV_WARNING, env002_fix,
                 "is set but empty: programs that honour it see no GPU");
        return 0;
    }
    int valid = 0;
    const char *p = v->value;
    char seen[256];
    memset(seen, 0, sizeof seen);
    while (p) {
        const char *comma = strchr(p, ',');
        hp_str item = str_trim(str_make(p, comma ? comma - p : (ptrdiff_t)strlen(p)));
        p = comma ? comma + 1 : NULL;
        if (!item.len) {
            doc_find(d, v->name, RID_ENV002, HP_SEV_WARNING, env002_fix,
                     "'%s' has an empty entry", v->value);
            continue;
        }
        int digits = 1;
        for (ptrdiff_t i = 0; i < item.len; i++)
            digits &= item.s[i] >= '0' && item.s[i] <= '9';
        if (digits && item.len < 6) {
            long idx = strtol(arena_strndup(d->a, item.s, item.len), NULL, 10);
            if (idx >= count) {
                doc_find(d, v->name, RID_ENV002, HP_SEV_WARNING, env002_fix,
                         "'%s' names device %ld but only %d %s GPU%s %s: the runtime drops "
                         "that entry (CUDA also every entry after it)",
                         v->value, idx, count, vendor, count == 1 ? "" : "s",
                         after_rocr ? (count == 1 ? "is left after ROCR_VISIBLE_DEVICES"
                                                  : "are left after ROCR_VISIBLE_DEVICES")
                                    : (count == 1 ? "is here" : "are here"));
            } else if (idx < 256 && seen[idx]) {
                doc_find(d, v->name, RID_ENV002, HP_SEV_WARNING, env002_fix,
                         "'%s' names device %ld twice", v->value, idx);
            } else {
                if (idx < 256)
                    seen[idx] = 1;
                valid++;
            }
            continue;
        }
        if (str_starts(item, S("GPU-")) || str_starts(item, S("MIG-"))) {
            int match = 0;
            for (int i = 0; i < d->gpus.n && !match; i++) {
                const hp_doctor_gpu *g = &d->gpus.v[i];
                hp_str u = str_cstr(g->uuid);
                if (u.len >= item.len && str_eq_nocase(str_cut(u, 0, item.len), item))
                    match = 1;
            }
            if (match || str_starts(item, S("MIG-"))) {
                valid++;
            } else {
                doc_find(d, v->name, RID_ENV002, HP_SEV_WARNING, env002_fix,
                         "'%s' names %.*s, which is not the UUID of a GPU found here", v->value,
                         (int)item.len, item.s);
            }
            continue;
        }
        doc_find(d, v->name, RID_ENV002, HP_SEV_WARNING, env002_fix,
                 "'%.*s' in '%s' is neither a device index nor a GPU UUID", (int)item.len, item.s,
                 v->value);
    }
    return valid;
}

static void rule_env002(doctor *d)
{
    int namd = count_vendor(d, HP_VENDOR_AMD), nnv = count_vendor(d, HP_VENDOR_NVIDIA);
    vis rocr = {"ROCR_VISIBLE_DEVICES", doc_getenv(d, "ROCR_VISIBLE_DEVICES"), 1, 0};
    vis hip = {"HIP_VISIBLE_DEVICES", doc_getenv(d, "HIP_VISIBLE_DEVICES"), 1, 0};
    vis cuda = {"CUDA_VISIBLE_DEVICES", doc_getenv(d, "CUDA_VISIBLE_DEVICES"), 1, 1};
    vis ord = {"GPU_DEVICE_ORDINAL", doc_getenv(d, "GPU_DEVICE_ORDINAL"), 1, 0};
    /* AMD-only variables on a machine without AMD GPUs */
    const vis *amd_only[] = {&rocr, &hip, &ord};
    for (size_t i = 0; i < 3; i++)
        if (amd_only[i]->value && !namd && nnv)
            doc_find(d, amd_only[i]->name, RID_ENV002, HP_SEV_NOTE,
                     "use CUDA_VISIBLE_DEVICES on NVIDIA GPUs",
                     "has no effect here: it filters AMD GPUs and this machine's GPUs are NVIDIA");
    if (namd) {
        int after_rocr = namd;
        int r = rocr.value != NULL;
        if (rocr.value)
            after_rocr = vis_check(d, &rocr, namd, "AMD", 0);
        if (hip.value)
            vis_check(d, &hip, after_rocr, "AMD", r);
        if (cuda.value && !nnv)
            vis_check(d, &cuda, after_rocr, "AMD", r);
        if (ord.value)
            vis_check(d, &ord, after_rocr, "AMD", r);
        if (hip.value && cuda.value && strcmp(hip.value, cuda.value) != 0 && !nnv)
            doc_find(d, "CUDA_VISIBLE_DEVICES", RID_ENV002, HP_SEV_WARNING, env002_fix,
                     "HIP_VISIBLE_DEVICES='%s' and CUDA_VISIBLE_DEVICES='%s' disagree: on AMD "
                     "both filter HIP's devices, so programs see a different set depending on "
                     "which one their HIP honours",
                     hip.value, cuda.value);
        if (rocr.value && (hip.value || (cuda.value && !nnv)))
            doc_find(d, "ROCR_VISIBLE_DEVICES", RID_ENV002, HP_SEV_NOTE, env002_fix,
                     "is combined with %s: HIP's indices count only the %d GPU%s left after "
                     "ROCR_VISIBLE_DEVICES, not the machine's GPUs",
                     hip.value ? "HIP_VISIBLE_DEVICES" : "CUDA_VISIBLE_DEVICES", after_rocr,
                     after_rocr == 1 ? "" : "s");
    }
    if (nnv && cuda.value)
        vis_check(d, &cuda, nnv, "NVIDIA", 0);
}

/* ---------------------------------------------------------------- ENV003 */

/* Splits a list at ';', ' ', ',' into items (at most max). */
static int split_list(doctor *d, const char *s, const char **out, int max)
{
    int n = 0;
    const char *p = s;
    while (*p && n < max) {
        while (*p == ';' || *p == ' ' || *p == ',' || *p == '\t')
            p++;
        const char *q = p;
        while (*q && *q != ';' && *q != ' ' && *q != ',' && *q != '\t')
            q++;
        if (q > p)
            out[n++] = arena_strndup(d->a, p, q - p);
        p = q;
    }
    return n;
}

/* Does a PYTORCH_ROCM_ARCH entry (processor, target id or generic target) cover a processor? */
static int entry_covers(const char *entry, const char *arch)
{
    size_t n = strcspn(entry, ":");
    if (strlen(arch) == n && strncmp(entry, arch, n) == 0)
        return 1;
    gfx_info g;
    return gpuinfo_gfx_by_name(arch, (ptrdiff_t)strlen(arch), &g) && g.generic[0] &&
           strlen(g.generic) == n && strncmp(entry, g.generic, n) == 0;
}

static int is_generic_name(const char *s)
{
    static const char *const gens[] = {"gfx9-generic", "gfx9-4-generic", "gfx10-1-generic",
                                       "gfx10-3-generic", "gfx11-generic", "gfx12-generic"};
    size_t n = strcspn(s, ":");
    for (size_t i = 0; i < sizeof gens / sizeof *gens; i++)
        if (strlen(gens[i]) == n && strncmp(gens[i], s, n) == 0)
            return 1;
    return 0;
}

/* TORCH_CUDA_ARCH_LIST entries: "8.0", "9.0+PTX", "9.0a", "10.0f" or torch's named lists. */
static int cuda_entry_covers(const char *e, int major, int minor, int *valid)
{
    static const struct {
        const char *name, *list;
    } named[] = {{"Kepler", "3.5+PTX"},     {"Maxwell", "5.0;5.2+PTX"}, {"Pascal", "6.0;6.1+PTX"},
                 {"Volta", "7.0+PTX"},      {"Turing", "7.5+PTX"},      {"Ampere", "8.0;8.6+PTX"},
                 {"Ada", "8.9+PTX"},        {"Hopper", "9.0+PTX"},      {"Blackwell", "10.0;12.0+PTX"}};
    for (size_t i = 0; i < sizeof named / sizeof *named; i++)
        if (strcmp(e, named[i].name) == 0) {
            *valid = 1;
            int any = 0;
            char buf[32];
            snprintf(buf, sizeof buf, "%s", named[i].list);
            for (char *p = buf; p && *p;) {
                char *semi = strchr(p, ';');
                if (semi)
                    *semi = 0;
                int v2;
                any |= cuda_entry_covers(p, major, minor, &v2);
                p = semi ? semi + 1 : NULL;
            }
            return any;
        }
    char *end;
    long a = strtol(e, &end, 10);
    if (end == e || *end != '.' || end[1] < '0' || end[1] > '9') {
        *valid = 0;
        return 0;
    }
    const char *m = end + 1;
    long b = strtol(m, &end, 10);
    int ptx = 0, exact = 0, family = 0;
    if (*end == 'a')
        exact = 1, end++;
    else if (*end == 'f')
        family = 1, end++;
    if (strcmp(end, "+PTX") == 0)
        ptx = 1;
    else if (*end) {
        *valid = 0;
        return 0;
    }
    *valid = 1;
    (void)family;
    if (exact)
        return a == major && b == minor;
    if (ptx && (major > a || (major == a && minor >= b)))
        return 1;
    return a == major && minor >= b;
}

static void rule_env003(doctor *d)
{
    int namd = count_vendor(d, HP_VENDOR_AMD), nnv = count_vendor(d, HP_VENDOR_NVIDIA);
    const char *tcal = doc_getenv(d, "TORCH_CUDA_ARCH_LIST");
    const char *pra = doc_getenv(d, "PYTORCH_ROCM_ARCH");
    const char *amd_archs = arch_list(d, HP_VENDOR_AMD, ";");
    if (namd && tcal && !pra)
        doc_find(d, "TORCH_CUDA_ARCH_LIST", RID_ENV003, HP_SEV_WARNING,
                 doc_printf(d, "export PYTORCH_ROCM_ARCH=\"%s\"",
                            amd_archs[0] ? amd_archs : "gfx942"),
                 "is set but PYTORCH_ROCM_ARCH is not: PyTorch extensions built for ROCm ignore "
                 "TORCH_CUDA_ARCH_LIST and build for the targets torch itself was built for (or "
                 "the visible GPUs), not %s",
                 amd_archs[0] ? amd_archs : "this machine's GPUs");
    if (pra) {
        const char *items[64];
        int n = split_list(d, pra, items, 64);
        if (!n)
            doc_find(d, "PYTORCH_ROCM_ARCH", RID_ENV003, HP_SEV_WARNING,
                     doc_printf(d, "export PYTORCH_ROCM_ARCH=\"%s\"",
                                amd_archs[0] ? amd_archs : "gfx942"),
                     "is set but empty");
        for (int i = 0; i < n; i++)
            if (!gpuinfo_gfx_valid_target(items[i], (ptrdiff_t)strlen(items[i])) &&
                !is_generic_name(items[i]))
                doc_find(d, "PYTORCH_ROCM_ARCH", RID_ENV003, HP_SEV_WARNING,
                         "list AMD targets separated by ';' or spaces (gfx942, gfx90a:xnack-)",
                         "'%s' is not an AMD GPU target (like gfx942 or gfx90a:xnack-): hipcc "
                         "fails on --offload-arch=%s",
                         items[i], items[i]);
        if (namd) {
            for (int k = 0; k < d->gpus.n; k++) {
                const hp_doctor_gpu *g = &d->gpus.v[k];
                if (g->vendor != HP_VENDOR_AMD || !g->effective[0])
                    continue;
                const char *eff = g->effective;
                size_t el = strcspn(eff, ":");
                char arch[32];
                snprintf(arch, sizeof arch, "%.*s", (int)el, eff);
                int dup = 0;
                for (int j = 0; j < k && !dup; j++)
                    dup = d->gpus.v[j].vendor == HP_VENDOR_AMD &&
                          strncmp(d->gpus.v[j].effective, arch, el) == 0 &&
                          (d->gpus.v[j].effective[el] == 0 || d->gpus.v[j].effective[el] == ':');
                if (dup)
                    continue;
                int covered = 0;
                for (int i = 0; i < n && !covered; i++)
                    covered = entry_covers(items[i], arch);
                gpu_sel sel = {HP_VENDOR_AMD, g->arch, g->effective, NULL, 0};
                if (!covered && n)
                    doc_find(d, "PYTORCH_ROCM_ARCH", RID_ENV003, HP_SEV_WARNING,
                             doc_printf(d, "build for this machine's GPUs: export "
                                           "PYTORCH_ROCM_ARCH=\"%s\"",
                                        amd_archs),
                             "'%s' leaves out %s, the processor of %s: extensions built now "
                             "carry no code for it",
                             pra, arch, labels(d, &sel));
            }
        } else if (nnv) {
            doc_find(d, "PYTORCH_ROCM_ARCH", RID_ENV003, HP_SEV_NOTE,
                     "use TORCH_CUDA_ARCH_LIST for NVIDIA GPUs",
                     "has no effect here: it chooses AMD targets and this machine's GPUs are "
                     "NVIDIA");
        }
    }
    if (tcal && nnv) {
        const char *items[64];
        int n = split_list(d, tcal, items, 64);
        for (int i = 0; i < n; i++) {
            int valid;
            cuda_entry_covers(items[i], 0, 0, &valid);
            if (!valid)
                doc_find(d, "TORCH_CUDA_ARCH_LIST", RID_ENV003, HP_SEV_WARNING,
                         "list compute capabilities like \"8.0;9.0+PTX\"",
                         "'%s' is not a compute capability (like 9.0, 9.0a or 9.0+PTX)",
                         items[i]);
        }
        for (int k = 0; k < d->gpus.n; k++) {
            const hp_doctor_gpu *g = &d->gpus.v[k];
            if (g->vendor != HP_VENDOR_NVIDIA || !g->cc_major)
                continue;
            int dup = 0;
            for (int j = 0; j < k && !dup; j++)
                dup = d->gpus.v[j].vendor == HP_VENDOR_NVIDIA &&
                      d->gpus.v[j].cc_major == g->cc_major && d->gpus.v[j].cc_minor == g->cc_minor;
            if (dup)
                continue;
            int covered = 0;
            for (int i = 0; i < n && !covered; i++) {
                int valid;
                covered = cuda_entry_covers(items[i], g->cc_major, g->cc_minor, &valid);
            }
            gpu_sel sel = {HP_VENDOR_NVIDIA, g->arch, NULL, NULL, 0};
            if (!covered)
                doc_find(d, "TORCH_CUDA_ARCH_LIST", RID_ENV003, HP_SEV_WARNING,
                         doc_printf(d, "add %d.%d: export TORCH_CUDA_ARCH_LIST=\"%s;%d.%d\"",
                                    g->cc_major, g->cc_minor, tcal, g->cc_major, g->cc_minor),
                         "'%s' does not cover compute capability %d.%d of %s: extensions built "
                         "now fail with \"no kernel image is available for execution on the "
                         "device\"",
                         tcal, g->cc_major, g->cc_minor, labels(d, &sel));
        }
    }
}

/* ---------------------------------------------------------------- ENV004 */

static void rule_env004(doctor *d)
{
    int namd = count_vendor(d, HP_VENDOR_AMD), nnv = count_vendor(d, HP_VENDOR_NVIDIA);
    const char *x = doc_getenv(d, "HSA_XNACK");
    const char *fix = "build neutral targets (gfx90a rather than gfx90a:xnack-) unless unified "
                      "memory needs XNACK; then ship both xnack+ and xnack- code";
    if (x) {
        if (strcmp(x, "0") != 0 && strcmp(x, "1") != 0) {
            doc_find(d, "HSA_XNACK", RID_ENV004, HP_SEV_NOTE, "set it to 1 or 0, or unset it",
                     "'%s' is neither 1 nor 0: the ROCm runtime ignores it", x);
        } else if (!namd) {
            if (nnv)
                doc_find(d, "HSA_XNACK", RID_ENV004, HP_SEV_NOTE, "unset it",
                         "has no effect here: it sets AMD GPUs' XNACK mode and this machine's "
                         "GPUs are NVIDIA");
        } else if (strcmp(x, "1") == 0) {
            for (int i = 0; i < d->gpus.n; i++) {
                const hp_doctor_gpu *g = &d->gpus.v[i];
                if (g->vendor != HP_VENDOR_AMD)
                    continue;
                int dup = 0;
                for (int k = 0; k < i && !dup; k++)
                    dup = d->gpus.v[k].vendor == HP_VENDOR_AMD &&
                          strcmp(d->gpus.v[k].arch, g->arch) == 0;
                if (dup)
                    continue;
                gpu_sel sel = {HP_VENDOR_AMD, g->arch, NULL, NULL, 0};
                const char *who = labels(d, &sel);
                if (g->xnack == HP_FEATURE_UNSUPPORTED)
                    doc_find(d, "HSA_XNACK", RID_ENV004, HP_SEV_NOTE, "unset it",
                             "has no effect on %s: the processor has no XNACK", who);
                else if (g->xnack == HP_FEATURE_OFF)
                    doc_find(d, "HSA_XNACK", RID_ENV004, HP_SEV_NOTE,
                             "unset it; amdgpu.noretry=0 turns XNACK on for every process",
                             "has no effect on %s: %s", who, g->xnack_basis);
                else
                    doc_find(d, "HSA_XNACK", RID_ENV004, HP_SEV_NOTE, fix,
                             "turns XNACK on for %s: page-fault driven unified memory works, "
                             "memory instructions issue more slowly, and code built for "
                             "%s:xnack- no longer loads (code built for plain %s still does)",
                             who, g->arch, g->arch);
            }
        }
    } else if (d->noretry && strcmp(d->noretry, "0") == 0) {
        for (int i = 0; i < d->gpus.n; i++)
            if (d->gpus.v[i].vendor == HP_VENDOR_AMD && d->gpus.v[i].xnack == HP_FEATURE_ON) {
                doc_find(d, "/sys/module/amdgpu/parameters/noretry", RID_ENV004, HP_SEV_NOTE, fix,
                         "amdgpu.noretry=0: XNACK is on for every process, so code built with "
                         "xnack- does not load");
                break;
            }
    }
    /* target ids in PYTORCH_ROCM_ARCH that disagree with the GPUs' feature states */
    const char *pra = doc_getenv(d, "PYTORCH_ROCM_ARCH");
    if (!pra || !namd)
        return;
    const char *items[64];
    int n = split_list(d, pra, items, 64);
    for (int i = 0; i < n; i++) {
        const char *colon = strchr(items[i], ':');
        if (!colon)
            continue;
        size_t pl = (size_t)(colon - items[i]);
        for (int k = 0; k < d->gpus.n; k++) {
            const hp_doctor_gpu *g = &d->gpus.v[k];
            if (g->vendor != HP_VENDOR_AMD || strlen(g->arch) != pl ||
                strncmp(g->arch, items[i], pl) != 0)
                continue;
            const char *bad = NULL;
            if ((strstr(colon, ":xnack+") && g->xnack == HP_FEATURE_OFF) ||
                (strstr(colon, ":xnack-") && g->xnack == HP_FEATURE_ON))
                bad = g->xnack == HP_FEATURE_ON ? "XNACK is on" : "XNACK is off";
            else if ((strstr(colon, ":sramecc+") && g->sramecc == HP_FEATURE_OFF) ||
                     (strstr(colon, ":sramecc-") && g->sramecc == HP_FEATURE_ON))
                bad = g->sramecc == HP_FEATURE_ON ? "SRAM ECC is on" : "SRAM ECC is off";
            if (bad) {
                doc_find(d, "PYTORCH_ROCM_ARCH", RID_ENV004, HP_SEV_WARNING, fix,
                         "'%s' builds code that does not load on %s, where %s (%s)", items[i],
                         label(d, g), bad, g->target);
                break;
            }
        }
    }
}

/* ---------------------------------------------------------------- DOC001 */

/* target with its xnack feature flipped, or NULL if it has none. */
static const char *flip_xnack(doctor *d, const char *t)
{
    const char *p = strstr(t, ":xnack");
    if (!p || (p[6] != '+' && p[6] != '-'))
        return NULL;
    return doc_printf(d, "%.*s:xnack%c%s", (int)(p - t), t, p[6] == '+' ? '-' : '+', p + 7);
}

static void rule_doc001(doctor *d)
{
    for (int si = 0; si < d->scans.n; si++) {
        const doc_scan *s = &d->scans.v[si];
        if (!s->ok)
            continue;
        const hp_doctor_torch *t = &d->torch.v[s->torch];
        const hp_doctor_lib *lib = &t->libs[s->lib];
        if (!s->res.ncode) {
            if (s->kernels)
                doc_find(d, lib->path, RID_DOC001, HP_SEV_WARNING,
                         "reinstall PyTorch: its GPU library should carry GPU code",
                         "carries no GPU code at all");
            continue;
        }
        for (int i = 0; i < d->gpus.n; i++) {
            const hp_doctor_gpu *g = &d->gpus.v[i];
            if (g->vendor != s->vendor || !g->effective[0])
                continue;
            int dup = 0;
            for (int k = 0; k < i && !dup; k++)
                dup = d->gpus.v[k].vendor == s->vendor &&
                      strcmp(d->gpus.v[k].effective, g->effective) == 0 &&
                      strcmp(d->gpus.v[k].target, g->target) == 0;
            if (dup)
                continue;
            const char *reason;
            if (doctor_libs_scan_match(d, s, g->effective, &reason) != HP_VERDICT_WONT_RUN)
                continue;
            gpu_sel sel = {g->vendor, g->arch, g->effective, g->target, 0};
            const char *who = labels(d, &sel);
            const char *r2;
            /* the override makes it look for code it lacks, while the GPU's own is there */
            if (strcmp(g->effective, g->target) != 0 && g->target[0] &&
                doctor_libs_scan_match(d, s, g->target, &r2) == HP_VERDICT_RUNS) {
                doc_find(d, "HSA_OVERRIDE_GFX_VERSION", RID_ENV001, HP_SEV_ERROR, env001_fix,
                         "makes %s run as %s, for which %s has no code; its code for %s would "
                         "run on them without the override",
                         who, g->effective, lib->path, g->arch);
                continue;
            }
            const char *alt = flip_xnack(d, g->effective);
            if (alt && doctor_libs_scan_match(d, s, alt, &r2) == HP_VERDICT_RUNS) {
                doc_find(d, g->xnack == HP_FEATURE_ON ? "HSA_XNACK" : lib->path, RID_ENV004,
                         HP_SEV_ERROR,
                         g->xnack == HP_FEATURE_ON
                             ? "unset HSA_XNACK (or set it to 0), or install a build with "
                               "xnack+ or neutral code"
                             : "set HSA_XNACK=1, or install a build with xnack- or neutral code",
                         "XNACK is %s for %s (%s) but %s only has %s code built for XNACK %s: "
                         "it does not load there (hipErrorNoBinaryForGpu)",
                         g->xnack == HP_FEATURE_ON ? "on" : "off", who, g->xnack_basis,
                         lib->path, g->arch, g->xnack == HP_FEATURE_ON ? "off" : "on");
                continue;
            }
            doc_find(d, lib->path, RID_DOC001, HP_SEV_ERROR,
                     s->vendor == HP_VENDOR_AMD
                         ? doc_printf(d, "install a PyTorch ROCm build that lists %s, or build "
                                         "PyTorch with PYTORCH_ROCM_ARCH=%s",
                                      g->arch, g->arch)
                         : doc_printf(d, "install a PyTorch CUDA build that supports %s, or "
                                         "build it with TORCH_CUDA_ARCH_LIST=%d.%d",
                                      g->arch, g->cc_major, g->cc_minor),
                     "has no code for %s: it carries code for %s only", who, lib->targets);
        }
    }
}

/* Does the wheel family ("gfx94x-dcgpu", "gfx950-dcgpu", "gfx1151") hold the processor arch?
 * A family's name is a processor, or a processor prefix ending in X (gfx94X: gfx940-gfx942),
 * before its "-kind" suffix. */
static int family_has(const char *family, const char *arch)
{
    size_t n = strcspn(family, "-");
    if (n > 1 && (family[n - 1] == 'x' || family[n - 1] == 'X'))
        return strncmp(arch, family, n - 1) == 0 && strlen(arch) > n - 1;
    return strlen(arch) == n && strncmp(arch, family, n) == 0;
}

/* DOC001 for ROCm's per-family library wheels: a site whose rocm-sdk-libraries-FAMILY wheels
 * cover none of an AMD GPU's processor came from another family's index; ROCm's math
 * libraries (rocBLAS, hipBLASLt, MIOpen) then have no code for the GPU. */
static void rule_doc001_sdk(doctor *d)
{
    for (int i = 0; i < d->rocm_sdk.n; i++) {
        const hp_doctor_rocm_sdk *k = &d->rocm_sdk.v[i];
        int first = 1;
        for (int j = 0; j < i && first; j++)
            first = strcmp(d->rocm_sdk.v[j].site, k->site) != 0;
        if (!first)
            continue;
        for (int g = 0; g < d->gpus.n; g++) {
            const hp_doctor_gpu *gp = &d->gpus.v[g];
            if (gp->vendor != HP_VENDOR_AMD || !gp->arch[0])
                continue;
            int dup = 0;
            for (int h = 0; h < g && !dup; h++)
                dup = d->gpus.v[h].vendor == HP_VENDOR_AMD &&
                      strcmp(d->gpus.v[h].arch, gp->arch) == 0;
            const char *fams = "";
            int covered = 0;
            for (int j = i; j < d->rocm_sdk.n && !dup; j++) {
                if (strcmp(d->rocm_sdk.v[j].site, k->site) != 0)
                    continue;
                covered |= family_has(d->rocm_sdk.v[j].family, gp->arch);
                fams = doc_printf(d, "%s%s%s", fams, fams[0] ? ", " : "",
                                  d->rocm_sdk.v[j].dist);
            }
            if (dup || covered)
                continue;
            gpu_sel sel = {gp->vendor, gp->arch, gp->effective, gp->target, 0};
            doc_find(d, k->metadata, RID_DOC001, HP_SEV_ERROR,
                     doc_printf(d, "install ROCm's and PyTorch's wheels from the index of %s's "
                                   "GPU family (the per-family indexes under "
                                   "rocm.nightlies.amd.com/v2/ and repo.amd.com/rocm/whl/ are "
                                   "named for it), in a fresh environment",
                                gp->arch),
                     "ROCm's libraries in %s are for another GPU family (%s): they have no code "
                     "for %s, so ROCm's math libraries fail there (hipErrorNoBinaryForGpu); the "
                     "wheels came from another family's index",
                     k->site, fams, labels(d, &sel));
        }
    }
}

/* ---------------------------------------------------------------- DOC002 */

static void rule_doc002(doctor *d)
{
    int namd = count_vendor(d, HP_VENDOR_AMD), nnv = count_vendor(d, HP_VENDOR_NVIDIA);
    const char *amd_archs = arch_list(d, HP_VENDOR_AMD, ", ");
    for (int i = 0; i < d->torch.n; i++) {
        const hp_doctor_torch *t = &d->torch.v[i];
        const char *path = doc_printf(d, "%s/torch/version.py", t->site);
        if (strcmp(t->build, "rocm") == 0) {
            if (!namd && nnv) {
                doc_find(d, path, RID_DOC002, HP_SEV_ERROR,
                         "install a CUDA build of PyTorch (pip's default wheels)",
                         "PyTorch %s is a ROCm build (HIP %s) but this machine's GPUs are "
                         "NVIDIA: torch.cuda.is_available() is False",
                         t->version, t->hip);
                continue;
            }
            int tmm = gpuinfo_ver_major_minor(t->hip);
            const char *sys = d->rocm.n && d->rocm.v[0].version[0] ? d->rocm.v[0].version
                                                                   : d->r->hip_version;
            const char *what = d->rocm.n && d->rocm.v[0].version[0] ? "ROCm" : "HIP";
            int smm = gpuinfo_ver_major_minor(sys);
            if (!sys[0]) {
                if (!t->bundles_runtime)
                    doc_find(d, path, RID_DOC002, HP_SEV_ERROR,
                             doc_printf(d, "install ROCm %d.%d", tmm / 100, tmm % 100),
                             "PyTorch %s needs HIP %s, but no ROCm is installed and torch/lib "
                             "carries no HIP runtime (libamdhip64): import torch fails",
                             t->version, t->hip);
                continue;
            }
            if (tmm < 0 || smm < 0 || tmm == smm)
                continue;
            if (t->bundles_runtime)
                doc_find(d, path, RID_DOC002, HP_SEV_NOTE,
                         doc_printf(d, "build extensions with ROCm %d.%d to match torch",
                                    tmm / 100, tmm % 100),
                         "PyTorch %s carries its own HIP %d.%d runtime; the installed %s %s is "
                         "used only by what you build, and extensions built with it target "
                         "HIP %d.%d, not torch's",
                         t->version, tmm / 100, tmm % 100, what, sys, smm / 100, smm % 100);
            else if (tmm / 100 != smm / 100)
                doc_find(d, path, RID_DOC002, HP_SEV_ERROR,
                         doc_printf(d, "install ROCm %d.%d, or the PyTorch build for ROCm %d.%d",
                                    tmm / 100, tmm % 100, smm / 100, smm % 100),
                         "PyTorch %s was built for HIP %d.%d but the installed %s is %s: its "
                         "libraries need libamdhip64.so.%d, which is not there",
                         t->version, tmm / 100, tmm % 100, what, sys, tmm / 100);
            else
                doc_find(d, path, RID_DOC002, HP_SEV_WARNING,
                         doc_printf(d, "install ROCm %d.%d, or the PyTorch build for ROCm %d.%d",
                                    tmm / 100, tmm % 100, smm / 100, smm % 100),
                         "PyTorch %s was built for HIP %d.%d but the installed %s is %s: ROCm "
                         "libraries of another minor release can lack symbols torch needs",
                         t->version, tmm / 100, tmm % 100, what, sys);
        } else if (strcmp(t->build, "cuda") == 0) {
            if (!nnv && namd) {
                doc_find(d, path, RID_DOC002, HP_SEV_ERROR,
                         "install a ROCm build: pip install torch --index-url "
                         "https://download.pytorch.org/whl/rocmX.Y",
                         "PyTorch %s is a CUDA build (CUDA %s) but this machine's GPUs are AMD "
                         "(%s): torch.cuda.is_available() is False",
                         t->version, t->cuda, amd_archs);
                continue;
            }
            const char *drv = d->r->nvidia_driver;
            if (!drv[0] || !t->cuda[0])
                continue;
            const char *need;
            int fit = gpuinfo_cuda_driver_fit(t->cuda, drv, &need);
            const char *mx = d->r->nvidia_driver_cuda;
            if (fit == CUDA_FIT_OLD)
                doc_find(d, path, RID_DOC002, HP_SEV_ERROR,
                         doc_printf(d, "install NVIDIA driver %s or newer, or a PyTorch build "
                                       "for CUDA %s or older",
                                    need, mx[0] ? mx : "an older"),
                         "PyTorch %s needs CUDA %s but NVIDIA driver %s runs CUDA up to %s: "
                         "CUDA initialisation fails",
                         t->version, t->cuda, drv, mx[0] ? mx : "an older release");
            else if (fit == CUDA_FIT_MINOR)
                doc_find(d, path, RID_DOC002, HP_SEV_NOTE,
                         doc_printf(d, "install NVIDIA driver %s or newer for every CUDA %s "
                                       "feature",
                                    need, t->cuda),
                         "PyTorch %s uses CUDA %s, which driver %s runs only through CUDA "
                         "minor version compatibility (no JIT of newer PTX)",
                         t->version, t->cuda, drv);
            else if (fit == CUDA_FIT_UNKNOWN && mx[0] &&
                     gpuinfo_ver_major_minor(t->cuda) / 100 > gpuinfo_ver_major_minor(mx) / 100)
                doc_find(d, path, RID_DOC002, HP_SEV_ERROR,
                         "install a newer NVIDIA driver, or a PyTorch build for an older CUDA",
                         "PyTorch %s needs CUDA %s but NVIDIA driver %s runs CUDA up to %s",
                         t->version, t->cuda, drv, mx);
        } else if (d->gpus.n) {
            doc_find(d, path, RID_DOC002, HP_SEV_WARNING,
                     namd ? "install a ROCm build of PyTorch" : "install a CUDA build of PyTorch",
                     "PyTorch %s is a CPU-only build: it does not use this machine's GPUs",
                     t->version);
        }
    }
}

/* ---------------------------------------------------------------- DOC003 */

static void rule_doc003(doctor *d)
{
    for (int i = 0; i < d->torch.n; i++) {
        const hp_doctor_torch *t = &d->torch.v[i];
        if (!t->triton_pin[0])
            continue;
        const char *pin = t->triton_pin;
        size_t nl = strcspn(pin, "=<>!~");
        const char *want_dist = arena_strndup(d->a, pin, (ptrdiff_t)nl);
        const char *want_ver = strncmp(pin + nl, "==", 2) == 0 ? pin + nl + 2 : NULL;
        const char *path = t->metadata[0] ? t->metadata : doc_printf(d, "%s/torch", t->site);
        /* the Triton Python finds first: the same site, else the first site that has one */
        const hp_doctor_triton *tr = NULL;
        for (int k = 0; k < d->triton.n && !tr; k++) /* the pinned distribution, if there */
            if (strcmp(d->triton.v[k].site, t->site) == 0 &&
                strcmp(d->triton.v[k].dist, want_dist) == 0)
                tr = &d->triton.v[k];
        for (int k = 0; k < d->triton.n && !tr; k++)
            if (strcmp(d->triton.v[k].site, t->site) == 0)
                tr = &d->triton.v[k];
        for (int k = 0; k < d->triton.n && !tr; k++)
            tr = &d->triton.v[k];
        if (!tr) {
            doc_find(d, path, RID_DOC003, HP_SEV_WARNING, doc_printf(d, "pip install '%s'", pin),
                     "PyTorch %s requires %s but no Triton is installed: torch.compile and "
                     "Triton kernels fail",
                     t->version, pin);
            continue;
        }
        const char *have = tr->dist[0] ? tr->dist : "triton";
        int dist_ok = strcmp(have, want_dist) == 0 || !tr->dist[0];
        int ver_ok = !want_ver || strcmp(tr->version, want_ver) == 0;
        int local_only = 0;
        if (!ver_ok && want_ver) {
            size_t a = strcspn(tr->version, "+"), b = strcspn(want_ver, "+");
            local_only = a == b && strncmp(tr->version, want_ver, a) == 0;
        }
        if (dist_ok && ver_ok)
            continue;
        doc_find(d, path, RID_DOC003, local_only && dist_ok ? HP_SEV_NOTE : HP_SEV_WARNING,
                 doc_printf(d, "pip install '%s'", pin),
                 "PyTorch %s requires %s but %s %s is installed%s%s", t->version, pin, have,
                 tr->version[0] ? tr->version : "(version unknown)",
                 strcmp(tr->site, t->site) != 0 ? " in " : "",
                 strcmp(tr->site, t->site) != 0 ? tr->site : "");
    }
    /* two Triton distributions in one directory share the package 'triton' */
    for (int i = 0; i < d->triton.n; i++)
        for (int k = i + 1; k < d->triton.n; k++) {
            const hp_doctor_triton *a = &d->triton.v[i], *b = &d->triton.v[k];
            if (strcmp(a->site, b->site) != 0 || !a->dist[0] || !b->dist[0])
                continue;
            doc_find(d, doc_printf(d, "%s/triton", a->site), RID_DOC003, HP_SEV_WARNING,
                     doc_printf(d, "pip uninstall %s %s, then reinstall the one torch requires",
                                a->dist, b->dist),
                     "%s %s and %s %s are both installed: they ship the same 'triton' package "
                     "and the last one installed wins",
                     a->dist, a->version, b->dist, b->version);
        }
}

/* ---------------------------------------------------------------- DOC004 */

static void rule_doc004(doctor *d)
{
    int kfd_gpus = 0, pci_amd = 0;
    for (int i = 0; i < d->gpus.n; i++) {
        kfd_gpus += d->gpus.v[i].source[0] == 'k';
        pci_amd += d->gpus.v[i].vendor == HP_VENDOR_AMD && d->gpus.v[i].source[0] == 'p';
    }
    if (kfd_gpus) {
        if (!sysfs_exists(&d->fs, "/dev/kfd"))
            doc_find(d, "/dev/kfd", RID_DOC004, HP_SEV_ERROR,
                     "in a container, pass --device=/dev/kfd --device=/dev/dri",
                     "the KFD topology lists %d AMD GPU%s but /dev/kfd is missing: the ROCm "
                     "runtime finds no GPU",
                     kfd_gpus, kfd_gpus == 1 ? "" : "s");
        else if (sysfs_access_rw(&d->fs, "/dev/kfd") == 0)
            doc_find(d, "/dev/kfd", RID_DOC004, HP_SEV_ERROR,
                     "add the user to the group that owns /dev/kfd (render, sometimes video) "
                     "and log in again",
                     "this user cannot read and write /dev/kfd: the ROCm runtime finds no GPU");
        const char *missing = "", *denied = "";
        for (int i = 0; i < d->gpus.n; i++) {
            const hp_doctor_gpu *g = &d->gpus.v[i];
            if (g->source[0] != 'k' || !g->device_node[0])
                continue;
            if (!sysfs_exists(&d->fs, g->device_node))
                missing = missing[0] ? doc_printf(d, "%s, %s", missing, g->device_node)
                                     : g->device_node;
            else if (sysfs_access_rw(&d->fs, g->device_node) == 0)
                denied = denied[0] ? doc_printf(d, "%s, %s", denied, g->device_node)
                                   : g->device_node;
        }
        if (missing[0])
            doc_find(d, "/dev/dri", RID_DOC004, HP_SEV_ERROR,
                     "in a container, pass --device=/dev/dri (or the GPUs' render nodes)",
                     "render nodes of GPUs are missing (%s): the runtime cannot use those GPUs",
                     missing);
        if (denied[0])
            doc_find(d, "/dev/dri", RID_DOC004, HP_SEV_ERROR,
                     "add the user to the 'render' group and log in again",
                     "this user cannot read and write %s", denied);
    }
    if (pci_amd) {
        const char *drv = "";
        for (int i = 0; i < d->gpus.n; i++)
            if (d->gpus.v[i].vendor == HP_VENDOR_AMD && d->gpus.v[i].driver[0])
                drv = d->gpus.v[i].driver;
        if (drv[0] && strcmp(drv, "amdgpu") != 0)
            doc_find(d, "/sys/bus/pci/drivers", RID_DOC004, HP_SEV_ERROR,
                     "bind the GPU to amdgpu, or run where it is passed through",
                     "%d AMD GPU%s on the PCI bus %s bound to %s, not amdgpu", pci_amd,
                     pci_amd == 1 ? " is" : "s are", pci_amd == 1 ? "is" : "are", drv);
        else if (!d->amdgpu_state)
            doc_find(d, "/sys/module/amdgpu", RID_DOC004, HP_SEV_ERROR,
                     "load the driver (modprobe amdgpu) or install amdgpu-dkms",
                     "%d AMD GPU%s on the PCI bus but the amdgpu driver is not loaded", pci_amd,
                     pci_amd == 1 ? " is" : "s are");
        else
            doc_find(d, "/sys/class/kfd", RID_DOC004, HP_SEV_ERROR,
                     "use a kernel with CONFIG_HSA_AMD, and look for kfd in dmesg",
                     "amdgpu is loaded (%s) but there is no KFD topology: the kernel has no "
                     "compute support (CONFIG_HSA_AMD) or KFD did not start for this GPU",
                     d->amdgpu_state);
    }
    int nnv = count_vendor(d, HP_VENDOR_NVIDIA);
    if (nnv) {
        const char *vfio = NULL;
        for (int i = 0; i < d->gpus.n; i++)
            if (d->gpus.v[i].vendor == HP_VENDOR_NVIDIA && strcmp(d->gpus.v[i].driver, "vfio-pci") == 0)
                vfio = d->gpus.v[i].bdf;
        if (!d->r->nvidia_driver[0]) {
            if (vfio)
                doc_find(d, "/sys/bus/pci/drivers/vfio-pci", RID_DOC004, HP_SEV_NOTE,
                         "use the GPU inside the virtual machine it is passed to",
                         "NVIDIA GPU %s is bound to vfio-pci (passed through): this system "
                         "cannot use it",
                         vfio);
            else
                doc_find(d, "/proc/driver/nvidia/version", RID_DOC004, HP_SEV_ERROR,
                         "install and load the NVIDIA driver (nvidia.ko)",
                         "%d NVIDIA GPU%s on the PCI bus but no NVIDIA driver is loaded", nnv,
                         nnv == 1 ? " is" : "s are");
            return;
        }
        int nodes = 0;
        for (int i = 0; i < d->gpus.n; i++) {
            const hp_doctor_gpu *g = &d->gpus.v[i];
            if (g->vendor != HP_VENDOR_NVIDIA)
                continue;
            if (g->device_node[0]) {
                nodes++;
                if (!sysfs_exists(&d->fs, g->device_node))
                    doc_find(d, g->device_node, RID_DOC004, HP_SEV_ERROR,
                             "in a container, run with the NVIDIA container toolkit (--gpus)",
                             "%s has no device file: CUDA cannot use it", label(d, g));
                else if (sysfs_access_rw(&d->fs, g->device_node) == 0)
                    doc_find(d, g->device_node, RID_DOC004, HP_SEV_ERROR,
                             "give the user access to the NVIDIA device files",
                             "this user cannot read and write it (%s)", label(d, g));
            }
        }
        if (nodes && !sysfs_exists(&d->fs, "/dev/nvidiactl"))
            doc_find(d, "/dev/nvidiactl", RID_DOC004, HP_SEV_ERROR,
                     "in a container, run with the NVIDIA container toolkit (--gpus)",
                     "is missing: CUDA cannot talk to the driver");
    }
}

/* ---------------------------------------------------------------- DOC005 */

enum { M_ROCM, M_PROCS, M_TORCH, M_SOURCE };

/* Does the comma-separated list name the processor proc (proc.len bytes)? */
static int list_has(const char *list, hp_str proc)
{
    hp_str rest = str_cstr(list);
    while (rest.len > 0) {
        ptrdiff_t comma = str_chr(rest, ',');
        hp_str one = comma >= 0 ? str_cut(rest, 0, comma) : rest;
        rest = comma >= 0 ? str_cut(rest, comma + 1, rest.len) : str_make(rest.s + rest.len, 0);
        if (str_eq(one, proc))
            return 1;
    }
    return 0;
}

/* The row of rocm_matrix.tsv that the release have uses, or -1 before the first. */
static int matrix_row(const char *have)
{
    int best = -1;
    for (int i = 0; i < rocm_matrix_rows_COUNT; i++)
        if (gpuinfo_ver_cmp(rocm_matrix_rows[i][M_ROCM], have) <= 0 &&
            (best < 0 ||
             gpuinfo_ver_cmp(rocm_matrix_rows[i][M_ROCM], rocm_matrix_rows[best][M_ROCM]) > 0))
            best = i;
    return best;
}

static void rule_doc005(doctor *d)
{
    if (!d->rocm.n || !d->rocm.v[0].version[0])
        return;
    const char *have = d->rocm.v[0].version;
    int row = have[0] >= '0' && have[0] <= '9' ? matrix_row(have) : -1;
    if (row < 0)
        return;
    const char *path = d->rocm.v[0].source && d->rocm.v[0].source[0] ? d->rocm.v[0].source
                                                                     : d->rocm.v[0].path;
    for (int i = 0; i < d->gpus.n; i++) {
        const hp_doctor_gpu *g = &d->gpus.v[i];
        /* the processor whose code the runtime loads: HSA_OVERRIDE_GFX_VERSION's, if set */
        const char *arch = g->effective && g->effective[0] ? g->effective : g->arch;
        if (g->vendor != HP_VENDOR_AMD || !arch || !arch[0])
            continue;
        hp_str proc = str_cstr(arch);
        ptrdiff_t colon = str_chr(proc, ':');
        if (colon >= 0)
            proc = str_cut(proc, 0, colon);
        if (list_has(rocm_matrix_rows[row][M_PROCS], proc))
            continue;
        /* the first release that lists it, if a later one does */
        int first = -1;
        for (int k = 0; k < rocm_matrix_rows_COUNT; k++)
            if (gpuinfo_ver_cmp(rocm_matrix_rows[k][M_ROCM], have) > 0 &&
                list_has(rocm_matrix_rows[k][M_PROCS], proc) &&
                (first < 0 ||
                 gpuinfo_ver_cmp(rocm_matrix_rows[k][M_ROCM], rocm_matrix_rows[first][M_ROCM]) < 0))
                first = k;
        const char *name = g->name && g->name[0] ? doc_printf(d, " (%s)", g->name) : "";
        if (first >= 0)
            doc_find(d, path, RID_DOC005, HP_SEV_ERROR,
                     doc_printf(d, "install ROCm %s or newer", rocm_matrix_rows[first][M_ROCM]),
                     "ROCm %s does not support %.*s%s: AMD lists it from ROCm %s on, and the "
                     "libraries of %s carry no code for it",
                     have, (int)proc.len, proc.s, name, rocm_matrix_rows[first][M_ROCM], have);
        else
            doc_find(d, path, RID_DOC005, HP_SEV_WARNING,
                     "build every library the program uses for this GPU, or run on one that "
                     "ROCm supports; HSA_OVERRIDE_GFX_VERSION helps only within the GPU's family",
                     "ROCm %s does not list %.*s%s among its GPUs (it lists %s): its "
                     "libraries may carry no code for it (hipErrorNoBinaryForGpu)",
                     have, (int)proc.len, proc.s, name, rocm_matrix_rows[row][M_PROCS]);
    }
}

void doctor_rules_run(doctor *d)
{
    rule_env001(d);
    rule_env002(d);
    rule_env003(d);
    rule_env004(d);
    rule_doc001(d);
    rule_doc001_sdk(d);
    rule_doc002(d);
    rule_doc003(d);
    rule_doc004(d);
    rule_doc005(d);
}
