/* test_targets_malformed.c: hipport targets on damaged and hostile input: offsets and counts
 * that overflow, truncation at every length, and byte flips in real fixtures. Nothing may
 * read outside the buffer (the sanitizer build checks that) or loop without end. */
#include <stdio.h>

#include "harness.h"
#include "targets_build.h"

static int read_fixture(const char *name, bb *out)
{
    char path[256];
    snprintf(path, sizeof path, "tests/targets/fixtures/%s", name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char tmp[4096];
    size_t n;
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
        bb_bytes(out, tmp, n);
    fclose(f);
    return 1;
}

static const char *const fixtures[] = {
    "amd-obj.o",          "amd-rdc.o",       "amd-newdriver-rdc.o", "amd-lib.a",
    "amd-bundle.hipfb",   "amd-bundle-zstd.hipfb", "amd-gfx942.hsaco", "nv-multi.fatbin",
    "nv-obj.o",           "nv-rdc.o",        "nv-sm90a.cubin",      "amd-exe-compressed",
};

TEST(targets_fixtures_truncated_everywhere)
{
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        bb b = {0};
        CHECK(read_fixture(fixtures[i], &b));
        size_t step = b.len / 300 + 1;
        for (size_t cut = 0; cut < b.len; cut += step) {
            scanned s;
            scan_bytes(&s, b.p, cut);
            CHECK(s.st == HP_OK || s.st == HP_EFORMAT);
            if (s.st != HP_OK)
                CHECK(s.r.nnotes == 1 && s.r.notes[0].message && s.r.ncode == 0);
            scan_done(&s);
        }
        bb_free(&b);
    }
}

/* Deterministic byte flips: a small fuzzer that runs in every test run. */
TEST(targets_fixtures_mutated)
{
    unsigned long long x = 88172645463325252ull;
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        bb b = {0};
        CHECK(read_fixture(fixtures[i], &b));
        bb m = {0};
        bb_bytes(&m, b.p, b.len);
        for (int round = 0; round < 150; round++) {
            memcpy(m.p, b.p, b.len);
            for (int k = 0; k < 1 + round % 8; k++) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                size_t at = (size_t)(x % b.len);
                /* favour the first bytes, where the headers are */
                if (k & 1)
                    at %= b.len < 512 ? b.len : 512;
                m.p[at] = (unsigned char)(x >> 40);
            }
            scanned s;
            scan_bytes(&s, m.p, m.len);
            CHECK(s.st == HP_OK || s.st == HP_EFORMAT);
            scan_done(&s);
        }
        bb_free(&m);
        bb_free(&b);
    }
}

TEST(targets_elf_hostile_headers)
{
    bb_section secs[] = {{".hip_fatbin", 0, "__CLANG_OFFLOAD_BUNDLE__", 24}};
    bb b = {0};
    bb_elf_host(&b, 1, 0, secs, 1);
    size_t shoff = (size_t)(b.p[40] | (unsigned)b.p[41] << 8);
    scanned s;
    /* section table offset past the end, or so large that adding to it overflows */
    uint64_t offs[] = {b.len, b.len + 1, UINT64_MAX - 8, UINT64_MAX};
    for (size_t i = 0; i < 4; i++) {
        bb c = {0};
        bb_bytes(&c, b.p, b.len);
        bb_set(&c, 40, offs[i], 8, 0);
        scan_bytes(&s, c.p, c.len);
        CHECK_INT(s.st, HP_EFORMAT);
        scan_done(&s);
        bb_free(&c);
    }
    /* a section count far beyond the file: cut to what fits, and said */
    bb c = {0};
    bb_bytes(&c, b.p, b.len);
    bb_set(&c, 60, 0xfff0, 2, 0);
    scan_bytes(&s, c.p, c.len);
    CHECK_INT(s.st, HP_OK);
    CHECK(strchr(s.notes, 'E') != NULL);
    scan_done(&s);
    /* section entry size too small */
    memcpy(c.p, b.p, b.len);
    bb_set(&c, 58, 8, 2, 0);
    scan_bytes(&s, c.p, c.len);
    CHECK_INT(s.st, HP_EFORMAT);
    scan_done(&s);
    /* the .hip_fatbin section's offset + size overflow: section 1 is the first after null */
    memcpy(c.p, b.p, b.len);
    bb_set(&c, shoff + 64 + 24, UINT64_MAX - 4, 8, 0);
    bb_set(&c, shoff + 64 + 32, 16, 8, 0);
    scan_bytes(&s, c.p, c.len);
    CHECK_INT(s.st, HP_OK);
    CHECK_STR(s.notes, "E");
    scan_done(&s);
    /* name offset outside the string table: the section has no name, nothing is found */
    memcpy(c.p, b.p, b.len);
    bb_set(&c, shoff + 64, 0xffffffff, 4, 0);
    scan_bytes(&s, c.p, c.len);
    CHECK_INT(s.st, HP_OK);
    CHECK_INT(s.r.ncode, 0);
    scan_done(&s);
    /* extended numbering: e_shnum 0, the count in section 0's sh_size */
    memcpy(c.p, b.p, b.len);
    bb_set(&c, 60, 0, 2, 0);
    bb_set(&c, shoff + 32, 3, 8, 0);
    scan_bytes(&s, c.p, c.len);
    CHECK_INT(s.st, HP_OK);
    CHECK_STR(s.notes, "E"); /* the bundle in .hip_fatbin is truncated */
    scan_done(&s);
    /* bad class, bad byte order, header cut */
    memcpy(c.p, b.p, b.len);
    c.p[4] = 3;
    scan_bytes(&s, c.p, c.len);
    CHECK_INT(s.st, HP_EFORMAT);
    scan_done(&s);
    c.p[4] = 2;
    c.p[5] = 0;
    scan_bytes(&s, c.p, c.len);
    CHECK_INT(s.st, HP_EFORMAT);
    scan_done(&s);
    scan_bytes(&s, b.p, 40);
    CHECK_INT(s.st, HP_EFORMAT);
    scan_done(&s);
    bb_free(&c);
    bb_free(&b);
}

