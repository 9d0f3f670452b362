/* test_os_tree.c: writes below a directory opened once: never through a link at any depth
 * (also one made after the tree was first used), what a replaced file keeps, and the removal
 * of temporary files that a killed process left. */
#define _DEFAULT_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "os_tree.h"

static char root[256];

static const char *at(const char *rel)
{
    static char p[4][PATH_MAX];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", root, rel);
    return p[k];
}

static int put_text(const char *rel, const char *text)
{
    FILE *f = fopen(at(rel), "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

/* The file's bytes (a static buffer), or "" when it cannot be read. */
static const char *text_of(const char *rel)
{
    static char b[4096];
    b[0] = 0;
    FILE *f = fopen(at(rel), "r");
    if (!f)
        return b;
    size_t n = fread(b, 1, sizeof b - 1, f);
    b[n] = 0;
    fclose(f);
    return b;
}

static int make_root(void)
{
    snprintf(root, sizeof root, "%s/hipport-tree-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    return mkdtemp(root) != NULL;
}

static void rm_root(void)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        fprintf(stderr, "test_os_tree: could not remove %s\n", root);
}

static hp_status put(os_tree *t, arena *a, const char *rel, const char *text, int replace,
                     int *outcome)
{
    os_put p;
    memset(&p, 0, sizeof p);
    p.data = text;
    p.len = (ptrdiff_t)strlen(text);
    p.mode = 0644;
    p.replace = replace;
    p.mkdirs = 1;
    const char *err;
    return os_tree_put(t, a, rel, &p, outcome, &err);
}

/* How many names in the directory rel look like temporary files. */
static int temps_in(const char *rel)
{
    char cmd[PATH_MAX + 64];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | grep -c hipport- >/dev/null", at(rel));
    return system(cmd) == 0;
}

TEST(os_tree_never_through_links)
{
    CHECK(make_root());
    int ok = mkdir(at("out"), 0755) == 0 && mkdir(at("elsewhere"), 0755) == 0 &&
             mkdir(at("elsewhere/deep"), 0755) == 0 && mkdir(at("out/a"), 0755) == 0 &&
             put_text("elsewhere/t.cu", "theirs\n") == 0 &&
             symlink("../elsewhere", at("out/sub")) == 0 &&
             symlink("../../elsewhere/deep", at("out/a/deep")) == 0 &&
             symlink("../elsewhere/t.cu", at("out/t.cu")) == 0;
    if (!ok) {
        rm_root();
        CHECK(!"could not build the tree");
    }
    os_tree *t = os_tree_new(at("out"), 0);
    arena a;
    arena_init(&a, 4096);
    int outcome;
    /* a link on the way, at the top and deeper, with and without replace */
    CHECK_INT(put(t, &a, "sub/x.cu", "x\n", 1, &outcome), HP_EIO);
    CHECK_INT(outcome, OS_PUT_LINK);
    CHECK_INT(put(t, &a, "sub/new/x.cu", "x\n", 1, &outcome), HP_EIO);
    CHECK_INT(put(t, &a, "a/deep/x.cu", "x\n", 1, &outcome), HP_EIO);
    CHECK_INT(outcome, OS_PUT_LINK);
    /* a directory used once, then a link made beside it while the tree is in use */
    CHECK_INT(put(t, &a, "a/b/x.cu", "x\n", 0, &outcome), HP_OK);
    CHECK_INT(outcome, OS_PUT_WRITTEN);
    CHECK(symlink("../../elsewhere", at("out/a/c")) == 0);
    CHECK_INT(put(t, &a, "a/c/x.cu", "x\n", 1, &outcome), HP_EIO);
    CHECK_INT(outcome, OS_PUT_LINK);
    /* a link in the file's place: refused, or replaced itself, never followed */
    CHECK_INT(put(t, &a, "t.cu", "mine\n", 0, &outcome), HP_EIO);
    CHECK_INT(outcome, OS_PUT_LINK);
    CHECK_INT(put(t, &a, "t.cu", "mine\n", 1, &outcome), HP_OK);
    struct stat sb;
    CHECK(lstat(at("out/t.cu"), &sb) == 0 && S_ISREG(sb.st_mode));
    CHECK_STR(text_of("out/t.cu"), "mine\n");
    CHECK_STR(text_of("elsewhere/t.cu"), "theirs\n");
    /* nothing landed where the links point, and no temporary file is left */
    char cmd[PATH_MAX + 64];
    snprintf(cmd, sizeof cmd, "test \"$(find '%s' -type f | wc -l)\" = 1", at("elsewhere"));
    CHECK(system(cmd) == 0);
    CHECK(!temps_in("out") && !temps_in("out/a/b"));
    /* reading in place: never through a link either */
    char *data;
    ptrdiff_t len;
    int kind;
    const char *err;
    CHECK(symlink("../elsewhere/t.cu", at("out/l.cu")) == 0);
    CHECK_INT(os_tree_read(t, &a, "l.cu", 1 << 20, &data, &len, NULL, &kind, &err), HP_EIO);
    CHECK_INT(kind, OS_READ_LINK);
    CHECK_INT(os_tree_read(t, &a, "sub/t.cu", 1 << 20, &data, &len, NULL, &kind, &err),
              HP_EIO);
    CHECK_INT(kind, OS_READ_LINK);
    CHECK_INT(os_tree_read(t, &a, "a/b/nothing.cu", 1 << 20, &data, &len, NULL, &kind, &err),
              HP_EIO);
    CHECK_INT(kind, OS_READ_MISSING);
    CHECK_INT(os_tree_read(t, &a, "a/b/x.cu", 1 << 20, &data, &len, NULL, &kind, &err), HP_OK);
    CHECK_STR(data, "x\n");
    os_tree_free(t);
    arena_release(&a);
    rm_root();
}

TEST(os_tree_replace_keeps_mode)
{
    CHECK(make_root());
    CHECK(put_text("f.cu", "old\n") == 0 && chmod(at("f.cu"), 0600) == 0);
    CHECK(put_text("g.cu", "old\n") == 0);
    os_tree *t = os_tree_new(root, 0);
    arena a;
    arena_init(&a, 4096);
    int outcome;
    /* a different file is not replaced without replace; the same bytes are left untouched */
    CHECK_INT(put(t, &a, "f.cu", "new\n", 0, &outcome), HP_EEXIST);
    CHECK_INT(outcome, OS_PUT_DIFFERS);
    CHECK_INT(put(t, &a, "g.cu", "old\n", 0, &outcome), HP_OK);
    CHECK_INT(outcome, OS_PUT_SAME);
    /* replaced: the mode is the replaced file's, not the new file's */
    CHECK_INT(put(t, &a, "f.cu", "new\n", 1, &outcome), HP_OK);
    CHECK_INT(outcome, OS_PUT_WRITTEN);
    CHECK_STR(text_of("f.cu"), "new\n");
    struct stat sb;
    CHECK(stat(at("f.cu"), &sb) == 0);
    CHECK_INT(sb.st_mode & 07777, 0600);
    /* a new file gets its mode exactly, whatever the umask */
    mode_t um = umask(077);
    umask(um);
    CHECK_INT(put(t, &a, "n.cu", "n\n", 0, &outcome), HP_OK);
    CHECK(stat(at("n.cu"), &sb) == 0);
    CHECK_INT(sb.st_mode & 07777, 0644);
    /* kept metadata: mode and times (a backup) */
    os_meta m;
    memset(&m, 0, sizeof m);
    m.valid = 1;
    m.uid = (unsigned)getuid();
    m.gid = (unsigned)getgid();
    m.mode = 0640;
    m.mtime_sec = 1000000000;
    m.atime_sec = 1000000001;
    os_put p;
    memset(&p, 0, sizeof p);
    p.data = "b\n";
    p.len = 2;
    p.mode = -1;
    p.keep = &m;
    p.keep_times = 1;
    const char *err;
    CHECK_INT(os_tree_put(t, &a, "f.cu.orig", &p, &outcome, &err), HP_OK);
    CHECK(stat(at("f.cu.orig"), &sb) == 0);
    CHECK_INT(sb.st_mode & 07777, 0640);
    CHECK_INT(sb.st_mtime, 1000000000);
    CHECK_INT(sb.st_atime, 1000000001);
    os_tree_free(t);
    arena_release(&a);
    rm_root();
}

TEST(os_tree_removes_stale_temporaries)
{
    CHECK(os_tree_is_temp(".a.cu.hipport-123-0"));
    CHECK(os_tree_is_temp(".x.hipport-1-99"));
    CHECK(!os_tree_is_temp("a.cu.hipport-123-0"));  /* no leading dot */
    CHECK(!os_tree_is_temp(".a.cu.hipport-123"));    /* no number */
    CHECK(!os_tree_is_temp(".a.cu.hipport-ABCDEF")); /* an older hipport's: no process id */
    CHECK(!os_tree_is_temp(".hipport-12-3"));        /* no name */
    CHECK(make_root());
    /* a process id that is gone: a child's, once it has been waited for */
    pid_t child = fork();
    if (child == 0)
        _exit(0);
    CHECK(child > 0);
    waitpid(child, NULL, 0);
    char dead[64], alive[64];
    snprintf(dead, sizeof dead, ".k.cu.hipport-%ld-7", (long)child);
    snprintf(alive, sizeof alive, ".k.cu.hipport-%ld-7", (long)getppid());
    CHECK(mkdir(at("d"), 0755) == 0);
    char rel[128];
    snprintf(rel, sizeof rel, "d/%s", dead);
    CHECK(put_text(rel, "half") == 0);
    snprintf(rel, sizeof rel, "d/%s", alive);
    CHECK(put_text(rel, "live") == 0);
    CHECK(put_text("d/k.cu.hipport-1-1", "mine") == 0);
    os_tree *t = os_tree_new(root, 0);
    arena a;
    arena_init(&a, 4096);
    int outcome;
    CHECK_INT(put(t, &a, "d/k.cu", "k\n", 0, &outcome), HP_OK);
    struct stat sb;
    snprintf(rel, sizeof rel, "d/%s", dead);
    CHECK(stat(at(rel), &sb) != 0); /* removed: its process is gone */
    snprintf(rel, sizeof rel, "d/%s", alive);
    CHECK(stat(at(rel), &sb) == 0); /* kept: its process runs */
    CHECK(stat(at("d/k.cu.hipport-1-1"), &sb) == 0); /* not the pattern: kept */
    os_tree_free(t);
    arena_release(&a);
    rm_root();
}
