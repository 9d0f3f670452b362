/* rules_list.h: the languages and rule families of check, one line each (X-macros; see
 * rules.h for how to plug in a new one). Families run in this order; findings are sorted
 * afterwards, so the order only matters for speed. */

/* RULES_LANG(bit, name, claims(path, run_opts), lexer, prepare or NULL) */
RULES_LANG(RL_CPP, "c++", rules_cpp_claims, lex_all, rules_cpp_prepare)

/* RULES_FAMILY(name, languages): calls rules_<name>_run(rctx *) on files of those languages */
RULES_FAMILY(wave, RL_CPP)
RULES_FAMILY(asm, RL_CPP)
RULES_FAMILY(arch, RL_CPP)
RULES_FAMILY(kl, RL_CPP)
RULES_FAMILY(mem, RL_CPP)
RULES_FAMILY(type, RL_CPP)
RULES_FAMILY(lib, RL_CPP)
RULES_FAMILY(rt, RL_CPP)
