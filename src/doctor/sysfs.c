/* sysfs.c: capped reads of small system files under a root, and the KFD topology, PCI and
 * NVIDIA driver records built from them (see sysfs.h). */
#define _GNU_SOURCE 1
#include "sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "str.h"

#include "banned.h"

void sysfs_init(sysfs *s, arena *a, const char *root)
{
    memset(s, 0, sizeof *s);
    s->a = a;
    if (!root || !root[0] || strcmp(root, "/") == 0) {
        s->root = "";
        s->real = 1;
        return;
    }
    size_t n = strlen(root);
    while (n > 1 && root[n - 1] == '/')
        n--;
    s->root = arena_strndup(a, root, (ptrdiff_t)n);
}

/* Resolves a machine path inside the fake root as if the root were "/": symlinks, absolute
 * ones too, are followed inside it, and ".." stops at it. With follow_last a final symlink is
 * followed too. Returns the resolved machine path, or NULL past 40 links (a loop) or PATH_MAX. */
static const char *resolve(sysfs *s, const char *path, int follow_last)
{
    char done[PATH_MAX], todo[PATH_MAX], link[PATH_MAX], host[PATH_MAX];
    size_t dl = 0, rl = strlen(s->root);
    done[0] = 0;
    if (strlen(path) >= sizeof todo)
        return NULL;
    memcpy(todo, path, strlen(path) + 1);
    int hops = 0;
    char *p = todo;
    while (*p) {
        while (*p == '/')
            p++;
        if (!*p)
            break;
        char *e = p;
        while (*e && *e != '/')
            e++;
        size_t cl = (size_t)(e - p);
        const char *q = e;
        while (*q == '/')
            q++;
        int last = *q == 0;
        if (cl == 1 && p[0] == '.') {
            p = e;
            continue;
        }
        if (cl == 2 && p[0] == '.' && p[1] == '.') {
            while (dl > 0 && done[dl - 1] != '/')
                dl--;
            if (dl > 0)
                dl--;
            done[dl] = 0;
            p = e;
            continue;
        }
        if (dl + 1 + cl >= sizeof done || rl + dl + 1 + cl >= sizeof host)
            return NULL;
        done[dl] = '/';
        memcpy(done + dl + 1, p, cl);
        done[dl + 1 + cl] = 0;
        if (!last || follow_last) {
            memcpy(host, s->root, rl);
            memcpy(host + rl, done, dl + 1 + cl + 1);
            ssize_t r = readlink(host, link, sizeof link - 1);
            if (r > 0) {
                if (++hops > 40)
                    return NULL;
                link[r] = 0;
                size_t restl = strlen(e);
                if ((size_t)r + 1 + restl >= sizeof todo)
                    return NULL;
                /* the rest of the path goes after the link's target */
                memmove(todo + r + 1, e, restl + 1);
                memcpy(todo, link, (size_t)r);
                todo[r] = '/';
                p = todo;
                if (link[0] == '/')
                    dl = 0;
                done[dl] = 0;
                continue;
            }
        }
        dl += 1 + cl;
        p = e;
    }
    return dl ? arena_strndup(s->a, done, (ptrdiff_t)dl) : "/";
}

static const char *host_of(sysfs *s, const char *path, int follow_last)
{
    if (!s->root[0])
        return path;
    const char *m = resolve(s, path, follow_last);
    if (!m)
        return NULL;
    return arena_printf(s->a, "%s%s%s", s->root, m[0] == '/' ? "" : "/", m);
}

const char *sysfs_host(sysfs *s, const char *path)
{
    return host_of(s, path, 1);
}

void sysfs_problem_add(sysfs *s, const char *path, const char *message)
{
    for (int i = 0; i < s->nproblems; i++)
        if (strcmp(s->problems[i].path, path) == 0)
            return; /* one problem per path */
    if (s->nproblems == s->capproblems) {
        int ncap = s->capproblems ? 2 * s->capproblems : 8;
        s->problems = arena_grow(s->a, s->problems,
                                 (ptrdiff_t)s->capproblems * (ptrdiff_t)sizeof *s->problems,
                                 (ptrdiff_t)ncap * (ptrdiff_t)sizeof *s->problems,
                                 _Alignof(sysfs_problem));
        s->capproblems = ncap;
    }
    s->problems[s->nproblems].path = arena_strndup(s->a, path, (ptrdiff_t)strlen(path));
    s->problems[s->nproblems].message = message;
    s->nproblems++;
}

