/* test_targets_ccob.c: compressed offload bundles (CCOB v1, v2, v3 with zlib and zstd) that
 * the tests write themselves with the codecs hipport loads, and damaged variants of them. */
#include <stdio.h>

#include "arena.h"
#include "codec.h"
#include "harness.h"
#include "targets_build.h"

static const char want2[] = "amd:gfx90a:xnack+:code-object:z amd:gfx942:code-object:z";

static void plain_bundle(bb *out)
{
    bb co1 = {0}, co2 = {0};
    bb_elf_header(&co1, 224, 64, 3, 0x33f, 3);
    bb_elf_header(&co2, 224, 64, 3, 0x54c, 3);
    bb_zero(&co2, 3000); /* something worth compressing */
    bb_entry e[] = {
        {"host-x86_64-unknown-linux--", "", 0},
        {"hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+", co1.p, co1.len},
        {"hipv4-amdgcn-amd-amdhsa--gfx942", co2.p, co2.len},
    };
    bb_bundle(out, e, 3);
    bb_free(&co1);
    bb_free(&co2);
}

/* Appends a CCOB of the given version and method holding data; raw_delta skews the
 * uncompressed size in the header, total_delta the total size (v2/v3). Returns 0 when the
 * codec is missing here. */
static int ccob(bb *out, unsigned version, unsigned method, const void *data, size_t n,
                int64_t raw_delta, int64_t total_delta)
{
    arena a;
    arena_init(&a, 1 << 16);
    unsigned char *z = NULL;
    size_t zlen = 0;
    if (codec_compress(&a, method ? CODEC_ZSTD : CODEC_ZLIB, data, n, &z, &zlen) != CODEC_OK) {
        arena_release(&a);
        return 0;
    }
    size_t hdr = version == 1 ? 20 : version == 2 ? 24 : 32;
    uint64_t raw = (uint64_t)((int64_t)n + raw_delta);
    uint64_t total = (uint64_t)((int64_t)(hdr + zlen) + total_delta);
    bb_str(out, "CCOB");
    bb_int(out, version, 2);
    bb_int(out, method, 2);
    if (version == 1) {
        bb_int(out, raw, 4);
    } else if (version == 2) {
        bb_int(out, total, 4);
        bb_int(out, raw, 4);
    } else {
        bb_int(out, total, 8);
        bb_int(out, raw, 8);
    }
    bb_int(out, 0x1122334455667788u, 8); /* hash: not checked */
    bb_bytes(out, z, zlen);
    arena_release(&a);
    return 1;
}

TEST(targets_ccob_versions_and_methods)
{
    bb plain = {0};
    plain_bundle(&plain);
    for (unsigned version = 1; version <= 3; version++) {
        for (unsigned method = 0; method <= 1; method++) {
            bb b = {0};
            if (!ccob(&b, version, method, plain.p, plain.len, 0, 0)) {
                fprintf(stderr, "note: %s is not available; CCOB %u/%u not tested\n",
                        method ? "libzstd.so.1" : "libz.so.1", version, method);
                continue;
            }
            scanned s;
            scan_bytes(&s, b.p, b.len);
            CHECK_INT(s.st, HP_OK);
            CHECK_STR(s.r.format, "compressed-offload-bundle");
            CHECK_STR(s.pieces, want2);
            CHECK_STR(s.r.code[0].compression, method ? "zstd" : "zlib");
            CHECK_STR(s.notes, "");
            scan_done(&s);
            bb_free(&b);
        }
    }
    bb_free(&plain);
}

/* Several compressed bundles in one .hip_fatbin: v2/v3 are stepped over by their total size,
 * v1 by looking for the next magic (after zero padding). */
