/* triton.c: discovery of Triton kernels, autotune configs and launch sites (see triton.h). */
#include "triton.h"

#include <string.h>

#include "str.h"

#include "banned.h"

static const char *const opt_names[TO_COUNT] = {
    "num_warps", "num_stages", "num_ctas", "maxnreg", "waves_per_eu", "matrix_instr_nonkdim",
    "kpack"};

const char *triton_opt_name(int id)
{
    return id >= 0 && id < TO_COUNT ? opt_names[id] : "";
}

static int opt_id(hp_str s)
{
    for (int k = 0; k < TO_COUNT; k++)
        if (str_eqc(s, opt_names[k]))
            return k;
    return -1;
}

int triton_is_jit(const char *q)
{
    return strcmp(q, "triton.jit") == 0 || strcmp(q, "triton.runtime.jit") == 0 ||
           strcmp(q, "triton.runtime.jit.jit") == 0 || strcmp(q, "triton.language.jit") == 0;
}

static int is_autotune(const char *q)
{
    return strcmp(q, "triton.autotune") == 0 || strcmp(q, "triton.runtime.autotune") == 0 ||
           strcmp(q, "triton.runtime.autotuner.autotune") == 0;
}

static int is_heuristics(const char *q)
{
    return strcmp(q, "triton.heuristics") == 0 || strcmp(q, "triton.runtime.heuristics") == 0 ||
           strcmp(q, "triton.runtime.autotuner.heuristics") == 0;
}

static int is_config(const char *q)
{
    return strcmp(q, "triton.Config") == 0 || strcmp(q, "triton.runtime.Config") == 0 ||
           strcmp(q, "triton.runtime.autotuner.Config") == 0;
}

typedef struct growers {
    arena *a;
    int capk, caps;
    int failed;
} growers;

static tri_kernel *new_kernel(growers *g, tri_file *f)
{
    if (f->nk == g->capk) {
        int ncap = g->capk ? g->capk * 2 : 8;
        f->k = arena_grow(g->a, f->k, (ptrdiff_t)g->capk * (ptrdiff_t)sizeof(tri_kernel),
                          (ptrdiff_t)ncap * (ptrdiff_t)sizeof(tri_kernel), _Alignof(tri_kernel));
        if (!f->k) {
            g->failed = 1;
            f->nk = 0;
            return NULL;
        }
        g->capk = ncap;
    }
    tri_kernel *k = &f->k[f->nk++];
    memset(k, 0, sizeof *k);
    return k;
}

static tri_site *new_site(growers *g, tri_file *f)
{
    if (f->ns == g->caps) {
        int ncap = g->caps ? g->caps * 2 : 8;
        f->s = arena_grow(g->a, f->s, (ptrdiff_t)g->caps * (ptrdiff_t)sizeof(tri_site),
                          (ptrdiff_t)ncap * (ptrdiff_t)sizeof(tri_site), _Alignof(tri_site));
        if (!f->s) {
            g->failed = 1;
            f->ns = 0;
            return NULL;
        }
        g->caps = ncap;
    }
    tri_site *s = &f->s[f->ns++];
    memset(s, 0, sizeof *s);
    for (int k = 0; k < TO_COUNT; k++)
        s->opt[k].key = -1;
    s->kernel = -1;
    return s;
}

/* Decorators from the '@' at d: records the kernel when the def they decorate is jitted.
 * Returns the index to continue from. */
static ptrdiff_t decorated(growers *g, const pysrc *p, ptrdiff_t d, tri_file *f)
{
    int32_t jit = -1, autotune = -1, heur = -1;
    ptrdiff_t i = d;
    char q[128];
    while (i < p->n && p->t[i].kind == PY_DECORATOR) {
        ptrdiff_t e = pysrc_qualname(p, i + 1, q, sizeof q);
        if (e > i + 1) {
            int32_t open = pysrc_op(p, e, '(') ? (int32_t)e : -1;
            if (triton_is_jit(q))
                jit = (int32_t)i;
            else if (is_autotune(q))
                autotune = open;
            else if (is_heuristics(q))
                heur = open;
        }
        i = pysrc_line_end(p, i) + 1;
    }
    ptrdiff_t def = i;
    if (pysrc_is(p, def, "async"))
        def++;
    if (jit < 0 || !pysrc_is(p, def, "def") || def + 2 >= p->n ||
        p->t[def + 1].kind != PY_NAME || !pysrc_op(p, def + 2, '('))
        return i;
    ptrdiff_t bb, be;
    if (!pysrc_block(p, def, &bb, &be))
        return i;
    tri_kernel *k = new_kernel(g, f);
    if (!k)
        return p->n;
    k->name = pysrc_text(p, def + 1);
    k->def = (int32_t)def;
    k->params = (int32_t)(def + 2);
    k->first_deco = (int32_t)d;
    k->jit = jit;
    k->autotune = autotune;
    k->heuristics = heur;
    k->body_b = (int32_t)bb;
    k->body_e = (int32_t)be;
    return i;
}

