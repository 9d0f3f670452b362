/* annotate.c: translate --annotate. Runs check on the source being translated and inserts one
 * comment line, "// hipport RULE: reason", above each line with an error or a warning, with
 * that line's indentation and the file's line ending. A line inside a multi-line comment,
 * string or macro gets its comment above the construct. Idempotent: a line already preceded by
 * a "// hipport " comment is left alone. */
#include "annotate.h"

#include <string.h>

#include "buf.h"
#include "rules.h"
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

/* Is the line before ls a "// hipport " annotation (blank space before it)? */
static int annotated(const xlate *x, ptrdiff_t ls)
{
    if (ls <= x->bom)
        return 0;
    ptrdiff_t prev = line_start(x, ls - 1);
    while (prev < ls && (x->src[prev] == ' ' || x->src[prev] == '\t'))
        prev++;
    static const char mark[] = "// hipport ";
    return ls - prev >= (ptrdiff_t)sizeof mark - 1 &&
           memcmp(x->src + prev, mark, sizeof mark - 1) == 0;
}

typedef struct note {
    ptrdiff_t at;      /* insertion offset */
    const hp_finding *f;
} note;

void annotate_apply(xlate *x)
{
    rules_cfg cfg;
    if (rules_cfg_build(x->a, NULL, &cfg, NULL, 0) != HP_OK)
        return;
    cfg.assume_cuda = 1; /* what translate fixes needs no comment, on any run */
    hp_check_result res;
    if (rules_check(x->a, &cfg, x->path, RL_CPP, x->src, x->len, &res) != HP_OK ||
        !res.nfindings)
        return;
    note *nv = NEW(x->a, note, res.nfindings);
    int n = 0;
    lines ln;
    lines_build(x->a, x->src, x->len, &ln);
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
                int r = hp_rule_find(nv[j].f->rule);
                hp_rule_info ri;
                const char *why = r >= 0 && hp_rule_get(r, &ri) ? ri.title : nv[j].f->message;
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
