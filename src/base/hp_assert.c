/* hp_assert.c: what a false HP_ASSERT does in a debug build (hp_assert.h). The one place the
 * library writes to standard error: a broken invariant is a bug to report, and going on past
 * it could write wrong output. */
#include "hp_assert.h"

#include <stdio.h>
#include <stdlib.h>

#ifdef HP_DEBUG
_Noreturn void hp_assert_fail(const char *file, int line, const char *cond)
{
    fprintf(stderr, "hipport: internal error: %s:%d: assertion '%s' failed\n", file, line, cond);
    fflush(stderr);
    abort();
}
#else
/* ISO C wants a translation unit to declare something */
typedef int hp_assert_unused;
#endif
