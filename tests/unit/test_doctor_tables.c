/* test_doctor_tables.c: doctor's GPU tables (data/tables) and version arithmetic: every row
 * round-trips, the encodings agree, and HSA_OVERRIDE_GFX_VERSION parses as the ROCm thunk does. */
#include <stdio.h>
#include <stdlib.h>

#include "gpuinfo.h"
#include "harness.h"

#include "amd_pci_tab.h"
#include "cuda_driver_tab.h"
#include "gfx_tab.h"
#include "nvidia_models_tab.h"
#include "nvidia_pci_tab.h"

TEST(doctor_gfx_rows_round_trip)
{
    for (int i = 0; i < gfx_rows_COUNT; i++) {
        gfx_info g, h;
        const char *name = gfx_rows[i][0];
        CHECK(gpuinfo_gfx_by_name(name, (ptrdiff_t)strlen(name), &g));
        CHECK_STR(g.name, name);
        CHECK(gpuinfo_gfx_by_version(g.version, &h));
        CHECK_STR(h.name, name);
        /* the name is what rocm_agent_enumerator makes of gfx_target_version */
        char buf[32];
        gpuinfo_gfx_format_version(g.version, buf, sizeof buf);
        CHECK_STR(buf, name);
        CHECK(g.wave == 32 || g.wave == 64);
        CHECK(g.lds_kb >= 64);
        CHECK(g.family[0]);
    }
}

TEST(doctor_gfx_lookup)
{
    gfx_info g;
    CHECK(gpuinfo_gfx_by_name("gfx90a:sramecc+:xnack-", 22, &g));
    CHECK_STR(g.name, "gfx90a");
    CHECK_INT(g.version, 90010);
    CHECK(g.xnack && g.sramecc);
    CHECK(gpuinfo_gfx_by_version(90402, &g));
    CHECK_STR(g.name, "gfx942");
    CHECK_STR(g.generic, "gfx9-4-generic");
    CHECK(gpuinfo_gfx_by_version(110000, &g));
    CHECK(!g.xnack && !g.sramecc && g.wave == 32);
    CHECK(!gpuinfo_gfx_by_name("gfx9", 4, &g));
    CHECK(!gpuinfo_gfx_by_name("gfx90", 5, &g));
    CHECK(!gpuinfo_gfx_by_version(0, &g));
    char buf[32];
    gpuinfo_gfx_format_version(90012, buf, sizeof buf);
    CHECK_STR(buf, "gfx90c");
    gpuinfo_gfx_format_version(100300, buf, sizeof buf);
    CHECK_STR(buf, "gfx1030");
}

TEST(doctor_override_parse)
{
    unsigned a, b, c;
    CHECK_INT(gpuinfo_gfx_parse_override("9.0.10", &a, &b, &c), 90010);
    CHECK(a == 9 && b == 0 && c == 10);
    CHECK_INT(gpuinfo_gfx_parse_override("11.0.0", &a, &b, &c), 110000);
    CHECK_INT(gpuinfo_gfx_parse_override("10.3.0", &a, &b, &c), 100300);
    CHECK_INT(gpuinfo_gfx_parse_override(" 9.4.2", &a, &b, &c), 90402);   /* %u skips white space */
    CHECK_INT(gpuinfo_gfx_parse_override("9. 4.+2", &a, &b, &c), 90402);  /* and takes a sign */
    CHECK_INT(gpuinfo_gfx_parse_override("63.255.255", &a, &b, &c), 655755);
    CHECK_INT(gpuinfo_gfx_parse_override("9.0.a", &a, &b, &c), -1);       /* decimal only */
    CHECK_INT(gpuinfo_gfx_parse_override("9.4.2 ", &a, &b, &c), -1);      /* nothing after */
    CHECK_INT(gpuinfo_gfx_parse_override("9.4.2\n", &a, &b, &c), -1);
    CHECK_INT(gpuinfo_gfx_parse_override("64.0.0", &a, &b, &c), -1);
    CHECK_INT(gpuinfo_gfx_parse_override("9.256.0", &a, &b, &c), -1);
    CHECK_INT(gpuinfo_gfx_parse_override("9.4", &a, &b, &c), -1);
    CHECK_INT(gpuinfo_gfx_parse_override("9.4.2.1", &a, &b, &c), -1);
    CHECK_INT(gpuinfo_gfx_parse_override("", &a, &b, &c), -1);
    CHECK_INT(gpuinfo_gfx_parse_override("-1.0.0", &a, &b, &c), -1);      /* wraps past 63 */
    CHECK_INT(gpuinfo_gfx_parse_override("99999999999999999999.0.0", &a, &b, &c), -1);
    CHECK_INT(gpuinfo_gfx_parse_override(NULL, &a, &b, &c), -1);
}

