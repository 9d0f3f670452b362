/* compdb.c: compilation databases (compile_commands.json): the files a build compiles and
 * the arguments of each, for hipify-clang's -p. */
#include <string.h>

#include "buf.h"
#include "compdb.h"
#include "ctx.h"
#include "json.h"
#include "os.h"
#include "str.h"

#include "banned.h"

/* A database larger than this is refused (a build of a million files is a few hundred MB). */
#define COMPDB_MAX ((ptrdiff_t)1 << 30)

/* Splits a command line as a POSIX shell would split words: blanks separate them; single
 * quotes keep everything; double quotes keep everything but \" \\ \$ \` and a backslash before
 * a newline; a backslash outside quotes keeps the next character. No expansions. Returns the
 * number of words (in *out), or -1 for an unterminated quote. */
static int split_command(arena *a, hp_str cmd, const char ***out)
{
    int n = 0, cap = 8;
    const char **v = NEW(a, const char *, cap);
    ptrdiff_t i = 0;
    while (v) {
        while (i < cmd.len && (cmd.s[i] == ' ' || cmd.s[i] == '\t' || cmd.s[i] == '\n'))
            i++;
        if (i >= cmd.len)
            break;
        buf w;
        buf_init(&w, a, 32);
        while (i < cmd.len && cmd.s[i] != ' ' && cmd.s[i] != '\t' && cmd.s[i] != '\n') {
            char c = cmd.s[i++];
            if (c == '\'') {
                ptrdiff_t e = i;
                while (e < cmd.len && cmd.s[e] != '\'')
                    e++;
                if (e >= cmd.len)
                    return -1;
                buf_add(&w, cmd.s + i, e - i);
                i = e + 1;
            } else if (c == '"') {
                for (;;) {
                    if (i >= cmd.len)
                        return -1;
                    c = cmd.s[i++];
                    if (c == '"')
                        break;
                    if (c == '\\' && i < cmd.len && strchr("\"\\$`\n", cmd.s[i])) {
                        c = cmd.s[i++];
                        if (c == '\n')
                            continue;
                    }
                    buf_add(&w, &c, 1);
                }
            } else if (c == '\\' && i < cmd.len) {
                c = cmd.s[i++];
                if (c != '\n')
                    buf_add(&w, &c, 1);
            } else {
                buf_add(&w, &c, 1);
            }
        }
        if (n == cap) {
            v = arena_grow(a, v, (ptrdiff_t)cap * (ptrdiff_t)sizeof *v,
                           (ptrdiff_t)cap * 2 * (ptrdiff_t)sizeof *v, _Alignof(const char *));
            cap *= 2;
            if (!v)
                break;
        }
        v[n++] = buf_cstr(&w);
    }
    *out = v;
    return v ? n : -1;
}

/* dir/file with "." and "dir/.." taken out by their spelling, as clang's databases name
 * files (a ".." after a symbolic link leaves the link's directory, not its target's). */
static const char *join_clean(arena *a, hp_str dir, hp_str file)
{
    const char *joined = arena_printf(a, "%.*s/%.*s", (int)dir.len, dir.s, (int)file.len, file.s);
    if (!joined)
        return NULL;
    ptrdiff_t n = (ptrdiff_t)strlen(joined);
    char *out = arena_alloc_nozero(a, 1, 1, n + 1);
    ptrdiff_t *starts = NEW(a, ptrdiff_t, n / 2 + 2); /* where each kept component starts */
    if (!out || !starts)
        return joined;
    ptrdiff_t w = 0, depth = 0, i = 0;
    int abs = joined[0] == '/';
    if (abs)
        out[w++] = '/';
    while (i < n) {
        while (i < n && joined[i] == '/')
            i++;
        ptrdiff_t b = i;
        while (i < n && joined[i] != '/')
            i++;
        ptrdiff_t len = i - b;
        if (len == 0 || (len == 1 && joined[b] == '.'))
            continue;
        if (len == 2 && joined[b] == '.' && joined[b + 1] == '.') {
            int up_ok = depth > 0 && !(w - starts[depth - 1] == 2 && out[starts[depth - 1]] == '.' &&
                                       out[starts[depth - 1] + 1] == '.');
            if (up_ok) {
                w = starts[--depth];
                if (w > (abs ? 1 : 0))
                    w--; /* the separator before it */
                continue;
            }
            if (abs && depth == 0)
                continue; /* /.. is / */
        }
        if (w > (abs ? 1 : 0))
            out[w++] = '/';
        starts[depth++] = w;
        memcpy(out + w, joined + b, (size_t)len);
        w += len;
    }
    if (w == 0)
        out[w++] = '.';
    out[w] = 0;
    return out;
}

