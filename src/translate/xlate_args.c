/* xlate_args.c: argument-level rewrites of calls whose HIP (or ROCm library) signature differs
 * from CUDA's, driven by data/tables/argrewrites.tsv; library notes (the FP8 format) and the
 * qualified namespace rows of Thrust.
 *
 * A call is recorded when its name is renamed (rename_ident in xlate.c) and rewritten when the
 * whole file has been seen: the new argument list is rendered from the original bytes with the
 * edits already made inside it (so names inside arguments are translated, comments and nested
 * calls kept), those edits are retired, and one edit replaces the list. Calls are rewritten
 * innermost first, so a rewritten call inside an argument of another is carried along. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "str.h"
#include "xlate.h"

#include "argrewrites_tab.h"

#include "banned.h"

enum { COL_KEY, COL_WHEN, COL_SINCE, COL_OPS, COL_NOTE };

typedef struct xargs_pending {
    ptrdiff_t name;  /* token of the function name */
    lex_args a;         /* its arguments */
    int row;         /* index into argrewrites_rows */
} xargs_pending;

/* The row for key, or -1 (the table is sorted by key; a unit test checks it). */
static int find_row(const char *key, size_t n)
{
    int lo = 0, hi = argrewrites_rows_COUNT - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        const char *k = argrewrites_rows[mid][COL_KEY];
        int c = strncmp(k, key, n);
        if (c == 0 && k[n])
            c = 1;
        if (c == 0)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

int xlate_args_row_count(void)
{
    return argrewrites_rows_COUNT;
}

const char *xlate_args_row_key(int i)
{
    return i >= 0 && i < argrewrites_rows_COUNT ? argrewrites_rows[i][COL_KEY] : NULL;
}

static int parse_version(const char *s)
{
    if (!*s)
        return 0;
    int v = hp_hip_version_parse(s);
    return v > 0 ? v : 0;
}

/* The value of "name=X" in ops, or an empty slice. */
static hp_str op_name(const char *ops)
{
    hp_str none = {"", 0};
    for (const char *p = ops; *p;) {
        const char *e = strchr(p, ';');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n > 5 && memcmp(p, "name=", 5) == 0)
            return str_make(p + 5, (ptrdiff_t)n - 5);
        p = e ? e + 1 : p + n;
    }
    return none;
}

static int has_arg_ops(const char *ops)
{
    for (const char *p = ops; *p;) {
        const char *e = strchr(p, ';');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (!(n > 5 && memcmp(p, "name=", 5) == 0))
            return 1;
        p = e ? e + 1 : p + n;
    }
    return 0;
}

static void record(xlate *x, ptrdiff_t name, const lex_args *a, int row)
{
    if (x->npend == x->cappend) {
        int ncap = x->cappend ? x->cappend * 2 : 8;
        x->pend = arena_grow(x->a, x->pend,
                             (ptrdiff_t)x->cappend * (ptrdiff_t)sizeof(xargs_pending),
                             (ptrdiff_t)ncap * (ptrdiff_t)sizeof(xargs_pending),
                             _Alignof(xargs_pending));
        x->cappend = ncap;
    }
    xargs_pending *p = &x->pend[x->npend++];
    p->name = name;
    p->a = *a;
    p->row = row;
}

/* Is the row's "when" (hip, roc or any) the library written? */
static int row_applies(int row, int use_roc)
{
    const char *w = argrewrites_rows[row][COL_WHEN];
    return !((strcmp(w, "roc") == 0 && !use_roc) || (strcmp(w, "hip") == 0 && use_roc));
}

