/* test_doctor_run.c: hp_doctor_run and hp_doctor_gpu_target over the fake roots of
 * tests/doctor/roots (the unit tests run from the repository's root). */
#include <stdio.h>
#include <stdlib.h>

#include "ctx.h"
#include "harness.h"
#include "hipport.h"

#define ROOTS "tests/doctor/roots/"

static int count_rule(const hp_doctor_report *r, const char *rule, hp_severity sev)
{
    int n = 0;
    for (int i = 0; i < r->nfindings; i++)
        n += strcmp(r->findings[i].rule, rule) == 0 && r->findings[i].severity == sev;
    return n;
}

/* A context and options that read root. */
static hp_ctx *doctor_at(hp_doctor_opts *o, const char *root)
{
    hp_doctor_opts_init(o);
    o->root = root;
    return hp_ctx_new();
}

/* A fresh directory under $TMPDIR (name: its last component before the random part), with
 * the shell commands of script run in it ("%s" there stands for the directory); NULL when
 * it cannot be made. */
static const char *fake_root(char *buf, size_t n, const char *name, const char *script)
{
    snprintf(buf, n, "%s/hipport-%s-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", name);
    if (!mkdtemp(buf))
        return NULL;
    if (!script)
        return buf;
    char cmd[2048];
    snprintf(cmd, sizeof cmd, script, buf, buf);
    return system(cmd) == 0 ? buf : NULL;
}

static int rm_root(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0;
}

TEST(doctor_run_mi300x)
{
    hp_doctor_opts o;
    hp_ctx *ctx = doctor_at(&o, ROOTS "mi300x");
    hp_doctor_report r;
    CHECK_INT(hp_doctor_run(ctx, &o, &r), HP_OK);
    CHECK_INT(r.ngpus, 4);
    for (int i = 0; i < r.ngpus; i++) {
        CHECK_INT(r.gpus[i].vendor, HP_VENDOR_AMD);
        CHECK_INT(r.gpus[i].vendor_index, i);
        CHECK_STR(r.gpus[i].target, "gfx942:sramecc+:xnack-");
        CHECK_INT(r.gpus[i].compute_units, 304);
        CHECK_INT(r.gpus[i].wavefront, 64);
        CHECK_STR(r.gpus[i].driver, "amdgpu");
    }
    CHECK_STR(r.gpus[2].bdf, "0000:46:00.0");
    CHECK_STR(r.gpus[0].name, "AMD Instinct MI300X");
    CHECK_INT(r.gpus[0].vram_bytes, 206141652992LL);
    CHECK_INT(r.nrocm, 2);
    CHECK_STR(r.rocm[0].path, "/opt/rocm");
    CHECK_STR(r.rocm[0].version, "6.2.4");
    CHECK_STR(r.hip_version, "6.2.41134");
    CHECK_INT(r.ntorch, 1);
    CHECK_STR(r.torch[0].build, "rocm");
    CHECK_STR(r.torch[0].triton_pin, "pytorch-triton-rocm==3.1.0");
    CHECK(r.torch[0].bundles_runtime);
    CHECK_INT(r.torch[0].nlibs, 2);
    CHECK(r.torch[0].libs[0].scanned);
    CHECK_INT(r.torch[0].libs[0].verdict, HP_VERDICT_RUNS);
    CHECK_INT(r.nfindings, 0);
    CHECK_INT(r.nproblems, 0);
    hp_ctx_free(ctx);
}

TEST(doctor_run_env_rules)
{
    hp_doctor_opts o;
    hp_ctx *ctx = doctor_at(&o, ROOTS "mi300x");
    o.no_libs = 1;
    const char *set[] = {"HSA_OVERRIDE_GFX_VERSION=9.0.10", "TORCH_CUDA_ARCH_LIST=9.0",
                         "HIP_VISIBLE_DEVICES=7", "HSA_XNACK=1", "VIRTUAL_ENV", NULL};
    o.env_set = set;
    hp_doctor_report r;
    CHECK_INT(hp_doctor_run(ctx, &o, &r), HP_OK);
    CHECK_STR(r.gpus[0].effective, "gfx90a:sramecc+:xnack+"); /* claims gfx90a, XNACK on */
    CHECK_INT(count_rule(&r, "ENV001", HP_SEV_ERROR), 1);     /* CDNA3 claiming CDNA2 */
    CHECK_INT(count_rule(&r, "ENV002", HP_SEV_WARNING), 1);
    CHECK_INT(count_rule(&r, "ENV003", HP_SEV_WARNING), 1);
    CHECK_INT(count_rule(&r, "ENV004", HP_SEV_NOTE), 1);
    for (int i = 0; i < r.nenv; i++)
        CHECK(strcmp(r.env[i].name, "VIRTUAL_ENV") != 0); /* unset by "VIRTUAL_ENV" */
    /* sorted by path, then rule */
    for (int i = 1; i < r.nfindings; i++)
        CHECK(strcmp(r.findings[i - 1].path, r.findings[i].path) <= 0);
    /* the same family is a warning: an RX 7800 XT (gfx1101) told to be gfx1100 */
    hp_ctx_reset(ctx);
    const char *set2[] = {"HSA_OVERRIDE_GFX_VERSION=9.5.0", NULL};
    o.env_set = set2;
    CHECK_INT(hp_doctor_run(ctx, &o, &r), HP_OK);
    CHECK_STR(r.gpus[0].effective, "gfx950:sramecc+:xnack-");
    CHECK_INT(count_rule(&r, "ENV001", HP_SEV_WARNING), 1); /* gfx9-4-generic covers both */
    hp_ctx_free(ctx);
}