static const char *fail(arena *a, const char **err, const char *path, const char *why)
{
    *err = arena_printf(a, "'%s': %s", path, why);
    return NULL;
}

hp_status hp_compdb_read(hp_ctx *ctx, const char *path, const hp_compdb_entry **out, int *nout,
                         const char **err)
{
    arena *a = &ctx->a;
    *out = NULL;
    *nout = 0;
    *err = NULL;
    os_stat st;
    const char *file = path;
    if (os_stat_path(path, 0, &st) == 0 && st.is_dir)
        file = arena_printf(a, "%s%scompile_commands.json", path,
                            path[0] && path[strlen(path) - 1] == '/' ? "" : "/");
    char *text;
    ptrdiff_t len;
    const char *rerr;
    hp_status s = os_read_file(a, file, COMPDB_MAX, &text, &len, &rerr);
    if (s != HP_OK) {
        fail(a, err, file, rerr ? rerr : hp_status_name(s));
        return s;
    }
    return compdb_parse(ctx, file, text, len, out, nout, err);
}

hp_status compdb_parse(hp_ctx *ctx, const char *file, const char *text, ptrdiff_t len,
                       const hp_compdb_entry **out, int *nout, const char **err)
{
    arena *a = &ctx->a;
    *out = NULL;
    *nout = 0;
    *err = NULL;
    const char *jerr;
    ptrdiff_t off;
    json *root = json_parse(a, text, len, &jerr, &off);
    if (!root) {
        fail(a, err, file, arena_printf(a, "not JSON (%s at byte %td)", jerr, off));
        return HP_EFORMAT;
    }
    if (root->kind != JSON_ARRAY) {
        fail(a, err, file, "not a compilation database (a JSON array of entries)");
        return HP_EFORMAT;
    }
    hp_compdb_entry *v = NEW(a, hp_compdb_entry, root->n > 0 ? root->n : 1);
    ptrdiff_t cap = 16;
    while (cap < 2 * root->n)
        cap *= 2;
    int *seen = NEW(a, int, cap); /* the files kept, by hash: index + 1 into v */
    if (!v || !seen)
        return HP_ENOMEM;
    if (root->n > 0x3fffffff) {
        fail(a, err, file, "too many entries");
        return HP_ETOOBIG;
    }
    int n = 0;
    for (ptrdiff_t i = 0; i < root->n; i++) {
        const json *e = &root->items[i];
        const json *dir = e->kind == JSON_OBJECT ? json_get(e, "directory") : NULL;
        const json *f = e->kind == JSON_OBJECT ? json_get(e, "file") : NULL;
        const json *args = e->kind == JSON_OBJECT ? json_get(e, "arguments") : NULL;
        const json *cmd = e->kind == JSON_OBJECT ? json_get(e, "command") : NULL;
        if (!f || f->kind != JSON_STRING || !f->str.len ||
            (dir && dir->kind != JSON_STRING) ||
            !((args && args->kind == JSON_ARRAY) || (cmd && cmd->kind == JSON_STRING))) {
            fail(a, err, file,
                 arena_printf(a, "entry %td has no \"file\" with \"arguments\" or \"command\"",
                              i + 1));
            return HP_EFORMAT;
        }
        hp_compdb_entry *out_e = &v[n];
        out_e->file = f->str.s[0] == '/' || !dir || !dir->str.len
                          ? f->str.s
                          : join_clean(a, dir->str, f->str);
        if (args && args->kind == JSON_ARRAY) {
            const char **w = NEW(a, const char *, args->n > 0 ? args->n : 1);
            if (!w)
                return HP_ENOMEM;
            for (ptrdiff_t k = 0; k < args->n; k++) {
                if (args->items[k].kind != JSON_STRING) {
                    fail(a, err, file,
                         arena_printf(a, "entry %td: an argument is not a string", i + 1));
                    return HP_EFORMAT;
                }
                w[k] = args->items[k].str.s;
            }
            out_e->args = w;
            out_e->nargs = (int)args->n;
        } else {
            const char **w;
            int nw = split_command(a, cmd->str, &w);
            if (nw < 0) {
                fail(a, err, file,
                     arena_printf(a, "entry %td: unterminated quote in \"command\"", i + 1));
                return HP_EFORMAT;
            }
            out_e->args = w;
            out_e->nargs = nw;
        }
        /* a file compiled twice (two configurations) is named once, with its first entry */
        unsigned h = str_hash(out_e->file, (ptrdiff_t)strlen(out_e->file), 0);
        ptrdiff_t j = h & (cap - 1);
        while (seen[j] && strcmp(v[seen[j] - 1].file, out_e->file) != 0)
            j = (j + 1) & (cap - 1);
        if (!seen[j]) {
            seen[j] = n + 1;
            n++;
        }
    }
    *out = v;
    *nout = n;
    return HP_OK;
}
