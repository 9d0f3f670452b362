/* bundle.c: AMD device code containers: clang offload bundles (plain and compressed "CCOB"
 * v1/v2/v3 with zlib or zstd), the LLVM offloading binary of .llvm.offloading, -fgpu-rdc
 * bundle sections, and bare AMDGPU code objects. All integers are little-endian. */
#include <stdio.h>
#include <string.h>

#include "amdgpu.h"
#include "codec.h"
#include "elf.h"
#include "str.h"
#include "tscan.h"

#include "banned.h"

static const char bundle_magic[] = "__CLANG_OFFLOAD_BUNDLE__"; /* 24 bytes, no NUL */
#define BUNDLE_MAGIC_LEN 24u
static const char ccob_magic[] = "CCOB";
static const unsigned char offbin_magic[4] = {0x10, 0xff, 0x10, 0xad};

int bundle_is(bin data)
{
    return bin_is(data, 0, bundle_magic, BUNDLE_MAGIC_LEN) || bin_is(data, 0, ccob_magic, 4);
}

int bundle_offbin_is(bin data)
{
    return bin_is(data, 0, offbin_magic, 4);
}

int tscan_is_bitcode(bin data)
{
    return bin_is(data, 0, "BC\xc0\xde", 4) || bin_is(data, 0, "\xde\xc0\x17\x0b", 4);
}

static int is_spirv(bin data)
{
    return bin_is(data, 0, "\x03\x02\x23\x07", 4);
}

/* ------------------------------------------------------------ bundle entry IDs */

/* <kind>-<arch>-<vendor>-<os>-<env>[-<target id>]. The old form puts the target ID where the
 * environment goes ("hip-amdgcn-amd-amdhsa-gfx906"); a target ID may itself hold '-'
 * ("gfx11-generic"). */
typedef struct bundle_id {
    hp_str kind, arch, vendor, os, target;
    int ok;
} bundle_id;

static hp_str take(hp_str *rest, int *ok)
{
    ptrdiff_t d = str_chr(*rest, '-');
    hp_str r;
    if (d < 0) {
        r = *rest;
        rest->s += rest->len;
        rest->len = 0;
        *ok = 0;
    } else {
        r = str_cut(*rest, 0, d);
        *rest = str_cut(*rest, d + 1, rest->len);
    }
    return r;
}

static int starts_target(hp_str s)
{
    return str_starts(s, S("gfx")) || str_starts(s, S("sm_")) || str_starts(s, S("amdgcnspirv"));
}

static bundle_id parse_id(hp_str id)
{
    bundle_id b;
    memset(&b, 0, sizeof b);
    hp_str rest = id;
    int more = 1;
    b.kind = take(&rest, &more);
    if (!more)
        return b;
    b.arch = take(&rest, &more);
    if (!more)
        return b;
    b.vendor = take(&rest, &more);
    if (!more)
        return b;
    int after_os = 1;
    b.os = take(&rest, &after_os);
    b.ok = b.kind.len > 0 && b.arch.len > 0;
    if (!after_os)
        return b; /* no environment, no target */
    if (starts_target(rest)) {
        b.target = rest;
        return b;
    }
    int has_target = 1;
    take(&rest, &has_target); /* the environment, often empty */
    if (has_target)
        b.target = rest;
    return b;
}

static hp_vendor id_vendor(const bundle_id *b)
{
    if (str_eqc(b->kind, "host"))
        return HP_VENDOR_NONE;
    if (str_eqc(b->arch, "amdgcn") || (str_starts(b->arch, S("spirv")) && str_eqc(b->vendor, "amd")))
        return HP_VENDOR_AMD;
    if (str_starts(b->arch, S("nvptx")))
        return HP_VENDOR_NVIDIA;
    return HP_VENDOR_NONE;
}

/* ------------------------------------------------------------ code object targets */

/* Code object v2 names its processor in an "AMD" note of type 3 (HSA ISA version:
 * u16 vendor size, u16 arch size, u32 major, minor, stepping); e_flags hold only xnack. */
