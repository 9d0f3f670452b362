/* test_targets_match.c: RUNS / WILL NOT RUN by each vendor's rules, and GPU names. */
#include <stdio.h>

#include "harness.h"
#include "hipport.h"

/* The verdict for code described as "vendor:target:kind[:?]" items separated by spaces. */
static hp_verdict verdict(const char *code, const char *gpu, const char **reason)
{
    static hp_ctx *ctx;
    static hp_gpu_code v[16];
    static char buf[512];
    if (!ctx)
        ctx = hp_ctx_new();
    hp_ctx_reset(ctx);
    snprintf(buf, sizeof buf, "%s", code);
    int n = 0;
    for (char *p = buf; *p && n < 16;) {
        char *sp = strchr(p, ' ');
        if (sp)
            *sp = 0;
        char *vendor = p, *target = strchr(p, ':');
        *target++ = 0;
        /* targets may hold ':' (gfx90a:xnack+): the kind is the last field that is a kind */
        char *kind, *k = NULL;
        for (char *q = target; (q = strchr(q, ':')) != NULL; q++)
            if (!strncmp(q + 1, "code-object", 11) || !strncmp(q + 1, "bitcode", 7) ||
                !strncmp(q + 1, "sass", 4) || !strncmp(q + 1, "ptx", 3) ||
                !strncmp(q + 1, "spirv", 5))
                k = q;
        kind = k;
        *kind++ = 0;
        char *unread = strchr(kind, ':');
        if (unread)
            *unread = 0;
        memset(&v[n], 0, sizeof v[n]);
        v[n].vendor = strcmp(vendor, "amd") == 0 ? HP_VENDOR_AMD : HP_VENDOR_NVIDIA;
        v[n].target = target;
        v[n].kind = kind;
        v[n].readable = unread == NULL;
        v[n].compressed = unread != NULL;
        n++;
        if (!sp)
            break;
        p = sp + 1;
    }
    hp_targets_result r;
    memset(&r, 0, sizeof r);
    r.format = "test";
    r.code = v;
    r.ncode = n;
    return hp_targets_match(ctx, &r, gpu, reason);
}

#define RUNS(code, gpu) CHECK_INT(verdict(code, gpu, &why), HP_VERDICT_RUNS)
#define WONT(code, gpu) CHECK_INT(verdict(code, gpu, &why), HP_VERDICT_WONT_RUN)

TEST(targets_match_amd_processor)
{
    const char *why;
    RUNS("amd:gfx942:code-object", "gfx942");
    CHECK_STR(why, "has a code object for gfx942");
    RUNS("amd:gfx942:code-object", "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-");
    WONT("amd:gfx940:code-object amd:gfx941:code-object", "gfx942");
    CHECK_STR(why, "other processors [gfx940, gfx941]");
    WONT("amd:gfx90a:code-object", "gfx908");
    RUNS("amd:gfx1030:code-object amd:gfx1100:code-object", "gfx1100");
    WONT("amd:gfx1100:code-object", "gfx1101");
}

TEST(targets_match_amd_features)
{
    const char *why;
    /* code built for "any" runs whatever the GPU's state */
    RUNS("amd:gfx90a:code-object", "gfx90a:xnack+");
    RUNS("amd:gfx90a:code-object", "gfx90a:sramecc-:xnack-");
    /* pinned xnack */
    RUNS("amd:gfx90a:xnack+:code-object", "gfx90a:xnack+");
    WONT("amd:gfx90a:xnack+:code-object", "gfx90a:xnack-");
    CHECK_STR(why, "needs xnack on, the GPU has it off [gfx90a:xnack+]");
    /* a GPU named without xnack runs with it off, the default */
    WONT("amd:gfx90a:xnack+:code-object", "gfx90a");
    CHECK(strstr(why, "HSA_XNACK=1") != NULL);
    RUNS("amd:gfx90a:xnack-:code-object", "gfx90a");
    WONT("amd:gfx90a:xnack-:code-object", "gfx90a:xnack+");
    /* pinned sramecc: a GPU named without it may have either */
    RUNS("amd:gfx908:sramecc+:xnack-:code-object", "gfx908");
    CHECK(strstr(why, "if the GPU has sramecc on") != NULL);
    RUNS("amd:gfx908:sramecc+:xnack-:code-object", "gfx908:sramecc+");
    CHECK_STR(why, "has a code object for gfx908:sramecc+:xnack-");
    WONT("amd:gfx908:sramecc+:xnack-:code-object", "gfx908:sramecc-");
    WONT("amd:gfx908:sramecc+:xnack-:code-object", "gfx908:sramecc+:xnack+");
    /* an unconditional match wins over a conditional one */
    RUNS("amd:gfx908:sramecc-:code-object amd:gfx908:code-object", "gfx908");
    CHECK_STR(why, "has a code object for gfx908");
    /* features on processors without them do not matter */
    RUNS("amd:gfx1100:code-object", "gfx1100");
}

