/* rules_asm.c: the ASM rules of check (stub). */
#include "rules.h"

#include "banned.h"

void rules_asm_run(rctx *c)
{
    (void)c;
}