TEST(targets_bundle_hostile_counts)
{
    scanned s;
    bb b = {0};
    /* 2^63 entries announced, none there */
    bb_str(&b, "__CLANG_OFFLOAD_BUNDLE__");
    bb_int(&b, (uint64_t)1 << 63, 8);
    scan_bytes(&s, b.p, b.len);
    CHECK_INT(s.st, HP_OK);
    CHECK_STR(s.notes, "E");
    scan_done(&s);
    /* an entry whose offset + size wraps around */
    bb_free(&b);
    bb_str(&b, "__CLANG_OFFLOAD_BUNDLE__");
    bb_int(&b, 1, 8);
    bb_int(&b, UINT64_MAX - 2, 8);
    bb_int(&b, 16, 8);
    bb_int(&b, 31, 8);
    bb_str(&b, "hipv4-amdgcn-amd-amdhsa--gfx942");
    scan_bytes(&s, b.p, b.len);
    CHECK_STR(s.pieces, "amd:gfx942:code-object");
    CHECK_STR(s.notes, "E");
    scan_done(&s);
    /* an ID length past the end, and a huge one */
    bb_set(&b, 48, 32, 8, 0);
    scan_bytes(&s, b.p, b.len);
    CHECK_INT(s.r.ncode, 0);
    CHECK_STR(s.notes, "E");
    scan_done(&s);
    bb_set(&b, 48, UINT64_MAX, 8, 0);
    scan_bytes(&s, b.p, b.len);
    CHECK_STR(s.notes, "E");
    scan_done(&s);
    /* just the magic */
    scan_bytes(&s, "__CLANG_OFFLOAD_BUNDLE__\x01", 25);
    CHECK_STR(s.notes, "E");
    scan_done(&s);
    bb_free(&b);
}

TEST(targets_archive_hostile)
{
    scanned s;
    static const char *const bad[] = {
        "!<arch>\nx.o/            0           0     0     644     12x       `\nabc",
        "!<arch>\nx.o/            0           0     0     644     99999999999999999999\nabc",
        "!<arch>\nx.o/            0           0     0     644     1000      `\nabc",
        "!<arch>\nx.o/            0           0     0     644     4         XX\nabcd",
        "!<arch>\n/99             0           0     0     644     4         `\nabcd",
        "!<arch>\n#1/9999         0           0     0     644     4         `\nabcd",
        "!<arch>\nshort",
        "!<arch>\n",
    };
    static const char *const notes[] = {"E", "E", "E", "E", "W", "E", "E", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        scan_bytes(&s, bad[i], strlen(bad[i]));
        CHECK_INT(s.st, HP_OK);
        CHECK_STR(s.notes, notes[i]);
        scan_done(&s);
    }
    scan_bytes(&s, "!<thin>\n", 8);
    CHECK_INT(s.st, HP_EFORMAT);
    scan_done(&s);
}

