/* check_run.c: check over files and trees (one job per file on the worker pool), and the
 * deep-copied finding sets that reports over a whole run are made from. */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "os.h"
#include "report.h"
#include "rules.h"
#include "rules_build.h"
#include "run.h"
#include "srcside.h"
#include "str.h"

#include "banned.h"

typedef struct crun {
    rules_cfg cfg;
    const hp_run_opts *r;
    const hp_check_opts *o;
} crun;

static void fail(hp_file_result *res, hp_status s, const char *err)
{
    res->status = s;
    res->error = err;
}

static void check_job(void *ud, hp_ctx *ctx, const run_job *job, hp_file_result *res)
{
    crun *cr = ud;
    arena *a = &ctx->a;
    memset(res, 0, sizeof *res);
    res->path = job->path;
    char *data;
    ptrdiff_t len = 0;
    int ok = run_read_source(a, job, 1, res, &data, &len);
    if (ok || res->skipped) {
        hp_tstats *st = NEW(a, hp_tstats, 1);
        st->files = 1;
        st->bytes = len;
        res->stats = st;
    }
    if (!ok)
        return;
    hp_status s;
    hp_check_result out;
    /* the language claiming the file (--ext included); a file named on the command line that
     * no language claims is read as C++ */
    unsigned lang = rules_lang_of(job->path, cr->r);
    if (!lang && !job->from_tree)
        lang = RL_CPP;
    s = rules_check(a, &cr->cfg, job->path, lang, data, len, &out);
    if (s != HP_OK) {
        fail(res, s, s == HP_ENOMEM ? "out of memory" : hp_status_name(s));
        return;
    }
    res->findings = out.findings;
    res->nfindings = out.nfindings;
    res->suppressed = out.suppressed;
    if ((cr->o->render == HP_RENDER_JSON || cr->o->render == HP_RENDER_TEXT) &&
        out.nfindings > 0) {
        /* rendered here, on the worker's thread, rather than by the caller's writer */
        hp_finding *f = NEW(a, hp_finding, out.nfindings);
        memcpy(f, out.findings, (size_t)out.nfindings * sizeof *f);
        hp_finding_sort(f, out.nfindings);
        buf b;
        buf_init(&b, a, 256 * (ptrdiff_t)out.nfindings);
        if (cr->o->render == HP_RENDER_JSON)
            report_json_items(&b, f, out.nfindings);
        else
            report_text_items(&b, f, out.nfindings, &cr->o->render_opts);
        const char *text = buf_cstr(&b);
        if (!b.failed) {
            res->report = text;
            res->report_len = b.len;
        }
    }
}

static int want(void *ud, const char *name)
{
    return hp_check_wants(name, ud);
}

/* The spec both passes walk the inputs with. */
static run_spec tree_spec(run_fn fn, void *ud, const hp_run_opts *r, int other_vendors)
{
    run_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.fn = fn;
    spec.ud = ud;
    spec.detach = 1;
    spec.want = want;
    spec.want_ud = (void *)r;
    spec.skip_hipified_copies = 1;
    spec.skip_inner_links = 1;
    if (!other_vendors)
        spec.skip_dir = rules_other_vendor_dir;
    return spec;
}

/* ------------------------------------------------------------------ platform macros */

/* The first pass: the platform macros of the tree's headers (rules_platform_macros), which
 * the files that include them test ("#ifdef CP_ASYNC_AVAILABLE"), the names they define
 * for HIP (its shim names), and the directories whose CUDA sources a HIP CMake build takes
 * (rules_build_hip_dirs, as "cuda-dir:" keys in the platform index: BLD001/BLD002 leave the
 * CUDA build file there alone). Only headers and CMake files that name an AMD macro, HIP or a
 * hip/ header at all are read further. A job hands its names on as report text, one per
 * line. */
typedef struct names {
    hp_str *v;
    int n, cap;
} names;

typedef struct prun {
    const hp_run_opts *r;
    const rules_cfg *cfg;
    arena *a;          /* the names, on the writer's thread */
    names plat;        /* platform macros ("p NAME" lines) */
    names shim;        /* names defined for HIP ("s NAME" lines) */
    names inc_cuda;    /* includes only on the side HIP-Clang skips ("c PATH" lines) */
    names inc_any;     /* last components of the other quoted includes ("a NAME" lines) */
    names bld;         /* the build files' facts (rules_build_facts: "b KIND:PATH" lines) */
    names imp_vendor;  /* modules imported in code one vendor runs ("m NAME" lines) */
    names imp_any;     /* modules imported elsewhere ("M NAME" lines) */
    names inc_to;      /* every quoted include ("i PATH" lines) ... */
    names inc_from;    /* ... and the file that has it */
    names files;       /* the C++ files of the tree */
    names nv_pred;     /* NVIDIA-only predicates ("n NAME" lines) */
    names pred_other;  /* other defs of predicate names ("q NAME" lines) */
    names def_dead;    /* macros #defined where AMD's passes both skip ("d NAME" lines) ... */
    names def_live;    /* ... and elsewhere ("l NAME" lines) */
    names split_key;   /* every file's vendor-split keys for AMD (rules_split_keys) ... */
    names split_comp;  /* ... and the component each comes from */
} prun;

