/* gpuinfo.c: lookups in the GPU tables of data/tables and the version arithmetic doctor needs. */
#include "gpuinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amd_pci_tab.h"
#include "cuda_driver_tab.h"
#include "gfx_tab.h"
#include "nvidia_models_tab.h"
#include "nvidia_pci_tab.h"

#include "banned.h"

static unsigned parse_uint(const char *s)
{
    unsigned long v = strtoul(s, NULL, 10);
    return v > 0xffffffffUL ? 0u : (unsigned)v;
}

static void fill_gfx(int i, gfx_info *out)
{
    const char *const *r = gfx_rows[i];
    out->name = r[0];
    out->version = parse_uint(r[1]);
    out->family = r[2];
    out->generic = r[3];
    out->wave = (int)parse_uint(r[4]);
    out->xnack = r[5][0] == 'y';
    out->sramecc = r[6][0] == 'y';
    out->lds_kb = (int)parse_uint(r[7]);
    out->products = r[8];
}

int gpuinfo_gfx_by_version(unsigned version, gfx_info *out)
{
    for (int i = 0; i < gfx_rows_COUNT; i++)
        if (parse_uint(gfx_rows[i][1]) == version) {
            fill_gfx(i, out);
            return 1;
        }
    return 0;
}

int gpuinfo_gfx_by_name(const char *name, ptrdiff_t len, gfx_info *out)
{
    const char *colon = memchr(name, ':', (size_t)len);
    if (colon)
        len = colon - name;
    for (int i = 0; i < gfx_rows_COUNT; i++) {
        const char *n = gfx_rows[i][0];
        if ((ptrdiff_t)strlen(n) == len && memcmp(n, name, (size_t)len) == 0) {
            fill_gfx(i, out);
            return 1;
        }
    }
    return 0;
}

void gpuinfo_gfx_format_version(unsigned version, char *buf, size_t n)
{
    snprintf(buf, n, "gfx%u%x%x", version / 10000, (version / 100) % 100, version % 100);
}

/* One "%u" of sscanf: optional white space, an optional sign, digits; unsigned wrap-around
 * for a minus sign as the C library does. Returns 0 if no digits. */
static int scan_u(const char **pp, unsigned long long *v)
{
    const char *p = *pp;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v')
        p++;
    int neg = 0;
    if (*p == '+' || *p == '-')
        neg = *p++ == '-';
    if (*p < '0' || *p > '9')
        return 0;
    unsigned long long x = 0;
    while (*p >= '0' && *p <= '9') {
        if (x < 1000000000ull)
            x = x * 10 + (unsigned)(*p - '0');
        p++;
    }
    if (neg && x)
        x = 0xffffffffull; /* -N wraps to a huge unsigned: out of every range below */
    *v = x;
    *pp = p;
    return 1;
}

long gpuinfo_gfx_parse_override(const char *s, unsigned *major, unsigned *minor, unsigned *step)
{
    unsigned long long a, b, c;
    const char *p = s;
    if (!s || !scan_u(&p, &a) || *p++ != '.' || !scan_u(&p, &b) || *p++ != '.' ||
        !scan_u(&p, &c) || *p != 0)
        return -1;
    if (a > 63 || b > 255 || c > 255)
        return -1;
    *major = (unsigned)a;
    *minor = (unsigned)b;
    *step = (unsigned)c;
    return (long)(a * 10000 + b * 100 + c);
}

int gpuinfo_gfx_same_family(const gfx_info *a, const gfx_info *b)
{
    return a->generic[0] && strcmp(a->generic, b->generic) == 0;
}

int gpuinfo_gfx_valid_target(const char *s, ptrdiff_t len)
{
    gfx_info g;
    if (!gpuinfo_gfx_by_name(s, len, &g))
        return 0;
    const char *p = memchr(s, ':', (size_t)len);
    const char *end = s + len;
    while (p && p < end) {
        const char *f = p + 1;
        const char *q = memchr(f, ':', (size_t)(end - f));
        ptrdiff_t flen = (q ? q : end) - f;
        int ok = 0;
        if (flen == 6 && (f[5] == '+' || f[5] == '-') && memcmp(f, "xnack", 5) == 0)
            ok = g.xnack;
        else if (flen == 8 && (f[7] == '+' || f[7] == '-') && memcmp(f, "sramecc", 7) == 0)
            ok = g.sramecc;
        if (!ok)
            return 0;
        p = q;
    }
    return 1;
}

