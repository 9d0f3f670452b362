/* doctor_py.c: PyTorch and Triton installs on the Python path: the site-packages directories
 * doctor looks in, torch/version.py, the Triton requirement in torch's METADATA, and which
 * Triton distribution is installed. Nothing is imported or run. */
#include <stdlib.h>
#include <string.h>

#include "doctor.h"
#include "str.h"

#include "banned.h"

#define MAX_SITES 64

static void add_site(doctor *d, const char *path)
{
    if (d->pydirs.n >= MAX_SITES || !sysfs_is_dir(&d->fs, path))
        return;
    const char *key = sysfs_realpath(&d->fs, path);
    if (!key)
        key = path;
    for (int i = 0; i < d->pykeys.n; i++)
        if (strcmp(d->pykeys.v[i], key) == 0)
            return;
    *DOC_PUSH(d, d->pykeys) = key;
    *DOC_PUSH(d, d->pydirs) = path;
}

static void add_glob(doctor *d, const char *pattern)
{
    const char *found[32];
    int n = doc_glob(d, pattern, found, 32);
    for (int i = 0; i < n; i++)
        add_site(d, found[i]);
}

/* A directory without its trailing slashes; NULL unless absolute. */
static const char *clean_dir(doctor *d, const char *s, ptrdiff_t n)
{
    while (n > 1 && s[n - 1] == '/')
        n--;
    if (n < 1 || s[0] != '/')
        return NULL;
    return arena_strndup(d->a, s, n);
}

static void add_prefix(doctor *d, const char *prefix)
{
    add_glob(d, doc_printf(d, "%s/lib/python3*/site-packages", prefix));
    add_glob(d, doc_printf(d, "%s/lib/python3*/dist-packages", prefix));
}

/* Where Python packages are looked for, in this order: --python-path, $VIRTUAL_ENV,
 * $CONDA_PREFIX, $PYTHONPATH, the prefixes of the python3 found on $PATH, ~/.local, the
 * system's directories, then virtual environments, conda and pyenv under /opt and $HOME. */
static void find_sites(doctor *d)
{
    if (d->o->python_paths)
        for (const char *const *p = d->o->python_paths; *p; p++) {
            const char *c = clean_dir(d, *p, (ptrdiff_t)strlen(*p));
            if (c)
                add_site(d, c);
        }
    static const char *const prefixes[] = {"VIRTUAL_ENV", "CONDA_PREFIX"};
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
        const char *v = doc_getenv(d, prefixes[i]);
        const char *c = v ? clean_dir(d, v, (ptrdiff_t)strlen(v)) : NULL;
        if (c)
            add_prefix(d, c);
    }
    const char *pp = doc_getenv(d, "PYTHONPATH");
    for (const char *p = pp; p && *p;) {
        const char *colon = strchr(p, ':');
        ptrdiff_t n = colon ? colon - p : (ptrdiff_t)strlen(p);
        const char *c = clean_dir(d, p, n);
        if (c)
            add_site(d, c);
        p = colon ? colon + 1 : NULL;
    }
    const char *path = doc_getenv(d, "PATH");
    int seen = 0;
    for (const char *p = path; p && *p && seen < 32;) {
        const char *colon = strchr(p, ':');
        ptrdiff_t n = colon ? colon - p : (ptrdiff_t)strlen(p);
        const char *c = clean_dir(d, p, n);
        if (c && sysfs_exists(&d->fs, doc_printf(d, "%s/python3", c))) {
            const char *slash = strrchr(c, '/');
            const char *prefix = slash && slash != c ? arena_strndup(d->a, c, slash - c) : "";
            add_prefix(d, prefix);
            seen++;
        }
        p = colon ? colon + 1 : NULL;
    }
    const char *home = doc_getenv(d, "HOME");
    const char *h = home ? clean_dir(d, home, (ptrdiff_t)strlen(home)) : NULL;
    if (h && strcmp(h, "/") != 0)
        add_glob(d, doc_printf(d, "%s/.local/lib/python3*/site-packages", h));
    add_glob(d, "/usr/lib/python3*/dist-packages");
    add_glob(d, "/usr/lib/python3*/site-packages");
    add_glob(d, "/usr/local/lib/python3*/dist-packages");
    add_glob(d, "/usr/local/lib/python3*/site-packages");
    add_glob(d, "/opt/*/lib/python3*/site-packages");
    add_glob(d, "/opt/*/.venv/lib/python3*/site-packages");
    add_glob(d, "/opt/*/venv/lib/python3*/site-packages");
    add_glob(d, "/opt/conda/envs/*/lib/python3*/site-packages");
    if (h && strcmp(h, "/") != 0) {
        static const char *const homes[] = {
            ".venv/lib/python3*/site-packages",       "venv/lib/python3*/site-packages",
            "miniconda3/lib/python3*/site-packages",  "miniconda3/envs/*/lib/python3*/site-packages",
            "anaconda3/lib/python3*/site-packages",   "anaconda3/envs/*/lib/python3*/site-packages",
            ".pyenv/versions/*/lib/python3*/site-packages"};
        for (size_t i = 0; i < sizeof homes / sizeof *homes; i++)
            add_glob(d, doc_printf(d, "%s/%s", h, homes[i]));
    }
}