static int header_name(const char *path)
{
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        return 0;
    static const char *const exts[] = {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inc", ".inl"};
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
        if (strcmp(dot, exts[i]) == 0)
            return 1;
    return 0;
}

static int names_amd(const char *s, ptrdiff_t len)
{
    static const char *const words[] = {"HIP", "ROCM", "__gfx", "AMDGCN", "AMDGPU", "hip/"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (str_find(str_make(s, len), str_cstr(words[i])) >= 0)
            return 1;
    return 0;
}

static int cpp_source_name(const char *path)
{
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        return 0;
    static const char *const exts[] = {".c", ".cc", ".cpp", ".cxx", ".cu", ".hip"};
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
        if (strcmp(dot, exts[i]) == 0)
            return 1;
    return header_name(path);
}

static void plat_job(void *ud, hp_ctx *ctx, const run_job *job, hp_file_result *res)
{
    prun *pr = ud;
    memset(res, 0, sizeof *res);
    res->path = job->path;
    pyfile_kind pk = rules_py_kind(job->path);
    int cmake = pk == PYK_CMAKE, script = pk == PYK_SETUP || pk == PYK_PYPROJECT;
    int python = pk == PYK_PYTHON;
    if (!cpp_source_name(job->path) && !cmake && !script && !python)
        return;
    arena *a = &ctx->a;
    char *data;
    ptrdiff_t len = 0;
    if (!run_read_source(a, job, 1, res, &data, &len)) {
        memset(res, 0, sizeof *res); /* the check pass reports it */
        res->path = job->path;
        return;
    }
    if (len > ((ptrdiff_t)1 << 31) - 2)
        return;
    int amd = names_amd(data, len), hdr = header_name(job->path);
    if (!amd && !cmake && !script && !python &&
        str_find(str_make(data, len), S("include")) < 0)
        return;
    jmp_buf jb;
    jmp_buf *saved = a->oom;
    a->oom = &jb;
    if (setjmp(jb)) {
        a->oom = saved;
        return;
    }
    int n = 0, ns = 0, ni = 0, nb = 0, nd = 0;
    hp_str *v = NULL, *sv = NULL, *iv = NULL, *bv = NULL, *dv = NULL;
    uint8_t *dd = NULL;
    uint8_t *side = NULL;
    uint8_t *mv = NULL;
    if (cmake || script)
        bv = rules_build_facts(a, job->path, data, len, &nb);
    if (pk == PYK_SETUP) { /* the sources it gives its extensions only on the NVIDIA side */
        int ns2 = 0;
        hp_str *sv2 = srcside_setup(a, job->path, data, len, &ns2);
        if (ns2) {
            hp_str *all = NEW(a, hp_str, nb + ns2);
            if (nb)
                memcpy(all, bv, (size_t)nb * sizeof *all);
            memcpy(all + nb, sv2, (size_t)ns2 * sizeof *all);
            bv = all;
            nb += ns2;
        }
    }
    int nf = 0, nhl = 0;
    hp_str *fv = NULL, *hl = NULL;
    uint8_t *fp = NULL;
    if (python) {
        pysrc ps; /* one parse for both readers, made by the first that needs it */
        int parsed = 0;
        bv = rules_python_imports(a, data, len, &nb, &mv, &ps, &parsed);
        fv = rules_python_nv_preds(a, data, len, &nf, &fp, &ps, &parsed);
        /* the sources it builds at run time with an AMD branch, as build facts ("b " lines) */
        hl = rules_build_hip_loads(a, job->path, data, len, &nhl);
    }
    if (script || python) {
        /* facts only */
    } else if (cmake) {
        /* the directories whose CUDA sources this HIP build takes, as keys */
        if (amd)
            v = rules_build_hip_dirs(a, job->path, data, len, &n);
        for (int i = 0; i < n; i++)
            v[i] = rules_build_key(a, v[i]);
    } else {
        if (amd && hdr)
            v = rules_platform_macros(a, pr->cfg, data, len, &n, &sv, &ns);
        iv = rules_include_sides(a, pr->cfg, data, len, &ni, &side, &dv, &dd, &nd);
    }
    buf b;
    buf_init(&b, a, 64);
    for (int i = 0; i < ni; i++) {
        hp_str p = iv[i];
        if (!side[i]) { /* its last component: any file of that name may be meant */
            ptrdiff_t k = p.len;
            while (k > 0 && p.s[k - 1] != '/')
                k--;
            p = str_cut(p, k, p.len);
        }
        if (!p.len || memchr(p.s, '\n', (size_t)p.len))
            continue;
        buf_add(&b, side[i] ? "c " : "a ", 2);
        buf_add(&b, p.s, p.len);
        buf_addc(&b, '\n');
        if (!side[i] && !memchr(iv[i].s, '\n', (size_t)iv[i].len)) { /* AMD includes it */
            buf_add(&b, "i ", 2);
            buf_add(&b, iv[i].s, iv[i].len);
            buf_addc(&b, '\n');
        }
    }
    for (int i = 0; i < n; i++) {
        buf_add(&b, "p ", 2);
        buf_add(&b, v[i].s, v[i].len);
        buf_addc(&b, '\n');
    }
    for (int i = 0; i < nb; i++) {
        if (memchr(bv[i].s, '\n', (size_t)bv[i].len))
            continue;
        buf_add(&b, !mv ? "b " : mv[i] ? "m " : "M ", 2);
        buf_add(&b, bv[i].s, bv[i].len);
        buf_addc(&b, '\n');
    }
    for (int i = 0; i < nhl; i++) {
        if (memchr(hl[i].s, '\n', (size_t)hl[i].len))
            continue;
        buf_add(&b, "b ", 2);
        buf_add(&b, hl[i].s, hl[i].len);
        buf_addc(&b, '\n');
    }
    for (int i = 0; i < nf; i++) {
        buf_add(&b, fp[i] ? "n " : "q ", 2);
        buf_add(&b, fv[i].s, fv[i].len);
        buf_addc(&b, '\n');
    }
    for (int i = 0; i < nd; i++) { /* #define names: "d " where AMD skips it, "l " live */
        buf_add(&b, dd[i] ? "d " : "l ", 2);
        buf_add(&b, dv[i].s, dv[i].len);
        buf_addc(&b, '\n');
    }
    for (int i = 0; i < ns; i++) {
        buf_add(&b, "s ", 2);
        buf_add(&b, sv[i].s, sv[i].len);
        buf_addc(&b, '\n');
    }
    a->oom = saved;
    if (b.len && !b.failed) {
        res->report = buf_cstr(&b);
        res->report_len = b.len;
    }
}

static int names_add(arena *a, names *ns, const char *s, ptrdiff_t len)
{
    if (ns->n == ns->cap) {
        int nc = ns->cap ? 2 * ns->cap : 64;
        hp_str *nv = NEW(a, hp_str, nc);
        if (!nv)
            return 0;
        if (ns->n)
            memcpy(nv, ns->v, (size_t)ns->n * sizeof *nv);
        ns->v = nv;
        ns->cap = nc;
    }
    char *c = arena_strndup(a, s, len);
    if (!c)
        return 0;
    ns->v[ns->n++] = str_make(c, len);
    return 1;
}

static void plat_file(void *ud, const hp_file_result *r)
{
    prun *pr = ud;
    hp_str from = {NULL, 0};
    pyfile_kind pk = r->path ? rules_py_kind(r->path) : PYK_NONE;
    /* the AMD side of parallel vendor paths, from what holds code of its own: a directory
     * with only a build file that takes the NVIDIA-named sources (ggml-hip/CMakeLists.txt
     * building ../ggml-cuda) makes no AMD side */
    if (r->path && pk != PYK_CMAKE && pk != PYK_MAKE) {
        hp_str k[16], comp[16];
        int nk = rules_split_keys(pr->a, r->path, RS_AMD, k, comp, 16);
        for (int i = 0; i < nk; i++)
            if (!names_add(pr->a, &pr->split_key, k[i].s, k[i].len) ||
                !names_add(pr->a, &pr->split_comp, comp[i].s, comp[i].len))
                return;
    }
    if (r->path && cpp_source_name(r->path)) {
        if (!names_add(pr->a, &pr->files, r->path, (ptrdiff_t)strlen(r->path)))
            return;
        from = pr->files.v[pr->files.n - 1];
    }
    for (ptrdiff_t i = 0; i < r->report_len;) {
        const char *nl = memchr(r->report + i, '\n', (size_t)(r->report_len - i));
        ptrdiff_t e = nl ? nl - r->report : r->report_len;
        if (e > i + 2 && r->report[i] == 'i') {
            if (from.s && (!names_add(pr->a, &pr->inc_to, r->report + i + 2, e - i - 2) ||
                           !names_add(pr->a, &pr->inc_from, from.s, from.len)))
                return;
        } else if (e > i + 2) {
            char kind = r->report[i];
            names *ns = kind == 's' ? &pr->shim : kind == 'c' ? &pr->inc_cuda
                                                : kind == 'a' ? &pr->inc_any
                                                : kind == 'b' ? &pr->bld
                                                : kind == 'm' ? &pr->imp_vendor
                                                : kind == 'M' ? &pr->imp_any
                                                : kind == 'n' ? &pr->nv_pred
                                                : kind == 'q' ? &pr->pred_other
                                            : kind == 'd' ? &pr->def_dead
                                            : kind == 'l' ? &pr->def_live
                                                              : &pr->plat;
            if (ns->n == ns->cap) {
                int nc = ns->cap ? 2 * ns->cap : 64;
                hp_str *nv = NEW(pr->a, hp_str, nc);
                if (!nv)
                    return;
                if (ns->n)
                    memcpy(nv, ns->v, (size_t)ns->n * sizeof *nv);
                ns->v = nv;
                ns->cap = nc;
            }
            char *s = arena_strndup(pr->a, r->report + i + 2, e - i - 2);
            if (!s)
                return;
            ns->v[ns->n++] = str_make(s, e - i - 2);
        }
        i = e + 1;
    }
}

/* An index of v[0, n) (each to 0), or NULL when there are none or memory ran out. */
static const nameidx *index_strs(arena *a, const hp_str *v, int n)
{
    if (n <= 0)
        return NULL;
    nameidx *ix = NEW(a, nameidx, 1);
    if (!ix || !nameidx_init(ix, a, n))
        return NULL;
    for (int i = 0; i < n; i++)
        nameidx_put(ix, v[i], 0, 0);
    return ix;
}

static const nameidx *index_of(arena *a, const names *ns)
{
    return index_strs(a, ns->v, ns->n);
}

/* The value of key "KIND:REST" when it is of kind, else an empty slice. */
static hp_str key_rest(hp_str key, const char *kind)
{
    ptrdiff_t k = (ptrdiff_t)strlen(kind);
    if (key.len <= k || memcmp(key.s, kind, (size_t)k) != 0 || key.s[k] != ':')
        return str_make(key.s, 0);
    return str_cut(key, k + 1, key.len);
}

/* The values of the tree's build keys of kind, in order, with their number in *n; NULL (and
 * *n 0) when there are none or memory ran out. */
static hp_str *keys_of(arena *a, const prun *pr, const char *kind, int *n)
{
    hp_str *v = NULL;
    *n = 0;
    for (int i = 0; i < pr->bld.n; i++) {
        hp_str d = key_rest(pr->bld.v[i], kind);
        if (!d.len)
            continue;
        if (!v)
            v = NEW(a, hp_str, pr->bld.n);
        if (!v)
            return NULL;
        v[(*n)++] = d;
    }
    return v;
}

/* An index of the values of the tree's build keys of kind, or NULL when there are none. */
static const nameidx *keys_index(arena *a, const prun *pr, const char *kind)
{
    int n;
    hp_str *v = keys_of(a, pr, kind, &n);
    return index_strs(a, v, n);
}

/* Is s in ix (NULL: an empty index)? */
static int in_index(const nameidx *ix, hp_str s)
{
    return ix && nameidx_get(ix, s) >= 0;
}

/* Is path a or below directory d? */
static int at_or_under(hp_str a, hp_str d)
{
    if (!d.len || a.len < d.len || memcmp(a.s, d.s, (size_t)d.len) != 0)
        return 0;
    return a.len == d.len || a.s[d.len] == '/' || (d.len == 1 && d.s[0] == '/');
}

/* Does a build of the tree for AMD reach the project at directory d: a build file at or under
 * it that builds for HIP or names ROCm, a HIP CMake file that add_subdirectory()s it (or a
 * directory under or above it) or takes CUDA sources from under it, a ROCm-aware script that
 * names it or a directory under it? */
static int amd_reaches(const prun *pr, hp_str d)
{
    for (int i = 0; i < pr->bld.n; i++) {
        hp_str k = pr->bld.v[i], x;
        if ((x = key_rest(k, RB_KEY_HIP_AT)).len || (x = key_rest(k, RB_KEY_HIP_REF)).len) {
            if (at_or_under(x, d))
                return 1;
        } else if ((x = key_rest(k, RB_KEY_HIP_ADD)).len) {
            if (at_or_under(x, d) || at_or_under(d, x))
                return 1;
        }
    }
    for (int i = 0; i < pr->plat.n; i++) { /* the directories HIP CMake builds take sources of */
        hp_str x = key_rest(pr->plat.v[i], "cuda-dir");
        if (x.len && at_or_under(x, d))
            return 1;
    }
    return 0;
}

/* The setup.py files below a build that names HIP or ROCm (a proper ancestor directory's)
 * that name no HIP or ROCm themselves and that no other build file of the tree names (a quoted
 * path in a setup.py or pyproject.toml, add_subdirectory() in CMake, at or under their
 * directory): optional NVIDIA-only extras beside a build that has an AMD side, into
 * cfg->nv_extra (their directories); NULL when there are none. */
static void tree_extras(arena *a, const prun *pr, rules_cfg *cfg)
{
    int n = 0;
    hp_str *v = NULL;
    for (int i = 0; i < pr->bld.n; i++) {
        hp_str d = key_rest(pr->bld.v[i], RB_KEY_PY_SETUP);
        if (!d.len)
            continue;
        int hip_here = 0, hip_above = 0, named = 0;
        for (int k = 0; k < pr->bld.n && !hip_here && !named; k++) {
            hp_str x = pr->bld.v[k], y;
            if ((y = key_rest(x, RB_KEY_HIP_AT)).len) {
                hip_here |= str_eq(y, d) || at_or_under(y, d);
                hip_above |= y.len < d.len && at_or_under(d, y);
            } else if ((y = key_rest(x, RB_KEY_REF)).len) {
                ptrdiff_t t = str_chr(y, '\t');
                if (t < 0)
                    continue;
                hp_str from = str_cut(y, 0, t), to = str_cut(y, t + 1, y.len);
                named = !str_eq(from, d) && at_or_under(to, d);
            }
        }
        if (hip_here || !hip_above || named)
            continue;
        if (!v)
            v = NEW(a, hp_str, pr->bld.n);
        if (!v)
            return;
        v[n++] = d;
    }
    cfg->nv_extra = index_strs(a, v, n);
}

/* The setup.py files below a build that names HIP or ROCm (a proper ancestor directory's)
 * whose every C++ source of the tree that they name (a quoted path, RB_KEY_REF, of a file of
 * the tree) a build file in a directory above them names too, one source at least, and that no other build file names (a quoted
 * ".../setup.py"): a standalone build of sources the build above compiles
 * with its own flags, into cfg->dup_setup (their directories); NULL when there are none. */
static void tree_dup_setups(arena *a, const prun *pr, rules_cfg *cfg)
{
    int nf = pr->files.n;
    if (!nf)
        return;
    nameidx files;
    if (!nameidx_init(&files, a, nf))
        return;
    for (int i = 0; i < nf; i++)
        nameidx_put(&files, rules_build_path(a, pr->files.v[i].s), 0, 0);
    int n = 0;
    hp_str *v = NULL;
    for (int i = 0; i < pr->bld.n; i++) {
        hp_str d = key_rest(pr->bld.v[i], RB_KEY_PY_SETUP);
        if (!d.len)
            continue;
        int nsrc = 0, ok = 0;
        for (int k = 0; k < pr->bld.n && !ok; k++) { /* an AMD side above it */
            hp_str y = key_rest(pr->bld.v[k], RB_KEY_HIP_AT);
            ok = y.len && y.len < d.len && at_or_under(d, y);
        }
        for (int k = 0; k < pr->bld.n && ok; k++) {
            hp_str y = key_rest(pr->bld.v[k], RB_KEY_REF);
            ptrdiff_t t = y.len ? str_chr(y, '\t') : -1;
            if (t < 0)
                continue;
            hp_str from = str_cut(y, 0, t), to = str_cut(y, t + 1, y.len);
            if (!str_eq(from, d)) {
                /* its setup.py named elsewhere: it is run */
                ok = !(at_or_under(to, d) && to.len == d.len + 9 &&
                       RULES_EQ(str_cut(to, d.len + 1, to.len), "setup.py"));
                continue;
            }
            if (nameidx_get(&files, to) < 0)
                continue;
            int above = 0;
            for (int m = 0; m < pr->bld.n && !above; m++) {
                hp_str z = key_rest(pr->bld.v[m], RB_KEY_REF);
                ptrdiff_t u = z.len ? str_chr(z, '\t') : -1;
                if (u < 0)
                    continue;
                hp_str zf = str_cut(z, 0, u);
                above = zf.len < d.len && at_or_under(d, zf) && str_eq(str_cut(z, u + 1, z.len), to);
            }
            ok = above;
            nsrc++;
        }
        if (!ok || !nsrc)
            continue;
        if (!v)
            v = NEW(a, hp_str, pr->bld.n);
        if (!v)
            return;
        v[n++] = d;
    }
    cfg->dup_setup = index_strs(a, v, n);
}

/* Is the directory name one that holds other projects' copies (examples, third_party, ...)? */
static int vendor_dir_name(hp_str w)
{
    static const char *const dirs[] = {"examples", "third_party", "3rdparty", "vendor",
                                        "external", "thirdparty"};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
        if (str_eq(w, str_cstr(dirs[i])))
            return 1;
    return 0;
}

/* The length of the directory a (a prefix of it) that holds a directory named like
 * examples/ or third_party/ strictly below from, with a directory of its own under that
 * (from/.../examples/x/...): the part up to and including examples; 0 when there is none. */
static ptrdiff_t vendor_cut(hp_str a, ptrdiff_t from)
{
    ptrdiff_t i = from;
    while (i < a.len) {
        while (i < a.len && a.s[i] == '/')
            i++;
        ptrdiff_t j = i;
        while (j < a.len && a.s[j] != '/')
            j++;
        if (j > i && j < a.len && vendor_dir_name(str_cut(a, i, j)))
            return j;
        i = j;
    }
    return 0;
}

/* The projects (a setup.py's directory, a CMake project root) that lie in a directory of
 * examples or third-party copies below the tree's build files' common directory
 * (examples/x/proj, third_party/proj) and that no build file outside that directory names
 * (RB_KEY_REF at or under it), while some project of the tree lies outside every such
 * directory: copies of other projects the package's build never compiles, into
 * cfg->vendored; NULL when there are none. */
static void tree_vendored(arena *a, const prun *pr, rules_cfg *cfg)
{
    hp_str common = {0, 0};
    int nproj = 0;
    for (int i = 0; i < pr->bld.n; i++) {
        hp_str k = pr->bld.v[i], d;
        if (!(d = key_rest(k, RB_KEY_PY_SETUP)).len && !(d = key_rest(k, RB_KEY_ROOT)).len &&
            !(d = key_rest(k, RB_KEY_NV_ROOT)).len)
            continue;
        if (!nproj++) {
            common = d;
            continue;
        }
        while (common.len && !at_or_under(d, common)) {
            ptrdiff_t j = common.len;
            while (j > 0 && common.s[j - 1] != '/')
                j--;
            common.len = j > 1 ? j - 1 : (j == 1 && common.s[0] == '/' ? 1 : 0);
            if (j == 0)
                common.len = 0;
        }
    }
    if (nproj < 2 || !common.len)
        return;
    int n = 0, outside = 0;
    hp_str *v = NEW(a, hp_str, pr->bld.n);
    if (!v)
        return;
    for (int i = 0; i < pr->bld.n; i++) {
        hp_str k = pr->bld.v[i], d;
        if (!(d = key_rest(k, RB_KEY_PY_SETUP)).len && !(d = key_rest(k, RB_KEY_ROOT)).len &&
            !(d = key_rest(k, RB_KEY_NV_ROOT)).len)
            continue;
        ptrdiff_t cut = d.len > common.len ? vendor_cut(d, common.len) : 0;
        if (!cut) {
            outside = 1;
            continue;
        }
        hp_str top = str_cut(d, 0, cut);
        int named = 0;
        for (int m = 0; m < pr->bld.n && !named; m++) {
            hp_str y = key_rest(pr->bld.v[m], RB_KEY_REF);
            ptrdiff_t t = y.len ? str_chr(y, '\t') : -1;
            if (t < 0)
                continue;
            hp_str from = str_cut(y, 0, t), to = str_cut(y, t + 1, y.len);
            named = !at_or_under(from, top) && at_or_under(to, d);
        }
        if (!named)
            v[n++] = d;
    }
    if (outside)
        cfg->vendored = index_strs(a, v, n);
}

/* The setup.py files, naming neither HIP nor ROCm, that name a source a Python module of the
 * tree builds at run time with an AMD branch (RB_KEY_HIP_LOAD): the tree's AMD build compiles
 * those sources through that module, and the setup.py is the NVIDIA route; into
 * cfg->jit_setup (their directories). */
static void tree_jit_setups(arena *a, const prun *pr, const nameidx *hip_at, rules_cfg *cfg)
{
    const nameidx *loads = keys_index(a, pr, RB_KEY_HIP_LOAD);
    if (!loads)
        return;
    int n = 0;
    hp_str *v = NULL;
    for (int i = 0; i < pr->bld.n; i++) {
        hp_str d = key_rest(pr->bld.v[i], RB_KEY_PY_SETUP);
        if (!d.len || in_index(hip_at, d))
            continue;
        int hit = 0;
        for (int k = 0; k < pr->bld.n && !hit; k++) {
            hp_str y = key_rest(pr->bld.v[k], RB_KEY_REF);
            ptrdiff_t t = y.len ? str_chr(y, '\t') : -1;
            if (t >= 0 && str_eq(str_cut(y, 0, t), d))
                hit = in_index(loads, str_cut(y, t + 1, y.len));
        }
        if (!hit)
            continue;
        if (!v)
            v = NEW(a, hp_str, pr->bld.n);
        if (!v)
            return;
        v[n++] = d;
    }
    cfg->jit_setup = index_strs(a, v, n);
}

/* The tree's CMake project roots into cfg->proj (RB_PROJ_*) and the sources its HIP CMake
 * builds leave to their CUDA branches into cfg->cuda_src; both NULL when there are none. */
static void tree_projects(arena *a, const prun *pr, rules_cfg *cfg)
{
    tree_extras(a, pr, cfg);
    tree_vendored(a, pr, cfg);
    tree_dup_setups(a, pr, cfg);
    /* the packages that require NVIDIA's CuTe DSL */
    cfg->nv_dsl = keys_index(a, pr, RB_KEY_NV_DSL);
    int ne;
    hp_str *ev = keys_of(a, pr, RB_KEY_SETUP_EXT, &ne);
    cfg->setup_ext = index_strs(a, ev, ne);
    const nameidx *hip_at = keys_index(a, pr, RB_KEY_HIP_AT);
    int nh = 0;
    hp_str *hv = NULL;
    for (int i = 0; i < ne; i++) {
        if (!in_index(hip_at, ev[i]))
            continue;
        if (!hv)
            hv = NEW(a, hp_str, ne);
        if (!hv)
            break;
        hv[nh++] = ev[i];
    }
    cfg->setup_hip = index_strs(a, hv, nh);
    tree_jit_setups(a, pr, hip_at, cfg);
    int nroot = 0, nv = 0;
    for (int i = 0; i < pr->bld.n; i++) {
        hp_str k = pr->bld.v[i];
        nroot += key_rest(k, RB_KEY_ROOT).len > 0 || key_rest(k, RB_KEY_NV_ROOT).len > 0;
        nv += key_rest(k, RB_KEY_NV_ROOT).len > 0;
    }
    cfg->cuda_src = keys_index(a, pr, RB_KEY_CUDA_SRC);
    /* the glob patterns of setup.py scripts: those that reach sources only on the NVIDIA
     * side, and the others */
    int ng = 0, na = 0;
    for (int i = 0; i < pr->bld.n; i++) {
        ng += key_rest(pr->bld.v[i], SRCSIDE_KEY_GLOB).len > 0;
        na += key_rest(pr->bld.v[i], SRCSIDE_KEY_ANY).len > 0;
    }
    if (ng) {
        hp_str *gv = NEW(a, hp_str, ng), *av = na ? NEW(a, hp_str, na) : NULL;
        int kg = 0, ka = 0;
        for (int i = 0; i < pr->bld.n; i++) {
            hp_str x;
            if ((x = key_rest(pr->bld.v[i], SRCSIDE_KEY_GLOB)).len)
                gv[kg++] = x;
            else if (av && (x = key_rest(pr->bld.v[i], SRCSIDE_KEY_ANY)).len)
                av[ka++] = x;
        }
        cfg->cuda_glob = gv;
        cfg->ncuda_glob = kg;
        cfg->any_glob = av;
        cfg->nany_glob = ka;
    }
    /* an AMD build beside the NVIDIA-only projects */
    for (int i = 0; i < pr->bld.n && !cfg->amd_path; i++)
        cfg->amd_path = key_rest(pr->bld.v[i], RB_KEY_HIP_AT).len > 0 ||
                        key_rest(pr->bld.v[i], RB_KEY_CUDA_CMAKE).len > 0;
    /* the directories the tree's CMake adds only in a CUDA configure */
    int nside = 0;
    hp_str *side = NEW(a, hp_str, pr->bld.n + 1);
    for (int i = 0; side && i < pr->bld.n; i++) {
        hp_str k = pr->bld.v[i], x;
        if ((x = key_rest(k, RB_KEY_NV_ADD)).len) {
            side[nside++] = x;
        } else if ((x = key_rest(k, RB_KEY_NV_ADD_IF)).len) {
            ptrdiff_t t = str_chr(x, '\t');
            if (t <= 0)
                continue;
            char *want = arena_printf(a, "%s:%.*s", RB_KEY_VENDOR_VAR, (int)t, x.s);
            for (int m = 0; m < pr->bld.n; m++)
                if (str_eq(pr->bld.v[m], str_cstr(want))) {
                    side[nside++] = str_cut(x, t + 1, x.len);
                    break;
                }
        }
    }
    for (int i = 0; i < nside; i++) /* ... that no HIP build file reaches otherwise */
        if (amd_reaches(pr, side[i]))
            side[i--] = side[--nside];
    if (!nv && !nside)
        return;
    nameidx *ix = NEW(a, nameidx, 1);
    if (!ix || !nameidx_init(ix, a, nroot + nside))
        return;
    hp_str *nvd = NEW(a, hp_str, nv + 1);
    int nn = 0;
    for (int i = 0; i < pr->bld.n; i++) {
        hp_str k = pr->bld.v[i], x;
        if ((x = key_rest(k, RB_KEY_ROOT)).len) {
            nameidx_put(ix, x, RB_PROJ_OTHER, 1);
        } else if ((x = key_rest(k, RB_KEY_NV_ROOT)).len) {
            int nvidia = !amd_reaches(pr, x);
            nameidx_put(ix, x, nvidia ? RB_PROJ_NVIDIA : RB_PROJ_OTHER, 1);
            if (nvidia)
                nvd[nn++] = x;
        }
    }
    /* one inside another NVIDIA-only project is told of by the outer one's warning */
    for (int i = 0; i < nn; i++)
        for (int k = 0; k < nn; k++)
            if (k != i && nvd[i].len > nvd[k].len && at_or_under(nvd[i], nvd[k]))
                nameidx_put(ix, nvd[i], RB_PROJ_NESTED, 1);
    /* and so is any other project below one that no AMD build reaches */
    for (int i = 0; i < pr->bld.n; i++) {
        hp_str x = key_rest(pr->bld.v[i], RB_KEY_ROOT);
        for (int k = 0; x.len && k < nn; k++)
            if (x.len > nvd[k].len && at_or_under(x, nvd[k]) && !amd_reaches(pr, x)) {
                nameidx_put(ix, x, RB_PROJ_NESTED, 1);
                break;
            }
    }
    /* a CUDA-only directory, and the projects under it (an NVIDIA-only one keeps its one
     * warning) */
    for (int i = 0; i < nside; i++) {
        for (int k = 0; k < pr->bld.n; k++) {
            hp_str x = key_rest(pr->bld.v[k], RB_KEY_ROOT);
            int nvroot = 0;
            if (!x.len)
                nvroot = (x = key_rest(pr->bld.v[k], RB_KEY_NV_ROOT)).len > 0;
            if (x.len && at_or_under(x, side[i]) &&
                !(nvroot && nameidx_get(ix, x) == RB_PROJ_NVIDIA))
                nameidx_put(ix, x, RB_PROJ_NVSIDE, 1);
        }
        if (nameidx_get(ix, side[i]) < 0)
            nameidx_put(ix, side[i], RB_PROJ_NVSIDE, 1);
    }
    cfg->proj = ix;
}

/* The headers whose every includer in the tree is a source its AMD build leaves out
 * (rules_cuda_side_path, or a header the tree includes only where HIP-Clang skips), or such a
 * header, into cfg->cuda_hdr; an include in a branch HIP-Clang skips includes nothing there. An include resolves against
 * the includer's directory when the tree has that file, else to every file whose path ends
 * with it. */
static void tree_cuda_headers(arena *a, const prun *pr, rules_cfg *cfg)
{
    int nf = pr->files.n, ne = pr->inc_to.n;
    if (!nf || !ne || (!cfg->cuda_src && !cfg->ncuda_glob && !cfg->inc_cuda))
        return;
    hp_str *path = NEW(a, hp_str, nf);
    uint8_t *side = NEW(a, uint8_t, nf), *was = NEW(a, uint8_t, nf);
    int32_t *next = NEW(a, int32_t, nf); /* files of the same last component, chained */
    nameidx byp, bybase;
    if (!path || !side || !was || !next || !nameidx_init(&byp, a, nf) ||
        !nameidx_init(&bybase, a, nf))
        return;
    for (int i = 0; i < nf; i++) {
        path[i] = rules_build_path(a, pr->files.v[i].s);
        nameidx_put(&byp, path[i], i, 0);
        side[i] = was[i] = (uint8_t)rules_cuda_side_path(cfg, path[i]);
        hp_str p = path[i];
        ptrdiff_t k = p.len;
        while (k > 0 && p.s[k - 1] != '/')
            k--;
        hp_str base = str_cut(p, k, p.len);
        /* ... or a header the tree includes only where AMD skips (and never elsewhere under
         * its name): the vendor headers of the other builds */
        if (!side[i] && cfg->inc_cuda && !(cfg->inc_any && nameidx_get(cfg->inc_any, base) >= 0))
            for (ptrdiff_t q = p.len - 1; q >= 0 && !side[i]; q--)
                if ((q == 0 || p.s[q - 1] == '/') &&
                    nameidx_get(cfg->inc_cuda, str_cut(p, q, p.len)) >= 0)
                    side[i] = was[i] = 1;
        int32_t h = nameidx_get(&bybase, base);
        next[i] = h;
        nameidx_put(&bybase, base, i, 1);
    }
    /* the edges: (included file, includer) */
    int cap = ne + 16, n = 0;
    int32_t *to = NEW(a, int32_t, cap), *fr = NEW(a, int32_t, cap);
    if (!to || !fr)
        return;
    for (int e = 0; e < ne; e++) {
        int32_t f = nameidx_get(&byp, rules_build_path(a, pr->inc_from.v[e].s));
        hp_str x = pr->inc_to.v[e];
        if (f < 0 || !x.len)
            continue;
        hp_str fp = path[f];
        ptrdiff_t d = fp.len;
        while (d > 0 && fp.s[d - 1] != '/')
            d--;
        char *rel = arena_printf(a, "%.*s%.*s", (int)d, fp.s, (int)x.len, x.s);
        int32_t t = nameidx_get(&byp, rules_build_path(a, rel));
        ptrdiff_t k = x.len;
        while (k > 0 && x.s[k - 1] != '/')
            k--;
        for (int32_t c = t >= 0 ? t : nameidx_get(&bybase, str_cut(x, k, x.len)); c >= 0;
             c = t >= 0 ? -1 : next[c]) {
            hp_str cp = path[c];
            if (t < 0 && !(cp.len > x.len && cp.s[cp.len - x.len - 1] == '/' &&
                           memcmp(cp.s + cp.len - x.len, x.s, (size_t)x.len) == 0))
                continue;
            if (n == cap) {
                int nc = 2 * cap;
                int32_t *nt = NEW(a, int32_t, nc), *nfr = NEW(a, int32_t, nc);
                if (!nt || !nfr)
                    return;
                memcpy(nt, to, (size_t)n * sizeof *nt);
                memcpy(nfr, fr, (size_t)n * sizeof *nfr);
                to = nt;
                fr = nfr;
                cap = nc;
            }
            to[n] = c;
            fr[n++] = f;
        }
    }
    /* the largest set of headers all of whose includers are in it or such sources (include
     * cycles among headers stay in): every header with includers, less those with an includer
     * outside, until nothing changes */
    int32_t *cnt = NEW(a, int32_t, nf);
    if (!cnt)
        return;
    for (int i = 0; i < n; i++)
        cnt[to[i]] += to[i] != fr[i];
    for (int i = 0; i < nf; i++)
        if (!side[i] && cnt[i] && header_name(path[i].s))
            side[i] = 1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < n; i++)
            if (side[to[i]] && !was[to[i]] && !side[fr[i]]) {
                side[to[i]] = 0;
                changed = 1;
            }
    }
    int found = 0;
    for (int i = 0; i < nf; i++)
        found += side[i] && !was[i];
    if (!found)
        return;
    nameidx *ix = NEW(a, nameidx, 1);
    if (!ix || !nameidx_init(ix, a, found))
        return;
    for (int i = 0; i < nf; i++)
        if (side[i] && !was[i])
            nameidx_put(ix, path[i], 0, 0);
    cfg->cuda_hdr = ix;
}

