/* targets.c: hp_targets_scan: recognizes the file format, walks ELF host files and static
 * archives, and hands the GPU containers inside to bundle.c and fatbin.c. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ctx.h"
#include "elf.h"
#include "os_map.h"
#include "str.h"
#include "tscan.h"

#include "banned.h"

/* ------------------------------------------------------------ ELF files */

static const char *elf_format(const elf_file *e)
{
    if (e->machine == ELF_EM_AMDGPU)
        return "amdgpu-code-object";
    if (e->machine == ELF_EM_CUDA)
        return "cubin";
    switch (e->type) {
    case ELF_ET_REL: return "elf-relocatable";
    case ELF_ET_EXEC: return "elf-executable";
    case ELF_ET_DYN:
        return elf_has_segment(e, ELF_PT_INTERP) ? "elf-executable" : "elf-shared-object";
    default: return "elf";
    }
}

static const char rdc_prefix[] = "__CLANG_OFFLOAD_BUNDLE__";

/* Walks one ELF file. Returns HP_EFORMAT (with *err) if its header is malformed. */
static hp_status scan_elf(tscan *s, bin data, const char *where, const char **format,
                          const char **err)
{
    elf_file e;
    hp_status st = elf_open(data, &e, err);
    if (st != HP_OK)
        return st;
    if (format)
        *format = elf_format(&e);
    if (e.machine == ELF_EM_AMDGPU) {
        bundle_scan_amdgpu(s, &e, where);
        return HP_OK;
    }
    if (e.machine == ELF_EM_CUDA) {
        fatbin_scan_cubin(s, &e, where);
        return HP_OK;
    }
    if (e.truncated)
        tscan_note(s, HP_SEV_ERROR, "%s%sthe section table runs past the end of the file "
                   "(truncated?)", where ? where : "", where ? ": " : "");
    for (uint64_t i = 1; i < e.shnum && !s->stopped; i++) {
        elf_sec sec;
        if (!elf_section(&e, i, &sec) || !tscan_work(s, 64))
            break;
        hp_str n = sec.name;
        int bundle = str_eqc(n, ".hip_fatbin");
        int rdc = str_starts(n, S(rdc_prefix)) && n.len > (ptrdiff_t)sizeof rdc_prefix - 1;
        int offload = str_eqc(n, ".llvm.offloading") || sec.type == ELF_SHT_LLVM_OFFLOADING;
        int fatbin = str_eqc(n, ".nv_fatbin") || str_eqc(n, "__nv_relfatbin");
        if (!bundle && !rdc && !offload && !fatbin)
            continue;
        const char *w = tscan_where(s, where, "%s", tscan_text(s, n));
        if (sec.outside) {
            tscan_note(s, HP_SEV_ERROR, "%s: the section lies past the end of the file "
                       "(truncated?)", w);
            continue;
        }
        if (sec.type == ELF_SHT_NOBITS)
            continue;
        if (!tscan_work(s, (uint64_t)sec.data.len))
            break;
        if (bundle)
            bundle_scan_region(s, sec.data, w);
        else if (rdc)
            bundle_scan_rdc_section(s, str_cut(n, (ptrdiff_t)sizeof rdc_prefix - 1, n.len),
                                    sec.data, w);
        else if (offload)
            bundle_offbin_scan_region(s, sec.data, w);
        else
            fatbin_scan_region(s, sec.data, w);
    }
    return HP_OK;
}

/* ------------------------------------------------------------ static archives */

static const char ar_magic[] = "!<arch>\n";
static const char ar_thin[] = "!<thin>\n";