TEST(doctor_run_h200)
{
    hp_doctor_opts o;
    hp_ctx *ctx = doctor_at(&o, ROOTS "h200");
    hp_doctor_report r;
    CHECK_INT(hp_doctor_run(ctx, &o, &r), HP_OK);
    CHECK_INT(r.ngpus, 1);
    CHECK_INT(r.gpus[0].vendor, HP_VENDOR_NVIDIA);
    CHECK_STR(r.gpus[0].arch, "sm_90");
    CHECK_STR(r.gpus[0].name, "NVIDIA H200");
    CHECK_STR(r.gpus[0].device_node, "/dev/nvidia0");
    CHECK_STR(r.nvidia_driver, "580.159.04");
    CHECK_STR(r.nvidia_driver_cuda, "13.0");
    CHECK_STR(r.cuda_version, "13.0");
    CHECK_INT(r.ntorch, 1);
    CHECK_STR(r.torch[0].version, "2.11.0+cu130");
    CHECK_STR(r.torch[0].triton_pin, "triton==3.6.0"); /* METADATA says Version: 2.11.0 */
    CHECK_INT(r.torch[0].libs[0].verdict, HP_VERDICT_RUNS);
    CHECK_INT(r.nfindings, 0);
    hp_ctx_free(ctx);
}

TEST(doctor_run_mixed)
{
    hp_doctor_opts o;
    hp_ctx *ctx = doctor_at(&o, ROOTS "rdna3-mi250x");
    hp_doctor_report r;
    CHECK_INT(hp_doctor_run(ctx, &o, &r), HP_OK);
    CHECK_INT(r.ngpus, 3);
    CHECK_STR(r.gpus[0].target, "gfx1100");
    CHECK_STR(r.gpus[1].target, "gfx90a:sramecc+:xnack-");
    CHECK_STR(r.gpus[1].effective, "gfx1100"); /* ROOT/environ overrides */
    CHECK_INT(r.gpus[0].compute_units, 96);
    CHECK_INT(r.gpus[0].wavefront, 32);
    CHECK_INT(count_rule(&r, "DOC001", HP_SEV_ERROR), 2);
    CHECK_INT(count_rule(&r, "DOC002", HP_SEV_ERROR), 1);
    CHECK_INT(count_rule(&r, "DOC003", HP_SEV_WARNING), 1);
    hp_ctx_free(ctx);
}

TEST(doctor_run_empty_and_bad_roots)
{
    hp_doctor_opts o;
    hp_ctx *ctx = doctor_at(&o, ROOTS "empty");
    hp_doctor_report r;
    CHECK_INT(hp_doctor_run(ctx, &o, &r), HP_OK);
    CHECK_INT(r.ngpus, 0);
    CHECK_INT(r.nfindings, 0);
    char *json = hp_doctor_format(&r, 1, NULL);
    CHECK(json && strncmp(json, "{\"root\":", 8) == 0);
    free(json);
    o.root = ROOTS "no-such-root";
    CHECK_INT(hp_doctor_run(ctx, &o, &r), HP_EIO);
    CHECK_INT(r.nproblems, 1);
    o.root = ROOTS "empty";
    o.env_file = ROOTS "no-such-env-file";
    CHECK_INT(hp_doctor_run(ctx, &o, &r), HP_EIO);
    CHECK_INT(hp_doctor_run(NULL, &o, &r), HP_EUSAGE);
    hp_ctx_free(ctx);
}

TEST(doctor_run_out_of_memory)
{
    /* a context too small for the run: HP_ENOMEM, nothing else */
    hp_doctor_opts o;
    hp_ctx *ctx = doctor_at(&o, ROOTS "mi300x");
    hp_doctor_report r;
    int enomem = 0;
    for (ptrdiff_t limit = 1 << 12; limit <= (ptrdiff_t)1 << 22; limit *= 2) {
        hp_ctx_reset(ctx);
        arena_release(&ctx->a);
        ctx->a.limit = limit;
        hp_status st = hp_doctor_run(ctx, &o, &r);
        CHECK(st == HP_OK || st == HP_ENOMEM);
        enomem += st == HP_ENOMEM;
        if (st == HP_ENOMEM)
            CHECK_INT(r.ngpus, 0);
    }
    CHECK(enomem > 0);
    hp_ctx_free(ctx);
}

