/* ruletab.h: the rules of hipport check and doctor, one row each (data/tables/rules.tsv,
 * compiled into rules_tab.h), and their pages (docs/rules/ID.md). A leaf below check and the
 * reports, which name the rules they print. */
#ifndef HP_RULETAB_H
#define HP_RULETAB_H

/* The columns of a row. */
enum { RT_ID, RT_FAMILY, RT_SEV, RT_WAVE, RT_LANGS, RT_TITLE, RT_FIX };

int ruletab_count(void);
/* Row i (0 <= i < ruletab_count()): its columns, static strings. */
const char *const *ruletab_row(int i);
/* The row of a rule id, or -1. */
int ruletab_find(const char *id);

#endif
