/* amdgpu.h: AMD GPU processor names: the EF_AMDGPU_MACH table of code objects, which
 * processors have the xnack and sramecc features, generic targets, and target IDs. */
#ifndef HP_AMDGPU_H
#define HP_AMDGPU_H

#include <stddef.h>
#include <stdint.h>

#include "hipport.h"

/* Processor name for an EF_AMDGPU_MACH value; NULL if unknown. */
const char *amdgpu_mach_name(unsigned mach);

/* Is name a processor (or generic target) the tables know? */
int amdgpu_known(hp_str name);
/* Does the processor have xnack / sramecc? */
int amdgpu_has_xnack(hp_str proc);
int amdgpu_has_sramecc(hp_str proc);
/* Is proc a generic target ("gfx11-generic")? Does generic cover the processor dev? */
int amdgpu_is_generic(hp_str proc);
int amdgpu_generic_covers(hp_str generic, hp_str dev);
/* The generic target that covers dev, or NULL. */
const char *amdgpu_generic_of(hp_str dev);

/* Feature states in target IDs and code objects. */
enum { AMD_FEAT_UNSUPPORTED = -2, AMD_FEAT_ANY = -1, AMD_FEAT_OFF = 0, AMD_FEAT_ON = 1 };

/* A parsed target ID "gfx90a:sramecc+:xnack-". */
typedef struct amdgpu_tid {
    hp_str proc;
    int xnack;   /* AMD_FEAT_ANY, _OFF or _ON */
    int sramecc;
    int bad;     /* an unknown or repeated feature, or a malformed string */
} amdgpu_tid;

void amdgpu_tid_parse(hp_str s, amdgpu_tid *t);

/* Describes an AMDGPU code object from its ELF header: the target ID as LLVM writes it
 * (processor, then ":sramecc+/-" and ":xnack+/-" where pinned) into buf, and the code
 * object version (3..6, 0 if not HSA). Returns 0 when the machine value is unknown (buf then
 * holds "unknown-mach-0xNN") and for code object v2, whose processor is in a note. */
int amdgpu_elf_target(unsigned osabi, unsigned abiversion, uint32_t e_flags, char *buf,
                      size_t bufsize, int *co_version);

#endif
