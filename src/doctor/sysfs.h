/* sysfs.h: reading a machine's small system files (sysfs, procfs, version files) under a root
 * directory, so that a fake root stands in for a real machine; KFD topology, PCI and NVIDIA
 * driver records parsed from them. Reads are capped and never follow a path outside the
 * patterns asked for, so loops and huge files cost nothing. */
#ifndef HP_SYSFS_H
#define HP_SYSFS_H

#include <stddef.h>

#include "arena.h"
#include "hipport.h"
#include "os.h"

#define SYSFS_SMALL ((ptrdiff_t)64 << 10)   /* cap for sysfs, procfs and version files */
#define SYSFS_META ((ptrdiff_t)4 << 20)     /* cap for Python package metadata */
#define SYSFS_MAX_ENTRIES 65536             /* directory entries looked at */

/* Something that exists but could not be read: the report lists it and the CLI exits 3. */
typedef struct sysfs_problem {
    const char *path;    /* the machine's path ("/sys/...") */
    const char *message; /* one line */
} sysfs_problem;

typedef struct sysfs {
    arena *a;
    const char *root;    /* prefix added to every path: "" for this machine */
    int real;            /* reading this machine (root "/" or none) */
    sysfs_problem *problems;
    int nproblems, capproblems;
} sysfs;

/* root NULL, "" or "/" reads this machine. */
void sysfs_init(sysfs *s, arena *a, const char *root);
/* The host path of a machine path: root + path, with the symlinks inside a fake root followed
 * within it (an absolute link means the root's path, as it would on that machine); NULL when
 * they loop. */
const char *sysfs_host(sysfs *s, const char *path);
void sysfs_problem_add(sysfs *s, const char *path, const char *message);

/* Reads a regular file of at most cap bytes. NULL when it does not exist (quietly) or cannot be
 * read (a problem is recorded). The text is NUL-terminated; *len may be NULL. */
char *sysfs_read(sysfs *s, const char *path, ptrdiff_t cap, ptrdiff_t *len);
/* The first line of a small file, trimmed; NULL if missing or empty. */
char *sysfs_line(sysfs *s, const char *path);
int sysfs_exists(sysfs *s, const char *path);   /* lstat succeeds */
int sysfs_is_dir(sysfs *s, const char *path);   /* a directory (following links) */
int sysfs_is_file(sysfs *s, const char *path);  /* a regular file (following links) */
/* Entries of a directory, sorted; at most SYSFS_MAX_ENTRIES; 0 entries when missing. */
void sysfs_list(sysfs *s, const char *dir, os_dirent **ents, ptrdiff_t *n);
/* The last component of a symlink's target ("nvidia" for .../drivers/nvidia), or NULL. */
const char *sysfs_link_base(sysfs *s, const char *path);
/* On this machine: may the calling user read and write path? 1 yes, 0 no; -1 for a fake root. */
int sysfs_access_rw(sysfs *s, const char *path);
/* Canonical machine path of an existing file (symlinks resolved inside the root), or NULL. */
const char *sysfs_realpath(sysfs *s, const char *path);

/* "key value" lines with unsigned decimal values (KFD properties). */
typedef struct sysfs_kv {
    const char *key;
    unsigned long long val;
} sysfs_kv;
typedef struct sysfs_props {
    sysfs_kv *v;
    int n;
} sysfs_props;
/* Parses text into props; malformed lines are skipped. Returns the number of pairs. */
int sysfs_parse_props(arena *a, const char *text, ptrdiff_t len, sysfs_props *out);
/* 1 and *v when the key is there. */
int sysfs_prop(const sysfs_props *p, const char *key, unsigned long long *v);

/* A GPU node of the KFD topology. */
typedef struct sysfs_kfd_node {
    int node;               /* /sys/class/kfd/kfd/topology/nodes/<node> */
    unsigned long long gpu_id;
    const char *name;       /* the node's "name" file ("" if none) */
    sysfs_props props;
    long long vram_bytes;   /* sum of the framebuffer heaps of mem_banks/N, 0 if unknown */
} sysfs_kfd_node;
/* GPU nodes in node order. *present says whether the topology directory exists at all. */
void sysfs_kfd_gpus(sysfs *s, sysfs_kfd_node **out, int *n, int *present);

/* A PCI display controller or processing accelerator (class 0x03 or 0x12) of AMD or NVIDIA. */
typedef struct sysfs_pci_dev {
    const char *bdf;        /* "0000:00:06.0" */
    unsigned vendor, device, cls, subvendor, subdevice, revision;
    const char *driver;     /* bound driver ("nvidia", "amdgpu", "vfio-pci") or NULL */
} sysfs_pci_dev;
void sysfs_pci_gpus(sysfs *s, sysfs_pci_dev **out, int *n);

/* A GPU of /proc/driver/nvidia/gpus/<bdf>/information. */
typedef struct sysfs_nv_gpu {
    const char *bdf;
    const char *model;      /* "NVIDIA H200" */
    const char *uuid;       /* "GPU-c717437e-..." */
    const char *minor;      /* "0": /dev/nvidia0 */
    const char *excluded;   /* "No", "Yes" */
    const char *firmware;
    const char *bus_type;
} sysfs_nv_gpu;
void sysfs_nvidia_gpus(sysfs *s, sysfs_nv_gpu **out, int *n);
/* The driver version from /proc/driver/nvidia/version or /sys/module/nvidia/version; NULL. */
const char *sysfs_nvidia_driver(sysfs *s, const char **source);

/* Value of "key" in a "Key: value" text (NVIDIA information files, METADATA headers), trimmed;
 * NULL when absent. With headers_only, the lines after the first empty one do not count. */
const char *sysfs_header(arena *a, const char *text, const char *key, int headers_only);

#endif
