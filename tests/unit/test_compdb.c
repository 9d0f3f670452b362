/* test_compdb.c: compilation databases: entries, paths, command lines split as a shell would,
 * and the errors. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hipport.h"

/* Writes text to a new temporary file; its name goes to path (64 bytes). */
static int temp_db(char *path, const char *text)
{
    snprintf(path, 64, "%s/hipport-cdb-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    size_t n = strlen(text);
    int ok = write(fd, text, n) == (ssize_t)n;
    return close(fd) == 0 && ok ? 0 : -1;
}

TEST(compdb_entries)
{
    static const char db[] =
        "[{\"directory\": \"/w/build\", \"file\": \"../src/./a.cu\",\n"
        "  \"arguments\": [\"nvcc\", \"-DA=1\", \"-c\", \"../src/a.cu\"]},\n"
        " {\"directory\": \"rel/x\", \"file\": \"../../../y.cu\",\n"
        "  \"command\": \"nvcc -D 'A=1 2' -DB=\\\"x y\\\" -DC=\\\\\\\"q\\\\\\\" p\\\\ q -c y.cu\"},\n"
        " {\"directory\": \"/\", \"file\": \"../../z.cu\", \"command\": \"cc z.cu\"},\n"
        " {\"directory\": \"/w/build\", \"file\": \"/w/src/a.cu\", \"arguments\": [\"cc\"]},\n"
        " {\"file\": \"plain.cu\", \"command\": \"\"}]\n";
    char path[64];
    CHECK(temp_db(path, db) == 0);
    hp_ctx *ctx = hp_ctx_new();
    const hp_compdb_entry *e;
    int n;
    const char *err;
    hp_status s = hp_compdb_read(ctx, path, &e, &n, &err);
    unlink(path);
    CHECK(s == HP_OK);
    CHECK_INT(n, 4); /* /w/src/a.cu a second time keeps its first entry */
    CHECK_STR(e[0].file, "/w/src/a.cu");
    CHECK_INT(e[0].nargs, 4);
    CHECK_STR(e[0].args[1], "-DA=1");
    CHECK_STR(e[1].file, "../y.cu");
    CHECK_INT(e[1].nargs, 8);
    CHECK_STR(e[1].args[1], "-D");
    CHECK_STR(e[1].args[2], "A=1 2");
    CHECK_STR(e[1].args[3], "-DB=x y");
    CHECK_STR(e[1].args[4], "-DC=\"q\"");
    CHECK_STR(e[1].args[5], "p q");
    CHECK_STR(e[1].args[7], "y.cu");
    CHECK_STR(e[2].file, "/z.cu");
    CHECK_STR(e[3].file, "plain.cu");
    CHECK_INT(e[3].nargs, 0);
    hp_ctx_free(ctx);
}

TEST(compdb_errors)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"[", "not JSON"},
        {"{\"file\": \"a.cu\"}", "not a compilation database"},
        {"[{\"file\": \"a.cu\"}]", "entry 1 has no \"file\""},
        {"[{\"file\": \"a.cu\", \"command\": \"cc\"}, {\"command\": \"cc\"}]", "entry 2 has no"},
        {"[{\"file\": \"a.cu\", \"arguments\": [1]}]", "entry 1: an argument is not a string"},
        {"[{\"file\": \"a.cu\", \"command\": \"cc 'a\"}]", "entry 1: unterminated quote"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[64];
        CHECK(temp_db(path, cases[i].text) == 0);
        hp_ctx *ctx = hp_ctx_new();
        const hp_compdb_entry *e;
        int n;
        const char *err = NULL;
        hp_status s = hp_compdb_read(ctx, path, &e, &n, &err);
        unlink(path);
        int named = err && strstr(err, path) != NULL;
        int said = err && strstr(err, cases[i].want) != NULL;
        if (s == HP_OK || !named || !said)
            fprintf(stderr, "case %zu: %s\n", i, err ? err : "(no error)");
        hp_ctx_free(ctx);
        CHECK(s != HP_OK && named && said);
    }
    hp_ctx *ctx = hp_ctx_new();
    const hp_compdb_entry *e;
    int n;
    const char *err = NULL;
    CHECK(hp_compdb_read(ctx, "/nonexistent-dir-of-hipport", &e, &n, &err) == HP_EIO);
    CHECK(err && strstr(err, "/nonexistent-dir-of-hipport") != NULL);
    hp_ctx_free(ctx);
}
