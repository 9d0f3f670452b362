/* ruletab.c: the rule table and the rule pages, and the public API over them. */
#include "ruletab.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "hipport.h"

#include "rule_docs.h"
#include "rules_tab.h"

#include "banned.h"

int ruletab_count(void)
{
    return rules_rows_COUNT;
}

const char *const *ruletab_row(int i)
{
    return rules_rows[i];
}

/* The rows in the order of their ids, for a binary search: the rules ask whether they are
 * enabled by id, thousands of times a tree. */
static int by_id[rules_rows_COUNT];
static pthread_once_t by_id_once = PTHREAD_ONCE_INIT;

static int cmp_row(const void *a, const void *b)
{
    return strcmp(rules_rows[*(const int *)a][RT_ID], rules_rows[*(const int *)b][RT_ID]);
}

static void sort_ids(void)
{
    for (int i = 0; i < rules_rows_COUNT; i++)
        by_id[i] = i;
    qsort(by_id, rules_rows_COUNT, sizeof *by_id, cmp_row);
}

int ruletab_find(const char *id)
{
    if (!id)
        return -1;
    pthread_once(&by_id_once, sort_ids);
    int lo = 0, hi = rules_rows_COUNT;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        int c = strcmp(rules_rows[by_id[mid]][RT_ID], id);
        if (c == 0)
            return by_id[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

static hp_severity sev_of(const char *s)
{
    int v = hp_severity_parse(s);
    return v > 0 ? (hp_severity)v : HP_SEV_WARNING;
}

int hp_rule_count(void)
{
    return rules_rows_COUNT;
}

int hp_rule_get(int i, hp_rule_info *out)
{
    if (i < 0 || i >= rules_rows_COUNT)
        return 0;
    const char *const *r = rules_rows[i];
    out->id = r[RT_ID];
    out->family = r[RT_FAMILY];
    out->title = r[RT_TITLE];
    out->fix = r[RT_FIX];
    out->languages = r[RT_LANGS];
    out->severity = sev_of(r[RT_SEV]);
    out->wave64 = strcmp(r[RT_WAVE], "wave64") == 0;
    return 1;
}

int hp_rule_find(const char *id)
{
    return ruletab_find(id);
}

const char *hp_rule_doc(const char *id)
{
    if (!id)
        return NULL;
    for (int i = 0; rule_docs[i].name; i++)
        if (strcmp(rule_docs[i].name, id) == 0)
            return rule_docs[i].text;
    return NULL;
}

int hp_rule_doc_count(void)
{
    int n = 0;
    while (rule_docs[n].name)
        n++;
    return n;
}

const char *hp_rule_doc_name(int i)
{
    return i >= 0 && i < hp_rule_doc_count() ? rule_docs[i].name : NULL;
}