static const char *errno_text(int e)
{
    switch (e) {
    case EACCES: return "permission denied";
    case EPERM: return "operation not permitted (a container's device cgroup can hide a GPU)";
    case ELOOP: return "too many levels of symbolic links (a symlink loop)";
    case ENAMETOOLONG: return "file name too long";
    case EIO: return "input/output error";
    default: return strerror(e);
    }
}

/* Nothing is allocated from the arena while a file or directory is open: an allocation that
 * runs out of memory jumps to the run's recovery point and would leak the descriptor. */
char *sysfs_read(sysfs *s, const char *path, ptrdiff_t cap, ptrdiff_t *len)
{
    if (len)
        *len = 0;
    const char *host = sysfs_host(s, path);
    if (!host) {
        sysfs_problem_add(s, path, arena_printf(s->a, "cannot open: %s", errno_text(ELOOP)));
        return NULL;
    }
    struct stat sb;
    if (stat(host, &sb) != 0) {
        int e = errno;
        if (e != ENOENT && e != ENOTDIR)
            sysfs_problem_add(s, path, arena_printf(s->a, "cannot open: %s", errno_text(e)));
        return NULL;
    }
    if (!S_ISREG(sb.st_mode)) {
        sysfs_problem_add(s, path, S_ISDIR(sb.st_mode) ? "is a directory, not a file"
                                                       : "not a regular file");
        return NULL;
    }
    if (sb.st_size > (off_t)cap) {
        sysfs_problem_add(s, path, arena_printf(s->a, "too large (%lld bytes; the limit is %lld)",
                                                (long long)sb.st_size, (long long)cap));
        return NULL;
    }
    /* sysfs and procfs report 4096 or 0 whatever the content: read those through a buffer of
     * the small cap (plus one byte, to tell a file that is over it), others at their size */
    int pseudo = sb.st_size == 0 || sb.st_size == 4096;
    char small[SYSFS_SMALL + 2];
    ptrdiff_t want = pseudo ? (cap < SYSFS_SMALL ? cap : SYSFS_SMALL) + 1 : (ptrdiff_t)sb.st_size + 1;
    char *heap = pseudo ? NULL : arena_alloc_nozero(s->a, 1, 1, want + 1);
    char *p = heap ? heap : small;
    const char *fail = NULL; /* what went wrong (static text), with errno in e */
    int e = 0;
    ptrdiff_t got = 0;
    int fd = open(host, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
        fail = "cannot open";
        e = errno;
    } else {
        struct stat sb2;
        if (fstat(fd, &sb2) != 0 || !S_ISREG(sb2.st_mode)) {
            fail = "changed while being read";
        } else {
            while (got < want) {
                ssize_t r = read(fd, p + got, (size_t)(want - got));
                if (r < 0 && errno == EINTR)
                    continue;
                if (r < 0) {
                    fail = "read error";
                    e = errno;
                    break;
                }
                if (r == 0)
                    break;
                got += r;
            }
        }
        close(fd);
    }
    if (fail) {
        if (!(e == ENOENT && fd < 0)) /* gone since stat: as if missing */
            sysfs_problem_add(s, path, e ? arena_printf(s->a, "%s: %s", fail, errno_text(e))
                                         : fail);
        return NULL;
    }
    if (got == want && (pseudo || got > cap)) {
        sysfs_problem_add(s, path, arena_printf(s->a, "too large (over the limit of %lld bytes)",
                                                (long long)(want - 1)));
        return NULL;
    }
    if (got == want)
        got--; /* grew while being read: keep what stat saw */
    char *out = heap ? heap : arena_strndup(s->a, small, got);
    out[got] = 0;
    if (len)
        *len = got;
    return out;
}

char *sysfs_line(sysfs *s, const char *path)
{
    ptrdiff_t n;
    char *t = sysfs_read(s, path, SYSFS_SMALL, &n);
    if (!t)
        return NULL;
    hp_str l = str_make(t, n);
    ptrdiff_t nl = str_chr(l, '\n');
    if (nl >= 0)
        l.len = nl;
    l = str_trim(l);
    if (!l.len || memchr(l.s, 0, (size_t)l.len))
        return NULL;
    return arena_strndup(s->a, l.s, l.len);
}

int sysfs_exists(sysfs *s, const char *path)
{
    os_stat st;
    const char *h = host_of(s, path, 0);
    return h && os_stat_path(h, 1, &st) == 0;
}

