/* walk.c: enumerating the files of inputs and trees in a fixed order (entries sorted by name),
 * catching symlink loops by device and inode, skipping version-control directories. */
#include "walk.h"

#include <errno.h>
#include <string.h>

#include "os.h"
#include "os_tree.h"
#include "str.h"

#include "banned.h"

typedef struct frame {
    unsigned long long dev, ino;
} frame;

typedef struct walker {
    arena *a;
    const walk_opts *o;
    int (*emit)(void *ud, const walk_item *it);
    void *ud;
    frame stack[256]; /* directories being walked, for loop detection */
    int depth;
    int stop;
    int root; /* the input being walked */
    int hipified; /* the input is hipify-python's output directory (it holds the record) */
    int told;     /* the note on its originals was given */
    const char *root_real; /* the input's real path (skip_inner_links), or NULL */
} walker;

int walk_excluded(const walk_opts *o, const char *rel)
{
    hp_str r = str_cstr(rel);
    for (int i = 0; i < o->nexcludes; i++) {
        hp_str pat = str_cstr(o->excludes[i]);
        while (pat.len > 2 && pat.s[0] == '.' && pat.s[1] == '/') {
            pat.s += 2;
            pat.len -= 2;
        }
        while (pat.len > 1 && pat.s[pat.len - 1] == '/')
            pat.len--;
        if (str_chr(pat, '/') >= 0) {
            if (str_glob(pat, r, 1))
                return 1;
            /* a directory pattern also excludes what is below it */
            if (r.len > pat.len && r.s[pat.len] == '/' &&
                str_glob(pat, str_make(r.s, pat.len), 1))
                return 1;
            continue;
        }
        /* no '/': match any component */
        ptrdiff_t start = 0;
        for (ptrdiff_t k = 0; k <= r.len; k++) {
            if (k == r.len || r.s[k] == '/') {
                if (str_glob(pat, str_make(r.s + start, k - start), 1))
                    return 1;
                start = k + 1;
            }
        }
    }
    return 0;
}

static int emit_error(walker *w, const char *path, const char *rel, hp_status s, const char *err)
{
    walk_item it = {path, rel, 1, s, err, w->root, 0};
    if (w->emit(w->ud, &it))
        w->stop = 1;
    return w->stop;
}

static int vcs_dir(const char *name)
{
    return strcmp(name, ".git") == 0 || strcmp(name, ".hg") == 0 || strcmp(name, ".svn") == 0;
}

/* dir/name, one '/' between them also where dir ends with one */
static char *join(arena *a, const char *dir, const char *name)
{
    ptrdiff_t n = (ptrdiff_t)strlen(dir);
    if (n && dir[n - 1] == '/')
        n--;
    return arena_join(a, dir, n, '/', name, (ptrdiff_t)strlen(name));
}

/* Is name X.cu, in a listing (sorted by strcmp) that holds X.hip? In hipify-python's output
 * directory X.cu is the copy of the original that X.hip translates. */