static int v2_target(const elf_file *e, char *buf, size_t n)
{
    for (uint64_t i = 1; i < e->shnum; i++) {
        elf_sec sec;
        if (!elf_section(e, i, &sec) || sec.type != ELF_SHT_NOTE || sec.outside)
            continue;
        bin d = sec.data;
        uint64_t o = 0;
        while (bin_has(d, o, 12)) {
            uint64_t namesz = bin_u32(d, o, 1), descsz = bin_u32(d, o + 4, 1);
            uint32_t type = bin_u32(d, o + 8, 1);
            uint64_t name = o + 12, desc = bin_align(name + namesz, 4);
            if (!bin_has(d, name, namesz) || !bin_has(d, desc, descsz))
                break;
            if (type == 3 && namesz == 4 && bin_is(d, name, "AMD", 4) && descsz >= 16) {
                unsigned major = bin_u32(d, desc + 4, 1), minor = bin_u32(d, desc + 8, 1),
                         step = bin_u32(d, desc + 12, 1);
                if (major > 99 || minor > 15 || step > 15)
                    return 0;
                char proc[32];
                snprintf(proc, sizeof proc, "gfx%u%x%x", major, minor, step);
                int x = amdgpu_has_xnack(str_cstr(proc));
                snprintf(buf, n, "%s%s", proc,
                         !x ? "" : (e->flags & 1u) ? ":xnack+" : ":xnack-");
                return 1;
            }
            o = bin_align(desc + descsz, 4);
        }
    }
    return 0;
}

/* The target ID of an AMDGPU code object and its version (0 if unknown). */
static int amd_target(const elf_file *e, char *buf, size_t n, int *cov)
{
    if (e->osabi == ELF_OSABI_AMDGPU_HSA && e->abiversion == 0) {
        *cov = 2;
        if (v2_target(e, buf, n))
            return 1;
        snprintf(buf, n, "unknown");
        return 0;
    }
    return amdgpu_elf_target(e->osabi, e->abiversion, e->flags, buf, n, cov);
}

/* ------------------------------------------------------------ one entry's payload */

typedef struct entry_ctx {
    const char *where;       /* the bundle */
    const char *id;          /* the entry ID, copied */
    int compressed;
    const char *compression; /* "zstd", "zlib" or NULL */
} entry_ctx;

/* Lists one device entry of a bundle (or an -fgpu-rdc bundle section). */
static void list_entry(tscan *s, hp_vendor v, hp_str target, bin payload, int missing,
                       const entry_ctx *ec)
{
    tscan_piece p;
    memset(&p, 0, sizeof p);
    p.vendor = v;
    p.compressed = ec->compressed;
    p.readable = 1;
    p.where = ec->where;
    p.id = ec->id;
    p.compression = ec->compression;
    char tbuf[96];
    const char *tcopy = tscan_text(s, target);
    p.target = *tcopy ? tcopy : "unknown";
    if (missing) {
        p.kind = v == HP_VENDOR_NVIDIA ? "sass" : "code-object";
        p.detail = "entry outside the bundle";
        tscan_add(s, &p);
        return;
    }
    if (payload.len == 0) {
        p.kind = v == HP_VENDOR_NVIDIA ? "sass" : "code-object";
        p.detail = "empty entry";
        tscan_add(s, &p);
        return;
    }
    if (tscan_is_bitcode(payload)) {
        p.kind = "bitcode";
        p.detail = "LLVM bitcode (relocatable device code)";
        tscan_add(s, &p);
        return;
    }
    if (is_spirv(payload)) {
        p.kind = "spirv";
        p.detail = "SPIR-V";
        tscan_add(s, &p);
        return;
    }
    if (elf_is(payload)) {
        elf_file e;
        const char *err = NULL;
        if (elf_open(payload, &e, &err) != HP_OK) {
            tscan_note(s, HP_SEV_ERROR, "%s: entry '%s': %s", ec->where ? ec->where : "bundle",
                       ec->id, err);
            p.kind = v == HP_VENDOR_NVIDIA ? "sass" : "code-object";
            tscan_add(s, &p);
            return;
        }
        if (e.machine == ELF_EM_AMDGPU) {
            int cov = 0;
            amd_target(&e, tbuf, sizeof tbuf, &cov);
            p.kind = "code-object";
            p.detail = cov ? arena_printf(s->out, "code object v%d", cov) : "code object";
            amdgpu_tid want, got;
            amdgpu_tid_parse(target, &want);
            amdgpu_tid_parse(str_cstr(tbuf), &got);
            if (!*tcopy)
                p.target = arena_strndup(s->out, tbuf, (ptrdiff_t)strlen(tbuf));
            else if (!str_eq(want.proc, got.proc))
                tscan_note(s, HP_SEV_NOTE,
                           "entry '%s' holds a code object for %s, not for the processor its "
                           "ID names",
                           ec->id, tbuf);
            tscan_add(s, &p);
            return;
        }
        if (e.machine == ELF_EM_CUDA) {
            fatbin_scan_cubin(s, &e, ec->where);
            return;
        }
    }
    if (tscan_nested(s, payload, tscan_where(s, ec->where, "entry '%s'", ec->id)))
        return;
    if (v == HP_VENDOR_NVIDIA && bin_has(payload, 0, 1) &&
        (payload.p[0] == '/' || payload.p[0] == '.' || payload.p[0] == '\n')) {
        p.kind = "ptx";
        tscan_add(s, &p);
        return;
    }
    p.kind = "unknown";
    p.detail = "unrecognized contents";
    tscan_add(s, &p);
}

