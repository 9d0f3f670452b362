/* fuzz_doctor.c: libFuzzer target for the text doctor reads from system files: KFD "key value"
 * properties, "Key: value" driver files and METADATA headers, HSA_OVERRIDE_GFX_VERSION values,
 * target ids and dotted versions. The first byte picks the reader; the rest is its input.
 * Seeds: the files under tests/doctor/roots. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "gpuinfo.h"
#include "sysfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > (1 << 20))
        return 0;
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0; /* the readers get NUL-terminated text, as sysfs_read gives */
    arena a;
    arena_init(&a, 1 << 16);
    unsigned x, y, z;
    int major, minor;
    const char *need;
    switch (data[0] % 6) {
    case 0: {
        sysfs_props p;
        unsigned long long v;
        sysfs_parse_props(&a, text, (ptrdiff_t)size - 1, &p);
        sysfs_prop(&p, "gfx_target_version", &v);
        break;
    }
    case 1:
        sysfs_header(&a, text, "Model", 0);
        sysfs_header(&a, text, "Version", 1);
        break;
    case 2:
        gpuinfo_gfx_parse_override(text, &x, &y, &z);
        break;
    case 3:
        gpuinfo_gfx_valid_target(text, (ptrdiff_t)strlen(text));
        gpuinfo_nv_model_cc(text, &major, &minor);
        break;
    case 4:
        gpuinfo_ver_major_minor(text);
        gpuinfo_cuda_driver_fit(text, "580.65.06", &need);
        gpuinfo_cuda_max_for_driver(text);
        break;
    default: {
        /* two versions separated by the first NUL or newline */
        char *nl = strchr(text, '\n');
        const char *b = nl ? (*nl = 0, nl + 1) : "";
        gpuinfo_ver_cmp(text, b);
        break;
    }
    }
    arena_release(&a);
    free(text);
    return 0;
}
