/* rules_arch.c: the ARCH rules of check (stub). */
#include "rules.h"

#include "banned.h"

void rules_arch_run(rctx *c)
{
    (void)c;
}