/* ------------------------------------------------------------ plain bundles */

/* Parses the bundle at the start of b (b runs to the end of the enclosing region). Returns
 * the bundle's size (the end of its last entry), at least the header size; 0 when even the
 * header is cut short. */
static uint64_t parse_bundle(tscan *s, bin b, const char *where, int compressed,
                             const char *compression)
{
    if (!bin_has(b, 0, 32)) {
        tscan_note(s, HP_SEV_ERROR, "%s: truncated offload bundle header", where);
        return 0;
    }
    uint64_t n = bin_u64(b, 24, 1);
    uint64_t p = 32, end = 32;
    for (uint64_t i = 0; i < n; i++) {
        if (s->stopped)
            break;
        if (!bin_has(b, p, 24)) {
            tscan_note(s, HP_SEV_ERROR, "%s: offload bundle truncated after %llu of %llu entries",
                       where, (unsigned long long)i, (unsigned long long)n);
            break;
        }
        uint64_t off = bin_u64(b, p, 1), size = bin_u64(b, p + 8, 1),
                 idlen = bin_u64(b, p + 16, 1);
        p += 24;
        if (!bin_has(b, p, idlen)) {
            tscan_note(s, HP_SEV_ERROR, "%s: offload bundle entry %llu: ID runs past the end",
                       where, (unsigned long long)i);
            break;
        }
        hp_str idstr = str_make((const char *)b.p + p, (ptrdiff_t)idlen);
        p += idlen;
        if (p > end)
            end = p;
        if (!tscan_work(s, 24 + idlen))
            break;
        int missing = !bin_has(b, off, size);
        if (!missing && off + size > end)
            end = off + size;
        bundle_id id = parse_id(idstr);
        hp_vendor v = id.ok ? id_vendor(&id) : HP_VENDOR_NONE;
        if (!id.ok) {
            tscan_note(s, HP_SEV_WARNING, "%s: offload bundle entry %llu has a malformed ID '%s'",
                       where, (unsigned long long)i,
                       tscan_text(s, idstr));
            continue;
        }
        if (v == HP_VENDOR_NONE)
            continue; /* the host entry, or code for a CPU */
        entry_ctx ec = {where, tscan_text(s, idstr), compressed, compression};
        if (missing)
            tscan_note(s, HP_SEV_ERROR, "%s: entry '%s' lies outside the bundle (truncated?)",
                       where, ec.id);
        list_entry(s, v, id.target, missing ? bin_make(NULL, 0) : bin_sub(b, off, size), missing,
                   &ec);
    }
    return end;
}

/* ------------------------------------------------------------ compressed bundles */

/* Where the next bundle (plain or compressed) starts at or after from; -1 if none. */
static int64_t next_bundle(bin r, uint64_t from)
{
    int64_t a = bin_find(r, from, bundle_magic, BUNDLE_MAGIC_LEN);
    int64_t c = bin_find(r, from, ccob_magic, 4);
    if (a < 0)
        return c;
    if (c < 0)
        return a;
    return a < c ? a : c;
}