/* The value assigned to name at the top level of a Python file: a quoted string's contents,
 * "" for None, or the bare token; NULL when it is not there. "name: Type = value" counts. */
static const char *py_value(doctor *d, const char *text, ptrdiff_t len, const char *name)
{
    hp_str t = str_make(text, len);
    size_t nl = strlen(name);
    while (t.len > 0) {
        ptrdiff_t e = str_chr(t, '\n');
        hp_str line = str_cut(t, 0, e < 0 ? t.len : e);
        t = e < 0 ? str_make(t.s + t.len, 0) : str_cut(t, e + 1, t.len);
        if ((size_t)line.len <= nl || memcmp(line.s, name, nl) != 0)
            continue;
        char c = line.s[nl];
        if (c != ' ' && c != '\t' && c != '=' && c != ':')
            continue;
        ptrdiff_t eq = str_chr(line, '=');
        if (eq < 0 || (eq + 1 < line.len && line.s[eq + 1] == '='))
            continue;
        hp_str v = str_trim(str_cut(line, eq + 1, line.len));
        ptrdiff_t hash = str_chr(v, '#');
        if (v.len && v.s[0] != '\'' && v.s[0] != '"' && hash >= 0)
            v = str_trim(str_cut(v, 0, hash));
        if (v.len >= 2 && (v.s[0] == '\'' || v.s[0] == '"')) {
            ptrdiff_t end = str_chr(str_cut(v, 1, v.len), v.s[0]);
            if (end < 0)
                continue;
            return arena_strndup(d->a, v.s + 1, end);
        }
        if (str_eqc(v, "None"))
            return "";
        if (v.len > 200)
            continue;
        return arena_strndup(d->a, v.s, v.len);
    }
    return NULL;
}

/* "pytorch_triton_rocm" and "Pytorch-Triton-ROCm" -> "pytorch-triton-rocm". */
static char *norm_dist(doctor *d, const char *s, ptrdiff_t n)
{
    char *r = arena_strndup(d->a, s, n);
    for (char *p = r; *p; p++) {
        if (*p >= 'A' && *p <= 'Z')
            *p = (char)(*p - 'A' + 'a');
        else if (*p == '_' || *p == '.')
            *p = '-';
    }
    return r;
}

static int is_triton_dist(const char *n)
{
    return strcmp(n, "triton") == 0 || strcmp(n, "pytorch-triton-rocm") == 0 ||
           strcmp(n, "pytorch-triton") == 0 || strcmp(n, "pytorch-triton-xpu") == 0;
}

/* The Triton requirement among METADATA's Requires-Dist lines, as "name==version" (or the
 * name and its specifier); NULL if none. Requirements of extras do not count. */
static const char *triton_pin(doctor *d, const char *meta)
{
    const char *best = NULL;
    for (const char *p = meta; p && *p;) {
        const char *nl = strchr(p, '\n');
        hp_str line = str_make(p, nl ? nl - p : (ptrdiff_t)strlen(p));
        p = nl ? nl + 1 : NULL;
        if (line.len && line.s[line.len - 1] == '\r')
            line.len--;
        if (!str_trim(line).len)
            break;
        if (!str_starts(line, S("Requires-Dist:")))
            continue;
        hp_str req = str_trim(str_cut(line, 14, line.len));
        ptrdiff_t semi = str_chr(req, ';');
        hp_str marker = semi >= 0 ? str_cut(req, semi + 1, req.len) : str_make("", 0);
        if (semi >= 0)
            req = str_trim(str_cut(req, 0, semi));
        if (str_find(marker, S("extra")) >= 0)
            continue;
        ptrdiff_t k = 0;
        while (k < req.len && !strchr(" (<>=!~[", req.s[k]))
            k++;
        char *name = norm_dist(d, req.s, k);
        if (!is_triton_dist(name) || strcmp(name, "pytorch-triton-xpu") == 0)
            continue;
        /* the specifier without spaces and parentheses */
        char *spec = arena_alloc_nozero(d->a, 1, 1, req.len - k + 1);
        ptrdiff_t m = 0;
        for (ptrdiff_t i = k; i < req.len; i++)
            if (req.s[i] != ' ' && req.s[i] != '(' && req.s[i] != ')')
                spec[m++] = req.s[i];
        spec[m] = 0;
        const char *pin = doc_printf(d, "%s%s", name, spec);
        if (!best)
            best = pin;
    }
    return best;
}

static const char *meta_field(doctor *d, const char *meta, const char *key)
{
    const char *v = sysfs_header(d->a, meta, key, 1);
    return v ? v : "";
}