/* Runs the first pass: the platform macros into cfg->plat, the names headers define for HIP
 * into cfg->shim; the indexes live in a. Each stays NULL when the tree has none (or on errors:
 * the check pass then goes without). */
static void tree_platform_macros(arena *a, const hp_run_opts *r, rules_cfg *cfg,
                                 int other_vendors, const char *const *paths, int npaths,
                                 run_record *rec)
{
    prun pr;
    memset(&pr, 0, sizeof pr);
    pr.r = r;
    pr.cfg = cfg;
    pr.a = a;
    hp_run_opts r2 = *r;
    r2.on_file = plat_file;
    r2.on_progress = NULL;
    r2.ud = &pr;
    run_spec spec = tree_spec(plat_job, &pr, r, other_vendors);
    spec.record = rec;
    if (run_files(&r2, &spec, paths, npaths) != HP_OK) {
        rec->failed = 1;
        return;
    }
    cfg->tree_pass = 1;
    cfg->plat = index_of(a, &pr.plat);
    cfg->shim = index_of(a, &pr.shim);
    cfg->inc_cuda = index_of(a, &pr.inc_cuda);
    cfg->inc_any = index_of(a, &pr.inc_any);
    if (pr.split_key.n) {
        nameidx *ix = NEW(a, nameidx, 1);
        if (ix && nameidx_init(ix, a, pr.split_key.n)) {
            for (int i = 0; i < pr.split_key.n; i++)
                nameidx_put(ix, pr.split_key.v[i], i, 0);
            cfg->amd_split = ix;
            cfg->amd_split_names = pr.split_comp.v;
            cfg->namd_split = pr.split_comp.n;
        }
    }
    tree_projects(a, &pr, cfg);
    tree_cuda_headers(a, &pr, cfg);
    /* the macros defined only where AMD skips: undefined on AMD */
    const nameidx *live = index_of(a, &pr.def_live);
    int nundef = 0;
    for (int i = 0; i < pr.def_dead.n; i++)
        nundef += !live || nameidx_get(live, pr.def_dead.v[i]) < 0;
    nameidx *ux = nundef ? NEW(a, nameidx, 1) : NULL;
    if (ux && nameidx_init(ux, a, nundef)) {
        for (int i = 0; i < pr.def_dead.n; i++)
            if (!live || nameidx_get(live, pr.def_dead.v[i]) < 0)
                nameidx_put(ux, pr.def_dead.v[i], 0, 0);
        cfg->amd_undef = ux;
    }
    /* the modules imported only from code one vendor runs */
    const nameidx *any = index_of(a, &pr.imp_any);
    int nonly = 0;
    for (int i = 0; i < pr.imp_vendor.n; i++)
        nonly += !any || nameidx_get(any, pr.imp_vendor.v[i]) < 0;
    nameidx *ix = nonly ? NEW(a, nameidx, 1) : NULL;
    if (ix && nameidx_init(ix, a, nonly)) {
        for (int i = 0; i < pr.imp_vendor.n; i++)
            if (!any || nameidx_get(any, pr.imp_vendor.v[i]) < 0)
                nameidx_put(ix, pr.imp_vendor.v[i], 0, 0);
        cfg->vendor_mods = ix;
    }
    /* the NVIDIA-only predicates no file defines otherwise */
    const nameidx *other = index_of(a, &pr.pred_other);
    int npred = 0;
    for (int i = 0; i < pr.nv_pred.n; i++)
        npred += !other || nameidx_get(other, pr.nv_pred.v[i]) < 0;
    nameidx *px = npred ? NEW(a, nameidx, 1) : NULL;
    if (px && nameidx_init(px, a, npred)) {
        for (int i = 0; i < pr.nv_pred.n; i++)
            if (!other || nameidx_get(other, pr.nv_pred.v[i]) < 0)
                nameidx_put(px, pr.nv_pred.v[i], 0, 0);
        cfg->nv_preds = px;
    }
}