const char *gpuinfo_amd_pci_name(unsigned device, const char **gfx)
{
    char id[16];
    snprintf(id, sizeof id, "%04x", device & 0xffffu);
    for (int i = 0; i < amd_pci_rows_COUNT; i++)
        if (strcmp(amd_pci_rows[i][0], id) == 0) {
            if (gfx)
                *gfx = amd_pci_rows[i][1];
            return amd_pci_rows[i][2];
        }
    return NULL;
}

static int parse_cc(const char *s, int *major, int *minor)
{
    char *end;
    long a = strtol(s, &end, 10);
    if (end == s || *end != '.')
        return 0;
    long b = strtol(end + 1, NULL, 10);
    if (a < 1 || a > 99 || b < 0 || b > 99)
        return 0;
    *major = (int)a;
    *minor = (int)b;
    return 1;
}

const char *gpuinfo_nv_pci_name(unsigned device, int *major, int *minor)
{
    char id[16];
    snprintf(id, sizeof id, "%04x", device & 0xffffu);
    for (int i = 0; i < nvidia_pci_rows_COUNT; i++)
        if (strcmp(nvidia_pci_rows[i][0], id) == 0) {
            if (!parse_cc(nvidia_pci_rows[i][1], major, minor))
                return NULL;
            return nvidia_pci_rows[i][2];
        }
    return NULL;
}

int gpuinfo_nv_model_cc(const char *model, int *major, int *minor)
{
    const char *p = model;
    while (p && *p) {
        while (*p == ' ' || *p == '-' || *p == '\t')
            p++;
        const char *w = p;
        while (*p && *p != ' ' && *p != '-' && *p != '\t')
            p++;
        size_t n = (size_t)(p - w);
        for (int i = 0; n && i < nvidia_models_rows_COUNT; i++)
            if (strlen(nvidia_models_rows[i][0]) == n &&
                memcmp(nvidia_models_rows[i][0], w, n) == 0)
                return parse_cc(nvidia_models_rows[i][1], major, minor);
    }
    return 0;
}

/* The next numeric field of a dotted version; -1 at the end. */
static long next_field(const char **pp)
{
    const char *p = *pp;
    if (*p < '0' || *p > '9')
        return -1;
    long v = 0;
    while (*p >= '0' && *p <= '9') {
        if (v < 100000000L)
            v = v * 10 + (*p - '0');
        p++;
    }
    if (*p == '.' && p[1] >= '0' && p[1] <= '9')
        p++;
    *pp = p;
    return v;
}

int gpuinfo_ver_cmp(const char *a, const char *b)
{
    for (;;) {
        long x = next_field(&a), y = next_field(&b);
        if (x < 0 && y < 0)
            return 0;
        if (x < 0)
            x = 0;
        if (y < 0)
            y = 0;
        if (x != y)
            return x < y ? -1 : 1;
        if ((*a < '0' || *a > '9') && (*b < '0' || *b > '9'))
            return 0;
    }
}

int gpuinfo_ver_major_minor(const char *s)
{
    if (!s || *s < '0' || *s > '9')
        return -1;
    long a = 0, b = 0;
    int nb = 0;
    while (*s >= '0' && *s <= '9') {
        if (a < 100000L)
            a = a * 10 + (*s - '0');
        s++;
    }
    if (*s++ != '.')
        return -1;
    while (*s >= '0' && *s <= '9') {
        if (b < 1000L)
            b = b * 10 + (*s - '0');
        s++;
        nb++;
    }
    if (!nb || a > 99999 || b > 99)
        return -1;
    return (int)(a * 100 + b);
}

static int cuda_row(const char *cuda)
{
    int mm = gpuinfo_ver_major_minor(cuda);
    for (int i = 0; mm >= 0 && i < cuda_driver_rows_COUNT; i++)
        if (gpuinfo_ver_major_minor(cuda_driver_rows[i][0]) == mm)
            return i;
    return -1;
}

int gpuinfo_cuda_driver_fit(const char *cuda, const char *driver, const char **need)
{
    int i = cuda_row(cuda);
    *need = NULL;
    if (i < 0)
        return CUDA_FIT_UNKNOWN;
    *need = cuda_driver_rows[i][1];
    if (gpuinfo_ver_cmp(driver, cuda_driver_rows[i][1]) >= 0)
        return CUDA_FIT_NATIVE;
    if (gpuinfo_ver_cmp(driver, cuda_driver_rows[i][2]) >= 0)
        return CUDA_FIT_MINOR;
    return CUDA_FIT_OLD;
}

const char *gpuinfo_cuda_max_for_driver(const char *driver)
{
    const char *best = NULL;
    for (int i = 0; i < cuda_driver_rows_COUNT; i++)
        if (gpuinfo_ver_cmp(driver, cuda_driver_rows[i][1]) >= 0)
            best = cuda_driver_rows[i][0];
    return best;
}