int sysfs_is_dir(sysfs *s, const char *path)
{
    os_stat st;
    const char *h = sysfs_host(s, path);
    return h && os_stat_path(h, 0, &st) == 0 && st.is_dir;
}

int sysfs_is_file(sysfs *s, const char *path)
{
    os_stat st;
    const char *h = sysfs_host(s, path);
    return h && os_stat_path(h, 0, &st) == 0 && st.is_reg;
}

static int cmp_dirent(const void *x, const void *y)
{
    return strcmp(((const os_dirent *)x)->name, ((const os_dirent *)y)->name);
}

void sysfs_list(sysfs *s, const char *dir, os_dirent **ents, ptrdiff_t *n)
{
    *ents = NULL;
    *n = 0;
    const char *h = sysfs_host(s, dir);
    if (!h) {
        sysfs_problem_add(s, dir, arena_printf(s->a, "cannot list: %s", errno_text(ELOOP)));
        return;
    }
    /* the names go to a scratch arena of its own while the directory is open (see
     * sysfs_read), then to the run's arena */
    arena tmp;
    arena_init(&tmp, 1 << 14);
    ptrdiff_t cap = 64, cnt = 0;
    os_dirent *v = NEW(&tmp, os_dirent, cap);
    int e = 0;
    DIR *d = v ? opendir(h) : NULL;
    if (!d)
        e = v ? errno : ENOMEM;
    while (d && cnt < SYSFS_MAX_ENTRIES) {
        errno = 0;
        struct dirent *de = readdir(d);
        if (!de) {
            e = errno;
            break;
        }
        if (de->d_name[0] == '.' && (!de->d_name[1] || (de->d_name[1] == '.' && !de->d_name[2])))
            continue;
        if (cnt == cap) {
            os_dirent *w = arena_grow(&tmp, v, cap * (ptrdiff_t)sizeof *v,
                                      2 * cap * (ptrdiff_t)sizeof *v, _Alignof(os_dirent));
            if (!w) {
                e = ENOMEM;
                break;
            }
            v = w;
            cap *= 2;
        }
        v[cnt].name = arena_strndup(&tmp, de->d_name, (ptrdiff_t)strlen(de->d_name));
        if (!v[cnt].name) {
            e = ENOMEM;
            break;
        }
        switch (de->d_type) {
        case DT_REG: v[cnt].type = OS_DT_REG; break;
        case DT_DIR: v[cnt].type = OS_DT_DIR; break;
        case DT_LNK: v[cnt].type = OS_DT_LNK; break;
        case DT_UNKNOWN: v[cnt].type = OS_DT_UNKNOWN; break;
        default: v[cnt].type = OS_DT_OTHER; break;
        }
        cnt++;
    }
    if (d)
        closedir(d);
    /* nothing is open now: copying into the run's arena may jump */
    os_dirent *out = NEW(s->a, os_dirent, cnt + 1);
    for (ptrdiff_t i = 0; i < cnt; i++) {
        out[i].name = arena_strndup(s->a, v[i].name, (ptrdiff_t)strlen(v[i].name));
        out[i].type = v[i].type;
    }
    arena_release(&tmp);
    if (cnt > 1)
        qsort(out, (size_t)cnt, sizeof *out, cmp_dirent);
    if (e && e != ENOENT && e != ENOTDIR && cnt == 0)
        sysfs_problem_add(s, dir, arena_printf(s->a, "cannot list: %s", errno_text(e)));
    *ents = out;
    *n = cnt;
}

const char *sysfs_link_base(sysfs *s, const char *path)
{
    char buf[PATH_MAX];
    const char *h = host_of(s, path, 0);
    ssize_t r = h ? readlink(h, buf, sizeof buf - 1) : -1;
    if (r <= 0)
        return NULL;
    buf[r] = 0;
    while (r > 1 && buf[r - 1] == '/')
        buf[--r] = 0;
    const char *b = strrchr(buf, '/');
    b = b ? b + 1 : buf;
    return *b ? arena_strndup(s->a, b, (ptrdiff_t)strlen(b)) : NULL;
}

int sysfs_access_rw(sysfs *s, const char *path)
{
    if (!s->real)
        return -1;
    return access(path, R_OK | W_OK) == 0;
}