hp_str xlate_args_rewrite(xlate *x, ptrdiff_t i, const map_row *r, hp_str to, int use_roc)
{
    ptrdiff_t open = xlate_next(x, i);
    if (!xlate_punct(x, open, '('))
        return to;
    lex_args a;
    if (!xlate_args(x, open, &a) || a.n >= 32)
        return to;
    hp_str cuda = map_cuda(r);
    char key[300];
    int row = -1;
    int k = snprintf(key, sizeof key, "%.*s/%d", (int)cuda.len, cuda.s, a.n);
    if (k > 0 && (size_t)k < sizeof key)
        row = find_row(key, (size_t)k);
    /* a NAME/N row for the other library gives way to the NAME row */
    if (row >= 0 && !row_applies(row, use_roc))
        row = -1;
    if (row < 0)
        row = find_row(cuda.s, (size_t)cuda.len);
    if (row < 0 || !row_applies(row, use_roc))
        return to;
    const char *const *c = argrewrites_rows[row];
    hp_str name = op_name(c[COL_OPS]);
    if (name.len) {
        int since = parse_version(c[COL_SINCE]);
        if (!use_roc && since && x->hipv < since) {
            const char *msg = xlate_msg(
                x, "'%.*s' needs HIP %d.%d or newer; the target is HIP %d.%d", (int)name.len,
                name.s, since / 100, since % 100, x->hipv / 100, x->hipv % 100);
            diag_add(&x->d, x->t[i].off, x->t[i].len, "HP-HIP-VERSION", HP_SEV_WARNING, msg,
                     "target a newer HIP with --hip-version, or rewrite this use");
        }
        to = name;
    }
    /* a row without a new name rewrites arguments for the HIPs that take the new form */
    int since = parse_version(c[COL_SINCE]);
    if (!name.len && !use_roc && since && x->hipv < since)
        return to;
    if (has_arg_ops(c[COL_OPS]))
        record(x, i, &a, row);
    return to;
}

/* ------------------------------------------------------------------ rendering */

