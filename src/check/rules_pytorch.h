/* rules_pytorch.h: the PyTorch rule family (PT), over Python code and over the C++ of
 * extension sources. */
#ifndef HP_RULES_PYTORCH_H
#define HP_RULES_PYTORCH_H

#include <stddef.h>

#include "lex.h"
#include "pyrules.h"
#include "pysrc.h"

/* Rules PT001-PT003 and PT005 over Python code. */
void rules_pytorch(pyrules *r, const pysrc *p);
struct rules_hot;
/* Rule PT004 over the C++ tokens of a PyTorch extension source. hot lists the tokens to look
 * at (RH_STR and RH_PYT, see rules.h), or is NULL: every token. */
void rules_pytorch_cxx(pyrules *r, const char *src, ptrdiff_t len, const lex_out *lx,
                       const struct rules_hot *hot, ptrdiff_t nhot);
/* The identifiers PT004 acts on that rule_keys.tsv does not list: RH_PYT or 0. */
unsigned rules_pytorch_cxx_names(hp_str s);

#endif