hp_status hp_check_run(const hp_check_opts *o, const hp_run_opts *r, const char *const *paths,
                       int npaths)
{
    if (npaths <= 0 || !r)
        return HP_EUSAGE;
    arena a;
    arena_init(&a, 1 << 14);
    crun cr;
    cr.r = r;
    cr.o = o;
    hp_status s = rules_cfg_build(&a, o, &cr.cfg, NULL, 0);
    if (s != HP_OK) {
        arena_release(&a);
        return s;
    }
    /* the first pass's walk is kept: the check pass takes the same files, in the same order,
     * without listing the tree's directories again */
    run_record rec;
    run_record_init(&rec);
    tree_platform_macros(&a, r, &cr.cfg, o->other_vendors, paths, npaths, &rec);
    run_spec spec = tree_spec(check_job, &cr, r, o->other_vendors);
    s = rec.failed ? run_files(r, &spec, paths, npaths) : run_replay(r, &spec, &rec);
    run_record_free(&rec);
    arena_release(&a);
    return s;
}

/* ------------------------------------------------------------------ finding sets */

/* A string kept once: findings repeat their rule ids, fixes, most messages and the lines
 * they quote, so a run's findings hold each text once. */
typedef struct istr {
    const char *s; /* NUL-terminated copy in the arena */
    ptrdiff_t len;
    unsigned h;
} istr;