TEST(targets_ccob_back_to_back)
{
    bb plain = {0};
    plain_bundle(&plain);
    for (unsigned version = 1; version <= 3; version++) {
        for (unsigned method = 0; method <= 1; method++) {
            bb sec = {0};
            if (!ccob(&sec, version, method, plain.p, plain.len, 0, 0))
                continue;
            while (sec.len % 4096)
                bb_zero(&sec, 1);
            ccob(&sec, version, method, plain.p, plain.len, 0, 0);
            bb_zero(&sec, 100);
            bb_section secs[] = {{".hip_fatbin", 0, sec.p, sec.len}};
            bb b = {0};
            bb_elf_host(&b, 1, 0, secs, 1);
            scanned s;
            scan_bytes(&s, b.p, b.len);
            CHECK_INT(s.r.ncode, 4);
            CHECK_STR(s.notes, "");
            CHECK(strstr(s.r.code[2].where, "@0x1000") != NULL);
            scan_done(&s);
            bb_free(&b);
            bb_free(&sec);
        }
    }
    bb_free(&plain);
}

TEST(targets_ccob_damaged)
{
    bb plain = {0};
    plain_bundle(&plain);
    if (!codec_available(CODEC_ZSTD) || !codec_available(CODEC_ZLIB)) {
        fprintf(stderr, "note: zlib or zstd missing; damaged CCOB cases not tested\n");
        bb_free(&plain);
        return;
    }
    scanned s;
    bb b = {0};
    /* truncated: the header promises more than is there */
    ccob(&b, 2, 1, plain.p, plain.len, 0, 0);
    scan_bytes(&s, b.p, b.len - 10);
    CHECK_STR(s.pieces, "amd:unknown:code-object:z:?");
    CHECK_STR(s.notes, "EE");
    scan_done(&s);
    /* the same cut in a v1 file: there is no size to check, the data is corrupt */
    bb_free(&b);
    ccob(&b, 1, 0, plain.p, plain.len, 0, 0);
    scan_bytes(&s, b.p, b.len - 10);
    CHECK_STR(s.pieces, "amd:unknown:code-object:z:?");
    CHECK_STR(s.notes, "E");
    scan_done(&s);
    /* uncompressed size off by one either way */
    for (int d = -1; d <= 1; d += 2) {
        for (unsigned m = 0; m <= 1; m++) {
            bb_free(&b);
            ccob(&b, 3, m, plain.p, plain.len, d, 0);
            scan_bytes(&s, b.p, b.len);
            CHECK_STR(s.pieces, "amd:unknown:code-object:z:?");
            CHECK_STR(s.notes, "E");
            CHECK(strstr(s.r.notes[0].message, "size differs") != NULL);
            scan_done(&s);
        }
    }
    /* corrupt compressed data */
    bb_free(&b);
    ccob(&b, 2, 1, plain.p, plain.len, 0, 0);
    memset(b.p + 40, 0x55, 16);
    scan_bytes(&s, b.p, b.len);
    CHECK_STR(s.pieces, "amd:unknown:code-object:z:?");
    CHECK_STR(s.notes, "E");
    scan_done(&s);
    /* unknown method, unknown version */
    bb_free(&b);
    ccob(&b, 2, 1, plain.p, plain.len, 0, 0);
    b.p[6] = 9;
    scan_bytes(&s, b.p, b.len);
    CHECK_STR(s.pieces, "amd:unknown:code-object:z:?");
    CHECK_STR(s.notes, "E");
    scan_done(&s);
    b.p[6] = 1;
    b.p[4] = 7;
    scan_bytes(&s, b.p, b.len);
    CHECK_STR(s.pieces, "amd:unknown:code-object:z:?");
    CHECK_STR(s.notes, "E");
    scan_done(&s);
    /* a claim of 4 GiB uncompressed from a few hundred bytes: refused, nothing allocated */
    bb_free(&b);
    ccob(&b, 3, 1, plain.p, plain.len, 0, 0);
    bb_set(&b, 16, (uint64_t)4 << 30, 8, 0);
    scan_bytes(&s, b.p, b.len);
    CHECK_STR(s.pieces, "amd:unknown:code-object:z:?");
    CHECK(strstr(s.r.notes[0].message, "over the limit") != NULL);
    /* the verdict says why the code was not read: its size, not a missing library */
    const char *reason = NULL;
    CHECK_INT(hp_targets_match(s.ctx, &s.r, "gfx942", &reason), HP_VERDICT_UNKNOWN);
    CHECK(reason && strstr(reason, "over the size limit") != NULL);
    scan_done(&s);
    /* total size smaller than the header */
    bb_set(&b, 16, plain.len, 8, 0);
    bb_set(&b, 8, 3, 8, 0);
    scan_bytes(&s, b.p, b.len);
    CHECK_STR(s.notes, "E");
    scan_done(&s);
    /* data that decompresses to something other than a bundle */
    bb_free(&b);
    ccob(&b, 2, 0, "just some text, not a bundle at all", 35, 0, 0);
    scan_bytes(&s, b.p, b.len);
    CHECK_STR(s.pieces, "amd:unknown:code-object:z:?");
    CHECK_STR(s.notes, "E");
    scan_done(&s);
    /* a header cut short */
    scan_bytes(&s, "CCOB\x02\x00", 6);
    CHECK_STR(s.notes, "E");
    scan_done(&s);
    bb_free(&b);
    bb_free(&plain);
}

