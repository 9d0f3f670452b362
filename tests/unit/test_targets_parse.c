/* test_targets_parse.c: hipport targets' readers on well-formed input built in memory: ELF
 * hosts of both classes and byte orders, archives, offload bundles, offloading binaries,
 * NVIDIA fatbins, code objects and cubins. */
#include <stdio.h>

#include "amdgpu.h"
#include "harness.h"
#include "str.h"
#include "targets_build.h"

/* An AMDGPU code object: EF_AMDGPU_MACH plus feature bits, code object v5. */
static void amd_co(bb *b, uint32_t flags)
{
    bb_elf_header(b, 224, 64, 3, flags, 3);
}

TEST(targets_amdgpu_eflags)
{
    static const struct {
        unsigned osabi, abiv;
        uint32_t flags;
        const char *want;
        int cov;
    } cases[] = {
        {64, 3, 0x54c, "gfx942", 5},                  /* any, any */
        {64, 3, 0x53f, "gfx90a", 5},
        {64, 3, 0x73f, "gfx90a:xnack+", 5},  /* xnack bits 0x300: on */
        {64, 3, 0x63f, "gfx90a:xnack-", 5},
        {64, 3, 0x33f, "gfx90a:xnack+", 5},
        {64, 2, 0xe30, "gfx908:sramecc+:xnack-", 4},   /* sramecc on, xnack off */
        {64, 2, 0x930, "gfx908:sramecc-", 4},          /* sramecc off, xnack any */
        {64, 3, 0x41, "gfx1100", 5},                   /* unsupported features */
        {64, 4, 0x01000054, "gfx11-generic", 6},
        {64, 1, 0x13f, "gfx90a:sramecc-:xnack+", 3}, /* v3: set = on, clear = off */
        {64, 1, 0x22f, "gfx906:sramecc+:xnack-", 3},
        {64, 1, 0x36, "gfx1030", 3},
        {64, 3, 0x5f, "gfx9-4-generic", 5},
        {64, 3, 0x4f, "gfx950", 5},
        {65, 0, 0x41, "gfx1100", 0},                   /* PAL: no features decoded */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[96];
        int cov = -1;
        CHECK(amdgpu_elf_target(cases[i].osabi, cases[i].abiv, cases[i].flags, buf, sizeof buf,
                                &cov));
        CHECK_STR(buf, cases[i].want);
        CHECK_INT(cov, cases[i].cov);
    }
    char buf[32];
    int cov;
    CHECK(!amdgpu_elf_target(64, 3, 0x27, buf, sizeof buf, &cov)); /* reserved value */
    CHECK_STR(buf, "unknown-mach-0x27");
    CHECK(!amdgpu_elf_target(64, 3, 0xff, buf, sizeof buf, &cov));
    CHECK_STR(buf, "unknown-mach-0xff");
    CHECK(amdgpu_mach_name(0x1f) == NULL);
    CHECK(!amdgpu_elf_target(64, 0, 0x2c, buf, sizeof buf, &cov)); /* v2: see the note */
    CHECK_INT(cov, 2);
}

/* Code object v2: the processor comes from the "AMD" ISA note, xnack from e_flags bit 0. */
TEST(targets_code_object_v2)
{
    bb note = {0};
    bb_int(&note, 4, 4);
    bb_int(&note, 27, 4);
    bb_int(&note, 3, 4);
    bb_bytes(&note, "AMD", 4);
    bb_int(&note, 4, 2);
    bb_int(&note, 7, 2);
    bb_int(&note, 9, 4);
    bb_int(&note, 0, 4);
    bb_int(&note, 6, 4);
    bb_bytes(&note, "AMD\0AMDGPU", 11);
    bb_align(&note, 4);
    bb_section sec[] = {{".note", 7, note.p, note.len}};
    bb b = {0};
    bb_elf_host(&b, 1, 0, sec, 1);
    bb_set(&b, 18, 224, 2, 0);
    b.p[7] = 64;
    b.p[8] = 0;
    bb_set(&b, 48, 1, 4, 0);
    scanned s;
    scan_bytes(&s, b.p, b.len);
    CHECK_STR(s.pieces, "amd:gfx906:xnack+:code-object");
    CHECK_STR(s.r.code[0].detail, "code object v2");
    scan_done(&s);
    bb_set(&b, 48, 0, 4, 0);
    scan_bytes(&s, b.p, b.len);
    CHECK_STR(s.pieces, "amd:gfx906:xnack-:code-object");
    scan_done(&s);
    /* without the note: unknown, with a warning */
    bb c = {0};
    bb_elf_header(&c, 224, 64, 0, 0x2c, 3);
    scan_bytes(&s, c.p, c.len);
    CHECK_STR(s.pieces, "amd:unknown:code-object");
    CHECK_STR(s.notes, "W");
    scan_done(&s);
    bb_free(&c);
    bb_free(&b);
    bb_free(&note);
}

