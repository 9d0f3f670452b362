/* amdgpu.c: AMD GPU processor tables (see amdgpu.h). Machine values and feature bits are the
 * ones of the AMDGPU ELF ABI; the generic-target coverage is the HIP runtime's. */
#include "amdgpu.h"

#include <stdio.h>
#include <string.h>

#include "str.h"

#include "banned.h"

/* EF_AMDGPU_MACH values 0x20.. (0 where the value is unused or reserved). */
static const char *const mach_names[] = {
    /* 0x20 */ "gfx600", "gfx601", "gfx700", "gfx701", "gfx702", "gfx703", "gfx704", 0,
    /* 0x28 */ "gfx801", "gfx802", "gfx803", "gfx810", "gfx900", "gfx902", "gfx904", "gfx906",
    /* 0x30 */ "gfx908", "gfx909", "gfx90c", "gfx1010", "gfx1011", "gfx1012", "gfx1030",
    "gfx1031",
    /* 0x38 */ "gfx1032", "gfx1033", "gfx602", "gfx705", "gfx805", "gfx1035", "gfx1034",
    "gfx90a",
    /* 0x40 */ "gfx940", "gfx1100", "gfx1013", "gfx1150", "gfx1103", "gfx1036", "gfx1101",
    "gfx1102",
    /* 0x48 */ "gfx1200", "gfx1250", "gfx1151", "gfx941", "gfx942", 0, "gfx1201", "gfx950",
    /* 0x50 */ "gfx1310", "gfx9-generic", "gfx10-1-generic", "gfx10-3-generic", "gfx11-generic",
    "gfx1152", 0, "gfx1154",
    /* 0x58 */ "gfx1153", "gfx12-generic", "gfx1251", "gfx12-5-generic", "gfx1172", "gfx1170",
    "gfx1171", "gfx9-4-generic",
    /* 0x60 */ 0, 0, "gfx11-7-generic", "gfx13-generic",
};

#define MACH_FIRST 0x20u
#define NMACH (sizeof mach_names / sizeof mach_names[0])

const char *amdgpu_mach_name(unsigned mach)
{
    if (mach < MACH_FIRST || mach - MACH_FIRST >= NMACH)
        return NULL;
    return mach_names[mach - MACH_FIRST];
}

int amdgpu_known(hp_str name)
{
    for (size_t i = 0; i < NMACH; i++)
        if (mach_names[i] && str_eqc(name, mach_names[i]))
            return 1;
    return 0;
}

static int in_list(hp_str s, const char *const *list)
{
    for (; *list; list++)
        if (str_eqc(s, *list))
            return 1;
    return 0;
}

int amdgpu_has_xnack(hp_str proc)
{
    static const char *const xnack[] = {
        "gfx801",  "gfx810",  "gfx900",  "gfx902",  "gfx904",       "gfx906",         "gfx908",
        "gfx909",  "gfx90a",  "gfx90c",  "gfx940",  "gfx941",       "gfx942",         "gfx950",
        "gfx1010", "gfx1011", "gfx1012", "gfx1013", "gfx9-generic", "gfx9-4-generic",
        "gfx10-1-generic", "gfx1250", "gfx1251", NULL};
    return in_list(proc, xnack);
}

int amdgpu_has_sramecc(hp_str proc)
{
    static const char *const sramecc[] = {"gfx906", "gfx908", "gfx90a",         "gfx940",
                                          "gfx941", "gfx942", "gfx950", "gfx9-4-generic",
                                          NULL};
    return in_list(proc, sramecc);
}

/* Generic targets and the processors whose code objects they can stand in for. */
static const struct {
    const char *generic;
    const char *const procs[9];
} generics[] = {
    {"gfx9-generic", {"gfx900", "gfx902", "gfx904", "gfx906", "gfx909", "gfx90c"}},
    {"gfx9-4-generic", {"gfx942", "gfx950"}},
    {"gfx10-1-generic", {"gfx1010", "gfx1011", "gfx1012", "gfx1013"}},
    {"gfx10-3-generic",
     {"gfx1030", "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036"}},
    {"gfx11-generic",
     {"gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150", "gfx1151", "gfx1152", "gfx1153"}},
    {"gfx12-generic", {"gfx1200", "gfx1201"}},
    {"gfx12-5-generic", {"gfx1250", "gfx1251"}},
};