const char *sysfs_realpath(sysfs *s, const char *path)
{
    if (s->real) {
        char buf[PATH_MAX]; /* on the stack: nothing to leak if the arena copy jumps */
        if (!realpath(path, buf))
            return NULL;
        return arena_strndup(s->a, buf, (ptrdiff_t)strlen(buf));
    }
    os_stat st;
    const char *h = host_of(s, path, 1);
    if (!h || os_stat_path(h, 0, &st) != 0)
        return NULL;
    return resolve(s, path, 1);
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

int sysfs_parse_props(arena *a, const char *text, ptrdiff_t len, sysfs_props *out)
{
    int cap = 64;
    out->v = NEW(a, sysfs_kv, cap);
    out->n = 0;
    hp_str t = str_make(text, len);
    while (t.len > 0) {
        ptrdiff_t nl = str_chr(t, '\n');
        hp_str line = str_cut(t, 0, nl < 0 ? t.len : nl);
        t = nl < 0 ? str_make(t.s + t.len, 0) : str_cut(t, nl + 1, t.len);
        line = str_trim(line);
        ptrdiff_t sp = 0; /* keys are [A-Za-z0-9_]+ */
        while (sp < line.len && (is_digit(line.s[sp]) || line.s[sp] == '_' ||
                                 (line.s[sp] >= 'a' && line.s[sp] <= 'z') ||
                                 (line.s[sp] >= 'A' && line.s[sp] <= 'Z')))
            sp++;
        if (sp == 0 || sp == line.len || sp > 63 || !str_is_space(line.s[sp]))
            continue;
        hp_str val = str_trim(str_cut(line, sp, line.len));
        if (!val.len)
            continue;
        unsigned long long v = 0;
        int ok = 1;
        for (ptrdiff_t i = 0; i < val.len; i++) {
            unsigned dgt = (unsigned)(val.s[i] - '0');
            if (!is_digit(val.s[i]) || v > (~0ull - dgt) / 10) {
                ok = 0; /* not a number, or past 64 bits */
                break;
            }
            v = v * 10 + dgt;
        }
        if (!ok)
            continue;
        if (out->n == cap) {
            out->v = arena_grow(a, out->v, (ptrdiff_t)cap * (ptrdiff_t)sizeof *out->v,
                                (ptrdiff_t)cap * 2 * (ptrdiff_t)sizeof *out->v, _Alignof(sysfs_kv));
            cap *= 2;
        }
        if (out->n >= 4096)
            break;
        out->v[out->n].key = arena_strndup(a, line.s, sp);
        out->v[out->n].val = v;
        out->n++;
    }
    return out->n;
}

int sysfs_prop(const sysfs_props *p, const char *key, unsigned long long *v)
{
    for (int i = 0; i < p->n; i++)
        if (strcmp(p->v[i].key, key) == 0) {
            *v = p->v[i].val;
            return 1;
        }
    return 0;
}

/* Entry names that are decimal numbers, in numeric order (nodes/10 after nodes/9). */
static int numeric_name(const char *s, long *v)
{
    if (!*s || strlen(s) > 9)
        return 0;
    long x = 0;
    for (; *s; s++) {
        if (!is_digit(*s))
            return 0;
        x = x * 10 + (*s - '0');
    }
    *v = x;
    return 1;
}

static int cmp_long(const void *x, const void *y)
{
    long a = *(const long *)x, b = *(const long *)y;
    return (a > b) - (a < b);
}

static const char *const kfd_nodes = "/sys/class/kfd/kfd/topology/nodes";

void sysfs_kfd_gpus(sysfs *s, sysfs_kfd_node **out, int *n, int *present)
{
    *out = NULL;
    *n = 0;
    *present = sysfs_is_dir(s, kfd_nodes);
    if (!*present)
        return;
    os_dirent *ents;
    ptrdiff_t ne;
    sysfs_list(s, kfd_nodes, &ents, &ne);
    long *ids = NEW(s->a, long, ne + 1);
    ptrdiff_t nid = 0;
    for (ptrdiff_t i = 0; i < ne; i++)
        if (numeric_name(ents[i].name, &ids[nid]))
            nid++;
    qsort(ids, (size_t)nid, sizeof *ids, cmp_long);
    sysfs_kfd_node *v = NEW(s->a, sysfs_kfd_node, nid + 1);
    int cnt = 0;
    for (ptrdiff_t i = 0; i < nid; i++) {
        const char *dir = arena_printf(s->a, "%s/%ld", kfd_nodes, ids[i]);
        ptrdiff_t len;
        const char *propsp = arena_printf(s->a, "%s/properties", dir);
        char *text = sysfs_read(s, propsp, SYSFS_SMALL, &len);
        if (!text)
            continue;
        sysfs_kfd_node *k = &v[cnt];
        memset(k, 0, sizeof *k);
        k->node = (int)ids[i];
        sysfs_parse_props(s->a, text, len, &k->props);
        unsigned long long simd = 0;
        sysfs_prop(&k->props, "simd_count", &simd);
        if (k->props.n == 0) {
            /* an empty read: the kernel refuses to show a GPU the cgroup hides */
            sysfs_problem_add(s, propsp, len ? "garbled: not one 'key value' line"
                                             : "empty (a container's device cgroup can hide a "
                                               "GPU this way)");
            continue;
        }
        if (simd == 0)
            continue; /* a CPU node */
        const char *gid = sysfs_line(s, arena_printf(s->a, "%s/gpu_id", dir));
        k->gpu_id = gid ? strtoull(gid, NULL, 10) : 0;
        const char *name = sysfs_line(s, arena_printf(s->a, "%s/name", dir));
        k->name = name ? name : "";
        /* VRAM: the framebuffer heaps (heap_type 1 public, 2 private) */
        os_dirent *banks;
        ptrdiff_t nb;
        const char *bdir = arena_printf(s->a, "%s/mem_banks", dir);
        sysfs_list(s, bdir, &banks, &nb);
        for (ptrdiff_t b = 0; b < nb && b < 64; b++) {
            long bid;
            if (!numeric_name(banks[b].name, &bid))
                continue;
            ptrdiff_t bl;
            char *bt = sysfs_read(s, arena_printf(s->a, "%s/%ld/properties", bdir, bid),
                                  SYSFS_SMALL, &bl);
            if (!bt)
                continue;
            sysfs_props bp;
            sysfs_parse_props(s->a, bt, bl, &bp);
            unsigned long long ht = 0, sz = 0;
            if (sysfs_prop(&bp, "heap_type", &ht) && (ht == 1 || ht == 2) &&
                sysfs_prop(&bp, "size_in_bytes", &sz) && sz < (1ull << 62) &&
                k->vram_bytes < (1ll << 62) - (long long)sz)
                k->vram_bytes += (long long)sz;
        }
        cnt++;
    }
    *out = v;
    *n = cnt;
}

/* A sysfs hex attribute ("0x10de\n"); 1 if well-formed. */
static int read_hex(sysfs *s, const char *path, unsigned *v)
{
    const char *l = sysfs_line(s, path);
    if (!l)
        return 0;
    char *end;
    unsigned long x = strtoul(l, &end, 16);
    if (end == l || *end || x > 0xffffffffUL)
        return 0;
    *v = (unsigned)x;
    return 1;
}

static int cmp_pci(const void *x, const void *y)
{
    return strcmp(((const sysfs_pci_dev *)x)->bdf, ((const sysfs_pci_dev *)y)->bdf);
}

void sysfs_pci_gpus(sysfs *s, sysfs_pci_dev **out, int *n)
{
    static const char dir[] = "/sys/bus/pci/devices";
    os_dirent *ents;
    ptrdiff_t ne;
    *out = NULL;
    *n = 0;
    sysfs_list(s, dir, &ents, &ne);
    sysfs_pci_dev *v = NEW(s->a, sysfs_pci_dev, ne + 1);
    int cnt = 0;
    for (ptrdiff_t i = 0; i < ne; i++) {
        const char *d = arena_printf(s->a, "%s/%s", dir, ents[i].name);
        sysfs_pci_dev p;
        memset(&p, 0, sizeof p);
        if (!read_hex(s, arena_printf(s->a, "%s/vendor", d), &p.vendor) ||
            (p.vendor != 0x1002 && p.vendor != 0x10de))
            continue;
        /* display controllers (0x03xxxx) and processing accelerators (0x12xxxx: Instinct
         * MI300); the GPUs' audio functions (0x04xxxx) are not GPUs */
        if (!read_hex(s, arena_printf(s->a, "%s/class", d), &p.cls) ||
            ((p.cls >> 16) != 0x03 && (p.cls >> 16) != 0x12))
            continue;
        if (!read_hex(s, arena_printf(s->a, "%s/device", d), &p.device))
            continue;
        read_hex(s, arena_printf(s->a, "%s/subsystem_vendor", d), &p.subvendor);
        read_hex(s, arena_printf(s->a, "%s/subsystem_device", d), &p.subdevice);
        read_hex(s, arena_printf(s->a, "%s/revision", d), &p.revision);
        p.bdf = ents[i].name;
        p.driver = sysfs_link_base(s, arena_printf(s->a, "%s/driver", d));
        v[cnt++] = p;
    }
    qsort(v, (size_t)cnt, sizeof *v, cmp_pci);
    *out = v;
    *n = cnt;
}

const char *sysfs_header(arena *a, const char *text, const char *key, int headers_only)
{
    size_t kl = strlen(key);
    const char *p = text;
    while (p && *p) {
        const char *nl = strchr(p, '\n');
        const char *end = nl ? nl : p + strlen(p);
        hp_str line = str_make(p, end - p);
        if (line.len && line.s[line.len - 1] == '\r')
            line.len--;
        if (headers_only && !str_trim(line).len)
            break; /* headers end at the first empty line */
        if ((size_t)line.len > kl && memcmp(line.s, key, kl) == 0 && line.s[kl] == ':') {
            hp_str v = str_trim(str_cut(line, (ptrdiff_t)kl + 1, line.len));
            return arena_strndup(a, v.s, v.len);
        }
        p = nl ? nl + 1 : NULL;
    }
    return NULL;
}

void sysfs_nvidia_gpus(sysfs *s, sysfs_nv_gpu **out, int *n)
{
    static const char dir[] = "/proc/driver/nvidia/gpus";
    os_dirent *ents;
    ptrdiff_t ne;
    *out = NULL;
    *n = 0;
    sysfs_list(s, dir, &ents, &ne);
    sysfs_nv_gpu *v = NEW(s->a, sysfs_nv_gpu, ne + 1);
    int cnt = 0;
    for (ptrdiff_t i = 0; i < ne; i++) {
        const char *t =
            sysfs_read(s, arena_printf(s->a, "%s/%s/information", dir, ents[i].name),
                       SYSFS_SMALL, NULL);
        if (!t)
            continue;
        sysfs_nv_gpu g;
        memset(&g, 0, sizeof g);
        g.bdf = sysfs_header(s->a, t, "Bus Location", 0);
        if (!g.bdf || !*g.bdf)
            g.bdf = ents[i].name;
        g.model = sysfs_header(s->a, t, "Model", 0);
        g.uuid = sysfs_header(s->a, t, "GPU UUID", 0);
        g.minor = sysfs_header(s->a, t, "Device Minor", 0);
        if (g.minor && (strlen(g.minor) > 4 || strspn(g.minor, "0123456789") != strlen(g.minor)))
            g.minor = NULL; /* not a device minor number */
        g.excluded = sysfs_header(s->a, t, "GPU Excluded", 0);
        g.firmware = sysfs_header(s->a, t, "GPU Firmware", 0);
        g.bus_type = sysfs_header(s->a, t, "Bus Type", 0);
        v[cnt++] = g;
    }
    *out = v;
    *n = cnt;
}

/* The first token shaped like N.N or N.N.N after "Module" ("... Kernel Module  580.159.04"). */
static const char *driver_version_in(arena *a, const char *text)
{
    const char *m = strstr(text, "Module");
    const char *p = m ? m : text;
    const char *nl = strchr(text, '\n');
    for (; *p && (!nl || p < nl); p++) {
        if (!is_digit(*p) || (p > text && (is_digit(p[-1]) || p[-1] == '.')))
            continue;
        const char *q = p;
        int dots = 0;
        while (is_digit(*q) || (*q == '.' && is_digit(q[1]))) {
            dots += *q == '.';
            q++;
        }
        if (dots >= 1 && dots <= 3 && (*q == ' ' || *q == '\t' || *q == '\n' || !*q))
            return arena_strndup(a, p, q - p);
        p = q - 1;
    }
    return NULL;
}

const char *sysfs_nvidia_driver(sysfs *s, const char **source)
{
    static const char proc[] = "/proc/driver/nvidia/version";
    static const char mod[] = "/sys/module/nvidia/version";
    const char *t = sysfs_read(s, proc, SYSFS_SMALL, NULL);
    const char *v = t ? driver_version_in(s->a, t) : NULL;
    if (v) {
        *source = proc;
        return v;
    }
    const char *l = sysfs_line(s, mod);
    if (l && is_digit(l[0])) {
        *source = mod;
        return l;
    }
    *source = NULL;
    return NULL;
}
