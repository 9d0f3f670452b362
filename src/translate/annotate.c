/* annotate.c: translate --annotate. Takes the findings of the annotator (check's, which the
 * caller names) on the source being translated and inserts one comment line, "// hipport RULE: reason", above each line with an error or a warning, with
 * that line's indentation and the file's line ending. A line inside a multi-line comment,
 * string or macro gets its comment above the construct. Idempotent: a line already preceded by
 * a "// hipport " comment is left alone. */
#include "annotate.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "ruletab.h"
#include "str.h"

#include "banned.h"

static ptrdiff_t line_start(const xlate *x, ptrdiff_t off)
{
    while (off > x->bom && x->src[off - 1] != '\n')
        off--;
    return off;
}

/* The token that contains offset off (starts before it and ends after it), or -1. */
static ptrdiff_t token_over(const xlate *x, ptrdiff_t off)
{
    ptrdiff_t lo = 0, hi = x->nt;
    while (lo < hi) {
        ptrdiff_t mid = lo + (hi - lo) / 2;
        if (x->t[mid].off < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* lo: first token starting at or after off; the one before may cover off */
    if (lo > 0 && x->t[lo - 1].off + x->t[lo - 1].len > off)
        return lo - 1;
    return -1;
}

/* Does the line before the one starting at ls end with a backslash continuation? */
static int continued(const xlate *x, ptrdiff_t ls)
{
    ptrdiff_t e = ls - 1; /* the '\n' */
    if (e <= x->bom)
        return 0;
    e--;
    if (e >= x->bom && x->src[e] == '\r')
        e--;
    return e >= x->bom && x->src[e] == '\\';
}

/* Where a comment for the line starting at ls can go without landing inside a construct. */
static ptrdiff_t safe_start(const xlate *x, ptrdiff_t ls)
{
    for (int guard = 0; guard < 10000; guard++) {
        ptrdiff_t t = token_over(x, ls);
        if (t >= 0) {
            ls = line_start(x, x->t[t].off);
            continue;
        }
        if (continued(x, ls)) {
            ls = line_start(x, ls - 1);
            continue;
        }
        break;
    }
    return ls;
}

/* Where the rules of a "// hipport " annotation on the line [from, end) begin (blank space
 * before the mark), or -1 when the line is no annotation. */
static ptrdiff_t annotation_at(const xlate *x, ptrdiff_t from, ptrdiff_t end)
{
    static const char mark[] = "// hipport ";
    while (from < end && (x->src[from] == ' ' || x->src[from] == '\t'))
        from++;
    if (end - from < (ptrdiff_t)sizeof mark - 1 || memcmp(x->src + from, mark, sizeof mark - 1))
        return -1;
    return from + (ptrdiff_t)sizeof mark - 1;
}

/* Is the line before ls a "// hipport " annotation? */
static int annotated(const xlate *x, ptrdiff_t ls)
{
    return ls > x->bom && annotation_at(x, line_start(x, ls - 1), ls) >= 0;
}

/* Does some "// hipport " annotation of the file name rule ("RULE: reason", alone or after
 * "; ")? */
static int rule_annotated(const xlate *x, const lines *ln, const char *rule)
{
    size_t rl = strlen(rule);
    for (ptrdiff_t l = 0; l < ln->n; l++) {
        ptrdiff_t end = l + 1 < ln->n ? ln->start[l + 1] : x->len;
        ptrdiff_t p = annotation_at(x, ln->start[l], end);
        if (p < 0)
            continue;
        for (ptrdiff_t q = p; q + (ptrdiff_t)rl < end; q++) {
            int at_start = q == p || (x->src[q - 2] == ';' && x->src[q - 1] == ' ');
            if (at_start && memcmp(x->src + q, rule, rl) == 0 && x->src[q + (ptrdiff_t)rl] == ':')
                return 1;
        }
    }
    return 0;
}

static int cmp_rule(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Is rule exactly one of the sorted rules[0..n)? */
static int rule_once(const char **rules, int n, const char *rule)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (strcmp(rules[mid], rule) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && strcmp(rules[lo], rule) == 0 &&
           (lo + 1 == n || strcmp(rules[lo + 1], rule) != 0);
}

typedef struct note {
    ptrdiff_t at;      /* insertion offset */
    const hp_finding *f;
} note;

void annotate_apply(xlate *x)
{
    if (!x->o->annotator)
        return;
    struct {
        const hp_finding *findings;
        int nfindings;
    } res = {NULL, 0};
    if (x->o->annotator(x->ctx, x->path, x->src, x->len, &res.findings, &res.nfindings) != HP_OK ||
        !res.nfindings)
        return;
    note *nv = NEW(x->a, note, res.nfindings);
    int n = 0;
    /* the rules of the findings to annotate, sorted: which rules are reported once */
    const char **rules = NEW(x->a, const char *, res.nfindings);
    int nrules = 0;
    for (int i = 0; rules && i < res.nfindings; i++)
        if (res.findings[i].severity >= HP_SEV_WARNING)
            rules[nrules++] = res.findings[i].rule;
    if (!nv || !rules)
        return;
    qsort(rules, (size_t)nrules, sizeof *rules, cmp_rule);
    lines ln;
    diag_lines_build(x->a, x->src, x->len, &ln);
    for (int i = 0; i < res.nfindings; i++) {
        const hp_finding *f = &res.findings[i];
        if (f->line <= 0 || f->line > ln.n || f->severity < HP_SEV_WARNING)
            continue;
        ptrdiff_t ls = ln.start[f->line - 1];
        if (ls < x->bom)
            ls = x->bom;
        ls = safe_start(x, ls);
        if (annotated(x, ls))
            continue;
        /* A rule reported once in the file, at its first use, that an annotation already
         * names: translation can rename that first use (cudnn.h to hipDNN.h), and check of
         * the output then reports the next one (CUDNN_MAJOR), which a second run would
         * annotate again. */
        if (rule_once(rules, nrules, f->rule) && rule_annotated(x, &ln, f->rule))
            continue;
        nv[n].at = ls;
        nv[n].f = f;
        n++;
    }
    /* findings are sorted by line, so equal insertion points are mostly adjacent; group them
     * in one pass over the (small) list */
    for (int i = 0; i < n; i++) {
        if (!nv[i].f)
            continue;
        ptrdiff_t at = nv[i].at;
        buf b;
        buf_init(&b, x->a, 128);
        ptrdiff_t ind = at;
        while (ind < x->len && (x->src[ind] == ' ' || x->src[ind] == '\t'))
            ind++;
        buf_add(&b, x->src + at, ind - at);
        buf_adds(&b, "// hipport ");
        int first = 1;
        for (int j = i; j < n; j++) {
            if (!nv[j].f || nv[j].at != at)
                continue;
            /* one mention per rule */
            int dup = 0;
            for (int k = i; k < j && !dup; k++)
                dup = nv[k].at == at && nv[k].f && strcmp(nv[k].f->rule, nv[j].f->rule) == 0;
            if (!dup) {
                int r = ruletab_find(nv[j].f->rule);
                const char *why = r >= 0 ? ruletab_row(r)[RT_TITLE] : nv[j].f->message;
                buf_addf(&b, "%s%s: %s", first ? "" : "; ", nv[j].f->rule, why);
                first = 0;
            }
            if (j != i)
                nv[j].f = NULL;
        }
        buf_adds(&b, x->nl);
        xlate_insert(x, at, buf_cstr(&b));
    }
}
