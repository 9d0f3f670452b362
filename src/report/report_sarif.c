/* report_sarif.c: findings as SARIF 2.1.0 (one run; the driver lists the rules the results
 * use, with their pages as help markdown). URIs are the paths as given, %-encoded, relative
 * to %SRCROOT%; columns are counted in Unicode code points. No timestamps. */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "hipport.h"
#include "str.h"

#include "banned.h"

static void jstr(buf *b, const char *s)
{
    buf_add_jstr(b, s);
}

/* A file URI of path: absolute paths as file://, relative ones as they are. */
static void uri(buf *b, const char *path)
{
    buf_addc(b, '"');
    if (path[0] == '/')
        buf_adds(b, "file://");
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    buf_add_pct(b, path);
    buf_addc(b, '"');
}

/* The byte column as a code-point column (UTF-8 continuation bytes do not count). */
static int cp_col(const hp_finding *f, int col)
{
    if (col < 1)
        return 1;
    int n = 1;
    for (int i = 0; i < col - 1 && i < f->source.len; i++)
        if (((unsigned char)f->source.s[i] & 0xc0) != 0x80)
            n++;
    if (col - 1 > f->source.len)
        n += col - 1 - (int)f->source.len;
    return n;
}

static const char *level(hp_severity s)
{
    return s == HP_SEV_ERROR ? "error" : s == HP_SEV_WARNING ? "warning" : "note";
}

/* "lane mask of a *_sync builtin" -> "LaneMaskOfASyncBuiltin". */
static void pascal(buf *b, const char *title)
{
    int up = 1;
    for (const char *p = title; *p; p++) {
        char c = *p;
        int alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!alnum) {
            up = 1;
            continue;
        }
        if (up && c >= 'a' && c <= 'z')
            c = (char)(c - 'a' + 'A');
        buf_addc(b, c);
        up = 0;
    }
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

char *hp_report_sarif(const hp_finding *f, int n, const hp_check_summary *s)
{
    (void)s;
    arena a;
    arena_init(&a, 1 << 16);
    buf b;
    buf_init_heap(&b, 8192);
    /* the rules the results use, sorted by id */
    const char **ids = n ? NEW(&a, const char *, n) : NULL;
    int nids = 0;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int k = 0; k < nids && !seen; k++)
            seen = strcmp(ids[k], f[i].rule) == 0;
        if (!seen)
            ids[nids++] = f[i].rule;
    }
    if (nids > 1)
        qsort(ids, (size_t)nids, sizeof *ids, cmp_str);

    buf_adds(&b, "{\n  \"$schema\": "
                 "\"https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
                 "sarif-schema-2.1.0.json\",\n  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n");
    buf_adds(&b, "      \"tool\": {\n        \"driver\": {\n          \"name\": \"hipport\",\n");
    buf_addf(&b, "          \"version\": \"%s\",\n          \"semanticVersion\": \"%s\",\n",
             HP_VERSION, HP_VERSION);
    buf_adds(&b, "          \"rules\": [");
    for (int k = 0; k < nids; k++) {
        hp_rule_info ri;
        int idx = hp_rule_find(ids[k]);
        buf_adds(&b, k ? ",\n" : "\n");
        buf_adds(&b, "            {\"id\": ");
        jstr(&b, ids[k]);
        if (idx >= 0 && hp_rule_get(idx, &ri)) {
            buf_adds(&b, ", \"name\": \"");
            pascal(&b, ri.title);
            buf_adds(&b, "\", \"shortDescription\": {\"text\": ");
            jstr(&b, ri.title);
            buf_adds(&b, "}, \"fullDescription\": {\"text\": ");
            jstr(&b, ri.fix);
            buf_addc(&b, '}');
            const char *doc = hp_rule_doc(ids[k]);
            if (doc) {
                buf_adds(&b, ", \"help\": {\"text\": ");
                jstr(&b, doc);
                buf_adds(&b, ", \"markdown\": ");
                jstr(&b, doc);
                buf_addc(&b, '}');
            }
            buf_adds(&b, ", \"defaultConfiguration\": {\"level\": ");
            jstr(&b, level(ri.severity));
            buf_adds(&b, "}, \"properties\": {\"tags\": [\"portability\", ");
            jstr(&b, ri.family);
            buf_adds(&b, "]}}");
        } else {
            buf_adds(&b, ", \"shortDescription\": {\"text\": ");
            jstr(&b, ids[k]);
            buf_adds(&b, "}}");
        }
    }
    buf_adds(&b, nids ? "\n          ]\n" : "]\n");
    buf_adds(&b, "        }\n      },\n      \"columnKind\": \"unicodeCodePoints\",\n");
    buf_adds(&b, "      \"results\": [");
    for (int i = 0; i < n; i++) {
        int idx = 0;
        while (idx < nids && strcmp(ids[idx], f[i].rule) != 0)
            idx++;
        buf_adds(&b, i ? ",\n" : "\n");
        buf_adds(&b, "        {\"ruleId\": ");
        jstr(&b, f[i].rule);
        buf_addf(&b, ", \"ruleIndex\": %d, \"level\": \"%s\", \"message\": {\"text\": ", idx,
                 level(f[i].severity));
        jstr(&b, f[i].message);
        buf_adds(&b, "}, \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ");
        uri(&b, f[i].path ? f[i].path : "");
        buf_adds(&b, ", \"uriBaseId\": \"%SRCROOT%\"}");
        if (f[i].line > 0) {
            int c0 = cp_col(&f[i], f[i].col);
            buf_addf(&b, ", \"region\": {\"startLine\": %d, \"startColumn\": %d", f[i].line, c0);
            if (f[i].len > 0)
                buf_addf(&b, ", \"endColumn\": %d", cp_col(&f[i], f[i].col + f[i].len));
            buf_addc(&b, '}');
        }
        buf_adds(&b, "}}]");
        if (f[i].fix && f[i].fix[0]) {
            buf_adds(&b, ", \"properties\": {\"fix\": ");
            jstr(&b, f[i].fix);
            buf_addc(&b, '}');
        }
        buf_addc(&b, '}');
    }
    buf_adds(&b, n ? "\n      ]\n    }\n  ]\n}\n" : "]\n    }\n  ]\n}\n");
    arena_release(&a);
    return buf_take(&b);
}