TEST(targets_amdgpu_tid_parse)
{
    amdgpu_tid t;
    amdgpu_tid_parse(str_cstr("gfx90a:sramecc+:xnack-"), &t);
    CHECK(!t.bad && t.sramecc == AMD_FEAT_ON && t.xnack == AMD_FEAT_OFF);
    CHECK(str_eqc(t.proc, "gfx90a"));
    amdgpu_tid_parse(str_cstr("gfx942"), &t);
    CHECK(!t.bad && t.sramecc == AMD_FEAT_ANY && t.xnack == AMD_FEAT_ANY);
    amdgpu_tid_parse(str_cstr("gfx942:xnack"), &t);
    CHECK(t.bad);
    amdgpu_tid_parse(str_cstr("gfx942:xnack+:xnack-"), &t);
    CHECK(t.bad);
    amdgpu_tid_parse(str_cstr("gfx942:foo+"), &t);
    CHECK(t.bad);
    amdgpu_tid_parse(str_cstr(":xnack+"), &t);
    CHECK(t.bad);
    CHECK(amdgpu_generic_covers(str_cstr("gfx11-generic"), str_cstr("gfx1151")));
    CHECK(!amdgpu_generic_covers(str_cstr("gfx11-generic"), str_cstr("gfx1030")));
    CHECK(amdgpu_generic_covers(str_cstr("gfx9-4-generic"), str_cstr("gfx942")));
    CHECK(!amdgpu_generic_covers(str_cstr("gfx9-generic"), str_cstr("gfx90a")));
    CHECK(!amdgpu_generic_covers(str_cstr("gfx9-generic"), str_cstr("gfx908")));
}

TEST(targets_bare_code_object)
{
    bb b = {0};
    amd_co(&b, 0x33f);
    scanned s;
    scan_bytes(&s, b.p, b.len);
    CHECK_INT(s.st, HP_OK);
    CHECK_STR(s.r.format, "amdgpu-code-object");
    CHECK_STR(s.pieces, "amd:gfx90a:xnack+:code-object");
    CHECK_STR(s.notes, "");
    scan_done(&s);
    bb_free(&b);
    /* a PAL code object is listed with a note that HIP cannot load it */
    bb_elf_header(&b, 224, 65, 0, 0x41, 3);
    scan_bytes(&s, b.p, b.len);
    CHECK_STR(s.pieces, "amd:gfx1100:code-object");
    CHECK_STR(s.notes, "N");
    scan_done(&s);
    bb_free(&b);
}

TEST(targets_cubin_eflags)
{
    bb b = {0};
    scanned s;
    bb_elf_header(&b, 190, 0x41, 8, 0x06005a04, 2); /* CUDA 13: SM in bits 8-15 */
    scan_bytes(&s, b.p, b.len);
    CHECK_STR(s.r.format, "cubin");
    CHECK_STR(s.pieces, "nvidia:sm_90:sass");
    scan_done(&s);
    bb_free(&b);
    bb_elf_header(&b, 190, 0x33, 7, 0x5a | 0x400 | 0x800, 2); /* ABI 7: SM low, 0x800 'a' */
    scan_bytes(&s, b.p, b.len);
    CHECK_STR(s.pieces, "nvidia:sm_90a:sass");
    scan_done(&s);
    bb_free(&b);
    bb_elf_header(&b, 190, 0x33, 7, 0x50 | 0x400, 1);
    scan_bytes(&s, b.p, b.len);
    CHECK_STR(s.pieces, "nvidia:sm_80:sass");
    scan_done(&s);
    bb_free(&b);
}

