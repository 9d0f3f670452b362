/* gentab.c: turns the name tables (data/cuda2hip/NAME.tsv) into build/gen/map_tab.h (an open-addressing hash table
 * with a minimal longest probe), and embeds text files as C strings. Run at build time.
 *
 *   gentab map FILE.tsv...        name tables; the family of a row is its file's stem
 *   gentab embed PREFIX FILE...   {name, text} pairs for the files' stems
 *   gentab rows PREFIX NCOLS FILE a table of NCOLS strings per row, in file order; column 1
 *                                 must be unique ("-" is an empty cell)
 *   gentab ids RULES.tsv [T.tsv:COL...]  RID_<id> macros for the rules; the other tables'
 *                                 column COL must name known rules (a misspelling fails)
 *
 * Rows: cuda hip kind since deprecated removed legacy roc flags (TAB-separated, "-" = empty).
 * Rejects duplicate keys (naming both places), malformed rows and unknown kinds or flags. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/base/hash.h"
#include "../src/translate/map_defs.h"

#define NCOLS 9
#define MAX_PROBE_TRIES 4000

typedef struct row {
    char *col[NCOLS];
    const char *file;
    int line;
    int family;
    int kind;
    unsigned flags;
    int since, deprecated, removed;
} row;

static row *rows;
static size_t nrows, caprows;
static char **families;
static int nfamilies;
static int errors;

static const char *kind_names[] = {
#define X(name) #name,
    MAP_KINDS(X)
#undef X
};
static const char *flag_names[] = {
#define X(name) #name,
    MAP_FLAGS(X)
#undef X
};

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "gentab: out of memory\n");
        exit(1);
    }
    return p;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s);
    char *p = xmalloc(n + 1);
    memcpy(p, s, n + 1);
    return p;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "gentab: cannot open '%s': %s\n", path, strerror(errno));
        exit(1);
    }
    size_t cap = 1 << 16, n = 0;
    char *p = xmalloc(cap);
    size_t r;
    while ((r = fread(p + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (cap - n - 1 == 0) {
            cap *= 2;
            p = realloc(p, cap);
            if (!p) {
                fprintf(stderr, "gentab: out of memory\n");
                exit(1);
            }
        }
    }
    fclose(f);
    p[n] = 0;
    *len = n;
    return p;
}

static void fail(const char *file, int line, const char *msg, const char *arg)
{
    fprintf(stderr, "%s:%d: error: %s%s%s\n", file, line, msg, arg ? " " : "", arg ? arg : "");
    errors++;
}

static int parse_version(const char *s, const char *file, int line)
{
    if (strcmp(s, "-") == 0)
        return 0;
    int major = 0, minor = 0, i = 0;
    if (!isdigit((unsigned char)s[i]))
        goto bad;
    while (isdigit((unsigned char)s[i]))
        major = major * 10 + (s[i++] - '0');
    if (s[i] != '.')
        goto bad;
    i++;
    if (!isdigit((unsigned char)s[i]))
        goto bad;
    while (isdigit((unsigned char)s[i]))
        minor = minor * 10 + (s[i++] - '0');
    if (s[i] == '.') { /* patch level: ignored */
        i++;
        while (isdigit((unsigned char)s[i]))
            i++;
    }
    if (s[i] || major > 99 || minor > 99)
        goto bad;
    return major * 100 + minor;
bad:
    fail(file, line, "malformed version", s);
    return 0;
}

static int valid_name(const char *s)
{
    if (!*s || strlen(s) > 255)
        return 0;
    for (const char *p = s; *p; p++)
        if ((unsigned char)*p <= ' ' || (unsigned char)*p == 0x7f)
            return 0;
    return 1;
}