/* Options set by keywords of the call at open, and for a Config by string keys of its dict. */
static void read_opts(const pysrc *p, tri_site *s)
{
    pysrc_arg args[64];
    int n = pysrc_args(p, s->open, args, 64);
    if (n > 64)
        n = 64;
    for (int k = 0; k < n; k++) {
        if (args[k].kw >= 0) {
            int id = opt_id(pysrc_text(p, args[k].kw));
            if (id >= 0) {
                s->opt[id].key = args[k].kw;
                s->opt[id].vb = args[k].vb;
                s->opt[id].ve = args[k].e;
            }
            continue;
        }
        if (s->kind != TS_CONFIG || k != 0 || !pysrc_op(p, args[k].b, '{'))
            continue;
        /* triton.Config({"BLOCK": 64, "waves_per_eu": 2}, ...) */
        pysrc_arg el[64];
        int ne = pysrc_args(p, args[k].b, el, 64);
        if (ne > 64)
            ne = 64;
        for (int m = 0; m < ne; m++) {
            ptrdiff_t kb = el[m].b;
            if (p->t[kb].kind != PY_STRING || !pysrc_op(p, kb + 1, ':'))
                continue;
            int id = opt_id(pylex_string_body(p->src, &p->t[kb]));
            if (id >= 0 && s->opt[id].key < 0) {
                s->opt[id].key = (int32_t)kb;
                s->opt[id].vb = (int32_t)(kb + 2);
                s->opt[id].ve = el[m].e;
            }
        }
    }
}

static int has_opts(const tri_site *s)
{
    for (int k = 0; k < TO_COUNT; k++)
        if (s->opt[k].key >= 0)
            return 1;
    return 0;
}

static int kernel_named(const tri_file *f, hp_str name)
{
    for (int k = 0; k < f->nk; k++)
        if (str_eq(f->k[k].name, name))
            return k;
    return -1;
}

int triton_kernel_at(const tri_file *f, ptrdiff_t i)
{
    for (int k = 0; k < f->nk; k++)
        if (i >= f->k[k].body_b && i < f->k[k].body_e)
            return k;
    return -1;
}

/* The kernel whose autotune decorator's arguments hold token i, or -1. */
static int autotune_at(const pysrc *p, const tri_file *f, ptrdiff_t i)
{
    for (int k = 0; k < f->nk; k++) {
        int32_t o = f->k[k].autotune;
        if (o >= 0 && i > o && i < p->match[o])
            return k;
    }
    return -1;
}

int triton_scan(arena *a, const pysrc *p, tri_file *out)
{
    memset(out, 0, sizeof *out);
    growers g = {a, 0, 0, 0};
    for (ptrdiff_t i = 0; i < p->n && !g.failed;) {
        if (p->t[i].kind == PY_DECORATOR && (i == 0 || p->t[i - 1].kind != PY_DECORATOR)) {
            ptrdiff_t nx = decorated(&g, p, i, out);
            i = nx > i ? nx : i + 1;
        } else {
            i++;
        }
    }
    char q[128];
    for (ptrdiff_t i = 0; i < p->n && !g.failed; i++) {
        if (p->t[i].kind != PY_NAME || (i > 0 && pysrc_op(p, i - 1, '.')))
            continue;
        ptrdiff_t e = pysrc_qualname(p, i, q, sizeof q);
        if (e <= i)
            continue;
        if (is_config(q) && pysrc_op(p, e, '(') && p->match[e] > e) {
            tri_site *s = new_site(&g, out);
            if (!s)
                break;
            s->kind = TS_CONFIG;
            s->tok = (int32_t)i;
            s->open = (int32_t)e;
            s->kernel = autotune_at(p, out, i);
            read_opts(p, s);
        } else if (pysrc_op(p, e, '[') && p->match[e] > e &&
                   pysrc_op(p, p->match[e] + 1, '(') && p->match[p->match[e] + 1] > 0) {
            hp_str last = pysrc_text(p, e - 1);
            tri_site s0;
            memset(&s0, 0, sizeof s0);
            for (int k = 0; k < TO_COUNT; k++)
                s0.opt[k].key = -1;
            s0.kind = TS_LAUNCH;
            s0.tok = (int32_t)i;
            s0.open = p->match[e] + 1;
            s0.kernel = kernel_named(out, last);
            read_opts(p, &s0);
            if (s0.kernel < 0 && !has_opts(&s0))
                continue;
            tri_site *s = new_site(&g, out);
            if (!s)
                break;
            *s = s0;
        }
        i = e - 1;
    }
    return !g.failed;
}