/* A cubin whose arch-specific suffix shows only in .note.nv.tkinfo. */
TEST(targets_cubin_tkinfo)
{
    bb note = {0};
    bb_int(&note, 12, 4);
    bb_int(&note, 40, 4);
    bb_int(&note, 2000, 4);
    bb_bytes(&note, "NVIDIA Corp\0", 12);
    bb_bytes(&note, "\0\0\0\0ptxas\0-arch sm_100f -m 64 \0\0\0\0\0\0\0\0\0\0\0\0", 40);
    bb_section sec[] = {{".note.nv.tkinfo", 7, note.p, note.len}};
    bb b = {0};
    bb_elf_host(&b, 1, 0, sec, 1);
    bb_set(&b, 18, 190, 2, 0);
    b.p[7] = 0x41;
    b.p[8] = 8;
    bb_set(&b, 48, 0x06006402, 4, 0);
    scanned s;
    scan_bytes(&s, b.p, b.len);
    CHECK_STR(s.pieces, "nvidia:sm_100f:sass");
    scan_done(&s);
    /* a note naming another SM is not believed */
    bb_set(&b, 48, 0x06005a02, 4, 0);
    scan_bytes(&s, b.p, b.len);
    CHECK_STR(s.pieces, "nvidia:sm_90:sass");
    scan_done(&s);
    bb_free(&b);
    bb_free(&note);
}

static void two_entry_bundle(bb *out)
{
    bb co1 = {0}, co2 = {0};
    amd_co(&co1, 0x33f);
    amd_co(&co2, 0x54c);
    bb_entry e[] = {
        {"host-x86_64-unknown-linux--", "", 0},
        {"hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+", co1.p, co1.len},
        {"hipv4-amdgcn-amd-amdhsa--gfx942", co2.p, co2.len},
    };
    bb_bundle(out, e, 3);
    bb_free(&co1);
    bb_free(&co2);
}

TEST(targets_bundle_plain)
{
    bb b = {0};
    two_entry_bundle(&b);
    scanned s;
    scan_bytes(&s, b.p, b.len);
    CHECK_INT(s.st, HP_OK);
    CHECK_STR(s.r.format, "offload-bundle");
    CHECK_STR(s.pieces, "amd:gfx90a:xnack+:code-object amd:gfx942:code-object");
    CHECK_STR(s.r.code[0].id, "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+");
    CHECK_STR(s.r.code[1].detail, "code object v5");
    CHECK_STR(s.notes, "");
    scan_done(&s);
    bb_free(&b);
}

TEST(targets_bundle_ids)
{
    static const char bc[] = "BC\xc0\xde....";
    bb co = {0};
    amd_co(&co, 0x41);
    bb_entry e[] = {
        {"hip-amdgcn-amd-amdhsa-gfx906", bc, 8},                 /* old form */
        {"hipv4-amdgcn-amd-amdhsa--gfx11-generic", co.p, co.len}, /* '-' in the target */
        {"hip-amdgcn-amd-amdhsa-gfx10-3-generic", bc, 8},
        {"hipv4-amdgcn-amd-amdhsa-unknown-gfx942", co.p, co.len}, /* 4-part triple */
        {"openmp-x86_64-pc-linux-gnu", "x", 1},                  /* CPU code: not listed */
        {"host-x86_64-unknown-linux-gnu-", "", 0},
        {"openmp-nvptx64-nvidia-cuda--sm_80", "//\n.version 8.0\n", 15},
        {"hip-spirv64-amd-amdhsa--amdgcnspirv", "\x03\x02\x23\x07....", 8},
        {"bogus", "", 0},                                        /* malformed: a warning */
    };
    bb b = {0};
    bb_bundle(&b, e, 9);
    scanned s;
    scan_bytes(&s, b.p, b.len);
    CHECK_STR(s.pieces, "amd:gfx906:bitcode amd:gfx11-generic:code-object "
                        "amd:gfx10-3-generic:bitcode amd:gfx942:code-object nvidia:sm_80:ptx "
                        "amd:amdgcnspirv:spirv");
    /* the gfx942 entry holds a gfx1100 code object: a note says so */
    CHECK_STR(s.notes, "NNW");
    scan_done(&s);
    bb_free(&b);
    bb_free(&co);
}