struct hp_findings {
    hp_finding *v;
    int n, cap;
    arena a;            /* the strings */
    const char *last_path_in;
    const char *last_path;
    istr *strs;         /* open addressing */
    ptrdiff_t nstrs, capstrs;
};

hp_findings *hp_findings_new(void)
{
    hp_findings *fs = calloc(1, sizeof *fs);
    if (fs)
        arena_init(&fs->a, 1 << 16);
    return fs;
}

void hp_findings_free(hp_findings *fs)
{
    if (!fs)
        return;
    arena_release(&fs->a);
    free(fs->strs);
    free(fs->v);
    free(fs);
}

static const char *intern(hp_findings *fs, const char *s, ptrdiff_t len)
{
    if (2 * (fs->nstrs + 1) > fs->capstrs) {
        ptrdiff_t ncap = fs->capstrs ? 2 * fs->capstrs : 1024;
        istr *nv = calloc((size_t)ncap, sizeof *nv);
        if (!nv)
            return NULL;
        for (ptrdiff_t i = 0; i < fs->capstrs; i++) {
            if (!fs->strs[i].s)
                continue;
            ptrdiff_t j = (ptrdiff_t)(fs->strs[i].h & (unsigned)(ncap - 1));
            while (nv[j].s)
                j = (j + 1) & (ncap - 1);
            nv[j] = fs->strs[i];
        }
        free(fs->strs);
        fs->strs = nv;
        fs->capstrs = ncap;
    }
    unsigned h = str_hash(s, len, 0);
    ptrdiff_t j = (ptrdiff_t)(h & (unsigned)(fs->capstrs - 1));
    for (; fs->strs[j].s; j = (j + 1) & (fs->capstrs - 1)) {
        const istr *e = &fs->strs[j];
        if (e->h == h && e->len == len && memcmp(e->s, s, (size_t)len) == 0)
            return e->s;
    }
    char *copy = arena_strndup(&fs->a, s, len);
    if (!copy)
        return NULL;
    fs->strs[j].s = copy;
    fs->strs[j].len = len;
    fs->strs[j].h = h;
    fs->nstrs++;
    return copy;
}

