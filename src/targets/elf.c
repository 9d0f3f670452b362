/* elf.c: the ELF header and section table reader (see elf.h). Tables are walked by their
 * entry sizes from the header, and each one is checked to fit before it is read. */
#include "elf.h"

#include "banned.h"

int elf_is(bin data)
{
    return bin_is(data, 0, "\x7f" "ELF", 4);
}

/* Size of the fields read from one section header / program header. */
#define SHDR32 40u
#define SHDR64 64u
#define PHDR32 32u
#define PHDR64 56u

/* Reads the header fields of section i without its name or data. */
static int shdr(const elf_file *e, uint64_t i, elf_sec *s, uint32_t *name_off)
{
    if (i >= e->shnum)
        return 0;
    uint64_t at = e->shoff + i * e->shentsize; /* fits: shnum was cut to the file */
    bin d = e->data;
    int le = e->le;
    if (!bin_has(d, at, e->is64 ? SHDR64 : SHDR32))
        return 0;
    *name_off = bin_u32(d, at, le);
    s->type = bin_u32(d, at + 4, le);
    if (e->is64) {
        s->flags = bin_u64(d, at + 8, le);
        s->addr = bin_u64(d, at + 16, le);
        s->off = bin_u64(d, at + 24, le);
        s->size = bin_u64(d, at + 32, le);
        s->link = bin_u32(d, at + 40, le);
    } else {
        s->flags = bin_u32(d, at + 8, le);
        s->addr = bin_u32(d, at + 12, le);
        s->off = bin_u32(d, at + 16, le);
        s->size = bin_u32(d, at + 20, le);
        s->link = bin_u32(d, at + 24, le);
    }
    return 1;
}

hp_status elf_open(bin data, elf_file *e, const char **err)
{
    memset(e, 0, sizeof *e);
    e->data = data;
    if (!elf_is(data)) {
        *err = "not an ELF file";
        return HP_EFORMAT;
    }
    if (!bin_has(data, 0, 52)) {
        *err = "truncated ELF header";
        return HP_EFORMAT;
    }
    unsigned cls = data.p[4], enc = data.p[5];
    if (cls != 1 && cls != 2) {
        *err = "unknown ELF class";
        return HP_EFORMAT;
    }
    if (enc != 1 && enc != 2) {
        *err = "unknown ELF byte order";
        return HP_EFORMAT;
    }
    e->is64 = cls == 2;
    e->le = enc == 1;
    if (e->is64 && !bin_has(data, 0, 64)) {
        *err = "truncated ELF header";
        return HP_EFORMAT;
    }
    e->osabi = data.p[7];
    e->abiversion = data.p[8];
    int le = e->le;
    e->type = bin_u16(data, 16, le);
    e->machine = bin_u16(data, 18, le);
    uint64_t shnum, shstrndx;
    if (e->is64) {
        e->phoff = bin_u64(data, 32, le);
        e->shoff = bin_u64(data, 40, le);
        e->flags = bin_u32(data, 48, le);
        e->phentsize = bin_u16(data, 54, le);
        e->phnum = bin_u16(data, 56, le);
        e->shentsize = bin_u16(data, 58, le);
        shnum = bin_u16(data, 60, le);
        shstrndx = bin_u16(data, 62, le);
    } else {
        e->phoff = bin_u32(data, 28, le);
        e->shoff = bin_u32(data, 32, le);
        e->flags = bin_u32(data, 36, le);
        e->phentsize = bin_u16(data, 42, le);
        e->phnum = bin_u16(data, 44, le);
        e->shentsize = bin_u16(data, 46, le);
        shnum = bin_u16(data, 48, le);
        shstrndx = bin_u16(data, 50, le);
    }
    uint64_t need = e->is64 ? SHDR64 : SHDR32;
    if (e->shoff == 0) {
        /* no section table: nothing to list (a stripped or odd file) */
        e->shnum = 0;
        return HP_OK;
    }
    if (e->shentsize < need) {
        *err = "bad ELF section header size";
        return HP_EFORMAT;
    }
    if (!bin_has(data, e->shoff, need)) {
        *err = "truncated: the ELF section table lies past the end of the file";
        return HP_EFORMAT;
    }
    /* Section 0 holds the real count and name index when they do not fit in 16 bits. */
    e->shnum = 1;
    elf_sec s0;
    uint32_t dummy;
    memset(&s0, 0, sizeof s0);
    shdr(e, 0, &s0, &dummy);
    if (shnum == 0)
        shnum = s0.size;
    if (shstrndx == 0xffff)
        shstrndx = s0.link;
    uint64_t room = ((uint64_t)data.len - e->shoff) / e->shentsize;
    if (shnum > room) {
        e->truncated = 1;
        shnum = room;
    }
    e->shnum = shnum;
    elf_sec ss;
    memset(&ss, 0, sizeof ss);
    if (shstrndx != 0 && shdr(e, shstrndx, &ss, &dummy) && ss.type != ELF_SHT_NOBITS)
        e->shstrtab = bin_sub(data, ss.off, ss.size);
    return HP_OK;
}

int elf_section(const elf_file *e, uint64_t i, elf_sec *s)
{
    uint32_t name_off = 0;
    memset(s, 0, sizeof *s);
    if (!shdr(e, i, s, &name_off))
        return 0;
    bin st = e->shstrtab;
    if (name_off != 0 && bin_has(st, name_off, 1)) {
        const unsigned char *p = st.p + name_off;
        const unsigned char *z = memchr(p, 0, (size_t)(st.len - (ptrdiff_t)name_off));
        s->name.s = (const char *)p;
        s->name.len = z ? z - p : st.len - (ptrdiff_t)name_off;
    }
    if (s->type == ELF_SHT_NOBITS || s->size == 0)
        return 1;
    if (!bin_has(e->data, s->off, s->size)) {
        s->outside = 1;
        return 1;
    }
    s->data = bin_sub(e->data, s->off, s->size);
    return 1;
}

int elf_has_segment(const elf_file *e, uint32_t pt)
{
    uint64_t need = e->is64 ? PHDR64 : PHDR32;
    if (e->phoff == 0 || e->phentsize < need || !bin_has(e->data, e->phoff, 0))
        return 0;
    uint64_t room = ((uint64_t)e->data.len - e->phoff) / e->phentsize;
    uint64_t n = e->phnum < room ? e->phnum : room;
    for (uint64_t i = 0; i < n; i++)
        if (bin_u32(e->data, e->phoff + i * e->phentsize, e->le) == pt)
            return 1;
    return 0;
}