TEST(targets_ccob_codec_missing)
{
    bb plain = {0};
    plain_bundle(&plain);
    bb b = {0};
    if (!ccob(&b, 2, 1, plain.p, plain.len, 0, 0)) {
        bb_free(&plain);
        return;
    }
    codec_pretend_missing(1);
    scanned s;
    scan_bytes(&s, b.p, b.len);
    codec_pretend_missing(0);
    CHECK_INT(s.st, HP_OK);
    CHECK_STR(s.pieces, "amd:unknown:code-object:z:?");
    CHECK_STR(s.notes, "W");
    CHECK(strstr(s.r.notes[0].message, "libzstd.so.1") != NULL);
    const char *why = NULL;
    CHECK_INT(hp_targets_match(s.ctx, &s.r, "gfx942", &why), HP_VERDICT_UNKNOWN);
    scan_done(&s);
    bb_free(&b);
    bb_free(&plain);
}

/* The real bundle of a fixture, compressed by the test as every CCOB version and method,
 * lists the same targets as the plain file. */
TEST(targets_ccob_from_fixture)
{
    FILE *f = fopen("tests/targets/fixtures/amd-bundle.hipfb", "rb");
    CHECK(f != NULL);
    bb plain = {0};
    char tmp[4096];
    size_t n;
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
        bb_bytes(&plain, tmp, n);
    fclose(f);
    scanned p;
    scan_bytes(&p, plain.p, plain.len);
    CHECK_STR(p.pieces, "amd:gfx90a:xnack+:code-object amd:gfx942:code-object");
    scan_done(&p);
    for (unsigned version = 1; version <= 3; version++) {
        for (unsigned method = 0; method <= 1; method++) {
            bb b = {0};
            if (!ccob(&b, version, method, plain.p, plain.len, 0, 0))
                continue;
            scanned s;
            scan_bytes(&s, b.p, b.len);
            CHECK_STR(s.pieces, "amd:gfx90a:xnack+:code-object:z amd:gfx942:code-object:z");
            CHECK_STR(s.r.code[1].detail, "code object v5");
            scan_done(&s);
            /* and every truncation of it is reported, never crashes */
            for (size_t cut = 0; cut < b.len; cut += 37) {
                scan_bytes(&s, b.p, cut);
                CHECK(cut == 0 ? s.st == HP_EFORMAT : s.st == HP_OK);
                CHECK(cut == 0 || s.r.nnotes > 0);
                scan_done(&s);
            }
            bb_free(&b);
        }
    }
    bb_free(&plain);
}