/* Decimal field of an archive header (digits padded with spaces); -1 if malformed. */
static int64_t ar_number(bin h, uint64_t off, uint64_t n)
{
    int64_t v = 0;
    int digits = 0, ended = 0;
    for (uint64_t i = 0; i < n; i++) {
        unsigned char c = bin_u8(h, off + i);
        if (c == ' ') {
            ended = digits > 0;
            continue;
        }
        if (c < '0' || c > '9' || ended || v > (INT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (c - '0');
        digits++;
    }
    return digits ? v : -1;
}

static void scan_archive(tscan *s, bin data, const char *where)
{
    uint64_t o = 8;
    bin names = bin_make(NULL, 0);
    while (!s->stopped && bin_has(data, o, 1)) {
        if (!bin_has(data, o, 60)) {
            /* a lone newline may pad the end */
            if (!(data.len - (ptrdiff_t)o == 1 && data.p[o] == '\n'))
                tscan_note(s, HP_SEV_ERROR, "%s%struncated archive member header at 0x%llx",
                           where ? where : "", where ? ": " : "", (unsigned long long)o);
            break;
        }
        bin h = bin_sub(data, o, 60);
        int64_t size = ar_number(h, 48, 10);
        if (!bin_is(h, 58, "`\n", 2) || size < 0) {
            tscan_note(s, HP_SEV_ERROR, "%s%sbad archive member header at 0x%llx",
                       where ? where : "", where ? ": " : "", (unsigned long long)o);
            break;
        }
        uint64_t doff = o + 60, dsize = (uint64_t)size;
        int cut = 0;
        if (!bin_has(data, doff, dsize)) {
            cut = 1;
            dsize = (uint64_t)data.len - doff;
        }
        bin body = bin_sub(data, doff, dsize);
        hp_str raw = str_make((const char *)h.p, 16);
        while (raw.len && raw.s[raw.len - 1] == ' ')
            raw.len--;
        hp_str name = raw;
        int skip = 0;
        if (str_eqc(raw, "/") || str_eqc(raw, "/SYM64/") || str_starts(raw, S("__.SYMDEF"))) {
            skip = 1;
        } else if (str_eqc(raw, "//")) {
            names = body;
            skip = 1;
        } else if (str_starts(raw, S("#1/"))) {
            /* BSD: the name is the first N bytes of the data */
            int64_t n = ar_number(h, 3, 13);
            if (n < 0 || (uint64_t)n > dsize) {
                tscan_note(s, HP_SEV_ERROR, "%s%sbad BSD member name at 0x%llx",
                           where ? where : "", where ? ": " : "", (unsigned long long)o);
                break;
            }
            name = str_make((const char *)body.p, (ptrdiff_t)n);
            while (name.len && name.s[name.len - 1] == 0)
                name.len--;
            body = bin_from(body, (uint64_t)n);
        } else if (raw.len > 1 && raw.s[0] == '/' && raw.s[1] >= '0' && raw.s[1] <= '9') {
            /* GNU: "/N" is an offset into the "//" member; names end with "/\n" */
            int64_t n = ar_number(h, 1, 15);
            if (n < 0 || !bin_has(names, (uint64_t)n, 1)) {
                tscan_note(s, HP_SEV_WARNING, "%s%sarchive member at 0x%llx has a bad long name",
                           where ? where : "", where ? ": " : "", (unsigned long long)o);
                name = S("?");
            } else {
                bin rest = bin_from(names, (uint64_t)n);
                ptrdiff_t k = 0;
                while (k < rest.len && rest.p[k] != '\n' && rest.p[k] != 0)
                    k++;
                if (k > 0 && rest.p[k - 1] == '/')
                    k--;
                name = str_make((const char *)rest.p, k);
            }
        } else if (raw.len > 1 && raw.s[raw.len - 1] == '/') {
            name.len--;
        }
        if (cut)
            tscan_note(s, HP_SEV_ERROR, "%s%sarchive member '%s' is truncated",
                       where ? where : "", where ? ": " : "", tscan_text(s, name));
        if (!skip) {
            const char *w = tscan_where(s, where, "%s", tscan_text(s, name));
            tscan_nested(s, body, w);
        }
        if (cut || !tscan_work(s, 60))
            break;
        uint64_t next = doff + dsize + (dsize & 1);
        if (next <= o)
            break;
        o = next;
    }
}

/* ------------------------------------------------------------ dispatch */

/* tscan.nested: any container inside another, back through the readers here */
static int nested(tscan *s, bin data, const char *where)
{
    if (s->stopped)
        return 1;
    int known = elf_is(data) || bin_is(data, 0, ar_magic, 8) || bin_is(data, 0, ar_thin, 8) ||
                bundle_is(data) || bundle_offbin_is(data) || fatbin_is(data);
    if (!known)
        return 0;
    if (s->depth >= TSCAN_MAX_DEPTH) {
        tscan_note(s, HP_SEV_ERROR, "%s: containers nested too deeply; not read",
                   where ? where : "file");
        return 1;
    }
    s->depth++;
    if (elf_is(data)) {
        const char *err = NULL;
        if (scan_elf(s, data, where, NULL, &err) != HP_OK)
            tscan_note(s, HP_SEV_ERROR, "%s: %s", where ? where : "file", err);
    } else if (bin_is(data, 0, ar_magic, 8)) {
        scan_archive(s, data, where);
    } else if (bin_is(data, 0, ar_thin, 8)) {
        tscan_note(s, HP_SEV_WARNING, "%s: thin archive: its members are separate files; list "
                   "them instead", where ? where : "file");
    } else if (bundle_is(data)) {
        bundle_scan_region(s, data, where);
    } else if (bundle_offbin_is(data)) {
        bundle_offbin_scan_region(s, data, where);
    } else {
        fatbin_scan_region(s, data, where);
    }
    s->depth--;
    return 1;
}

static hp_status fail(tscan *s, hp_targets_result *out, hp_status st, const char *why)
{
    s->nnotes = 0;
    s->stopped = 0;
    tscan_note(s, HP_SEV_ERROR, "%s", why);
    out->format = NULL;
    out->code = NULL;
    out->ncode = 0;
    out->notes = s->notes;
    out->nnotes = s->nnotes;
    return st;
}

static hp_status scan(tscan *s, bin data, hp_targets_result *out)
{
    const char *format = NULL, *err = NULL;
    if (data.len == 0)
        return fail(s, out, HP_EFORMAT, "empty file");
    if (elf_is(data)) {
        hp_status st = scan_elf(s, data, NULL, &format, &err);
        if (st != HP_OK)
            return fail(s, out, st, err);
    } else if (bin_is(data, 0, ar_magic, 8)) {
        format = "archive";
        scan_archive(s, data, NULL);
    } else if (bin_is(data, 0, ar_thin, 8)) {
        return fail(s, out, HP_EFORMAT,
                    "thin archive: its members are separate files; list them instead");
    } else if (bin_is(data, 0, "CCOB", 4)) {
        format = "compressed-offload-bundle";
        bundle_scan_region(s, data, NULL);
    } else if (bundle_is(data)) {
        format = "offload-bundle";
        bundle_scan_region(s, data, NULL);
    } else if (bundle_offbin_is(data)) {
        format = "offload-binary";
        bundle_offbin_scan_region(s, data, NULL);
    } else if (fatbin_is(data)) {
        format = "nvidia-fatbin";
        fatbin_scan_region(s, data, NULL);
    } else {
        return fail(s, out, HP_EFORMAT,
                    "not a binary with GPU code (no ELF, archive, offload bundle or fatbin)");
    }
    if (s->nomem)
        return fail(s, out, HP_ENOMEM, "out of memory");
    out->format = format;
    out->code = s->code;
    out->ncode = s->ncode;
    out->notes = s->notes;
    out->nnotes = s->nnotes;
    return HP_OK;
}

hp_status hp_targets_scan(hp_ctx *ctx, const char *path, const void *data, ptrdiff_t len,
                          hp_targets_result *out)
{
    memset(out, 0, sizeof *out);
    if (!ctx || len < 0 || (!data && len > 0))
        return HP_EUSAGE;
    tscan s;
    memset(&s, 0, sizeof s);
    s.nested = nested;
    s.out = &ctx->a;
    s.path = path ? arena_strndup(&ctx->a, path, (ptrdiff_t)strlen(path)) : "";
    if (!s.path)
        return HP_ENOMEM;
    arena_init(&s.tmp, (ptrdiff_t)1 << 16);
    s.tmp.limit = (ptrdiff_t)(TSCAN_MAX_INFLATE_TOTAL + ((uint64_t)64 << 20));
    /* nested data may be walked again, but not without end */
    s.work_cap = (uint64_t)len * 16 + ((uint64_t)64 << 20) + TSCAN_MAX_INFLATE_TOTAL * 2;
    hp_status st = scan(&s, bin_make(data, len), out);
    arena_release(&s.tmp);
    return st;
}

hp_status hp_targets_scan_file(hp_ctx *ctx, const char *path, hp_targets_result *out)
{
    memset(out, 0, sizeof *out);
    if (!ctx || !path)
        return HP_EUSAGE;
    os_map m;
    const char *why = NULL;
    hp_status st = os_map_file(&ctx->a, path, &m, &why);
    if (st != HP_OK) {
        tscan s;
        memset(&s, 0, sizeof s);
        s.out = &ctx->a;
        s.path = arena_strndup(&ctx->a, path, (ptrdiff_t)strlen(path));
        return fail(&s, out, st, why ? why : "cannot read");
    }
    st = hp_targets_scan(ctx, path, m.data, m.len, out);
    os_unmap_file(&m);
    return st;
}

const char *hp_vendor_name(hp_vendor v)
{
    switch (v) {
    case HP_VENDOR_AMD: return "amd";
    case HP_VENDOR_NVIDIA: return "nvidia";
    case HP_VENDOR_NONE: return "none";
    }
    return "none";
}
