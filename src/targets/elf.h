/* elf.h: a reader for ELF files held in memory (32/64-bit, either byte order), with every
 * offset checked against the buffer; it reads headers and section tables, nothing else. */
#ifndef HP_ELF_H
#define HP_ELF_H

#include <stdint.h>

#include "bin.h"
#include "hipport.h"

enum {
    ELF_ET_REL = 1,
    ELF_ET_EXEC = 2,
    ELF_ET_DYN = 3,
    ELF_EM_CUDA = 190,
    ELF_EM_AMDGPU = 224,
    ELF_SHT_NOBITS = 8,
    ELF_SHT_NOTE = 7,
    ELF_SHT_LLVM_OFFLOADING = 0x6fff4c0b,
    ELF_PT_INTERP = 3,
    ELF_OSABI_AMDGPU_HSA = 64,
    ELF_OSABI_AMDGPU_PAL = 65,
    ELF_OSABI_AMDGPU_MESA3D = 66
};

typedef struct elf_file {
    bin data;            /* the whole file */
    int is64;            /* ELFCLASS64 */
    int le;              /* little-endian */
    unsigned type;       /* e_type */
    unsigned machine;    /* e_machine */
    unsigned osabi;      /* e_ident[EI_OSABI] */
    unsigned abiversion; /* e_ident[EI_ABIVERSION] */
    uint32_t flags;      /* e_flags */
    uint64_t shoff;      /* section header table */
    uint64_t shentsize;
    uint64_t shnum;      /* sections whose headers lie inside the file */
    uint64_t phoff;      /* program header table */
    uint64_t phentsize;
    uint64_t phnum;
    bin shstrtab;        /* section names; empty if missing or outside the file */
    int truncated;       /* the section header table runs past the end (shnum was cut) */
} elf_file;

typedef struct elf_sec {
    hp_str name;    /* points into the file; empty if unnamed */
    uint32_t type;
    uint64_t flags;
    uint64_t addr;
    uint64_t off;
    uint64_t size;
    uint32_t link;
    bin data;       /* the contents; empty for SHT_NOBITS */
    int outside;    /* the contents do not lie inside the file */
} elf_sec;

/* Does data start with the ELF magic? */
int elf_is(bin data);

/* Reads the ELF header and locates the section tables. On a malformed header returns
 * HP_EFORMAT with *err set to a static one-line reason. */
hp_status elf_open(bin data, elf_file *e, const char **err);

/* Section i (0 <= i < e->shnum); returns 0 when its header cannot be read. */
int elf_section(const elf_file *e, uint64_t i, elf_sec *s);

/* Does the file have a program header of type pt? */
int elf_has_segment(const elf_file *e, uint32_t pt);

#endif
