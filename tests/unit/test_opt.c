/* test_opt.c: the CLI's option tables (cli/opt.h): argv arrays parsed, the values they bind,
 * the usage errors and exit codes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cli/opt.h"
#include "harness.h"

/* What a table binds, and the messages of the last parse. */
typedef struct bound {
    int flag, jobs, format, launch;
    const char *name;
    opt_list list, args;
    int calls;
    char err[512];
} bound;

static int count_call(opt_state *s, const opt *o, const char *v)
{
    (void)s;
    (void)v;
    ((bound *)o->dest)->calls++;
    return OPT_CONTINUE;
}

static int stop(opt_state *s, const opt *o, const char *v)
{
    (void)s;
    (void)o;
    (void)v;
    return 0;
}

/* Parses the NULL-terminated words after "cmd" into b; the exit code (OPT_CONTINUE: all
 * parsed) and the messages in b->err. */
static int parse(bound *b, const char *const *words)
{
    static const char *const formats[] = {"text", "json", "sarif", NULL};
    static const int format_values[] = {10, 20, 30};
    static const char *const launches[] = {"chevron", "ggl", NULL};
    const opt table[] = {
        OPT_FLAG('f', "force", &b->flag, 1, "force"),
        OPT_FLAG(0, "no-force", &b->flag, 0, NULL),
        OPT_INT('j', "jobs", "N", &b->jobs, 1, 64, "jobs"),
        OPT_ENUM(0, "format", "text|json|sarif", &b->format, formats, format_values, "format"),
        OPT_ENUM(0, "launch", "[chevron|ggl]", &b->launch, launches, NULL, "launch"),
        OPT_STRING('o', "output", "FILE", &b->name, "output"),
        OPT_LIST('D', "define", "NAME", &b->list, "-D", "define"),
        OPT_LIST('U', "undefine", "NAME", &b->list, "-U", "undefine"),
        OPT_CALL(0, "count", NULL, count_call, b, "count"),
        OPT_CALL('h', "help", NULL, stop, NULL, "help"),
        OPT_IGNORE("legacy", "X", NULL),
        OPT_END(),
    };
    const opt operand = OPT_ARGS(&b->args);
    char *argv[32];
    int argc = 0;
    argv[argc++] = "cmd";
    for (; *words && argc < 31; words++)
        argv[argc++] = (char *)*words;
    argv[argc] = NULL;
    opt_state s;
    opt_init(&s, argc, argv, "cmd");
    FILE *err = tmpfile();
    if (!err)
        return -99;
    s.err = err;
    int rc = opt_parse(&s, table, &operand);
    rewind(err);
    size_t n = fread(b->err, 1, sizeof b->err - 1, err);
    b->err[n] = 0;
    fclose(err);
    return rc;
}

static void bound_init(bound *b)
{
    memset(b, 0, sizeof *b);
    b->launch = -1;
}

static void bound_free(bound *b)
{
    opt_list_free(&b->list);
    opt_list_free(&b->args);
}

TEST(opt_binds_values)
{
    bound b;
    bound_init(&b);
    const char *const w[] = {"-fj4", "--format=json", "-o", "out", "a.cu", "-DX=1", "--undefine",
                             "Y", "--count", "--count", "--launch", "--legacy", "z", "--", "-b",
                             NULL};
    int rc = parse(&b, w);
    CHECK_INT(rc, OPT_CONTINUE);
    CHECK_INT(b.flag, 1);
    CHECK_INT(b.jobs, 4);
    CHECK_INT(b.format, 20);
    CHECK_INT(b.launch, 0); /* an absent optional value: the first word */
    CHECK_STR(b.name, "out");
    CHECK_INT(b.calls, 2);
    CHECK_INT(b.list.n, 2);
    CHECK_STR(b.list.v[0], "-DX=1");
    CHECK_STR(b.list.v[1], "-UY");
    CHECK(b.list.v[2] == NULL);
    CHECK_INT(b.args.n, 2); /* "--legacy z" took its value; "-b" after "--" is an operand */
    CHECK_STR(b.args.v[0], "a.cu");
    CHECK_STR(b.args.v[1], "-b");
    CHECK_STR(b.err, "");
    bound_free(&b);
}