static void scan_site(doctor *d, const char *site)
{
    os_dirent *ents;
    ptrdiff_t ne;
    sysfs_list(&d->fs, site, &ents, &ne);

    /* PyTorch */
    const char *vp = doc_printf(d, "%s/torch/version.py", site);
    ptrdiff_t vlen;
    const char *vt = sysfs_read(&d->fs, vp, SYSFS_SMALL, &vlen);
    if (vt) {
        hp_doctor_torch *t = DOC_PUSH(d, d->torch);
        const char *v = py_value(d, vt, vlen, "__version__");
        const char *cu = py_value(d, vt, vlen, "cuda");
        const char *hip = py_value(d, vt, vlen, "hip");
        t->site = site;
        t->version = v ? v : "";
        t->cuda = cu ? cu : "";
        t->hip = hip ? hip : "";
        t->build = t->hip[0] ? "rocm" : t->cuda[0] ? "cuda" : "cpu";
        t->triton_pin = t->metadata = "";
        for (ptrdiff_t i = 0; i < ne; i++) {
            const char *n = ents[i].name;
            size_t l = strlen(n);
            if (strncmp(n, "torch-", 6) != 0 || l < 16 || strcmp(n + l - 10, ".dist-info") != 0)
                continue;
            const char *mp = doc_printf(d, "%s/%s/METADATA", site, n);
            const char *meta = sysfs_read(&d->fs, mp, SYSFS_META, NULL);
            if (!meta)
                continue;
            /* a stale dist-info of another version does not count; wheels may drop the local
             * part ("2.11.0" for torch 2.11.0+cu130) */
            const char *mv = meta_field(d, meta, "Version");
            size_t pa = strcspn(mv, "+"), pb = strcspn(t->version, "+");
            if (t->version[0] && mv[0] && (pa != pb || strncmp(mv, t->version, pa) != 0))
                continue;
            t->metadata = mp;
            const char *pin = triton_pin(d, meta);
            if (pin)
                t->triton_pin = pin;
            break;
        }
        os_dirent *libs;
        ptrdiff_t nl;
        sysfs_list(&d->fs, doc_printf(d, "%s/torch/lib", site), &libs, &nl);
        for (ptrdiff_t i = 0; i < nl; i++)
            if (strncmp(libs[i].name, "libamdhip64.so", 14) == 0 ||
                strncmp(libs[i].name, "libcudart.so", 12) == 0)
                t->bundles_runtime = 1;
    }

    /* Triton: its distributions (dist-info), else the bare package */
    int found = 0;
    for (ptrdiff_t i = 0; i < ne; i++) {
        const char *n = ents[i].name;
        size_t l = strlen(n);
        if (l < 11 || strcmp(n + l - 10, ".dist-info") != 0)
            continue;
        const char *dash = strchr(n, '-');
        if (!dash)
            continue;
        char *dist = norm_dist(d, n, dash - n);
        if (strncmp(dist, "rocm-sdk-libraries-", 19) == 0 && dist[19]) {
            hp_doctor_rocm_sdk *k = DOC_PUSH(d, d->rocm_sdk);
            const char *meta = sysfs_read(&d->fs, doc_printf(d, "%s/%s/METADATA", site, n),
                                          SYSFS_META, NULL);
            const char *ver = meta ? meta_field(d, meta, "Version") : "";
            k->site = site;
            k->dist = dist;
            /* the family as the index spells it ("gfx94X-dcgpu"): the name's own case */
            char *fam = arena_strndup(d->a, n + 19, (dash - n) - 19);
            for (char *q = fam; *q; q++)
                if (*q == '_')
                    *q = '-';
            k->family = fam;
            k->version = ver[0] ? ver
                                : arena_strndup(d->a, dash + 1,
                                                (ptrdiff_t)(l - 10) - (dash + 1 - n));
            k->metadata = doc_printf(d, "%s/%s", site, n);
            continue;
        }
        if (!is_triton_dist(dist))
            continue;
        const char *meta = sysfs_read(&d->fs, doc_printf(d, "%s/%s/METADATA", site, n),
                                      SYSFS_META, NULL);
        hp_doctor_triton *tr = DOC_PUSH(d, d->triton);
        tr->site = site;
        tr->dist = dist;
        const char *ver = meta ? meta_field(d, meta, "Version") : "";
        if (!ver[0]) /* the directory name carries it too: name-version.dist-info */
            ver = arena_strndup(d->a, dash + 1, (ptrdiff_t)(l - 10) - (dash + 1 - n));
        tr->version = ver;
        found++;
    }
    if (!found) {
        const char *ip = doc_printf(d, "%s/triton/__init__.py", site);
        ptrdiff_t il;
        const char *it = sysfs_read(&d->fs, ip, SYSFS_META, &il);
        if (it) {
            hp_doctor_triton *tr = DOC_PUSH(d, d->triton);
            const char *v = py_value(d, it, il, "__version__");
            tr->site = site;
            tr->dist = "";
            tr->version = v ? v : "";
        }
    }
}

void doctor_py_run(doctor *d)
{
    find_sites(d);
    for (int i = 0; i < d->pydirs.n; i++)
        scan_site(d, d->pydirs.v[i]);
}
