/* rules_rt.c: the RT rules of check (stub). */
#include "rules.h"

#include "banned.h"

void rules_rt_run(rctx *c)
{
    (void)c;
}