/* Parses the CCOB at r+at. Returns how far the region scan may skip (from at). */
static uint64_t parse_ccob(tscan *s, bin r, uint64_t at, const char *where)
{
    bin b = bin_from(r, at);
    const char *w = tscan_where(s, where, "compressed bundle@0x%llx", (unsigned long long)at);
    if (!bin_has(b, 0, 8)) {
        tscan_note(s, HP_SEV_ERROR, "%s: truncated compressed bundle header", w);
        return (uint64_t)b.len;
    }
    unsigned version = bin_u16(b, 4, 1), method = bin_u16(b, 6, 1);
    uint64_t hdr, total = 0, raw;
    if (version == 1) {
        hdr = 20;
        raw = bin_u32(b, 8, 1);
    } else if (version == 2) {
        hdr = 24;
        total = bin_u32(b, 8, 1);
        raw = bin_u32(b, 12, 1);
    } else if (version == 3) {
        hdr = 32;
        total = bin_u64(b, 8, 1);
        raw = bin_u64(b, 16, 1);
    } else {
        /* its size is unknown too: the rest of the region cannot be read */
        tscan_note(s, HP_SEV_ERROR, "%s: compressed bundle of unknown version %u", w, version);
        tscan_piece p = {HP_VENDOR_AMD, "unknown", "code-object", 1, 0, w, NULL, NULL,
                         "compressed offload bundle of an unknown version"};
        tscan_add(s, &p);
        return (uint64_t)b.len;
    }
    if (!bin_has(b, 0, hdr)) {
        tscan_note(s, HP_SEV_ERROR, "%s: truncated compressed bundle header", w);
        return (uint64_t)b.len;
    }
    uint64_t skip;
    bin data;
    if (version == 1) {
        /* v1 does not record its size: the data runs to the end of the stream, which only
         * decompressing finds; until then, assume up to the next bundle magic (the magic can
         * occur inside compressed data, so that is only a fallback) */
        int64_t nx = next_bundle(b, hdr);
        skip = nx < 0 ? (uint64_t)b.len : (uint64_t)nx;
        data = bin_from(b, hdr);
    } else {
        if (total < hdr || !bin_has(b, 0, total)) {
            tscan_note(s, HP_SEV_ERROR,
                       "%s: compressed bundle v%u says %llu bytes, %llu are there (truncated?)",
                       w, version, (unsigned long long)total, (unsigned long long)b.len);
            total = (uint64_t)b.len;
            if (total < hdr)
                return (uint64_t)b.len;
        }
        data = bin_sub(b, hdr, total - hdr);
        skip = total;
    }
    char what[64];
    snprintf(what, sizeof what, "CCOB v%u, %s", version,
             method == 0 ? "zlib" : method == 1 ? "zstd" : "unknown method");
    const char *compression = method == 0 ? "zlib" : method == 1 ? "zstd" : NULL;
    tscan_piece unread = {HP_VENDOR_AMD, "unknown", "code-object", 1, 0, w, NULL, compression,
                          NULL};
    if (method > 1) {
        tscan_note(s, HP_SEV_ERROR, "%s: compressed bundle uses unknown compression method %u", w,
                   method);
        unread.detail = "compressed offload bundle, unknown compression method";
        tscan_add(s, &unread);
        return skip;
    }
    codec_kind k = method == 1 ? CODEC_ZSTD : CODEC_ZLIB;
    if (!codec_available(k)) {
        tscan_note(s, HP_SEV_WARNING,
                   "%s: compressed offload bundle (%s) cannot be read here: %s could not be "
                   "loaded; its targets are unknown",
                   w, what, codec_soname(k));
        unread.detail = arena_printf(s->out, "compressed offload bundle (%s); %s is missing",
                                     what, codec_soname(k));
        tscan_add(s, &unread);
        return skip;
    }
    uint64_t cap = (uint64_t)data.len * TSCAN_INFLATE_RATIO;
    if (cap < ((uint64_t)1 << 20))
        cap = (uint64_t)1 << 20;
    if (cap > TSCAN_MAX_INFLATE)
        cap = TSCAN_MAX_INFLATE;
    if (raw > cap || raw > TSCAN_MAX_INFLATE_TOTAL - s->inflated) {
        tscan_note(s, HP_SEV_ERROR,
                   "%s: compressed bundle claims %llu bytes uncompressed, over the limit of "
                   "%llu; not decompressed",
                   w, (unsigned long long)raw, (unsigned long long)cap);
        unread.detail = "compressed offload bundle over the size limit";
        tscan_add(s, &unread);
        return skip;
    }
    if (raw < 32) {
        tscan_note(s, HP_SEV_ERROR, "%s: compressed bundle claims only %llu bytes uncompressed",
                   w, (unsigned long long)raw);
        unread.detail = "corrupt compressed offload bundle";
        tscan_add(s, &unread);
        return skip;
    }
    s->inflated += raw;
    if (!tscan_work(s, raw))
        return skip;
    unsigned char *out = NULL;
    size_t used = 0;
    codec_result cr =
        codec_decompress(&s->tmp, k, data.p, (size_t)data.len, (size_t)raw, &out, &used);
    if (version == 1 && cr == CODEC_OK)
        skip = hdr + used;
    if (cr != CODEC_OK) {
        if (cr == CODEC_NOMEM)
            s->nomem = 1;
        tscan_note(s, HP_SEV_ERROR, "%s: compressed bundle (%s) does not decompress: %s", w,
                   what,
                   cr == CODEC_SIZE      ? "the size differs from the header's"
                   : cr == CODEC_NOMEM   ? "out of memory"
                                         : "corrupt data");
        unread.detail = "corrupt compressed offload bundle";
        tscan_add(s, &unread);
        return skip;
    }
    bin inner = bin_make(out, (ptrdiff_t)raw);
    if (!bin_is(inner, 0, bundle_magic, BUNDLE_MAGIC_LEN)) {
        tscan_note(s, HP_SEV_ERROR, "%s: decompressed data is not an offload bundle", w);
        unread.detail = "compressed data is not an offload bundle";
        tscan_add(s, &unread);
        return skip;
    }
    s->depth++;
    const char *wc = tscan_where(s, where, "compressed bundle@0x%llx (%s)",
                                 (unsigned long long)at, what);
    parse_bundle(s, inner, wc, 1, compression);
    s->depth--;
    return skip;
}

