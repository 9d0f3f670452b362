/* rules_wave.c: the WAVE rules of check (stub). */
#include "rules.h"

#include "banned.h"

void rules_wave_run(rctx *c)
{
    (void)c;
}
