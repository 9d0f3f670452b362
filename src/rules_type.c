/* rules_type.c: the TYPE rules of check (stub). */
#include "rules.h"

#include "banned.h"

void rules_type_run(rctx *c)
{
    (void)c;
}
