/* fatbin.c: NVIDIA device code: fatbin containers (.nv_fatbin, __nv_relfatbin, .fatbin files)
 * and cubins. Targets come from the entry headers, so compressed entries need no
 * decompression. All integers are little-endian. */
#include <stdio.h>
#include <string.h>

#include "elf.h"
#include "str.h"
#include "tscan.h"

#include "banned.h"

static const unsigned char fatbin_magic[4] = {0x50, 0xed, 0x55, 0xba}; /* 0xBA55ED50 */

#define FATBIN_HDR 16u    /* container header */
#define ENTRY_HDR_MIN 64u /* smallest entry header seen; the fields read lie in it */

enum {
    FB_KIND_PTX = 1,
    FB_KIND_ELF = 2,
    FB_KIND_OLDCUBIN = 4,
    FB_FLAG_LZ = 0x2000,
    FB_FLAG_ZSTD = 0x8000,
    FB_FLAG_COMPRESSED_OTHER = 0x1000,
    FB_FLAG_ARCH_SPECIFIC = 0x100000, /* sm_90a */
    FB_FLAG_FAMILY = 0x200000         /* sm_100f */
};

int fatbin_is(bin data)
{
    return bin_is(data, 0, fatbin_magic, 4);
}

static void fatbin_entry(tscan *s, bin e, const char *where)
{
    unsigned kind = bin_u16(e, 0, 1);
    unsigned minor = bin_u16(e, 24, 1), major = bin_u16(e, 26, 1);
    uint32_t arch = bin_u32(e, 28, 1);
    uint64_t flags = bin_u64(e, 40, 1);
    const char *suffix = (flags & FB_FLAG_ARCH_SPECIFIC) ? "a"
                         : (flags & FB_FLAG_FAMILY)      ? "f"
                                                         : "";
    tscan_piece p;
    memset(&p, 0, sizeof p);
    p.vendor = HP_VENDOR_NVIDIA;
    p.readable = 1;
    p.where = where;
    if (flags & FB_FLAG_ZSTD)
        p.compression = "zstd";
    else if (flags & FB_FLAG_LZ)
        p.compression = "nvidia-lz";
    else if (flags & FB_FLAG_COMPRESSED_OTHER)
        p.compression = "nvidia";
    p.compressed = p.compression != NULL;
    if (kind == FB_KIND_PTX) {
        p.kind = "ptx";
        p.target = arena_printf(s->out, "compute_%u%s", arch, suffix);
        p.detail = arena_printf(s->out, "PTX ISA %u.%u", major, minor);
    } else if (kind == FB_KIND_ELF || kind == FB_KIND_OLDCUBIN) {
        p.kind = "sass";
        p.target = arena_printf(s->out, "sm_%u%s", arch, suffix);
    } else {
        tscan_note(s, HP_SEV_NOTE, "%s: fatbin entry of unknown kind %u skipped", where, kind);
        return;
    }
    tscan_add(s, &p);
}

/* Lists the entries of the container at r+at; returns its size (header included). */
static uint64_t fatbin_container(tscan *s, bin r, uint64_t at, const char *where)
{
    bin c = bin_from(r, at);
    const char *w = tscan_where(s, where, "fatbin@0x%llx", (unsigned long long)at);
    if (!bin_has(c, 0, FATBIN_HDR)) {
        tscan_note(s, HP_SEV_ERROR, "%s: truncated fatbin header", w);
        return 0;
    }
    uint64_t hs = bin_u16(c, 6, 1), fat = bin_u64(c, 8, 1);
    if (hs < FATBIN_HDR) {
        tscan_note(s, HP_SEV_ERROR, "%s: bad fatbin header size %llu", w, (unsigned long long)hs);
        return 0;
    }
    uint64_t end;
    if (!bin_has(c, hs, fat)) {
        tscan_note(s, HP_SEV_ERROR, "%s: fatbin says %llu bytes, fewer are there (truncated?)",
                   w, (unsigned long long)fat);
        end = (uint64_t)c.len;
    } else {
        end = hs + fat;
    }
    bin body = bin_sub(c, 0, end);
    uint64_t p = hs;
    while (p < end && !s->stopped) {
        if (!bin_has(body, p, ENTRY_HDR_MIN)) {
            tscan_note(s, HP_SEV_ERROR, "%s: truncated fatbin entry at +0x%llx", w,
                       (unsigned long long)p);
            break;
        }
        uint64_t ehs = bin_u32(body, p + 4, 1), size = bin_u64(body, p + 8, 1);
        if (ehs < ENTRY_HDR_MIN) {
            tscan_note(s, HP_SEV_ERROR, "%s: bad fatbin entry header size %llu at +0x%llx", w,
                       (unsigned long long)ehs, (unsigned long long)p);
            break;
        }
        if (!tscan_work(s, ehs))
            break;
        fatbin_entry(s, bin_sub(body, p, ENTRY_HDR_MIN), w);
        if (!bin_has(body, p, ehs) || !bin_has(body, p + ehs, size)) {
            tscan_note(s, HP_SEV_ERROR, "%s: fatbin entry at +0x%llx runs past the end", w,
                       (unsigned long long)p);
            break;
        }
        p += ehs + size;
    }
    return end;
}