/* Two bundles back to back in a section, 4096-aligned as clang writes them. */
TEST(targets_elf_hip_fatbin_two_bundles)
{
    bb sec = {0};
    two_entry_bundle(&sec);
    while (sec.len % 4096)
        bb_zero(&sec, 1);
    bb co = {0};
    amd_co(&co, 0x41);
    bb_entry e[] = {{"hipv4-amdgcn-amd-amdhsa--gfx1100", co.p, co.len}};
    bb_bundle(&sec, e, 1);
    bb_section secs[] = {{".text", 0, "\x90\x90", 2}, {".hip_fatbin", 0, sec.p, sec.len}};
    for (int cls = 0; cls < 2; cls++) {
        for (int be = 0; be < 2; be++) {
            bb b = {0};
            bb_elf_host(&b, cls, be, secs, 2);
            scanned s;
            scan_bytes(&s, b.p, b.len);
            CHECK_INT(s.st, HP_OK);
            CHECK_STR(s.r.format, "elf-relocatable");
            CHECK_STR(s.pieces, "amd:gfx90a:xnack+:code-object amd:gfx942:code-object "
                                "amd:gfx1100:code-object");
            CHECK_STR(s.r.code[2].where, ".hip_fatbin > bundle@0x1000");
            CHECK_STR(s.notes, "");
            scan_done(&s);
            bb_free(&b);
        }
    }
    bb_free(&sec);
    bb_free(&co);
}

TEST(targets_elf_rdc_sections)
{
    static const char bc[] = "BC\xc0\xde....";
    bb_section secs[] = {
        {"__CLANG_OFFLOAD_BUNDLE__host-x86_64-unknown-linux-gnu", 0, "", 1},
        {"__CLANG_OFFLOAD_BUNDLE__hip-amdgcn-amd-amdhsa-gfx90a", 0, bc, 8},
        {"__CLANG_OFFLOAD_BUNDLE__hip-amdgcn-amd-amdhsa--gfx942:xnack-", 0, bc, 8},
    };
    bb b = {0};
    bb_elf_host(&b, 1, 0, secs, 3);
    scanned s;
    scan_bytes(&s, b.p, b.len);
    CHECK_STR(s.pieces, "amd:gfx90a:bitcode amd:gfx942:xnack-:bitcode");
    CHECK_STR(s.notes, "");
    scan_done(&s);
    bb_free(&b);
}

/* An offloading binary (.llvm.offloading) of version v with the given entries. */
typedef struct ob_entry {
    unsigned image_kind;
    const char *triple, *arch;
    const void *image;
    size_t size;
} ob_entry;

static void offbin(bb *b, unsigned version, const ob_entry *e, int n)
{
    size_t start = b->len, hdr = version >= 3 ? 40 : 32, esz = version >= 2 ? 24 : 16;
    bb_zero(b, hdr);
    memcpy(b->p + start, "\x10\xff\x10\xad", 4);
    bb_set(b, start + 4, version, 4, 0);
    bb_set(b, start + 16, hdr, 8, 0);
    bb_set(b, start + 24, version == 1 ? 40 : (uint64_t)n, 8, 0);
    size_t ents = b->len;
    bb_zero(b, 40 * (size_t)n);
    for (int i = 0; i < n; i++) {
        size_t at = ents + 40 * (size_t)i;
        bb_set(b, at, e[i].image_kind, 2, 0);
        bb_set(b, at + 2, 4, 2, 0);
        /* strings table, then the strings, then the image */
        size_t tab = b->len;
        bb_zero(b, 2 * esz);
        size_t k0 = b->len;
        bb_bytes(b, "triple", 7);
        size_t v0 = b->len;
        bb_bytes(b, e[i].triple, strlen(e[i].triple) + 1);
        size_t k1 = b->len;
        bb_bytes(b, "arch", 5);
        size_t v1 = b->len;
        bb_bytes(b, e[i].arch, strlen(e[i].arch) + 1);
        bb_set(b, tab, k0 - start, 8, 0);
        bb_set(b, tab + 8, v0 - start, 8, 0);
        bb_set(b, tab + esz, k1 - start, 8, 0);
        bb_set(b, tab + esz + 8, v1 - start, 8, 0);
        bb_align(b, 8);
        size_t img = b->len;
        bb_bytes(b, e[i].image, e[i].size);
        bb_set(b, at + 8, tab - start, 8, 0);
        bb_set(b, at + 16, 2, 8, 0);
        bb_set(b, at + 24, img - start, 8, 0);
        bb_set(b, at + 32, e[i].size, 8, 0);
    }
    bb_align(b, 8);
    bb_set(b, start + 8, b->len - start, 8, 0);
}