TEST(doctor_families_and_targets)
{
    gfx_info x, y;
    CHECK(gpuinfo_gfx_by_name("gfx1101", 7, &x) && gpuinfo_gfx_by_name("gfx1100", 7, &y));
    CHECK(gpuinfo_gfx_same_family(&x, &y));
    CHECK(gpuinfo_gfx_by_name("gfx1151", 7, &x));
    CHECK(gpuinfo_gfx_same_family(&x, &y)); /* gfx11-generic covers RDNA3.5 too */
    CHECK(gpuinfo_gfx_by_name("gfx90a", 6, &x) && gpuinfo_gfx_by_name("gfx942", 6, &y));
    CHECK(!gpuinfo_gfx_same_family(&x, &y));
    CHECK(gpuinfo_gfx_by_name("gfx908", 6, &y));
    CHECK(!gpuinfo_gfx_same_family(&y, &y)); /* no generic target: never "the same family" */
    CHECK(gpuinfo_gfx_valid_target("gfx90a:xnack+", 13));
    CHECK(gpuinfo_gfx_valid_target("gfx90a:sramecc-:xnack+", 22));
    CHECK(gpuinfo_gfx_valid_target("gfx942", 6));
    CHECK(!gpuinfo_gfx_valid_target("gfx1100:xnack+", 14)); /* RDNA3 has no xnack */
    CHECK(!gpuinfo_gfx_valid_target("gfx90a:xnack", 12));
    CHECK(!gpuinfo_gfx_valid_target("gfx90a:foo+", 11));
    CHECK(!gpuinfo_gfx_valid_target("mi300", 5));
}

TEST(doctor_pci_tables)
{
    const char *gfx = NULL;
    CHECK_STR(gpuinfo_amd_pci_name(0x74a1, &gfx), "AMD Instinct MI300X");
    CHECK_STR(gfx, "gfx942");
    CHECK_STR(gpuinfo_amd_pci_name(0x740c, &gfx), "AMD Instinct MI250X/MI250");
    CHECK_STR(gfx, "gfx90a");
    CHECK(gpuinfo_amd_pci_name(0xffff, &gfx) == NULL);
    /* every AMD id names a processor of gfx.tsv */
    for (int i = 0; i < amd_pci_rows_COUNT; i++) {
        gfx_info g;
        const char *p = amd_pci_rows[i][1];
        CHECK(gpuinfo_gfx_by_name(p, (ptrdiff_t)strlen(p), &g));
        CHECK(strtoul(amd_pci_rows[i][0], NULL, 16) > 0);
    }
    int a = 0, b = 0;
    CHECK_STR(gpuinfo_nv_pci_name(0x2335, &a, &b), "NVIDIA H200");
    CHECK(a == 9 && b == 0);
    CHECK(gpuinfo_nv_pci_name(0x20b2, &a, &b) && a == 8 && b == 0);
    CHECK(gpuinfo_nv_pci_name(0x2e12, &a, &b) && a == 12 && b == 1);
    CHECK(gpuinfo_nv_pci_name(0x0001, &a, &b) == NULL);
    for (int i = 0; i < nvidia_pci_rows_COUNT; i++)
        CHECK(gpuinfo_nv_pci_name((unsigned)strtoul(nvidia_pci_rows[i][0], NULL, 16), &a, &b) &&
              a >= 7);
    CHECK(gpuinfo_nv_model_cc("NVIDIA A100-SXM4-80GB", &a, &b) && a == 8 && b == 0);
    CHECK(gpuinfo_nv_model_cc("NVIDIA A10", &a, &b) && a == 8 && b == 6);
    CHECK(gpuinfo_nv_model_cc("NVIDIA H100 80GB HBM3", &a, &b) && a == 9 && b == 0);
    CHECK(!gpuinfo_nv_model_cc("NVIDIA GeForce GTX 1080", &a, &b));
    CHECK(!gpuinfo_nv_model_cc("", &a, &b));
    for (int i = 0; i < nvidia_models_rows_COUNT; i++)
        CHECK(gpuinfo_nv_model_cc(nvidia_models_rows[i][0], &a, &b));
}