void fatbin_scan_region(tscan *s, bin r, const char *where)
{
    uint64_t o = 0;
    int found = 0;
    while (!s->stopped && bin_has(r, o, 4)) {
        int64_t at = bin_find(r, o, fatbin_magic, 4);
        if (at < 0)
            break;
        if (!tscan_work(s, (uint64_t)at - o))
            break;
        found = 1;
        uint64_t size = fatbin_container(s, r, (uint64_t)at, where);
        if (size == 0)
            break;
        uint64_t next = bin_align((uint64_t)at + size, 8);
        if (next <= (uint64_t)at)
            break;
        o = next;
    }
    if (!found && r.len > 0)
        tscan_note(s, HP_SEV_WARNING, "%s: no fatbin inside", where ? where : "file");
}

/* "-arch sm_90a" in the text of the .note.nv.tkinfo note: the suffix after the number, when
 * the number is sm. */
static const char *tkinfo_suffix(tscan *s, const elf_file *e, unsigned sm)
{
    for (uint64_t i = 1; i < e->shnum; i++) {
        elf_sec sec;
        if (!elf_section(e, i, &sec) || !str_eqc(sec.name, ".note.nv.tkinfo") || sec.outside)
            continue;
        int64_t at = bin_find(sec.data, 0, "-arch ", 6);
        if (at < 0)
            return NULL;
        bin t = bin_from(sec.data, (uint64_t)at + 6);
        ptrdiff_t n = 0;
        while (n < t.len && n < 32 && t.p[n] != ' ' && t.p[n] != 0)
            n++;
        hp_str tok = str_make((const char *)t.p, n);
        if (!str_starts(tok, S("sm_")))
            return NULL;
        char num[16];
        int k = snprintf(num, sizeof num, "sm_%u", sm);
        if (k <= 0 || tok.len != k + 1 || memcmp(tok.s, num, (size_t)k) != 0)
            return NULL;
        char c = tok.s[k];
        (void)s;
        return c == 'a' ? "a" : c == 'f' ? "f" : NULL;
    }
    return NULL;
}

void fatbin_scan_cubin(tscan *s, const elf_file *e, const char *where)
{
    unsigned sm;
    const char *suffix = "";
    if (e->abiversion >= 8) {
        sm = (e->flags >> 8) & 0xffu;
    } else {
        sm = e->flags & 0xffu;
        if (e->flags & 0x800u)
            suffix = "a";
    }
    const char *t = tkinfo_suffix(s, e, sm);
    if (t)
        suffix = t;
    tscan_piece p;
    memset(&p, 0, sizeof p);
    p.vendor = HP_VENDOR_NVIDIA;
    p.kind = "sass";
    p.readable = 1;
    p.where = where;
    p.target = arena_printf(s->out, "sm_%u%s", sm, suffix);
    p.detail = e->type == ELF_ET_REL ? "relocatable cubin" : "cubin";
    if (sm == 0)
        tscan_note(s, HP_SEV_WARNING, "%s: cubin names no SM in its e_flags",
                   where ? where : "cubin");
    tscan_add(s, &p);
}
