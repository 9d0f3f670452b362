/* rules_triton.h: the Triton rule family (TRI), over the Python source model. */
#ifndef HP_RULES_TRITON_H
#define HP_RULES_TRITON_H

#include "arena.h"
#include "pyrules.h"
#include "pysrc.h"
#include "triton.h"

/* Rules TRI001-TRI012. */
void rules_triton(pyrules *r, const pysrc *p, const tri_file *tf);

/* TRI011 table: the row of the Triton environment variable named by body (alone or as
 * NAME=value), or -1; its message and fix. */
int rules_triton_env_row(hp_str body);
const char *rules_triton_env_message(arena *a, int row);
const char *rules_triton_env_fix(int row);

#endif