TEST(doctor_versions)
{
    CHECK(gpuinfo_ver_cmp("580.65.06", "580.159.04") < 0);
    CHECK(gpuinfo_ver_cmp("570.26", "570.124.06") < 0);
    CHECK(gpuinfo_ver_cmp("13.0", "13.0.0") == 0);
    CHECK(gpuinfo_ver_cmp("6.2.4-139", "6.2.4") == 0);
    CHECK(gpuinfo_ver_cmp("12.10", "12.9") > 0);
    CHECK_INT(gpuinfo_ver_major_minor("6.2.41133-dd7f95766"), 602);
    CHECK_INT(gpuinfo_ver_major_minor("13.0"), 1300);
    CHECK_INT(gpuinfo_ver_major_minor("5.2.21153"), 502);
    CHECK_INT(gpuinfo_ver_major_minor("6"), -1);
    CHECK_INT(gpuinfo_ver_major_minor("6."), -1);
    CHECK_INT(gpuinfo_ver_major_minor("x.1"), -1);
    CHECK_INT(gpuinfo_ver_major_minor(NULL), -1);
}

TEST(doctor_cuda_driver)
{
    const char *need;
    CHECK_INT(gpuinfo_cuda_driver_fit("13.0", "580.159.04", &need), CUDA_FIT_NATIVE);
    CHECK_INT(gpuinfo_cuda_driver_fit("13.0", "575.51.03", &need), CUDA_FIT_OLD);
    CHECK_STR(need, "580.65.06");
    CHECK_INT(gpuinfo_cuda_driver_fit("12.8", "565.57.01", &need), CUDA_FIT_MINOR);
    CHECK_INT(gpuinfo_cuda_driver_fit("12.8.1", "570.124.06", &need), CUDA_FIT_NATIVE);
    CHECK_INT(gpuinfo_cuda_driver_fit("12.1", "520.61.05", &need), CUDA_FIT_OLD);
    CHECK_INT(gpuinfo_cuda_driver_fit("11.8", "450.80.02", &need), CUDA_FIT_MINOR);
    CHECK_INT(gpuinfo_cuda_driver_fit("99.0", "580.159.04", &need), CUDA_FIT_UNKNOWN);
    CHECK_STR(gpuinfo_cuda_max_for_driver("580.159.04"), "13.0");
    CHECK_STR(gpuinfo_cuda_max_for_driver("565.57.01"), "12.6");
    CHECK(gpuinfo_cuda_max_for_driver("440.33") == NULL);
    /* the minor-compatibility floor is never newer than the release's own driver */
    for (int i = 0; i < cuda_driver_rows_COUNT; i++)
        CHECK(gpuinfo_ver_cmp(cuda_driver_rows[i][2], cuda_driver_rows[i][1]) <= 0);
}

#include "rule_docs.h"

/* Every doctor rule has its page, in the format 'hipport rules ID' shows. */
TEST(doctor_rule_pages)
{
    static const char *const ids[] = {"ENV001", "ENV002", "ENV003", "ENV004",
                                      "DOC001", "DOC002", "DOC003", "DOC004"};
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
        const char *text = NULL;
        for (int k = 0; rule_docs[k].name; k++)
            if (strcmp(rule_docs[k].name, ids[i]) == 0)
                text = rule_docs[k].text;
        CHECK(text != NULL);
        char head[32];
        snprintf(head, sizeof head, "# %s: ", ids[i]);
        CHECK(strncmp(text, head, strlen(head)) == 0);
        const char *what = strstr(text, "\n## What\n"), *why = strstr(text, "\n## Why\n");
        const char *fix = strstr(text, "\n## Fix\n"), *ex = strstr(text, "\n## Example\n");
        CHECK(what && why && fix && ex);
        CHECK(what < why && why < fix && fix < ex);
    }
}