void bundle_scan_region(tscan *s, bin r, const char *where)
{
    uint64_t o = 0;
    int found = 0;
    while (!s->stopped && bin_has(r, o, 4)) {
        int64_t at = next_bundle(r, o);
        if (at < 0)
            break;
        if (!tscan_work(s, (uint64_t)at - o))
            break;
        found = 1;
        uint64_t skip;
        if (bin_is(r, (uint64_t)at, bundle_magic, BUNDLE_MAGIC_LEN)) {
            const char *w = tscan_where(s, where, "bundle@0x%llx", (unsigned long long)at);
            skip = parse_bundle(s, bin_from(r, (uint64_t)at), w, 0, NULL);
            if (skip == 0)
                break;
        } else {
            skip = parse_ccob(s, r, (uint64_t)at, where);
        }
        if (skip == 0)
            skip = 1;
        o = (uint64_t)at + skip;
    }
    if (!found && r.len > 0)
        tscan_note(s, HP_SEV_WARNING, "%s: no offload bundle inside", where ? where : "file");
}

/* A -fgpu-rdc object keeps each device's code in a section named
 * "__CLANG_OFFLOAD_BUNDLE__<entry id>" (LLVM bitcode as a rule). */
void bundle_scan_rdc_section(tscan *s, hp_str id, bin data, const char *where)
{
    bundle_id b = parse_id(id);
    if (!b.ok) {
        tscan_note(s, HP_SEV_WARNING, "%s: malformed bundle entry ID in the section name", where);
        return;
    }
    hp_vendor v = id_vendor(&b);
    if (v == HP_VENDOR_NONE)
        return;
    entry_ctx ec = {where, tscan_text(s, id), 0, NULL};
    list_entry(s, v, b.target, data, 0, &ec);
}

/* ------------------------------------------------------------ LLVM offloading binary */

enum { IMG_NONE, IMG_OBJECT, IMG_BITCODE, IMG_CUBIN, IMG_FATBIN, IMG_PTX, IMG_SPIRV };