static int hipified_original(const os_dirent *ents, ptrdiff_t n, const char *name, arena *a)
{
    size_t len = strlen(name);
    if (len < 4 || strcmp(name + len - 3, ".cu") != 0)
        return 0;
    char *want = arena_printf(a, "%.*s.hip", (int)(len - 3), name);
    ptrdiff_t lo = 0, hi = n - 1;
    while (lo <= hi) {
        ptrdiff_t mid = lo + (hi - lo) / 2;
        int c = strcmp(ents[mid].name, want);
        if (c == 0)
            return ents[mid].type == OS_DT_REG || ents[mid].type == OS_DT_UNKNOWN ||
                   ents[mid].type == OS_DT_LNK;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return 0;
}

/* Does the walk reach the real path of a link's target by itself (skip_inner_links)? Then it
 * returns the target's path relative to the input, else NULL. */
static const char *inner_target(walker *w, const char *child, int is_dir)
{
    if (!w->o->skip_inner_links || !w->root_real)
        return NULL;
    const char *real = os_realpath(w->a, child);
    if (!real)
        return NULL;
    size_t n = strlen(w->root_real);
    if (n == 1 && w->root_real[0] == '/')
        n = 0; /* the root directory: every path is below it */
    if (strncmp(real, w->root_real, n) != 0 || real[n] != '/' || !real[n + 1])
        return NULL;
    const char *rel = real + n + 1;
    if (walk_excluded(w->o, rel))
        return NULL;
    /* every directory on the way (and the target, if one) must be one the walk enters */
    for (const char *p = rel;; p++) {
        if (*p == '/' || (!*p && is_dir)) {
            char *dir = arena_printf(w->a, "%.*s", (int)(p - rel), rel);
            const char *last = strrchr(dir, '/');
            if (vcs_dir(last ? last + 1 : dir) || os_tree_is_temp(last ? last + 1 : dir))
                return NULL;
            if (w->o->skip_dir && w->o->skip_dir(w->o->skip_dir_ud, dir))
                return NULL;
        }
        if (!*p)
            break;
    }
    return rel;
}

static void walk_dir(walker *w, const char *path, const char *rel, const os_stat *st)
{
    if (w->stop)
        return;
    for (int i = 0; i < w->depth; i++)
        if (w->stack[i].dev == st->dev && w->stack[i].ino == st->ino) {
            emit_error(w, path, rel, HP_ELOOP, "symlink loop");
            return;
        }
    if (w->depth == (int)(sizeof w->stack / sizeof *w->stack)) {
        emit_error(w, path, rel, HP_EIO, "directory tree too deep");
        return;
    }
    w->stack[w->depth].dev = st->dev;
    w->stack[w->depth].ino = st->ino;
    w->depth++;
    /* What this directory needs (its listing, the paths below it) is freed when it is done:
     * the walk holds one listing per level, never the tree's paths. An emitted item's
     * strings live until emit returns; a consumer that keeps them copies them. */
    arena_mark mark = arena_save(w->a);
    os_dirent *ents;
    ptrdiff_t n;
    int rc = os_list_dir(w->a, path, &ents, &n);
    if (rc && n == 0) {
        emit_error(w, path, rel, HP_EIO, arena_printf(w->a, "cannot read directory: %s",
                                                      strerror(rc)));
        arena_rewind(w->a, mark);
        w->depth--;
        return;
    }
    for (ptrdiff_t i = 0; i < n && !w->stop; i++) {
        const char *name = ents[i].name;
        char *child = join(w->a, path, name);
        char *crel = rel[0] ? arena_join(w->a, rel, (ptrdiff_t)strlen(rel), '/', name,
                                         (ptrdiff_t)strlen(name))
                            : (char *)name;
        int type = ents[i].type;
        if (walk_excluded(w->o, crel) || os_tree_is_temp(name))
            continue; /* excluded, or a temporary file of a write in progress */
        os_stat cst;
        if (type == OS_DT_LNK || type == OS_DT_UNKNOWN) {
            os_stat lst;
            if (os_stat_path(child, 1, &lst) != 0)
                continue; /* vanished */
            if (lst.is_link) {
                if (!w->o->follow_symlinks) {
                    /* symlinked files are taken; symlinked directories are not entered */
                    if (os_stat_path(child, 0, &cst) != 0) {
                        emit_error(w, child, crel, HP_EIO, "dangling symlink");
                        continue;
                    }
                    if (cst.is_dir) {
                        if (w->o->report_links && !vcs_dir(name) &&
                            !(w->o->have_skip && cst.dev == w->o->skip_dev &&
                              cst.ino == w->o->skip_ino)) {
                            walk_item it = {child, crel, 1, HP_OK,
                                            "a symbolic link to a directory (not followed)",
                                            w->root, 1};
                            if (w->emit(w->ud, &it))
                                w->stop = 1;
                        }
                        continue;
                    }
                    if (cst.is_reg && inner_target(w, child, 0))
                        continue;
                    type = cst.is_reg ? OS_DT_REG : OS_DT_OTHER;
                } else {
                    int e = os_stat_path(child, 0, &cst);
                    if (e == ELOOP) {
                        emit_error(w, child, crel, HP_ELOOP, "symlink loop");
                        continue;
                    }
                    if (e != 0) {
                        emit_error(w, child, crel, HP_EIO, "dangling symlink");
                        continue;
                    }
                    type = cst.is_dir ? OS_DT_DIR : cst.is_reg ? OS_DT_REG : OS_DT_OTHER;
                    const char *at = inner_target(w, child, cst.is_dir);
                    if (at) {
                        if (cst.is_dir) {
                            walk_item it = {child, crel, 1, HP_OK,
                                            arena_printf(w->a,
                                                         "a symbolic link to '%s' in the same "
                                                         "tree, which is taken there",
                                                         at),
                                            w->root, 1};
                            if (w->emit(w->ud, &it))
                                w->stop = 1;
                        }
                        continue;
                    }
                }
            } else {
                cst = lst;
                type = lst.is_dir ? OS_DT_DIR : lst.is_reg ? OS_DT_REG : OS_DT_OTHER;
            }
        }
        if (type == OS_DT_DIR) {
            if (vcs_dir(name))
                continue;
            if (ents[i].type == OS_DT_DIR && os_stat_path(child, 0, &cst) != 0)
                continue;
            if (w->o->have_skip && cst.dev == w->o->skip_dev && cst.ino == w->o->skip_ino)
                continue;
            /* a copy of the project that hipify-python made (its record is there): walking
             * it would take every file twice */
            os_stat rst;
            if (os_stat_path(join(w->a, child, HP_HIPIFY_RECORD), 1, &rst) == 0 && rst.is_reg) {
                walk_item it = {child, crel, 1, HP_OK,
                                "hipify-python's output directory (it holds " HP_HIPIFY_RECORD
                                "): not entered; name it to take it",
                                w->root, 1};
                if (w->emit(w->ud, &it))
                    w->stop = 1;
                continue;
            }
            const char *why = w->o->skip_dir ? w->o->skip_dir(w->o->skip_dir_ud, crel) : NULL;
            if (why) {
                walk_item it = {child, crel, 1, HP_OK, why, w->root, 1};
                if (w->emit(w->ud, &it))
                    w->stop = 1;
                continue;
            }
            walk_dir(w, child, crel, &cst);
        } else if (type == OS_DT_REG) {
            if (w->o->want && !w->o->want(w->o->want_ud, name))
                continue;
            if (w->hipified && w->o->skip_hipified_copies &&
                hipified_original(ents, n, name, w->a)) {
                if (!w->told) {
                    w->told = 1;
                    walk_item it = {child, crel, 1, HP_OK,
                                    "hipify-python's copy of an original that it translated "
                                    "beside it (X.cu next to X.hip): not taken, nor the other "
                                    "such copies of this tree",
                                    w->root, 1};
                    if (w->emit(w->ud, &it))
                        w->stop = 1;
                }
                continue;
            }
            walk_item it = {child, crel, 1, HP_OK, NULL, w->root, 0};
            if (w->emit(w->ud, &it))
                w->stop = 1;
        }
    }
    arena_rewind(w->a, mark);
    w->depth--;
}

int walk_paths(arena *a, const walk_opts *o, const char *const *paths, int npaths,
               int (*emit)(void *ud, const walk_item *it), void *ud)
{
    walker w;
    memset(&w, 0, sizeof w);
    /* Directories are walked in an arena of the walk's own, rewound as each directory is
     * left: the caller's arena (which emit may allocate in) is never rewound. */
    arena scratch;
    arena_init(&scratch, (ptrdiff_t)1 << 16);
    w.a = &scratch;
    w.o = o;
    w.emit = emit;
    w.ud = ud;
    for (int i = 0; i < npaths && !w.stop; i++) {
        const char *p = paths[i];
        w.root = i;
        os_stat st;
        int e = os_stat_path(p, 0, &st);
        if (e != 0) {
            const char *base = strrchr(p, '/');
            walk_item it = {p, base ? base + 1 : p, 0, e == ELOOP ? HP_ELOOP : HP_EIO,
                            e == ELOOP ? "symlink loop"
                                       : arena_printf(a, "cannot open: %s", strerror(e)),
                            i, 0};
            if (emit(ud, &it))
                w.stop = 1;
            continue;
        }
        if (st.is_dir) {
            os_stat rst;
            w.hipified = os_stat_path(join(w.a, p, HP_HIPIFY_RECORD), 1, &rst) == 0 && rst.is_reg;
            w.told = 0;
            w.root_real = o->skip_inner_links ? os_realpath(w.a, p) : NULL;
            walk_dir(&w, p, "", &st);
        } else {
            const char *base = strrchr(p, '/');
            walk_item it = {p, base ? base + 1 : p, 0, HP_OK, NULL, i, 0};
            if (emit(ud, &it))
                w.stop = 1;
        }
    }
    arena_release(&scratch);
    return w.stop;
}