TEST(targets_fatbin_hostile)
{
    scanned s;
    bb b = {0};
    bb_fatbin_open(&b);
    bb_fatbin_entry(&b, 2, 80, 0, 8);
    bb_fatbin_close(&b, 0);
    bb c = {0};
    bb_bytes(&c, b.p, b.len);
    /* container header size 0, entry header size 0, an entry size that wraps */
    bb_set(&c, 6, 0, 2, 0);
    scan_bytes(&s, c.p, c.len);
    CHECK_STR(s.notes, "E");
    scan_done(&s);
    memcpy(c.p, b.p, b.len);
    bb_set(&c, 16 + 4, 0, 4, 0);
    scan_bytes(&s, c.p, c.len);
    CHECK_STR(s.notes, "E");
    scan_done(&s);
    memcpy(c.p, b.p, b.len);
    bb_set(&c, 16 + 8, UINT64_MAX - 32, 8, 0);
    scan_bytes(&s, c.p, c.len);
    CHECK_STR(s.pieces, "nvidia:sm_80:sass");
    CHECK_STR(s.notes, "E");
    scan_done(&s);
    memcpy(c.p, b.p, b.len);
    bb_set(&c, 8, UINT64_MAX, 8, 0);
    scan_bytes(&s, c.p, c.len);
    CHECK_STR(s.notes, "E");
    scan_done(&s);
    /* an unknown entry kind is skipped with a note */
    memcpy(c.p, b.p, b.len);
    bb_set(&c, 16, 7, 2, 0);
    scan_bytes(&s, c.p, c.len);
    CHECK_INT(s.r.ncode, 0);
    CHECK_STR(s.notes, "N");
    scan_done(&s);
    bb_free(&c);
    bb_free(&b);
}

TEST(targets_offbin_hostile)
{
    scanned s;
    bb b = {0};
    bb_bytes(&b, "\x10\xff\x10\xad", 4);
    bb_int(&b, 2, 4);
    bb_int(&b, 64, 8);                  /* size */
    bb_int(&b, 32, 8);                  /* entries at 32 */
    bb_int(&b, (uint64_t)1 << 62, 8);   /* 2^62 entries */
    bb_zero(&b, 32);
    scan_bytes(&s, b.p, b.len);
    CHECK_INT(s.st, HP_OK);
    CHECK_STR(s.notes, "E");
    scan_done(&s);
    /* strings and image outside, strings without their NUL */
    bb_set(&b, 24, 1, 8, 0);
    bb_set(&b, 32, 1, 2, 0);
    bb_set(&b, 40, 1000, 8, 0);       /* string table outside */
    bb_set(&b, 48, UINT64_MAX, 8, 0); /* string count */
    bb_set(&b, 56, UINT64_MAX - 1, 8, 0);
    bb_set(&b, 64, 16, 8, 0);
    bb_set(&b, 8, 72, 8, 0);
    bb_zero(&b, 8);
    scan_bytes(&s, b.p, b.len);
    CHECK_INT(s.st, HP_OK);
    CHECK_INT(s.r.ncode, 0); /* no triple: not a GPU entry */
    scan_done(&s);
    /* size smaller than a header, size past the end, unknown version */
    bb_set(&b, 8, 8, 8, 0);
    scan_bytes(&s, b.p, b.len);
    CHECK_STR(s.notes, "E");
    scan_done(&s);
    bb_set(&b, 8, 1 << 20, 8, 0);
    scan_bytes(&s, b.p, b.len);
    CHECK(strchr(s.notes, 'E') != NULL);
    scan_done(&s);
    bb_set(&b, 8, 72, 8, 0);
    bb_set(&b, 4, 99, 4, 0);
    scan_bytes(&s, b.p, b.len);
    CHECK_STR(s.notes, "W");
    scan_done(&s);
    bb_free(&b);
}

TEST(targets_not_binaries)
{
    scanned s;
    scan_bytes(&s, "", 0);
    CHECK_INT(s.st, HP_EFORMAT);
    CHECK_STR(s.r.notes[0].message, "empty file");
    scan_done(&s);
    scan_bytes(&s, "#include <cuda.h>\n", 18);
    CHECK_INT(s.st, HP_EFORMAT);
    CHECK(s.r.format == NULL && s.r.nnotes == 1);
    scan_done(&s);
    scan_bytes(&s, "\x7f" "EL", 3);
    CHECK_INT(s.st, HP_EFORMAT);
    scan_done(&s);
    hp_ctx *ctx = hp_ctx_new();
    hp_targets_result r;
    CHECK_INT(hp_targets_scan_file(ctx, "tests/targets/no-such-file", &r), HP_EIO);
    CHECK(r.nnotes == 1 && strstr(r.notes[0].message, "cannot open") != NULL);
    CHECK_INT(hp_targets_scan_file(ctx, "tests/targets", &r), HP_EIO);
    CHECK_STR(r.notes[0].message, "is a directory");
    CHECK_INT(hp_targets_scan_file(ctx, "tests/targets/fixtures/nv-sm80.cubin", &r), HP_OK);
    CHECK_STR(r.code[0].target, "sm_80");
    hp_ctx_free(ctx);
}