TEST(targets_offloading_binary)
{
    static const char bc[] = "BC\xc0\xde....";
    bb sec = {0};
    ob_entry e1[] = {{2, "amdgcn-amd-amdhsa", "gfx942", bc, 8}};
    ob_entry e2[] = {{2, "amdgcn-amd-amdhsa", "gfx90a:xnack+", bc, 8}};
    ob_entry e3[] = {{3, "nvptx64-nvidia-cuda", "sm_90", "x", 1},
                     {5, "nvptx64-nvidia-cuda", "sm_80", "//", 2},
                     {1, "x86_64-unknown-linux-gnu", "", "\x7f" "ELF", 4}};
    offbin(&sec, 1, e1, 1);
    offbin(&sec, 1, e2, 1);
    offbin(&sec, 2, e3, 3);
    bb_section secs[] = {{".llvm.offloading", 0x6fff4c0b, sec.p, sec.len}};
    bb b = {0};
    bb_elf_host(&b, 1, 0, secs, 1);
    scanned s;
    scan_bytes(&s, b.p, b.len);
    CHECK_STR(s.pieces, "amd:gfx942:bitcode amd:gfx90a:xnack+:bitcode nvidia:sm_90:sass "
                        "nvidia:sm_80:ptx");
    CHECK_STR(s.r.code[0].id, "amdgcn-amd-amdhsa gfx942");
    CHECK_STR(s.notes, "");
    scan_done(&s);
    /* a bare offloading binary file */
    scan_bytes(&s, sec.p, sec.len);
    CHECK_STR(s.r.format, "offload-binary");
    CHECK_INT(s.r.ncode, 4);
    scan_done(&s);
    bb_free(&b);
    bb_free(&sec);
}

static void sample_fatbin(bb *b)
{
    size_t c = b->len;
    bb_fatbin_open(b);
    bb_fatbin_entry(b, 2, 80, 0, 16);
    bb_fatbin_entry(b, 2, 90, 0x100000, 8);          /* sm_90a */
    bb_fatbin_entry(b, 1, 90, 0x8000, 24);           /* PTX, zstd */
    bb_fatbin_entry(b, 2, 100, 0x200000 | 0x2000, 8); /* sm_100f, LZ */
    bb_fatbin_entry(b, 1, 120, 0x200000, 8);         /* compute_120f */
    bb_fatbin_close(b, c);
}

TEST(targets_fatbin)
{
    bb b = {0};
    sample_fatbin(&b);
    bb_align(&b, 8);
    size_t c = b.len; /* a second container */
    bb_fatbin_open(&b);
    bb_fatbin_entry(&b, 2, 75, 0, 8);
    bb_fatbin_close(&b, c);
    scanned s;
    scan_bytes(&s, b.p, b.len);
    CHECK_STR(s.r.format, "nvidia-fatbin");
    CHECK_STR(s.pieces, "nvidia:sm_80:sass nvidia:sm_90a:sass nvidia:compute_90:ptx:z "
                        "nvidia:sm_100f:sass:z nvidia:compute_120f:ptx nvidia:sm_75:sass");
    CHECK_STR(s.r.code[2].compression, "zstd");
    CHECK_STR(s.r.code[3].compression, "nvidia-lz");
    CHECK_STR(s.r.code[2].detail, "PTX ISA 9.0");
    CHECK_STR(s.notes, "");
    scan_done(&s);
    bb_section secs[] = {{".nv_fatbin", 0, b.p, b.len}, {"__nv_relfatbin", 0, b.p, 80}};
    bb e = {0};
    bb_elf_host(&e, 1, 0, secs, 2);
    scan_bytes(&s, e.p, e.len);
    /* the second section holds one entry header, then is cut */
    CHECK_INT(s.r.ncode, 6 + 1);
    CHECK_STR(s.notes, "EE");
    scan_done(&s);
    bb_free(&e);
    bb_free(&b);
}