int amdgpu_is_generic(hp_str proc)
{
    return str_ends(proc, S("-generic"));
}

int amdgpu_generic_covers(hp_str generic, hp_str dev)
{
    for (size_t i = 0; i < sizeof generics / sizeof generics[0]; i++) {
        if (!str_eqc(generic, generics[i].generic))
            continue;
        for (int j = 0; j < 9 && generics[i].procs[j]; j++)
            if (str_eqc(dev, generics[i].procs[j]))
                return 1;
    }
    return 0;
}

const char *amdgpu_generic_of(hp_str dev)
{
    for (size_t i = 0; i < sizeof generics / sizeof generics[0]; i++)
        if (amdgpu_generic_covers(str_cstr(generics[i].generic), dev))
            return generics[i].generic;
    return NULL;
}

void amdgpu_tid_parse(hp_str s, amdgpu_tid *t)
{
    memset(t, 0, sizeof *t);
    t->xnack = AMD_FEAT_ANY;
    t->sramecc = AMD_FEAT_ANY;
    ptrdiff_t c = str_chr(s, ':');
    t->proc = c < 0 ? s : str_cut(s, 0, c);
    if (t->proc.len == 0)
        t->bad = 1;
    while (c >= 0) {
        hp_str rest = str_cut(s, c + 1, s.len);
        ptrdiff_t n = str_chr(rest, ':');
        hp_str f = n < 0 ? rest : str_cut(rest, 0, n);
        c = n < 0 ? -1 : c + 1 + n;
        if (f.len < 2 || (f.s[f.len - 1] != '+' && f.s[f.len - 1] != '-')) {
            t->bad = 1;
            continue;
        }
        int on = f.s[f.len - 1] == '+';
        hp_str name = str_cut(f, 0, f.len - 1);
        int *slot = str_eqc(name, "xnack") ? &t->xnack
                    : str_eqc(name, "sramecc") ? &t->sramecc
                                                : NULL;
        if (!slot || *slot != AMD_FEAT_ANY) {
            t->bad = 1;
            continue;
        }
        *slot = on ? AMD_FEAT_ON : AMD_FEAT_OFF;
    }
}

int amdgpu_elf_target(unsigned osabi, unsigned abiversion, uint32_t e_flags, char *buf,
                      size_t bufsize, int *co_version)
{
    unsigned mach = e_flags & 0xffu;
    const char *name = amdgpu_mach_name(mach);
    *co_version = 0;
    if (osabi == 64 && abiversion == 0) {
        /* V2 keeps the processor in a note, not in e_flags */
        *co_version = 2;
        snprintf(buf, bufsize, "unknown");
        return 0;
    }
    if (!name) {
        snprintf(buf, bufsize, "unknown-mach-0x%02x", mach);
        return 0;
    }
    hp_str proc = str_cstr(name);
    int xnack = AMD_FEAT_ANY, sramecc = AMD_FEAT_ANY;
    if (osabi == 64 /* HSA */) {
        if (abiversion == 1) {
            /* V3: a set bit means on; clear means off where the processor has it */
            *co_version = 3;
            if (amdgpu_has_xnack(proc))
                xnack = (e_flags & 0x100u) ? AMD_FEAT_ON : AMD_FEAT_OFF;
            if (amdgpu_has_sramecc(proc))
                sramecc = (e_flags & 0x200u) ? AMD_FEAT_ON : AMD_FEAT_OFF;
        } else {
            /* V4 and later: two-bit states, 0 unsupported, 1 any, 2 off, 3 on */
            *co_version = (int)abiversion + 2;
            unsigned x = (e_flags >> 8) & 3u, e = (e_flags >> 10) & 3u;
            xnack = x == 2 ? AMD_FEAT_OFF : x == 3 ? AMD_FEAT_ON : AMD_FEAT_ANY;
            sramecc = e == 2 ? AMD_FEAT_OFF : e == 3 ? AMD_FEAT_ON : AMD_FEAT_ANY;
        }
    }
    snprintf(buf, bufsize, "%s%s%s", name,
             sramecc == AMD_FEAT_ON ? ":sramecc+" : sramecc == AMD_FEAT_OFF ? ":sramecc-" : "",
             xnack == AMD_FEAT_ON ? ":xnack+" : xnack == AMD_FEAT_OFF ? ":xnack-" : "");
    return 1;
}