/* The NUL-terminated string at off inside b, or an empty slice. */
static hp_str cstr_at(bin b, uint64_t off)
{
    if (!bin_has(b, off, 1))
        return str_make(NULL, 0);
    const unsigned char *p = b.p + off;
    const unsigned char *z = memchr(p, 0, (size_t)((uint64_t)b.len - off));
    if (!z)
        return str_make(NULL, 0);
    return str_make((const char *)p, z - p);
}

/* The value of key among the n strings at off (entries of esize bytes). */
static hp_str offbin_string(bin b, uint64_t off, uint64_t n, uint64_t esize, const char *key)
{
    for (uint64_t i = 0; i < n && bin_has(b, off, esize); i++, off += esize) {
        hp_str k = cstr_at(b, bin_u64(b, off, 1));
        if (str_eqc(k, key))
            return cstr_at(b, bin_u64(b, off + 8, 1));
    }
    return str_make(NULL, 0);
}

static void offbin_entry(tscan *s, bin b, uint64_t at, unsigned version, const char *where)
{
    unsigned image_kind = bin_u16(b, at, 1);
    uint32_t flags = bin_u32(b, at + 4, 1);
    uint64_t str_off = bin_u64(b, at + 8, 1), nstr = bin_u64(b, at + 16, 1);
    uint64_t img_off = bin_u64(b, at + 24, 1), img_size = bin_u64(b, at + 32, 1);
    uint64_t esize = version >= 2 ? 24 : 16;
    if (nstr > (uint64_t)b.len / esize)
        nstr = (uint64_t)b.len / esize;
    hp_str triple = offbin_string(b, str_off, nstr, esize, "triple");
    hp_str arch = offbin_string(b, str_off, nstr, esize, "arch");
    if (flags & 1u || image_kind == IMG_NONE)
        return; /* metadata only */
    hp_vendor v = str_starts(triple, S("amdgcn")) || (str_starts(triple, S("spirv")) &&
                                                     str_find(triple, S("-amd-")) >= 0)
                      ? HP_VENDOR_AMD
                  : str_starts(triple, S("nvptx")) ? HP_VENDOR_NVIDIA
                                                   : HP_VENDOR_NONE;
    if (v == HP_VENDOR_NONE)
        return;
    int missing = !bin_has(b, img_off, img_size);
    if (missing)
        tscan_note(s, HP_SEV_ERROR, "%s: image for '%s' lies outside the offloading binary",
                   where, tscan_text(s, arch));
    bin img = missing ? bin_make(NULL, 0) : bin_sub(b, img_off, img_size);
    if (image_kind == IMG_FATBIN && !missing) {
        fatbin_scan_region(s, img, where);
        return;
    }
    tscan_piece p;
    memset(&p, 0, sizeof p);
    p.vendor = v;
    p.readable = 1;
    p.where = where;
    p.id = arena_printf(s->out, "%s %s", tscan_text(s, triple), tscan_text(s, arch));
    p.target = arch.len ? tscan_text(s, arch) : "unknown";
    switch (image_kind) {
    case IMG_OBJECT: p.kind = v == HP_VENDOR_AMD ? "code-object" : "sass"; break;
    case IMG_BITCODE:
        p.kind = "bitcode";
        p.detail = "LLVM bitcode (relocatable device code)";
        break;
    case IMG_CUBIN: p.kind = "sass"; break;
    case IMG_PTX: p.kind = "ptx"; break;
    case IMG_SPIRV: p.kind = "spirv"; break;
    default:
        p.kind = "unknown";
        p.detail = arena_printf(s->out, "image kind %u", image_kind);
        break;
    }
    tscan_add(s, &p);
}

