/* test_args.c: the argument-rewrite table (data/tables/argrewrites.tsv) against the name tables. */
#include <string.h>

#include "harness.h"
#include "map.h"
#include "xlate.h"

/* Lookups are binary searches: the keys must be sorted and unique. */
TEST(args_table_sorted)
{
    for (int i = 1; i < xargs_row_count(); i++)
        if (strcmp(xargs_row_key(i - 1), xargs_row_key(i)) >= 0) {
            harness_failf(__FILE__, __LINE__, "'%s' is not after '%s'", xargs_row_key(i),
                          xargs_row_key(i - 1));
            return;
        }
}

/* Every rewritten function has a row, and that row carries the flag args. */
TEST(args_table_flagged)
{
    for (int i = 0; i < xargs_row_count(); i++) {
        const char *k = xargs_row_key(i);
        const char *slash = strchr(k, '/');
        ptrdiff_t n = slash ? slash - k : (ptrdiff_t)strlen(k);
        const map_row *r = map_find(k, n);
        if (!r || !(r->flags & MAP_F(args))) {
            harness_failf(__FILE__, __LINE__, "'%.*s' has no row with the flag args", (int)n, k);
            return;
        }
    }
}

/* The translation pass visits only the identifiers xlate_filter lets through: it must let
 * through every name of the tables and every word the pass tests besides them. */
TEST(xlate_filter_passes_every_name)
{
    const lex_filter *f = xlate_filter();
    for (ptrdiff_t i = 0; i < map_nrows(); i++) {
        hp_str s = map_cuda(map_row_at(i));
        if (!lex_filter_pass(f, (const unsigned char *)s.s, s.len)) {
            harness_failf(__FILE__, __LINE__, "'%.*s' is filtered out", (int)s.len, s.s);
            return;
        }
    }
    static const char *const words[] = {"__global__", "__device__", "__shared__",
                                        "__constant__", "__managed__", "threadIdx", "blockIdx",
                                        "blockDim", "gridDim", "printf", "CUdeviceptr"};
    for (size_t k = 0; k < sizeof words / sizeof *words; k++)
        CHECK(lex_filter_pass(f, (const unsigned char *)words[k], (ptrdiff_t)strlen(words[k])));
    int n = 0;
    for (; warp_cg_name(n); n++)
        CHECK(lex_filter_pass(f, (const unsigned char *)warp_cg_name(n),
                              (ptrdiff_t)strlen(warp_cg_name(n))));
    CHECK_INT(n, 7);
    /* and it turns away most other names */
    static const char *const plain[] = {"value", "index", "count", "result", "offset"};
    int through = 0;
    for (size_t k = 0; k < sizeof plain / sizeof *plain; k++)
        through += lex_filter_pass(f, (const unsigned char *)plain[k], (ptrdiff_t)strlen(plain[k]));
    CHECK(through <= 1);
}
