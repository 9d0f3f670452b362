/* rules_kl.c: the KL rules of check (stub). */
#include "rules.h"

#include "banned.h"

void rules_kl_run(rctx *c)
{
    (void)c;
}