TEST(targets_match_amd_generic_and_kinds)
{
    const char *why;
    static const char *const gfx11[] = {"gfx1100", "gfx1101", "gfx1102", "gfx1103",
                                        "gfx1150", "gfx1151", "gfx1152", "gfx1153"};
    for (size_t i = 0; i < sizeof gfx11 / sizeof gfx11[0]; i++)
        RUNS("amd:gfx11-generic:code-object", gfx11[i]);
    CHECK(strstr(why, "gfx11-generic") != NULL);
    WONT("amd:gfx11-generic:code-object", "gfx1030");
    WONT("amd:gfx11-generic:code-object", "gfx1200");
    RUNS("amd:gfx10-3-generic:code-object", "gfx1036");
    RUNS("amd:gfx9-generic:code-object", "gfx906");
    WONT("amd:gfx9-generic:code-object", "gfx90a");
    RUNS("amd:gfx9-4-generic:code-object", "gfx942");
    WONT("amd:gfx9-4-generic:code-object", "gfx90a");
    RUNS("amd:gfx12-generic:code-object", "gfx1201");
    /* an exact code object is preferred in the reason */
    RUNS("amd:gfx11-generic:code-object amd:gfx1100:code-object", "gfx1100");
    CHECK_STR(why, "has a code object for gfx1100");
    /* bitcode never runs; SPIR-V runs anywhere */
    WONT("amd:gfx942:bitcode", "gfx942");
    CHECK(strstr(why, "device link") != NULL);
    RUNS("amd:amdgcnspirv:spirv", "gfx1201");
    /* code that could not be read */
    CHECK_INT(verdict("amd:unknown:code-object:?", "gfx942", &why), HP_VERDICT_UNKNOWN);
    CHECK_INT(verdict("amd:unknown:code-object:? amd:gfx90a:code-object", "gfx942", &why),
              HP_VERDICT_UNKNOWN);
    RUNS("amd:unknown:code-object:? amd:gfx942:code-object", "gfx942");
    /* the other vendor */
    WONT("nvidia:sm_90:sass nvidia:compute_90:ptx", "gfx942");
    CHECK_STR(why, "only NVIDIA code [sm_90, compute_90]");
}

TEST(targets_match_nvidia)
{
    const char *why;
    static const struct {
        const char *code, *gpu;
        int runs;
    } cases[] = {
        {"nvidia:sm_80:sass", "8.0", 1},
        {"nvidia:sm_80:sass", "8.6", 1},
        {"nvidia:sm_80:sass", "8.9", 1},
        {"nvidia:sm_80:sass", "9.0", 0},   /* SASS does not cross a major version */
        {"nvidia:sm_86:sass", "8.0", 0},
        {"nvidia:sm_90:sass", "sm_90", 1},
        {"nvidia:sm_90a:sass", "9.0", 1},
        {"nvidia:sm_100a:sass", "10.3", 0}, /* arch-specific: exactly 10.0 */
        {"nvidia:sm_100a:sass", "10.0", 1},
        {"nvidia:sm_100f:sass", "10.3", 1}, /* family: 10.x from 10.0 */
        {"nvidia:sm_103f:sass", "10.0", 0},
        {"nvidia:sm_100f:sass", "12.0", 0},
        {"nvidia:compute_80:ptx", "9.0", 1}, /* PTX: the driver compiles it for newer GPUs */
        {"nvidia:compute_80:ptx", "12.1", 1},
        {"nvidia:compute_100:ptx", "9.0", 0},
        {"nvidia:compute_90a:ptx", "9.0", 1},
        {"nvidia:compute_90a:ptx", "10.0", 0},
        {"nvidia:compute_120f:ptx", "12.1", 1},
        {"nvidia:compute_120f:ptx", "13.0", 0},
        {"nvidia:sm_90:bitcode", "9.0", 0},
        {"nvidia:sm_80:sass nvidia:compute_80:ptx", "9.0", 1},
        {"nvidia:sm_80:sass nvidia:sm_86:sass nvidia:sm_89:sass nvidia:sm_100:sass", "9.0", 0},
        {"amd:gfx942:code-object", "9.0", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hp_verdict v = verdict(cases[i].code, cases[i].gpu, &why);
        if (v != (cases[i].runs ? HP_VERDICT_RUNS : HP_VERDICT_WONT_RUN)) {
            harness_failf(__FILE__, __LINE__, "%s on %s: %d (%s)", cases[i].code, cases[i].gpu,
                          (int)v, why);
            return;
        }
    }
    WONT("nvidia:sm_80:sass nvidia:compute_100:ptx", "9.0");
    CHECK_STR(why, "SASS for 8.0 to 8.9 [sm_80]; PTX for 10.0 or newer [compute_100]");
    RUNS("nvidia:compute_80:ptx nvidia:sm_90:sass", "9.0");
    CHECK_STR(why, "has sm_90 SASS, which runs on compute capability 9.0");
}

TEST(targets_parse_gpu)
{
    hp_ctx *ctx = hp_ctx_new();
    const char *c, *e;
    static const struct {
        const char *in, *out;
    } good[] = {
        {"gfx942", "gfx942"},
        {"gfx90a:xnack-:sramecc+", "gfx90a:sramecc+:xnack-"},
        {"amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-", "gfx942:sramecc+:xnack-"},
        {"sm_90", "sm_90"},
        {"sm_90a", "sm_90"},
        {"compute_86", "sm_86"},
        {"9.0", "sm_90"},
        {"12.1", "sm_121"},
        {" gfx1100 ", "gfx1100"},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        CHECK_INT(hp_targets_parse_gpu(ctx, good[i].in, &c, &e), HP_OK);
        CHECK_STR(c, good[i].out);
    }
    static const char *const bad[] = {"",          "gfx",          "gfx9999",  "gfx1100:xnack+",
                                      "gfx942:xnack", "gfx942:foo+", "gfx11-generic", "sm_",
                                      "sm_9",       "sm_90b",       "9",        "9.",
                                      "9.00",       "0.0",          "x.1",      "nvidia",
                                      "gfx90a::xnack+"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (hp_targets_parse_gpu(ctx, bad[i], &c, &e) != HP_EUSAGE) {
            harness_failf(__FILE__, __LINE__, "'%s' accepted as %s", bad[i], c);
            return;
        }
        CHECK(e != NULL);
    }
    hp_ctx_free(ctx);
}