static const char *dup(hp_findings *fs, const char *s)
{
    return s ? intern(fs, s, (ptrdiff_t)strlen(s)) : NULL;
}

int hp_findings_add(hp_findings *fs, const hp_finding *f, int n)
{
    if (!fs || n < 0)
        return -1;
    if (fs->n > 0x3fffffff - n)
        return -1;
    if (fs->n + n > fs->cap) {
        int ncap = fs->cap ? fs->cap : 64;
        while (ncap < fs->n + n)
            ncap *= 2;
        hp_finding *nv = realloc(fs->v, (size_t)ncap * sizeof *nv);
        if (!nv)
            return -1;
        fs->v = nv;
        fs->cap = ncap;
    }
    for (int i = 0; i < n; i++) {
        hp_finding d = f[i];
        /* The same pointer is not the same path: a later file's path can be written where an
         * earlier one's was (arenas are reused file after file), so the text decides. */
        const char *path = f[i].path ? f[i].path : "";
        if (path != fs->last_path_in || !fs->last_path || strcmp(path, fs->last_path) != 0) {
            fs->last_path_in = path;
            fs->last_path = dup(fs, path);
        }
        d.path = fs->last_path;
        d.rule = dup(fs, f[i].rule ? f[i].rule : "");
        d.message = dup(fs, f[i].message ? f[i].message : "");
        d.fix = dup(fs, f[i].fix);
        const char *src = f[i].source.len > 0 ? intern(fs, f[i].source.s, f[i].source.len)
                                               : NULL;
        d.source = str_make(src ? src : "", src ? f[i].source.len : 0);
        if (!d.path || !d.rule || !d.message)
            return -1;
        fs->v[fs->n++] = d;
    }
    return 0;
}

static int cmp_full(const void *x, const void *y)
{
    const hp_finding *a = x, *b = y;
    int c = strcmp(a->path, b->path);
    if (c)
        return c;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    if (a->col != b->col)
        return a->col < b->col ? -1 : 1;
    c = strcmp(a->rule, b->rule);
    if (c)
        return c;
    return strcmp(a->message, b->message);
}

void hp_finding_sort(hp_finding *f, int n)
{
    if (f && n > 1)
        qsort(f, (size_t)n, sizeof *f, cmp_full);
}

void hp_findings_sort(hp_findings *fs)
{
    if (fs && fs->n > 1)
        qsort(fs->v, (size_t)fs->n, sizeof *fs->v, cmp_full);
}

const hp_finding *hp_findings_items(const hp_findings *fs, int *n)
{
    if (n)
        *n = fs ? fs->n : 0;
    return fs ? fs->v : NULL;
}