TEST(doctor_gpu_target_for_targets_auto)
{
    hp_ctx *ctx = hp_ctx_new();
    const char *t = "unset";
    CHECK_INT(hp_doctor_gpu_target(ctx, ROOTS "mi300x", &t), 1);
    CHECK_STR(t, "gfx942:sramecc+:xnack-");
    CHECK_INT(hp_doctor_gpu_target(ctx, ROOTS "rdna3-mi250x", &t), 1);
    CHECK_STR(t, "gfx1100");
    CHECK_INT(hp_doctor_gpu_target(ctx, ROOTS "h200", &t), 1);
    CHECK_STR(t, "sm_90");
    CHECK_INT(hp_doctor_gpu_target(ctx, ROOTS "empty", &t), 0);
    CHECK(t == NULL);
    CHECK_INT(hp_doctor_gpu_target(ctx, ROOTS "no-such-root", &t), 0);
    hp_ctx_free(ctx);
}

/* A root with one consumer GPU: an RX 6700 XT (gfx1031), which ROCm does not support. */
static const char *rx6700_root(char *buf, size_t n)
{
    return fake_root(buf, n, "rx6700",
                     "d='%s/sys/class/kfd/kfd/topology/nodes/1' && mkdir -p \"$d\" && printf "
                     "'simd_count 80\\nsimd_per_cu 2\\nwave_front_size 32\\ngfx_target_version "
                     "100301\\nvendor_id 4098\\ndevice_id 29663\\n' > \"$d/properties\"");
}

TEST(doctor_run_consumer_override)
{
    char buf[256];
    const char *root = rx6700_root(buf, sizeof buf);
    CHECK(root != NULL);
    hp_doctor_opts o;
    hp_ctx *ctx = doctor_at(&o, root);
    hp_doctor_report r;
    CHECK_INT(hp_doctor_run(ctx, &o, &r), HP_OK);
    CHECK_INT(r.ngpus, 1);
    CHECK_STR(r.gpus[0].target, "gfx1031");
    CHECK_STR(r.gpus[0].name, "AMD Radeon RX 6700/6700 XT/6750 XT");
    CHECK_INT(r.gpus[0].compute_units, 40);
    /* the usual advice: run gfx1030 code on it (same family) */
    const char *same[] = {"HSA_OVERRIDE_GFX_VERSION=10.3.0", NULL};
    o.env_set = same;
    CHECK_INT(hp_doctor_run(ctx, &o, &r), HP_OK);
    CHECK_STR(r.gpus[0].effective, "gfx1030");
    CHECK_INT(count_rule(&r, "ENV001", HP_SEV_WARNING), 1);
    CHECK_INT(count_rule(&r, "ENV001", HP_SEV_ERROR), 0);
    /* the RDNA3 value on an RDNA2 GPU: another instruction set */
    const char *other[] = {"HSA_OVERRIDE_GFX_VERSION=11.0.0", NULL};
    o.env_set = other;
    CHECK_INT(hp_doctor_run(ctx, &o, &r), HP_OK);
    CHECK_INT(count_rule(&r, "ENV001", HP_SEV_ERROR), 1);
    hp_ctx_free(ctx);
    CHECK(rm_root(root));
}

/* The XNACK mode of an MI100 (gfx908) follows amdgpu.noretry alone; HSA_XNACK cannot set it. */
TEST(doctor_run_xnack_per_processor)
{
    char buf[256];
    const char *root = fake_root(
        buf, sizeof buf, "mi100",
        "d='%s/sys/class/kfd/kfd/topology/nodes/1' && mkdir -p \"$d\" && printf "
        "'simd_count 480\\nsimd_per_cu 4\\nwave_front_size 64\\ngfx_target_version "
        "90008\\ndevice_id 29580\\ncapability 67108864\\n' > \"$d/properties\" && "
        "mkdir -p '%s/sys/module/amdgpu/parameters'");
    CHECK(root != NULL);
    hp_doctor_opts o;
    hp_ctx *ctx = doctor_at(&o, root);
    const char *on[] = {"HSA_XNACK=1", NULL};
    o.env_set = on;
    hp_doctor_report r;
    CHECK_INT(hp_doctor_run(ctx, &o, &r), HP_OK);
    CHECK_STR(r.gpus[0].target, "gfx908:sramecc+:xnack-");
    CHECK_STR(r.gpus[0].name, "AMD Instinct MI100");
    CHECK_INT(count_rule(&r, "ENV004", HP_SEV_NOTE), 1); /* "has no effect" */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "echo 0 > '%s/sys/module/amdgpu/parameters/noretry'", root);
    CHECK(system(cmd) == 0);
    o.env_set = NULL;
    CHECK_INT(hp_doctor_run(ctx, &o, &r), HP_OK);
    CHECK_STR(r.gpus[0].target, "gfx908:sramecc+:xnack+");
    hp_ctx_free(ctx);
    CHECK(rm_root(root));
}

