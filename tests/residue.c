/* residue.c: greps translated files with the name tables: prints every CUDA name left in code
 * (identifiers outside comments and strings, and #include paths) that the tables map to another
 * spelling, for the PyTorch generation given. Names the tables report rather than rename (no
 * HIP equivalent, guard and version macros, members) are not residue.
 *
 *   residue [--pytorch=v2|masquerade] FILE...      exit 1 when something is left
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "diag.h"
#include "lex.h"
#include "map.h"
#include "os.h"

static int pytorch; /* hp_pytorch_mode */

/* The spelling the tables give row r in this mode, or NULL when the row renames nothing. */
static const char *wanted(const map_row *r, char *buf, size_t cap)
{
    if ((r->flags & MAP_F(pytorch)) && !pytorch)
        return NULL;
    if (r->flags & (MAP_F(guard) | MAP_F(thrust) | MAP_F(erase) | MAP_F(drop) | MAP_F(compat)))
        return NULL;
    if (r->kind == MAP_K_member)
        return NULL;
    hp_str to = map_hip(r);
    if ((r->flags & MAP_F(masq)) && pytorch == HP_PYTORCH_MASQUERADE)
        to = map_legacy(r);
    if (to.len == 0 || (size_t)to.len >= cap)
        return NULL;
    hp_str from = map_cuda(r);
    if (from.len == to.len && memcmp(from.s, to.s, (size_t)from.len) == 0)
        return NULL;
    memcpy(buf, to.s, (size_t)to.len);
    buf[to.len] = 0;
    return buf;
}

static int check(arena *a, const char *path)
{
    char *src;
    ptrdiff_t len;
    const char *err;
    if (os_read_file(a, path, OS_MAX_TEXT_FILE, &src, &len, &err) != HP_OK) {
        fprintf(stderr, "residue: '%s': %s\n", path, err);
        return 1;
    }
    lex_out lx;
    lex_all(a, src, len, &lx);
    lines ln;
    diag_lines_build(a, src, len, &ln);
    int found = 0;
    for (ptrdiff_t i = 0; i < lx.n; i++) {
        const tok *t = &lx.toks[i];
        hp_str name;
        if (t->kind == TK_IDENT) {
            /* a member after . or -> is the object's, not the API's */
            ptrdiff_t p = i - 1;
            while (p >= 0 && lx.toks[p].kind == TK_COMMENT)
                p--;
            if (p >= 0 && lx.toks[p].kind == TK_PUNCT &&
                (lx.toks[p].sub == '.' || lx.toks[p].sub == P_ARROW))
                continue;
            name = (hp_str){src + t->off, t->len};
        } else if ((t->kind == TK_HEADER || t->kind == TK_STRING) && (t->flags & TF_PP) &&
                   t->len >= 2) {
            name = (hp_str){src + t->off + 1, t->len - 2};
        } else {
            continue;
        }
        if (pytorch && t->kind != TK_IDENT &&
            ((name.len > 10 && memcmp(name.s, "ATen/cuda/", 10) == 0) ||
             (name.len > 17 && memcmp(name.s, "ATen/native/cuda/", 17) == 0) ||
             (name.len > 9 && memcmp(name.s, "c10/cuda/", 9) == 0))) {
            printf("%s:%td: %.*s (a CUDA header of PyTorch)\n", path,
                   diag_lines_find(&ln, t->off) + 1, (int)name.len, name.s);
            found = 1;
            continue;
        }
        const map_row *r = map_find(name.s, name.len);
        char buf[256];
        const char *to = r ? wanted(r, buf, sizeof buf) : NULL;
        if (!to)
            continue;
        if (r->kind == MAP_K_header && t->kind == TK_IDENT)
            continue;
        if (r->kind != MAP_K_header && t->kind != TK_IDENT)
            continue;
        if (r->kind == MAP_K_ns) {
            /* a namespace name only before :: */
            ptrdiff_t n = i + 1;
            while (n < lx.n && lx.toks[n].kind == TK_COMMENT)
                n++;
            if (n >= lx.n || lx.toks[n].kind != TK_PUNCT || lx.toks[n].sub != P_SCOPE)
                continue;
        }
        printf("%s:%td: %.*s (should be %s)\n", path, diag_lines_find(&ln, t->off) + 1,
               (int)name.len, name.s, to);
        found = 1;
    }
    return found;
}

int main(int argc, char **argv)
{
    int bad = 0;
    arena a;
    arena_init(&a, 1 << 20);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--pytorch=v2") == 0) {
            pytorch = HP_PYTORCH_V2;
            continue;
        }
        if (strcmp(argv[i], "--pytorch=masquerade") == 0) {
            pytorch = HP_PYTORCH_MASQUERADE;
            continue;
        }
        bad |= check(&a, argv[i]);
        arena_reset(&a);
    }
    arena_release(&a);
    return bad;
}
