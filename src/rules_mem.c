/* rules_mem.c: the MEM rules of check (stub). */
#include "rules.h"

#include "banned.h"

void rules_mem_run(rctx *c)
{
    (void)c;
}