static int is_ident(const char *s)
{
    if (!(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return 0;
    for (const char *p = s; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_'))
            return 0;
    return 1;
}

/* A replacement: an identifier, a qualified name, a small type expression
 * (rocrand_device::sobol32_engine<false>, void*) or a non-negative integer. */
static int is_replacement(const char *s)
{
    if (isdigit((unsigned char)s[0])) { /* an integer constant: the value of an enumerator */
        for (const char *p = s; *p; p++)
            if (!isdigit((unsigned char)*p))
                return 0;
        return 1;
    }
    if (!(isalpha((unsigned char)s[0]) || s[0] == '_' || s[0] == ':'))
        return 0;
    for (const char *p = s; *p; p++)
        if (!(isalnum((unsigned char)*p) || strchr("_:<>*&, ", *p)))
            return 0;
    return 1;
}

static void load_map(const char *path)
{
    size_t len;
    char *text = read_file(path, &len);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char *fam = xstrdup(base);
    char *dot = strrchr(fam, '.');
    if (dot)
        *dot = 0;
    families = realloc(families, sizeof *families * (size_t)(nfamilies + 1));
    families[nfamilies] = fam;
    int family = nfamilies++;
    int lineno = 0;
    char *save = text;
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        lineno++;
        size_t ll = strlen(line);
        if (ll && line[ll - 1] == '\r')
            fail(path, lineno, "carriage return in row", NULL);
        if (line[0] && line[0] != '#') {
            row r;
            memset(&r, 0, sizeof r);
            r.file = path;
            r.line = lineno;
            r.family = family;
            int c = 0;
            char *p = line;
            for (;;) {
                char *tab = strchr(p, '\t');
                if (tab)
                    *tab = 0;
                if (c < NCOLS)
                    r.col[c] = xstrdup(p);
                c++;
                if (!tab)
                    break;
                p = tab + 1;
            }
            if (c != NCOLS) {
                char n[32];
                snprintf(n, sizeof n, "%d (want %d)", c, NCOLS);
                fail(path, lineno, "wrong number of columns:", n);
                goto next;
            }
            for (int k = 0; k < NCOLS; k++)
                if (!r.col[k][0])
                    fail(path, lineno, "empty column (write '-')", NULL);
            r.kind = -1;
            for (int k = 0; k < (int)(sizeof kind_names / sizeof *kind_names); k++)
                if (strcmp(r.col[2], kind_names[k]) == 0)
                    r.kind = k;
            if (r.kind < 0)
                fail(path, lineno, "unknown kind", r.col[2]);
            if (!valid_name(r.col[0]) || strcmp(r.col[0], "-") == 0)
                fail(path, lineno, "bad CUDA name", r.col[0]);
            int header = r.kind >= 0 && strcmp(kind_names[r.kind], "header") == 0;
            if (!header && !is_ident(r.col[0]))
                fail(path, lineno, "CUDA name is not an identifier:", r.col[0]);
            static const int repl_cols[] = {1, 6, 7}; /* hip, legacy, roc */
            for (int k = 0; k < 3; k++) {
                const char *v = r.col[repl_cols[k]];
                if (strcmp(v, "-") == 0)
                    continue;
                if (!valid_name(v))
                    fail(path, lineno, "bad replacement", v);
                else if (!header && !is_replacement(v))
                    fail(path, lineno, "replacement is not a name or type:", v);
            }
            r.since = parse_version(r.col[3], path, lineno);
            r.deprecated = parse_version(r.col[4], path, lineno);
            r.removed = parse_version(r.col[5], path, lineno);
            if (strcmp(r.col[8], "-") != 0) {
                char *f = r.col[8];
                for (char *tok = f; tok && *tok;) {
                    char *comma = strchr(tok, ',');
                    if (comma)
                        *comma = 0;
                    int found = -1;
                    for (int k = 0; k < (int)(sizeof flag_names / sizeof *flag_names); k++)
                        if (strcmp(tok, flag_names[k]) == 0)
                            found = k;
                    if (found < 0)
                        fail(path, lineno, "unknown flag", tok);
                    else
                        r.flags |= 1u << found;
                    tok = comma ? comma + 1 : NULL;
                }
            }
            if (nrows == caprows) {
                caprows = caprows ? caprows * 2 : 1024;
                rows = realloc(rows, caprows * sizeof *rows);
                if (!rows) {
                    fprintf(stderr, "gentab: out of memory\n");
                    exit(1);
                }
            }
            rows[nrows++] = r;
        }
    next:
        line = nl ? nl + 1 : NULL;
    }
    free(save);
}

static int cmp_row(const void *a, const void *b)
{
    const row *x = a, *y = b;
    return strcmp(x->col[0], y->col[0]);
}

static void put_cstring(const char *s, size_t n)
{
    putchar('"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c == '\n')
            printf("\\n\"\n\"");
        else if (c == '\t')
            printf("\\t");
        else if (c < 0x20 || c >= 0x7f)
            printf("\\%03o", c);
        else
            putchar(c);
    }
    putchar('"');
}

/* The string pool: every name once, NUL-separated; offsets into it. */
static char *pool;
static size_t npool, cappool;

static uint32_t pool_add(const char *s)
{
    if (strcmp(s, "-") == 0)
        return 0;
    size_t n = strlen(s);
    if (npool + n + 1 > cappool) {
        cappool = (npool + n + 1) * 2;
        pool = realloc(pool, cappool);
        if (!pool) {
            fprintf(stderr, "gentab: out of memory\n");
            exit(1);
        }
    }
    memcpy(pool + npool, s, n + 1);
    size_t off = npool;
    npool += n + 1;
    return (uint32_t)off;
}

static int slen(const char *s)
{
    return strcmp(s, "-") == 0 ? 0 : (int)strlen(s);
}

static int cmd_map(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        load_map(argv[i]);
    if (errors)
        return 1;
    qsort(rows, nrows, sizeof *rows, cmp_row);
    for (size_t i = 1; i < nrows; i++)
        if (strcmp(rows[i].col[0], rows[i - 1].col[0]) == 0) {
            fprintf(stderr, "%s:%d: error: duplicate name '%s' (first at %s:%d)\n", rows[i].file,
                    rows[i].line, rows[i].col[0], rows[i - 1].file, rows[i - 1].line);
            errors++;
        }
    if (errors)
        return 1;

    /* Open addressing, size a power of two >= 2n; pick the seed with the shortest longest
     * probe. */
    uint32_t size = 16;
    while (size < 2 * nrows)
        size *= 2;
    uint32_t *idx = xmalloc(size * sizeof *idx);
    uint32_t best_seed = 0;
    int best_probe = 1 << 30;
    for (uint32_t seed = 0; seed < MAX_PROBE_TRIES && best_probe > 2; seed++) {
        memset(idx, 0, size * sizeof *idx);
        int longest = 0;
        for (size_t i = 0; i < nrows; i++) {
            uint32_t h = hp_hash(rows[i].col[0], (ptrdiff_t)strlen(rows[i].col[0]), seed);
            int probe = 1;
            uint32_t j = h & (size - 1);
            while (idx[j]) {
                j = (j + 1) & (size - 1);
                probe++;
            }
            idx[j] = (uint32_t)i + 1;
            if (probe > longest)
                longest = probe;
        }
        if (longest < best_probe) {
            best_probe = longest;
            best_seed = seed;
        }
    }
    memset(idx, 0, size * sizeof *idx);
    for (size_t i = 0; i < nrows; i++) {
        uint32_t h = hp_hash(rows[i].col[0], (ptrdiff_t)strlen(rows[i].col[0]), best_seed);
        uint32_t j = h & (size - 1);
        while (idx[j])
            j = (j + 1) & (size - 1);
        idx[j] = (uint32_t)i + 1;
    }

    /* The negative filters: one bit per byte pair that starts some name, then two bits per
     * name from its shape (hash.h). */
    static unsigned char pair[65536 / 8];
    static unsigned char shape[(1u << HP_SHAPE_BITS) / 8];
    int newest = 0;
    for (size_t i = 0; i < nrows; i++) {
        const char *s = rows[i].col[0];
        unsigned pk = (unsigned)(unsigned char)s[0] << 8 | (unsigned char)s[1];
        pair[pk >> 3] |= (unsigned char)(1u << (pk & 7));
        hp_shape_add(shape, s, (ptrdiff_t)strlen(s));
        if (rows[i].since > newest)
            newest = rows[i].since;
    }

    pool_add("-");
    npool = 0;
    pool_add(""); /* offset 0 is the empty string */
    uint32_t *off = xmalloc(nrows * 4 * sizeof *off);
    for (size_t i = 0; i < nrows; i++) {
        off[4 * i + 0] = pool_add(rows[i].col[0]);
        off[4 * i + 1] = pool_add(rows[i].col[1]);
        off[4 * i + 2] = pool_add(rows[i].col[6]);
        off[4 * i + 3] = pool_add(rows[i].col[7]);
    }

    printf("/* Generated by tools/gentab.c from data/cuda2hip. DO NOT EDIT. */\n");
    printf("#if defined(__GNUC__)\n#pragma GCC diagnostic ignored \"-Woverlength-strings\"\n#endif\n");
    printf("#define MAP_NROWS %zu\n#define MAP_SIZE %u\n#define MAP_SEED %uu\n", nrows, size,
           best_seed);
    printf("#define MAP_MAX_PROBE %d\n#define MAP_NEWEST_SINCE %d\n", best_probe, newest);
    printf("#define MAP_NFAMILIES %d\n", nfamilies);
    printf("static const char *const map_families[MAP_NFAMILIES] = {\n");
    for (int i = 0; i < nfamilies; i++)
        printf("    \"%s\",\n", families[i]);
    printf("};\n");
    printf("static const char map_pool[] =\n");
    for (size_t i = 0; i < npool;) {
        size_t n = npool - i < 96 ? npool - i : 96;
        put_cstring(pool + i, n);
        putchar('\n');
        i += n;
    }
    printf(";\n");
    printf("static const map_row map_rows[MAP_NROWS] = {\n");
    for (size_t i = 0; i < nrows; i++) {
        row *r = &rows[i];
        printf("    {%u, %u, %u, %u, %d, %d, %d, %d, %d, %d, %d, %d, %d, %uu},\n", off[4 * i],
               off[4 * i + 1], off[4 * i + 2], off[4 * i + 3], slen(r->col[0]), slen(r->col[1]),
               slen(r->col[6]), slen(r->col[7]), r->since, r->deprecated, r->removed, r->family,
               r->kind, r->flags);
    }
    printf("};\n");
    printf("static const uint16_t map_index[MAP_SIZE] = {\n");
    if (nrows >= 65535) {
        fprintf(stderr, "gentab: too many rows for 16-bit indices\n");
        return 1;
    }
    for (uint32_t i = 0; i < size; i++)
        printf("%u,%s", idx[i], (i % 16 == 15) ? "\n" : "");
    printf("};\n");
    printf("static const unsigned char map_pair[8192] = {\n");
    for (int i = 0; i < 8192; i++)
        printf("%u,%s", pair[i], (i % 32 == 31) ? "\n" : "");
    printf("};\n");
    printf("static const unsigned char map_shape[%u] = {\n", (1u << HP_SHAPE_BITS) / 8);
    for (unsigned i = 0; i < (1u << HP_SHAPE_BITS) / 8; i++)
        printf("%u,%s", shape[i], (i % 32 == 31) ? "\n" : "");
    printf("};\n");
    return 0;
}

static int cmd_embed(int argc, char **argv)
{
    if (argc < 1) {
        fprintf(stderr, "usage: gentab embed PREFIX FILE...\n");
        return 2;
    }
    const char *prefix = argv[0];
    printf("/* Generated by tools/gentab.c. DO NOT EDIT. */\n");
    printf("#if defined(__GNUC__)\n#pragma GCC diagnostic ignored \"-Woverlength-strings\"\n#endif\n");
    printf("static const struct { const char *name; const char *text; } %s[] = {\n", prefix);
    for (int i = 1; i < argc; i++) {
        size_t len;
        char *text = read_file(argv[i], &len);
        const char *base = strrchr(argv[i], '/');
        base = base ? base + 1 : argv[i];
        char *name = xstrdup(base);
        char *dot = strrchr(name, '.');
        if (dot)
            *dot = 0;
        printf("    {\"%s\",\n", name);
        put_cstring(text, len);
        printf("},\n");
        free(text);
        free(name);
    }
    printf("    {0, 0}\n};\n");
    return 0;
}

/* gentab rows PREFIX NCOLS FILE: a generic table of strings. */
static int cmd_rows(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: gentab rows PREFIX NCOLS FILE\n");
        return 2;
    }
    const char *prefix = argv[0];
    int ncols = atoi(argv[1]);
    const char *path = argv[2];
    if (ncols < 1 || ncols > 64) {
        fprintf(stderr, "gentab: bad column count '%s'\n", argv[1]);
        return 2;
    }
    size_t len;
    char *text = read_file(path, &len);
    char **keys = NULL;
    int *keyline = NULL;
    int nkeys = 0, lineno = 0;
    printf("/* Generated by tools/gentab.c from %s. DO NOT EDIT. */\n", path);
    printf("#if defined(__GNUC__)\n#pragma GCC diagnostic ignored \"-Woverlength-strings\"\n"
           "#endif\n");
    printf("static const char *const %s[][%d] = {\n", prefix, ncols);
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        lineno++;
        if (line[0] && line[0] != '#') {
            char *cols[64];
            int c = 0;
            for (char *p = line;;) {
                char *tab = strchr(p, '\t');
                if (tab)
                    *tab = 0;
                if (c < 64)
                    cols[c] = p;
                c++;
                if (!tab)
                    break;
                p = tab + 1;
            }
            if (c != ncols) {
                char n[32];
                snprintf(n, sizeof n, "%d (want %d)", c, ncols);
                fail(path, lineno, "wrong number of columns:", n);
            } else {
                for (int k = 0; k < nkeys; k++)
                    if (strcmp(keys[k], cols[0]) == 0) {
                        fprintf(stderr, "%s:%d: error: duplicate key '%s' (first at line %d)\n",
                                path, lineno, cols[0], keyline[k]);
                        errors++;
                    }
                keys = realloc(keys, sizeof *keys * (size_t)(nkeys + 1));
                keyline = realloc(keyline, sizeof *keyline * (size_t)(nkeys + 1));
                if (!keys || !keyline) {
                    fprintf(stderr, "gentab: out of memory\n");
                    return 1;
                }
                keys[nkeys] = cols[0];
                keyline[nkeys++] = lineno;
                printf("    {");
                for (int k = 0; k < ncols; k++) {
                    if (!cols[k][0])
                        fail(path, lineno, "empty column (write '-')", NULL);
                    if (strcmp(cols[k], "-") == 0)
                        printf("\"\"");
                    else
                        put_cstring(cols[k], strlen(cols[k]));
                    printf(k + 1 < ncols ? ", " : "},\n");
                }
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    printf("};\n#define %s_COUNT %d\n", prefix, nkeys);
    free(keys);
    free(keyline);
    return errors ? 1 : 0;
}

/* The cells of column col (1-based) of each row of a TAB-separated table, in order: calls
 * fn(cell, line) for each, a comma-separated cell once per item. */
static void each_cell(const char *path, int col, int split, void (*fn)(const char *, const char *, int))
{
    size_t len;
    char *text = read_file(path, &len);
    int lineno = 0;
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        lineno++;
        if (line[0] && line[0] != '#') {
            char *p = line;
            for (int c = 1; c < col && p; c++) {
                p = strchr(p, '\t');
                if (p)
                    p++;
            }
            if (!p) {
                fail(path, lineno, "no column", NULL);
            } else {
                char *tab = strchr(p, '\t');
                if (tab)
                    *tab = 0;
                for (char *item = p; item;) {
                    char *comma = split ? strchr(item, ',') : NULL;
                    if (comma)
                        *comma = 0;
                    fn(path, item, lineno);
                    item = comma ? comma + 1 : NULL;
                }
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    free(text);
}

static char **ids;
static int nids;

static void add_id(const char *path, const char *id, int line)
{
    int ok = id[0] >= 'A' && id[0] <= 'Z';
    const char *p = id;
    while (*p >= 'A' && *p <= 'Z')
        p++;
    ok = ok && *p >= '0' && *p <= '9';
    while (*p >= '0' && *p <= '9')
        p++;
    if (!ok || *p) {
        fail(path, line, "a rule id is capital letters and digits:", id);
        return;
    }
    for (int k = 0; k < nids; k++)
        if (strcmp(ids[k], id) == 0) {
            fail(path, line, "duplicate rule id", id);
            return;
        }
    ids = realloc(ids, sizeof *ids * (size_t)(nids + 1));
    if (!ids) {
        fprintf(stderr, "gentab: out of memory\n");
        exit(1);
    }
    ids[nids++] = xstrdup(id);
}

static void known_id(const char *path, const char *id, int line)
{
    if (strcmp(id, "-") == 0)
        return;
    for (int k = 0; k < nids; k++)
        if (strcmp(ids[k], id) == 0)
            return;
    fail(path, line, "unknown rule id (not in the rules table):", id);
}

/* gentab ids RULES.tsv [TABLE.tsv:COL...]: RID_<id> for each rule, so that code naming a rule
 * that does not exist fails to compile; each TABLE's column COL (comma lists allowed) must
 * name known rules too. */
static int cmd_ids(int argc, char **argv)
{
    if (argc < 1) {
        fprintf(stderr, "usage: gentab ids RULES.tsv [TABLE.tsv:COL...]\n");
        return 2;
    }
    each_cell(argv[0], 1, 0, add_id);
    for (int i = 1; i < argc; i++) {
        char *colon = strrchr(argv[i], ':');
        int col = colon ? atoi(colon + 1) : 0;
        if (!colon || col < 1) {
            fprintf(stderr, "gentab: want TABLE.tsv:COL, not '%s'\n", argv[i]);
            return 2;
        }
        *colon = 0;
        each_cell(argv[i], col, 1, known_id);
    }
    if (errors)
        return 1;
    printf("/* Generated by tools/gentab.c from %s. DO NOT EDIT. */\n", argv[0]);
    printf("#ifndef HP_RULE_IDS_H\n#define HP_RULE_IDS_H\n");
    for (int k = 0; k < nids; k++)
        printf("#define RID_%s \"%s\"\n", ids[k], ids[k]);
    printf("#define RID_COUNT %d\n#endif\n", nids);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: gentab map FILE... | embed PREFIX FILE... | rows PREFIX NCOLS FILE | ids RULES.tsv [TABLE.tsv:COL...]\n");
        return 2;
    }
    if (strcmp(argv[1], "map") == 0)
        return cmd_map(argc - 2, argv + 2);
    if (strcmp(argv[1], "embed") == 0)
        return cmd_embed(argc - 2, argv + 2);
    if (strcmp(argv[1], "rows") == 0)
        return cmd_rows(argc - 2, argv + 2);
    if (strcmp(argv[1], "ids") == 0)
        return cmd_ids(argc - 2, argv + 2);
    fprintf(stderr, "gentab: unknown mode '%s'\n", argv[1]);
    return 2;
}