/* HIP's version where no hip_version.h holds it: the NAME=VALUE lines of ROCm's bin/.hipVersion
 * (under an /opt/rocm that a version file names), else Debian's /usr/share/hip/version. */
static int put(const char *dir, const char *rel, const char *text)
{
    char path[512], cmd[600];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", path);
    if (system(cmd) != 0)
        return 0;
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    fputs(text, f);
    return fclose(f) == 0;
}

TEST(doctor_run_hip_version_files)
{
    char buf[256];
    const char *dir = fake_root(buf, sizeof buf, "doctor", NULL);
    CHECK(dir != NULL);
    CHECK(put(dir, "usr/share/hip/version",
              "HIP_VERSION_MAJOR=5\nHIP_VERSION_MINOR=2\nHIP_VERSION_PATCH=21153\n"));
    hp_doctor_opts o;
    hp_ctx *ctx = doctor_at(&o, dir);
    hp_doctor_report r;
    CHECK_INT(hp_doctor_run(ctx, &o, &r), HP_OK);
    CHECK_STR(r.hip_version, "5.2.21153");
    CHECK_STR(r.hip_source, "/usr/share/hip/version");
    hp_ctx_free(ctx);
    CHECK(rm_root(dir));
}

/* DOC005: the GPU against rocm_matrix.tsv's row for the installed ROCm. */
TEST(doctor_run_rocm_matrix)
{
    char buf[256];
    const char *root = fake_root(
        buf, sizeof buf, "mi355",
        "d='%s/sys/class/kfd/kfd/topology/nodes/1' && mkdir -p \"$d\" && printf "
        "'simd_count 1024\\nsimd_per_cu 4\\nwave_front_size 64\\ngfx_target_version "
        "90500\\nvendor_id 4098\\n' > \"$d/properties\" && mkdir -p '%s/opt/rocm/.info'");
    CHECK(root != NULL);
    hp_doctor_opts o;
    hp_ctx *ctx = doctor_at(&o, root);
    hp_doctor_report r;
    /* gfx950 on ROCm 6.4: AMD lists it from 7.0.0 on */
    CHECK(put(root, "opt/rocm/.info/version", "6.4.1-120\n"));
    CHECK_INT(hp_doctor_run(ctx, &o, &r), HP_OK);
    CHECK_STR(r.gpus[0].arch, "gfx950");
    CHECK_INT(count_rule(&r, "DOC005", HP_SEV_ERROR), 1);
    for (int i = 0; i < r.nfindings; i++)
        if (strcmp(r.findings[i].rule, "DOC005") == 0)
            CHECK(strstr(r.findings[i].message, "from ROCm 7.0.0 on") != NULL);
    /* on 7.2 it is supported */
    CHECK(put(root, "opt/rocm/.info/version", "7.2.4\n"));
    CHECK_INT(hp_doctor_run(ctx, &o, &r), HP_OK);
    CHECK_INT(count_rule(&r, "DOC005", HP_SEV_ERROR) + count_rule(&r, "DOC005", HP_SEV_WARNING), 0);
    /* a release before the table's first row is not judged */
    CHECK(put(root, "opt/rocm/.info/version", "6.1.3\n"));
    CHECK_INT(hp_doctor_run(ctx, &o, &r), HP_OK);
    CHECK_INT(count_rule(&r, "DOC005", HP_SEV_ERROR) + count_rule(&r, "DOC005", HP_SEV_WARNING), 0);
    hp_ctx_free(ctx);
    CHECK(rm_root(root));

    /* an RX 6700 (gfx1030's family, not listed itself): a warning, unless the runtime is told
     * to load gfx1030's code */
    root = rx6700_root(buf, sizeof buf);
    CHECK(root != NULL);
    CHECK(put(root, "opt/rocm/.info/version", "7.2.4\n"));
    ctx = doctor_at(&o, root);
    CHECK_INT(hp_doctor_run(ctx, &o, &r), HP_OK);
    CHECK_INT(count_rule(&r, "DOC005", HP_SEV_WARNING), 1);
    const char *same[] = {"HSA_OVERRIDE_GFX_VERSION=10.3.0", NULL};
    o.env_set = same;
    CHECK_INT(hp_doctor_run(ctx, &o, &r), HP_OK);
    CHECK_INT(count_rule(&r, "DOC005", HP_SEV_WARNING), 0);
    hp_ctx_free(ctx);
    CHECK(rm_root(root));
}
