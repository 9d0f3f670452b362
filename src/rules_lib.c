/* rules_lib.c: the LIB rules of check (stub). */
#include "rules.h"

#include "banned.h"

void rules_lib_run(rctx *c)
{
    (void)c;
}