static int cmp_edit(const void *p, const void *q)
{
    const edit *a = *(const edit *const *)p, *b = *(const edit *const *)q;
    if (a->off != b->off)
        return a->off < b->off ? -1 : 1;
    if ((a->len == 0) != (b->len == 0))
        return a->len == 0 ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* The edits inside [from, to), sorted as apply() sorts them; 0 if an edit straddles the range. */
static int edits_in(xlate *x, ptrdiff_t from, ptrdiff_t to, edit ***out, ptrdiff_t *nout)
{
    ptrdiff_t n = 0;
    for (ptrdiff_t j = 0; j < x->ne; j++) {
        const edit *e = &x->e[j];
        if (e->off < 0)
            continue;
        ptrdiff_t end = (ptrdiff_t)e->off + e->len;
        if (e->off >= from && end <= to)
            n++;
        else if (e->off < to && end > from)
            return 0;
    }
    edit **v = NEW(x->a, edit *, n ? n : 1);
    n = 0;
    for (ptrdiff_t j = 0; j < x->ne; j++) {
        edit *e = &x->e[j];
        if (e->off >= 0 && e->off >= from && (ptrdiff_t)e->off + e->len <= to)
            v[n++] = e;
    }
    qsort(v, (size_t)n, sizeof *v, cmp_edit);
    *out = v;
    *nout = n;
    return 1;
}

/* Appends the translated text of src[from, to) given the sorted edits v. Insertions at from
 * (at to) are part of the range only when incl_from (incl_to) is set: an insertion between two
 * pieces belongs to the argument it touches, never to a separator. */
static void render(const xlate *x, buf *b, edit **v, ptrdiff_t nv, ptrdiff_t from, ptrdiff_t to,
                   int incl_from, int incl_to)
{
    ptrdiff_t pos = from;
    for (ptrdiff_t j = 0; j < nv; j++) {
        const edit *e = v[j];
        ptrdiff_t off = e->off, end = off + e->len;
        if (off < from || end > to || off < pos)
            continue;
        if (e->len == 0 && ((off == from && !incl_from) || (off == to && !incl_to)))
            continue;
        buf_add(b, x->src + pos, off - pos);
        buf_addstr(b, e->text);
        pos = end;
    }
    buf_add(b, x->src + pos, to - pos);
}

typedef struct item {
    int orig;          /* original argument, or -1 for inserted text */
    const char *text;  /* replacement or inserted text (NULL: the original argument) */
    int tlen;
    const char *cast;  /* reinterpret_cast<cast>(...) around it, or static_cast (conv) */
    int clen;
    int conv;          /* the cast is a static_cast: a value converted, not reinterpreted */
} item;

static int find_item(const item *it, int n, int orig)
{
    for (int k = 0; k < n; k++)
        if (it[k].orig == orig)
            return k;
    return -1;
}

static int parse_int(const char **p, int *v)
{
    const char *s = *p;
    if (*s < '0' || *s > '9')
        return 0;
    int n = 0;
    while (*s >= '0' && *s <= '9' && n < 1000)
        n = n * 10 + (*s++ - '0');
    *v = n;
    *p = s;
    return 1;
}

/* ctype@K: cuBLAS (in C++) takes a cudaDataType where it wants the compute type, as CUDA 10
 * wrote it; hipBLAS's compute-type parameter takes its own enum only. */
static const char *compute_type_of(hp_str s)
{
    static const char *const pairs[][2] = {
        {"CUDA_R_16F", "HIPBLAS_COMPUTE_16F"}, {"CUDA_R_32F", "HIPBLAS_COMPUTE_32F"},
        {"CUDA_R_64F", "HIPBLAS_COMPUTE_64F"}, {"CUDA_R_32I", "HIPBLAS_COMPUTE_32I"},
        {"CUDA_C_32F", "HIPBLAS_COMPUTE_32F"}, {"CUDA_C_64F", "HIPBLAS_COMPUTE_64F"}};
    for (size_t k = 0; k < sizeof pairs / sizeof *pairs; k++)
        if (str_eqc(s, pairs[k][0]))
            return pairs[k][1];
    return NULL;
}

/* The position each argument has in the call the preprocessor sees, where conditionals lie
 * between arguments: the arguments of an #if's branches are alternatives of one another, so
 * each branch starts at the position the #if stands at. */
static void pp_positions(const xlate *x, const lex_args *la, int *pos)
{
    int stack[16], depth = 0, cur = 0;
    ptrdiff_t from = la->open + 1;
    for (int k = 0; k < la->n; k++) {
        for (ptrdiff_t j = from; j < la->first[k]; j++) {
            if (x->t[j].kind != TK_PP_HASH)
                continue;
            int sub = x->t[j].sub;
            if ((sub == PP_IF || sub == PP_IFDEF || sub == PP_IFNDEF) && depth < 16)
                stack[depth++] = cur;
            else if ((sub == PP_ELIF || sub == PP_ELSE) && depth > 0)
                cur = stack[depth - 1];
            else if (sub == PP_ENDIF && depth > 0)
                depth--;
        }
        pos[k] = cur++;
        from = la->last[k] >= la->first[k] ? la->last[k] + 1 : la->first[k];
    }
}

/* ctype@K on argument j: the enumerator, when it is one, becomes its compute type */
static void ctype_item(const xlate *x, const lex_args *la, item *it, int n, int j)
{
    int at = find_item(it, n, j);
    const char *ct = at >= 0 && la->first[j] == la->last[j]
                         ? compute_type_of(xlate_text(x, la->first[j]))
                         : NULL;
    if (ct) {
        it[at].text = ct;
        it[at].tlen = (int)strlen(ct);
    }
}

/* Applies ops to the item list; 0 if an index is out of range or an op is malformed. */
static int plan(const xlate *x, const lex_args *la, const char *ops, int nargs, item *it,
                int *nit)
{
    int n = nargs;
    for (int k = 0; k < n; k++) {
        memset(&it[k], 0, sizeof it[k]);
        it[k].orig = k;
    }
    for (const char *p = ops; *p;) {
        const char *e = strchr(p, ';');
        const char *end = e ? e : p + strlen(p);
        const char *q = strchr(p, '@');
        if (end - p > 5 && memcmp(p, "name=", 5) == 0) {
            p = e ? e + 1 : end;
            continue;
        }
        if (!q || q > end)
            return 0;
        size_t oplen = (size_t)(q - p);
        q++;
        int a, cnt = 1, dst = 0;
        if (!parse_int(&q, &a))
            return 0;
        if (oplen == 4 && memcmp(p, "move", 4) == 0) {
            if (*q++ != '+' || !parse_int(&q, &cnt) || *q++ != '>' || !parse_int(&q, &dst))
                return 0;
            if (q != end || cnt < 1 || a + cnt > nargs || dst > nargs)
                return 0;
            item moved[32];
            for (int m = 0; m < cnt; m++) {
                int at = find_item(it, n, a + m);
                if (at < 0)
                    return 0;
                moved[m] = it[at];
                memmove(&it[at], &it[at + 1], sizeof *it * (size_t)(n - at - 1));
                n--;
            }
            int at = dst >= nargs ? n : find_item(it, n, dst);
            if (at < 0)
                return 0;
            memmove(&it[at + cnt], &it[at], sizeof *it * (size_t)(n - at));
            memcpy(&it[at], moved, sizeof *it * (size_t)cnt);
            n += cnt;
        } else if (oplen == 3 && memcmp(p, "dup", 3) == 0) {
            if (*q++ != '>' || !parse_int(&q, &dst) || q != end || a >= nargs || dst > nargs ||
                n >= 31)
                return 0;
            int from = find_item(it, n, a);
            int at = dst >= nargs ? n : find_item(it, n, dst);
            if (from < 0 || at < 0)
                return 0;
            item copy = it[from];
            copy.orig = -2 - a; /* a copy of argument a */
            memmove(&it[at + 1], &it[at], sizeof *it * (size_t)(n - at));
            it[at] = copy;
            n++;
        } else if (oplen == 4 && memcmp(p, "drop", 4) == 0) {
            int at = q == end ? find_item(it, n, a) : -1;
            if (at < 0)
                return 0;
            memmove(&it[at], &it[at + 1], sizeof *it * (size_t)(n - at - 1));
            n--;
        } else if (oplen == 3 && (memcmp(p, "add", 3) == 0 || memcmp(p, "set", 3) == 0)) {
            if (*q++ != '=' || q > end)
                return 0;
            if (p[0] == 'a') {
                int at = a >= nargs ? n : find_item(it, n, a);
                if (at < 0 || a > nargs || n >= 31)
                    return 0;
                memmove(&it[at + 1], &it[at], sizeof *it * (size_t)(n - at));
                memset(&it[at], 0, sizeof it[at]);
                it[at].orig = -1;
                it[at].text = q;
                it[at].tlen = (int)(end - q);
                n++;
            } else {
                int at = find_item(it, n, a);
                if (at < 0)
                    return 0;
                it[at].text = q;
                it[at].tlen = (int)(end - q);
            }
        } else if (oplen == 5 && memcmp(p, "ctype", 5) == 0) {
            if (q != end || a >= la->n || la->n > 32)
                return 0;
            /* the argument at position K in every branch of a conditional among the arguments
             * (an #if that picks the compute type by CUDA version) */
            int pos[32];
            pp_positions(x, la, pos);
            int seen = 0;
            for (int j = 0; j < la->n; j++)
                if (pos[j] == a) {
                    ctype_item(x, la, it, n, j);
                    seen = 1;
                }
            if (!seen)
                return 0;
        } else if (oplen == 4 && (memcmp(p, "cast", 4) == 0 || memcmp(p, "conv", 4) == 0)) {
            int at = find_item(it, n, a);
            if (*q++ != '=' || at < 0)
                return 0;
            it[at].cast = q;
            it[at].clen = (int)(end - q);
            it[at].conv = p[2] == 'n';
        } else {
            return 0;
        }
        p = e ? e + 1 : end;
    }
    *nit = n;
    return 1;
}

/* Does argument k already start with a cast to type[0..tlen) (spaces aside): "(void **)&p",
 * "reinterpret_cast<void**>(&p)", or static_cast for a conversion? A second cast would only
 * clutter the call. */
static int already_cast(const xlate *x, const lex_args *a, int k, const char *type, int tlen,
                        int conv)
{
    char lead[96];
    int n = 0;
    for (ptrdiff_t i = a->first[k]; i <= a->last[k] && i < x->nt; i = xlate_next(x, i)) {
        hp_str t = xlate_text(x, i);
        if (n + t.len >= (ptrdiff_t)sizeof lead)
            break;
        memcpy(lead + n, t.s, (size_t)t.len);
        n += (int)t.len;
    }
    char want[96];
    const char *kinds[] = {"(%.*s)", conv ? "static_cast<%.*s>(" : "reinterpret_cast<%.*s>("};
    for (size_t j = 0; j < sizeof kinds / sizeof *kinds; j++) {
        char spaced[64];
        int sn = 0;
        for (int b = 0; b < tlen && sn < (int)sizeof spaced - 1; b++)
            if (type[b] != ' ')
                spaced[sn++] = type[b];
        int wn = snprintf(want, sizeof want, kinds[j], sn, spaced);
        if (wn > 0 && wn < (int)sizeof want && wn <= n && memcmp(lead, want, (size_t)wn) == 0)
            return 1;
    }
    return 0;
}

/* Byte range of argument k: from its first token to the end of its last. */
static void arg_span(const xlate *x, const lex_args *a, int k, ptrdiff_t *from, ptrdiff_t *to)
{
    const tok *f = &x->t[a->first[k]], *l = &x->t[a->last[k]];
    *from = f->off;
    *to = (ptrdiff_t)l->off + l->len;
}

static void rewrite_one(xlate *x, const xargs_pending *pd)
{
    const lex_args *a = &pd->a;
    const char *const *c = argrewrites_rows[pd->row];
    item it[32];
    int nit = 0;
    for (int k = 0; k < a->n; k++)
        if (a->last[k] < a->first[k])
            goto fail; /* an empty argument (a macro's): leave the call alone */
    if (!plan(x, a, c[COL_OPS], a->n, it, &nit))
        goto fail;
    for (int k = 0; k < nit; k++)
        if (it[k].cast && it[k].orig >= 0 && !it[k].text &&
            already_cast(x, a, it[k].orig, it[k].cast, it[k].clen, it[k].conv))
            it[k].cast = NULL;
    ptrdiff_t from = x->t[a->open].off + 1, to = x->t[a->close].off;
    edit **v;
    ptrdiff_t nv;
    if (!edits_in(x, from, to, &v, &nv))
        return;
    buf b;
    buf_init(&b, x->a, 128);
    ptrdiff_t lead_to = from, tail_from = to;
    if (a->n) {
        ptrdiff_t s, e;
        arg_span(x, a, 0, &s, &e);
        lead_to = s;
        arg_span(x, a, a->n - 1, &s, &e);
        tail_from = e;
    }
    render(x, &b, v, nv, from, lead_to, lead_to > from || a->n == 0, 0);
    for (int k = 0; k < nit; k++) {
        const item *m = &it[k];
        if (k > 0) {
            const item *prev = &it[k - 1];
            if (prev->orig >= 0 && m->orig == prev->orig + 1) {
                ptrdiff_t s1, e1, s2, e2;
                arg_span(x, a, prev->orig, &s1, &e1);
                arg_span(x, a, m->orig, &s2, &e2);
                render(x, &b, v, nv, e1, s2, 0, 0);
            } else {
                buf_adds(&b, ", ");
            }
        }
        if (m->cast) {
            buf_adds(&b, m->conv ? "static_cast<" : "reinterpret_cast<");
            buf_add(&b, m->cast, m->clen);
            buf_adds(&b, ">(");
        }
        if (m->text) {
            buf_add(&b, m->text, m->tlen);
        } else {
            int orig = m->orig >= 0 ? m->orig : -2 - m->orig;
            ptrdiff_t s, e;
            arg_span(x, a, orig, &s, &e);
            render(x, &b, v, nv, s, e, 1, 1);
        }
        if (m->cast)
            buf_adds(&b, ")");
    }
    render(x, &b, v, nv, tail_from, to, 0, to > tail_from);
    for (ptrdiff_t j = 0; j < nv; j++)
        v[j]->off = -1; /* retired: apply() skips edits before offset 0 */
    xlate_edit(x, from, to - from, buf_str(&b));
    return;
fail:;
    hp_str name = xlate_text(x, pd->name);
    const char *msg = xlate_msg(x,
                                "the arguments of '%.*s' were not rewritten (%s): "
                                "this call does not have the expected arguments",
                                (int)name.len, name.s, c[COL_NOTE]);
    diag_add(&x->d, x->t[pd->name].off, x->t[pd->name].len, "HP-ARGS", HP_SEV_WARNING, msg,
             "adapt the arguments by hand");
}

static int cmp_pending(const void *p, const void *q)
{
    const xargs_pending *a = p, *b = q;
    return a->a.open < b->a.open ? 1 : a->a.open > b->a.open ? -1 : 0;
}

void xlate_args_finish(xlate *x)
{
    if (!x->npend)
        return;
    qsort(x->pend, (size_t)x->npend, sizeof *x->pend, cmp_pending);
    for (int k = 0; k < x->npend; k++)
        rewrite_one(x, &x->pend[k]);
}

/* ------------------------------------------------------------------ notes and contexts */

void xlate_lib_note(xlate *x, ptrdiff_t i, const map_row *r)
{
    if ((r->flags & MAP_F(image)) && !x->image_noted) {
        x->image_noted = 1;
        hp_str cuda = map_cuda(r);
        const char *msg = xlate_msg(
            x,
            "'%.*s' needs the GPU's image instructions, which gfx942 and gfx950 (MI300, MI350) "
            "lack: HIP's texture and surface functions do not compile for them",
            (int)cuda.len, cuda.s);
        diag_add(&x->d, x->t[i].off, x->t[i].len, "HP-IMAGE", HP_SEV_WARNING, msg,
                 "on Instinct GPUs read through const __restrict__ pointers instead; keep "
                 "textures behind #if !__HIP_NO_IMAGE_SUPPORT for Radeon");
    }
    if (!(r->flags & MAP_F(fp8)) || x->fp8_noted)
        return;
    x->fp8_noted = 1;
    hp_str cuda = map_cuda(r);
    const char *msg = xlate_msg(
        x,
        "FP8: CUDA's '%.*s' is the OCP format; AMD gfx94x (MI300) computes FP8 in the FNUZ "
        "format (another exponent bias, no infinities): values and scaling differ",
        (int)cuda.len, cuda.s);
    diag_add(&x->d, x->t[i].off, x->t[i].len, "HP-FP8", HP_SEV_WARNING, msg,
             "on gfx94x use the __hip_fp8_*_fnuz types and rescale; gfx950 and gfx12 have OCP");
}

int xlate_thrust_ns(const xlate *x, ptrdiff_t i)
{
    ptrdiff_t p = xlate_prev(x, i);
    if (!xlate_punct(x, p, P_SCOPE) || !xlate_punct(x, xlate_next(x, i), P_SCOPE))
        return 0;
    ptrdiff_t q = xlate_prev(x, p);
    return xlate_is(x, q, "thrust") || xlate_is(x, q, "system");
}
