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
