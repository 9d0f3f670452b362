/* rules_list.h: the languages and rule families of check, one line each (X-macros; see
 * rules.h for how to plug in a new one). Families run in this order; findings are sorted
 * afterwards, so the order only matters for speed. */

/* RULES_LANG(bit, name, claims(path, run_opts), lexer, prepare or NULL) */
RULES_LANG(RL_CPP, "c++", rules_cpp_claims, lex_all, rules_cpp_prepare)
RULES_LANG(RL_PYTHON, "python", rules_python_claims, rules_python_lex, rules_python_prepare)
RULES_LANG(RL_BUILD, "build", rules_build_claims, rules_build_lex, NULL)

/* RULES_FAMILY(name, languages): calls rules_<name>_run(rctx *) on files of those languages */
RULES_FAMILY(wave, RL_CPP)
RULES_FAMILY(asm, RL_CPP)
RULES_FAMILY(arch, RL_CPP)
RULES_FAMILY(kl, RL_CPP)
RULES_FAMILY(mem, RL_CPP)
RULES_FAMILY(type, RL_CPP)
RULES_FAMILY(lib, RL_CPP)
RULES_FAMILY(rt, RL_CPP)
RULES_FAMILY(triton, RL_PYTHON)
RULES_FAMILY(pytorch, RL_PYTHON | RL_CPP)
RULES_FAMILY(bld, RL_PYTHON | RL_BUILD)

/* The RH_* bits of the identifiers (and numbers) a family's rules act on: rules_hot.c lists
 * the tokens whose bits are set, and the families look only at those. A rule keyed on a new
 * name, prefix or number adds a row to data/tables/rule_keys.tsv (or, for a finding wherever
 * a name appears, to data/tables/rule_names.tsv: no code). RULES_NAMES(name) adds the
 * predicate unsigned rules_<name>_names(const rctx *, hp_str, int number) for the names a
 * table cannot list: a pattern, or a list the family also uses for its messages. */
RULES_NAMES(wave)
RULES_NAMES(asm)
RULES_NAMES(arch)
RULES_NAMES(kl)
RULES_NAMES(type)
RULES_NAMES(lib)
RULES_NAMES(rt)
RULES_NAMES(names)
RULES_NAMES(pytorch)
