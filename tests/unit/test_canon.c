/* test_canon.c: memoized canonical paths against realpath(3), over a tree of links. */
#define _DEFAULT_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "canon.h"
#include "harness.h"

static int put(const char *dir, const char *rel, const char *text)
{
    char p[PATH_MAX];
    if (snprintf(p, sizeof p, "%s/%s", dir, rel) >= (int)sizeof p)
        return -1;
    FILE *f = fopen(p, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

static int link_at(const char *dir, const char *target, const char *rel)
{
    char p[PATH_MAX];
    if (snprintf(p, sizeof p, "%s/%s", dir, rel) >= (int)sizeof p)
        return -1;
    return symlink(target, p);
}

static int mkdir_at(const char *dir, const char *rel)
{
    char p[PATH_MAX];
    if (snprintf(p, sizeof p, "%s/%s", dir, rel) >= (int)sizeof p)
        return -1;
    return mkdir(p, 0755);
}

static void rm_tree(const char *dir)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "test_canon: could not remove %s\n", dir);
}

/* Every path is asked twice of one memo (the second answer comes from it), and each answer
 * must be realpath(3)'s: the same string, or NULL where realpath fails. */
static int same_as_realpath(canon *c, arena *a, const char *path)
{
    char *want = realpath(path, NULL);
    int ok = 1;
    for (int round = 0; round < 2; round++) {
        const char *got = canon_path(c, a, path);
        if ((got == NULL) != (want == NULL) || (got && strcmp(got, want) != 0)) {
            fprintf(stderr, "canon_path(\"%s\") = %s%s%s, realpath gives %s%s%s\n", path,
                    got ? "\"" : "", got ? got : "NULL", got ? "\"" : "", want ? "\"" : "",
                    want ? want : "NULL", want ? "\"" : "");
            ok = 0;
        }
    }
    free(want);
    return ok;
}

TEST(canon_matches_realpath)
{
    char tmpl[256];
    snprintf(tmpl, sizeof tmpl, "%s/hipport-canon-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    CHECK(mkdtemp(tmpl) != NULL);
    /* the temporary directory itself may lie below a link (/tmp often does): the paths
     * below are built from the name as given, so links above it are resolved too */
    const char *R = tmpl;
    int made = mkdir_at(R, "d1") == 0 && mkdir_at(R, "d1/sub") == 0 &&
               put(R, "d1/f.h", "f\n") == 0 && put(R, "d1/sub/g.h", "g\n") == 0 &&
               link_at(R, "d1", "ln_d1") == 0 && link_at(R, "..", "d1/sub/up") == 0 &&
               link_at(R, "d1/f.h", "fl") == 0 && link_at(R, "fl", "fl2") == 0 &&
               link_at(R, "nowhere", "dangling") == 0 && link_at(R, "loop2", "loop1") == 0 &&
               link_at(R, "loop1", "loop2") == 0 && link_at(R, "ln_d1/sub", "ln_sub") == 0;
    char abs_target[PATH_MAX];
    made = made && snprintf(abs_target, sizeof abs_target, "%s/d1/sub", R) < PATH_MAX &&
           link_at(R, abs_target, "abs_ln") == 0;
    /* a chain deeper than the memo's recursion bound */
    char deep[PATH_MAX] = "deep";
    made = made && mkdir_at(R, deep) == 0;
    for (int i = 0; made && i < 40; i++) {
        strcat(deep, "/a");
        made = mkdir_at(R, deep) == 0;
    }
    char deep_file[PATH_MAX + 8];
    snprintf(deep_file, sizeof deep_file, "%s/h.h", deep);
    made = made && put(R, deep_file, "h\n") == 0;
    if (!made) {
        rm_tree(R);
        CHECK(!"could not build the tree of links");
    }
    static const char *const rels[] = {
        "d1/f.h", "d1/sub/g.h", "ln_d1/f.h", "ln_d1/sub/g.h", "ln_d1/sub/up/f.h",
        "d1/sub/up/sub/g.h", "d1/sub/../f.h", "ln_d1/../d1/f.h", "ln_sub/../f.h",
        "ln_sub/up/sub/up/f.h", "abs_ln/g.h", "abs_ln/../f.h", "fl", "fl2", "dangling",
        "loop1", "loop1/x.h", "missing/deep/x.h", "missing/deep/y.h", "missing/other/x.h",
        "d1/missing/x.h", "d1/f.h/x.h", "d1/", "d1/.", "d1/..", "d1//f.h", "d1/sub",
        "ln_d1", "ln_d1/", "./d1/./sub/g.h", "d1/sub/./../sub/g.h", NULL,
    };
    canon *c = canon_new();
    arena a;
    arena_init(&a, 4096);
    int ok = c != NULL;
    char p[2 * PATH_MAX];
    for (int i = 0; ok && rels[i]; i++) {
        snprintf(p, sizeof p, "%s/%s", R, rels[i]);
        ok = same_as_realpath(c, &a, p);
    }
    snprintf(p, sizeof p, "%s/%s", R, deep_file);
    ok = ok && same_as_realpath(c, &a, p);
    snprintf(p, sizeof p, "%s/%s/../../a/h.h", R, deep);
    ok = ok && same_as_realpath(c, &a, p);
    /* relative to the working directory, and the root */
    static const char *const others[] = {"Makefile", "./Makefile", "tests/unit/harness.h",
                                         "no-such-file.h", "no/such/dir.h", "/", "/etc", NULL};
    for (int i = 0; ok && others[i]; i++)
        ok = same_as_realpath(c, &a, others[i]);
    arena_release(&a);
    canon_free(c);
    rm_tree(R);
    CHECK(ok);
}