/* Parses one offloading binary b (exactly its declared size). */
static void offbin_parse(tscan *s, bin b, const char *where)
{
    unsigned version = bin_u32(b, 4, 1);
    uint64_t hdr = version >= 3 ? 40 : 32;
    if (version == 0 || version > 3) {
        tscan_note(s, HP_SEV_WARNING, "%s: offloading binary of unknown version %u", where,
                   version);
        return;
    }
    if (!bin_has(b, 0, hdr)) {
        tscan_note(s, HP_SEV_ERROR, "%s: truncated offloading binary", where);
        return;
    }
    uint64_t eoff = bin_u64(b, 16, 1);
    uint64_t count = version == 1 ? 1 : bin_u64(b, 24, 1);
    if (version >= 3 && bin_u64(b, 32, 1) != 0) {
        tscan_note(s, HP_SEV_WARNING,
                   "%s: compressed offloading binary (v3); its targets are not read", where);
        tscan_piece p = {HP_VENDOR_AMD, "unknown", "unknown", 1, 0, where, NULL, NULL,
                         "compressed offloading binary"};
        tscan_add(s, &p);
        return;
    }
    for (uint64_t i = 0; i < count && !s->stopped; i++) {
        uint64_t at = eoff + i * 40;
        if (i > (uint64_t)b.len / 40 || !bin_has(b, at, 40)) {
            tscan_note(s, HP_SEV_ERROR, "%s: offloading binary entry %llu lies outside it",
                       where, (unsigned long long)i);
            break;
        }
        if (!tscan_work(s, 40))
            break;
        offbin_entry(s, b, at, version, where);
    }
}

void bundle_offbin_scan_region(tscan *s, bin r, const char *where)
{
    uint64_t o = 0;
    int found = 0;
    while (!s->stopped && bin_has(r, o, 4)) {
        int64_t at = bin_find(r, o, offbin_magic, 4);
        if (at < 0)
            break;
        if (!tscan_work(s, (uint64_t)at - o))
            break;
        found = 1;
        bin b = bin_from(r, (uint64_t)at);
        uint64_t size = bin_u64(b, 8, 1);
        const char *w = tscan_where(s, where, "offloading binary@0x%llx", (unsigned long long)at);
        if (!bin_has(b, 0, 32) || size < 32) {
            tscan_note(s, HP_SEV_ERROR, "%s: truncated offloading binary", w);
            break;
        }
        if (!bin_has(b, 0, size)) {
            tscan_note(s, HP_SEV_ERROR, "%s: offloading binary says %llu bytes, %llu are there",
                       w, (unsigned long long)size, (unsigned long long)b.len);
            size = (uint64_t)b.len;
        }
        offbin_parse(s, bin_sub(b, 0, size), w);
        uint64_t next = bin_align((uint64_t)at + size, 8);
        if (next <= (uint64_t)at)
            break;
        o = next;
    }
    if (!found && r.len > 0)
        tscan_note(s, HP_SEV_WARNING, "%s: no offloading binary inside", where ? where : "file");
}

/* ------------------------------------------------------------ bare code objects */

void bundle_scan_amdgpu(tscan *s, const elf_file *e, const char *where)
{
    char buf[96];
    int cov = 0;
    int known = amd_target(e, buf, sizeof buf, &cov);
    if (!known && cov == 2)
        tscan_note(s, HP_SEV_WARNING, "%s: code object v2 without an ISA note; its target is "
                   "unknown", where ? where : "code object");
    else if (!known)
        tscan_note(s, HP_SEV_WARNING, "%s: unknown AMDGPU machine value 0x%02x in e_flags",
                   where ? where : "code object", (unsigned)(e->flags & 0xffu));
    tscan_piece p;
    memset(&p, 0, sizeof p);
    p.vendor = HP_VENDOR_AMD;
    p.target = arena_strndup(s->out, buf, (ptrdiff_t)strlen(buf));
    p.kind = "code-object";
    p.readable = 1;
    p.where = where;
    if (e->osabi == ELF_OSABI_AMDGPU_HSA) {
        p.detail = arena_printf(s->out, "code object v%d", cov);
    } else {
        const char *abi = e->osabi == ELF_OSABI_AMDGPU_PAL      ? "PAL"
                          : e->osabi == ELF_OSABI_AMDGPU_MESA3D ? "Mesa"
                                                                : "unknown";
        p.detail = arena_printf(s->out, "%s code object (EI_OSABI %u), not loadable by HIP",
                                abi, e->osabi);
        tscan_note(s, HP_SEV_NOTE, "%s: not an HSA code object (EI_OSABI %u, %s); HIP cannot "
                   "load it", where ? where : "code object", e->osabi, abi);
    }
    tscan_add(s, &p);
}
