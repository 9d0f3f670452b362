/* test_doctor_sysfs.c: reading system files under a fake root: "key value" and "Key: value"
 * parsing, capped reads, FIFOs, loops, and symlinks that must stay inside the root. */
#define _GNU_SOURCE 1
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena.h"
#include "harness.h"
#include "sysfs.h"

/* A scratch directory for one test (removed by the caller with rm_tree). */
static const char *scratch(char *buf, size_t n)
{
    snprintf(buf, n, "%s/hipport-sysfs-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    return mkdtemp(buf);
}

static void put(const char *root, const char *path, const char *text)
{
    char p[4096], dir[4096];
    snprintf(p, sizeof p, "%s%s", root, path);
    snprintf(dir, sizeof dir, "%s", p);
    for (char *s = dir + strlen(root) + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(dir, 0755);
            *s = '/';
        }
    FILE *f = fopen(p, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void link_at(const char *root, const char *path, const char *target)
{
    char p[4096];
    snprintf(p, sizeof p, "%s%s", root, path);
    if (symlink(target, p) != 0)
        perror(p);
}

static void rm_tree(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

TEST(doctor_props_parse)
{
    arena a;
    arena_init(&a, 1 << 16);
    static const char text[] = "simd_count 1216\nbad value\n  lds_size_in_kb   64  \n\n"
                               "unique_id 18446744073709551615\nhuge 18446744073709551616\n"
                               "neg -1\nkeyonly\n\x01\xff 3\ngfx_target_version 90402";
    sysfs_props p;
    CHECK_INT(sysfs_parse_props(&a, text, (ptrdiff_t)sizeof text - 1, &p), 4);
    unsigned long long v;
    CHECK(sysfs_prop(&p, "simd_count", &v) && v == 1216);
    CHECK(sysfs_prop(&p, "lds_size_in_kb", &v) && v == 64);
    CHECK(sysfs_prop(&p, "unique_id", &v) && v == 18446744073709551615ull);
    CHECK(!sysfs_prop(&p, "huge", &v));
    CHECK(!sysfs_prop(&p, "neg", &v));
    CHECK(sysfs_prop(&p, "gfx_target_version", &v) && v == 90402);
    CHECK(!sysfs_prop(&p, "missing", &v));
    CHECK_INT(sysfs_parse_props(&a, "", 0, &p), 0);
    arena_release(&a);
}

TEST(doctor_headers)
{
    arena a;
    arena_init(&a, 1 << 16);
    static const char info[] = "Model: \t\t NVIDIA H200\nIRQ:   \t\t 41\n\nBus Location: \t 0000:00:06.0\n";
    CHECK_STR(sysfs_header(&a, info, "Model", 0), "NVIDIA H200");
    CHECK_STR(sysfs_header(&a, info, "Bus Location", 0), "0000:00:06.0");
    CHECK(sysfs_header(&a, info, "Bus Location", 1) == NULL); /* after the empty line */
    CHECK(sysfs_header(&a, info, "Bus", 0) == NULL);
    static const char meta[] = "Name: torch\r\nVersion: 2.11.0\r\n\r\nVersion: 9\n";
    CHECK_STR(sysfs_header(&a, meta, "Version", 1), "2.11.0");
    arena_release(&a);
}

TEST(doctor_reads_capped)
{
    char buf[256];
    const char *root = scratch(buf, sizeof buf);
    CHECK(root != NULL);
    put(root, "/small", "hello\nworld\n");
    char *big = malloc((size_t)SYSFS_SMALL + 10);
    memset(big, 'x', (size_t)SYSFS_SMALL + 9);
    big[SYSFS_SMALL + 9] = 0;
    put(root, "/big", big);
    free(big);
    char fifo[512];
    snprintf(fifo, sizeof fifo, "%s/fifo", root);
    CHECK(mkfifo(fifo, 0644) == 0);
    link_at(root, "/loop1", "loop2");
    link_at(root, "/loop2", "/loop1");
    arena a;
    arena_init(&a, 1 << 16);
    sysfs s;
    sysfs_init(&s, &a, root);
    ptrdiff_t n;
    CHECK_STR(sysfs_read(&s, "/small", SYSFS_SMALL, &n), "hello\nworld\n");
    CHECK_INT(n, 12);
    CHECK_STR(sysfs_line(&s, "/small"), "hello");
    CHECK(sysfs_read(&s, "/missing", SYSFS_SMALL, &n) == NULL);
    CHECK_INT(s.nproblems, 0); /* a missing file is no problem */
    CHECK(sysfs_read(&s, "/big", SYSFS_SMALL, &n) == NULL);
    CHECK(sysfs_read(&s, "/fifo", SYSFS_SMALL, &n) == NULL); /* never blocks */
    CHECK(sysfs_read(&s, "/loop1", SYSFS_SMALL, &n) == NULL);
    CHECK(sysfs_read(&s, "/", SYSFS_SMALL, &n) == NULL);
    CHECK_INT(s.nproblems, 4);
    CHECK_STR(s.problems[0].path, "/big");
    CHECK(strstr(s.problems[1].message, "not a regular file") != NULL);
    CHECK(strstr(s.problems[2].message, "symlink loop") != NULL);
    CHECK(!sysfs_is_dir(&s, "/loop1"));
    CHECK(sysfs_exists(&s, "/loop1")); /* the link itself is there */
    arena_release(&a);
    rm_tree(root);
}

TEST(doctor_links_stay_inside_the_root)
{
    char buf[256];
    const char *root = scratch(buf, sizeof buf);
    CHECK(root != NULL);
    /* CUDA 13 on Debian and Ubuntu: /usr/local/cuda -> /etc/alternatives/cuda -> the release */
    put(root, "/usr/local/cuda-13.0/include/cuda.h", "#define CUDA_VERSION 13000\n");
    put(root, "/etc/alternatives/.keep", "");
    put(root, "/usr/local/.keep", "");
    link_at(root, "/etc/alternatives/cuda", "/usr/local/cuda-13.0");
    link_at(root, "/usr/local/cuda", "/etc/alternatives/cuda");
    /* a relative link that climbs above the root stops at the root */
    link_at(root, "/up", "../../../../../../../../etc");
    put(root, "/etc/hostname", "fake-host\n");
    arena a;
    arena_init(&a, 1 << 16);
    sysfs s;
    sysfs_init(&s, &a, root);
    CHECK_STR(sysfs_line(&s, "/usr/local/cuda/include/cuda.h"), "#define CUDA_VERSION 13000");
    CHECK_STR(sysfs_realpath(&s, "/usr/local/cuda"), "/usr/local/cuda-13.0");
    CHECK_STR(sysfs_line(&s, "/up/hostname"), "fake-host");
    CHECK(!sysfs_is_file(&s, "/up/passwd")); /* the host's /etc/passwd is not seen */
    CHECK_STR(sysfs_link_base(&s, "/usr/local/cuda"), "cuda");
    CHECK(sysfs_is_dir(&s, "/usr/local/cuda/include"));
    os_dirent *ents;
    ptrdiff_t ne;
    sysfs_list(&s, "/usr/local/cuda", &ents, &ne);
    CHECK_INT(ne, 1);
    CHECK_STR(ents[0].name, "include");
    CHECK_INT(s.nproblems, 0);
    arena_release(&a);
    rm_tree(root);
}

TEST(doctor_kfd_nodes_in_numeric_order)
{
    char buf[256];
    const char *root = scratch(buf, sizeof buf);
    CHECK(root != NULL);
    static const char *const nodes[] = {"0", "2", "10", "9"};
    for (int i = 0; i < 4; i++) {
        char p[256], t[256];
        snprintf(p, sizeof p, "/sys/class/kfd/kfd/topology/nodes/%s/properties", nodes[i]);
        snprintf(t, sizeof t, "simd_count %d\ngfx_target_version 90402\n", i ? 4 : 0);
        put(root, p, t);
    }
    put(root, "/sys/class/kfd/kfd/topology/nodes/10/mem_banks/0/properties",
        "heap_type 1\nsize_in_bytes 1024\n");
    put(root, "/sys/class/kfd/kfd/topology/nodes/10/mem_banks/1/properties",
        "heap_type 0\nsize_in_bytes 4096\n");
    arena a;
    arena_init(&a, 1 << 16);
    sysfs s;
    sysfs_init(&s, &a, root);
    sysfs_kfd_node *v;
    int n, present;
    sysfs_kfd_gpus(&s, &v, &n, &present);
    CHECK(present);
    CHECK_INT(n, 3); /* node 0 is a CPU */
    CHECK_INT(v[0].node, 2);
    CHECK_INT(v[1].node, 9);
    CHECK_INT(v[2].node, 10);
    CHECK_INT(v[2].vram_bytes, 1024); /* system memory heaps do not count */
    arena_release(&a);
    rm_tree(root);
}