/* An archive member header: name (16), dates and ids, size, "`\n". */
static void ar_member(bb *b, const char *name, const void *data, size_t size)
{
    char h[61];
    snprintf(h, sizeof h, "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", name, "0", "0", "0", "644", size);
    bb_bytes(b, h, 60);
    bb_bytes(b, data, size);
    if (size & 1)
        bb_str(b, "\n");
}

TEST(targets_archive_gnu_bsd)
{
    bb co = {0};
    amd_co(&co, 0x54c);
    bb bun = {0};
    bb_entry e[] = {{"hipv4-amdgcn-amd-amdhsa--gfx1100", "BC\xc0\xde...", 7}};
    bb_bundle(&bun, e, 1);
    bb fb = {0};
    sample_fatbin(&fb);
    static const char names[] = "a_very_long_member_name.hsaco/\nanother_long_name.hipfb/\n";
    bb b = {0};
    bb_str(&b, "!<arch>\n");
    ar_member(&b, "/", "\0\0\0\0", 4);                       /* symbol table */
    ar_member(&b, "//", names, sizeof names - 1);            /* long names */
    ar_member(&b, "/0", co.p, co.len);
    ar_member(&b, "/31", bun.p, bun.len);
    ar_member(&b, "short.o/", "not an object", 13);          /* ignored */
    bb bsd = {0};
    bb_bytes(&bsd, "member_with_bsd_name.fatbin\0", 28);
    bb_bytes(&bsd, fb.p, fb.len);
    ar_member(&b, "#1/28", bsd.p, bsd.len);
    scanned s;
    scan_bytes(&s, b.p, b.len);
    CHECK_STR(s.r.format, "archive");
    CHECK_STR(s.pieces, "amd:gfx942:code-object amd:gfx1100:bitcode nvidia:sm_80:sass "
                        "nvidia:sm_90a:sass nvidia:compute_90:ptx:z nvidia:sm_100f:sass:z "
                        "nvidia:compute_120f:ptx");
    CHECK_STR(s.r.code[0].where, "a_very_long_member_name.hsaco");
    CHECK_STR(s.r.code[1].where, "another_long_name.hipfb > bundle@0x0");
    CHECK_STR(s.r.code[2].where, "member_with_bsd_name.fatbin > fatbin@0x0");
    CHECK_STR(s.notes, "");
    scan_done(&s);
    bb_free(&b);
    bb_free(&bsd);
    bb_free(&co);
    bb_free(&bun);
    bb_free(&fb);
}

/* Archives inside bundles inside archives...: the depth is capped. */
TEST(targets_nesting_capped)
{
    bb cur = {0};
    amd_co(&cur, 0x54c);
    for (int level = 0; level < 10; level++) {
        bb next = {0};
        bb_str(&next, "!<arch>\n");
        ar_member(&next, "x.o/", cur.p, cur.len);
        bb_free(&cur);
        cur = next;
    }
    scanned s;
    scan_bytes(&s, cur.p, cur.len);
    CHECK_INT(s.st, HP_OK);
    CHECK_INT(s.r.ncode, 0);
    CHECK_STR(s.notes, "E");
    scan_done(&s);
    bb_free(&cur);
}

TEST(targets_no_gpu_code)
{
    bb_section secs[] = {{".text", 0, "\xc3", 1}, {".data", 0, "abcd", 4}};
    bb b = {0};
    bb_elf_host(&b, 1, 0, secs, 2);
    scanned s;
    scan_bytes(&s, b.p, b.len);
    CHECK_INT(s.st, HP_OK);
    CHECK_INT(s.r.ncode, 0);
    CHECK_STR(s.notes, "");
    const char *why = NULL;
    CHECK_INT(hp_targets_match(s.ctx, &s.r, "gfx942", &why), HP_VERDICT_NO_GPU_CODE);
    scan_done(&s);
    bb_free(&b);
}