TEST(opt_later_wins)
{
    bound b;
    bound_init(&b);
    const char *const w[] = {"--force", "--no-force", "--jobs", "2", "-j", "8", "--launch=ggl",
                             "--output=x", "--output=", NULL};
    CHECK_INT(parse(&b, w), OPT_CONTINUE);
    CHECK_INT(b.flag, 0);
    CHECK_INT(b.jobs, 8);
    CHECK_INT(b.launch, 1);
    CHECK_STR(b.name, "");
    CHECK(opt_list_items(&b.args)[0] == NULL);
    bound_free(&b);
}

/* Each bad command line: its one message and the usage exit code (2). */
TEST(opt_usage_errors)
{
    static const struct {
        const char *w[4];
        const char *err;
    } cases[] = {
        {{"-j", NULL}, "hipport cmd: missing value for option '-j'\n"},
        {{"--jobs", NULL}, "hipport cmd: missing value for option '--jobs'\n"},
        {{"-j0", NULL}, "hipport cmd: bad value for --jobs: '0' (1 to 64)\n"},
        {{"--jobs=65", NULL}, "hipport cmd: bad value for --jobs: '65' (1 to 64)\n"},
        {{"--jobs", "4x", NULL}, "hipport cmd: bad value for --jobs: '4x' (1 to 64)\n"},
        {{"--format=xml", NULL},
         "hipport cmd: bad value for --format: 'xml' (text, json or sarif)\n"},
        {{"--launch=", NULL}, "hipport cmd: bad value for --launch: '' (chevron or ggl)\n"},
        {{"--force=1", NULL}, "hipport cmd: option takes no value: '--force=1'\n"},
        {{"-fx", NULL}, "hipport cmd: unknown option '-x'\n"},
        {{"--froce", NULL}, "hipport cmd: unknown option '--froce' (did you mean '--force'?)\n"},
        {{"--no-forc", NULL}, "hipport cmd: unknown option '--no-forc'\n"}, /* hidden: no hint */
        {{"--zzzzzz", NULL}, "hipport cmd: unknown option '--zzzzzz'\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        bound b;
        bound_init(&b);
        int rc = parse(&b, cases[i].w);
        char want[256];
        snprintf(want, sizeof want, "%stry 'hipport cmd --help'\n", cases[i].err);
        bound_free(&b);
        CHECK_INT(rc, 2);
        CHECK_STR(b.err, want);
    }
}

/* A callback that ends the command (help) stops the parse before later errors. */
TEST(opt_callback_ends_parse)
{
    bound b;
    bound_init(&b);
    const char *const w[] = {"-fh", "--bogus", NULL};
    CHECK_INT(parse(&b, w), 0);
    CHECK_INT(b.flag, 1);
    CHECK_STR(b.err, "");
    bound_free(&b);
}

TEST(opt_help_from_table)
{
    const opt table[] = {
        OPT_FLAG('q', "quiet", NULL, 1, "say less"),
        OPT_STRING(0, "stats", "[text|json]", NULL, "statistics"),
        OPT_STRING(0, "hidden", "X", NULL, NULL),
        OPT_STRING(0, "a-rather-long-option-name", "VALUE", NULL, "on the next line"),
        OPT_END(),
    };
    FILE *f = tmpfile();
    CHECK(f != NULL);
    opt_help(f, table);
    char got[512];
    rewind(f);
    size_t n = fread(got, 1, sizeof got - 1, f);
    got[n] = 0;
    fclose(f);
    CHECK_STR(got, "  -q, --quiet                 say less\n"
                   "      --stats[=text|json]     statistics\n"
                   "      --a-rather-long-option-name VALUE\n"
                   "                              on the next line\n");
}
