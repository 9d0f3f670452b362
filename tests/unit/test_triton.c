/* test_triton.c: the Python index (aliases, arguments, values, blocks, guards) and the
 * discovery of Triton kernels, configs and launch sites. */
#include <string.h>

#include "arena.h"
#include "harness.h"
#include "pysrc.h"
#include "triton.h"

typedef struct py {
    arena a;
    pysrc p;
    tri_file f;
    int ok;
} py;

static void py_open(py *x, const char *src)
{
    arena_init(&x->a, 1 << 16);
    x->ok = pysrc_init(&x->p, &x->a, src, (ptrdiff_t)strlen(src)) &&
            triton_scan(&x->a, &x->p, &x->f);
}

/* Index of the n-th token (0-based) whose text is w, or -1. */
static ptrdiff_t find(const py *x, const char *w, int n)
{
    for (ptrdiff_t i = 0; i < x->p.n; i++) {
        hp_str t = pysrc_text(&x->p, i);
        if ((size_t)t.len == strlen(w) && memcmp(t.s, w, (size_t)t.len) == 0 && n-- == 0)
            return i;
    }
    return -1;
}

static const char *qual(const py *x, ptrdiff_t i)
{
    static char buf[160];
    pysrc_qualname(&x->p, i, buf, sizeof buf);
    return buf;
}

TEST(pysrc_aliases)
{
    py x;
    py_open(&x, "import triton.language as lang, numpy\n"
                "from triton import jit, Config as C\n"
                "from triton.language.extra import (libdevice as ld,\n  cuda)\n"
                "a = lang.load\nb = jit\nc = C\nd = ld.exp\ne = tl.store\nf = cuda.smid\n"
                "g = numpy.zeros\nh = x.lang.load\n");
    CHECK(x.ok);
    CHECK_STR(qual(&x, find(&x, "lang", 1)), "triton.language.load");
    CHECK_STR(qual(&x, find(&x, "jit", 1)), "triton.jit");
    CHECK_STR(qual(&x, find(&x, "C", 1)), "triton.Config");
    CHECK_STR(qual(&x, find(&x, "ld", 1)), "triton.language.extra.libdevice.exp");
    CHECK_STR(qual(&x, find(&x, "tl", 0)), "triton.language.store");
    CHECK_STR(qual(&x, find(&x, "cuda", 1)), "triton.language.extra.cuda.smid");
    CHECK_STR(qual(&x, find(&x, "numpy", 1)), "numpy.zeros");
    /* an attribute of something else is not a name of its own */
    CHECK_STR(qual(&x, find(&x, "lang", 2)), "");
    arena_release(&x.a);
}

TEST(pysrc_args_and_values)
{
    py x;
    py_open(&x, "f(a, (b, c), k=[1, 2], *r, **kw, z=-0x10)\n"
                "W = 8\n"
                "g(num_warps=W)\n"
                "h([m(num_warps=w) for w in (2, 16, 4)])\n"
                "for s in [1, 3]:\n    q(num_stages=s)\n");
    CHECK(x.ok);
    pysrc_arg a[8];
    ptrdiff_t open = find(&x, "(", 0);
    CHECK_INT(pysrc_args(&x.p, open, a, 8), 6);
    CHECK_INT(pysrc_npositional(a, 6), 2);
    CHECK_INT(pysrc_kwarg(&x.p, a, 6, "k"), 2);
    CHECK(a[3].star && a[4].star);
    long long v = 0;
    CHECK(pysrc_int(&x.p, a[5].vb, a[5].e, &v));
    CHECK_INT(v, -16);
    pysrc_ints iv;
    ptrdiff_t w = find(&x, "W", 1);
    CHECK_INT(pysrc_int_values(&x.p, w, w + 1, &iv), 1);
    CHECK_INT(iv.max, 8);
    ptrdiff_t lw = find(&x, "w", 0);
    CHECK_INT(pysrc_int_values(&x.p, lw, lw + 1, &iv), 3);
    CHECK_INT(iv.min, 2);
    CHECK_INT(iv.max, 16);
    ptrdiff_t s = find(&x, "s", 1);
    CHECK_INT(pysrc_int_values(&x.p, s, s + 1, &iv), 2);
    CHECK_INT(iv.max, 3);
    arena_release(&x.a);
}

static int pred_word(const pysrc *p, ptrdiff_t b, ptrdiff_t e, void *ud)
{
    for (ptrdiff_t i = b; i < e; i++)
        if (pysrc_is(p, i, ud))
            return 1;
    return 0;
}

TEST(pysrc_blocks_and_guards)
{
    py x;
    py_open(&x, "def f():\n"
                "    if HIP:\n"
                "        a = 1\n"
                "    elif OTHER:\n"
                "        b = 2\n"
                "    else:\n"
                "        c = 3\n"
                "    d = 4 if HIP else 5\n"
                "    e = 6\n");
    CHECK(x.ok);
    ptrdiff_t bb, be;
    CHECK(pysrc_block(&x.p, find(&x, "def", 0), &bb, &be));
    CHECK(pysrc_is(&x.p, bb, "if"));
    CHECK_INT(x.p.t[be].kind, PY_DEDENT);
    CHECK(pysrc_guarded(&x.p, find(&x, "a", 0), pred_word, "HIP"));
    CHECK(pysrc_guarded(&x.p, find(&x, "b", 0), pred_word, "HIP"));
    CHECK(pysrc_guarded(&x.p, find(&x, "c", 0), pred_word, "HIP"));
    CHECK(pysrc_guarded(&x.p, find(&x, "d", 0), pred_word, "HIP"));
    CHECK(!pysrc_guarded(&x.p, find(&x, "e", 0), pred_word, "HIP"));
    CHECK(pysrc_guarded(&x.p, find(&x, "c", 0), pred_word, "OTHER"));
    arena_release(&x.a);
}

TEST(pysrc_amd_mentions)
{
    py x;
    py_open(&x, "if torch.version.hip:\n    pass\n");
    CHECK(pysrc_mentions_amd(&x.p));
    arena_release(&x.a);
    py_open(&x, "name = props.gcnArchName\n");
    CHECK(pysrc_mentions_amd(&x.p));
    arena_release(&x.a);
    py_open(&x, "arch = 'gfx942'\n");
    CHECK(pysrc_mentions_amd(&x.p));
    arena_release(&x.a);
    py_open(&x, "ship = chip('relationship')\n");
    CHECK(!pysrc_mentions_amd(&x.p));
    arena_release(&x.a);
}

TEST(triton_kernels)
{
    py x;
    py_open(&x, "import triton\nimport triton.language as tl\nfrom triton import jit\n"
                "@triton.jit\ndef a(x):\n    pass\n"
                "@jit\ndef b(x):\n    pass\n"
                "@triton.jit(do_not_specialize=['n'])\ndef c(x, n):\n    pass\n"
                "@triton.autotune(configs=[triton.Config({'B': 32}, num_warps=4),\n"
                "                          triton.Config({'B': 64}, num_warps=8)], key=['n'])\n"
                "@triton.heuristics({'EVEN': lambda a: a['n'] % 64 == 0})\n"
                "@triton.jit\nasync def d(x, n):\n    y = 1\n    return y\n"
                "@functools.cache\ndef not_a_kernel():\n    pass\n"
                "def host(t):\n    d[(1,)](t, t.numel(), num_warps=4, num_stages=2)\n"
                "    other[grid](t, num_warps=8)\n    t[0](1)\n");
    CHECK(x.ok);
    CHECK_INT(x.f.nk, 4);
    CHECK(x.f.k[0].name.len == 1 && x.f.k[0].name.s[0] == 'a');
    CHECK(x.f.k[1].name.s[0] == 'b');
    CHECK(x.f.k[2].name.s[0] == 'c');
    CHECK(x.f.k[3].name.s[0] == 'd');
    CHECK(x.f.k[3].autotune >= 0);
    CHECK(x.f.k[3].heuristics >= 0);
    CHECK(x.f.k[0].autotune < 0);
    CHECK_INT(triton_kernel_at(&x.f, find(&x, "y", 0)), 3);
    CHECK_INT(triton_kernel_at(&x.f, find(&x, "host", 0)), -1);
    /* two configs of d, then the launch of d and the launch of an imported kernel */
    CHECK_INT(x.f.ns, 4);
    CHECK_INT(x.f.s[0].kind, TS_CONFIG);
    CHECK_INT(x.f.s[0].kernel, 3);
    CHECK(x.f.s[1].opt[TO_NUM_WARPS].key >= 0);
    CHECK_INT(x.f.s[2].kind, TS_LAUNCH);
    CHECK_INT(x.f.s[2].kernel, 3);
    CHECK(x.f.s[2].opt[TO_NUM_STAGES].key >= 0);
    CHECK_INT(x.f.s[3].kind, TS_LAUNCH);
    CHECK_INT(x.f.s[3].kernel, -1);
    CHECK_STR(triton_opt_name(TO_NONKDIM), "matrix_instr_nonkdim");
    arena_release(&x.a);
}

TEST(triton_config_dict_knobs)
{
    py x;
    py_open(&x, "import triton\n"
                "c = triton.Config({'BLOCK': 64, 'waves_per_eu': 2, 'kpack': 2}, num_warps=4)\n");
    CHECK(x.ok);
    CHECK_INT(x.f.ns, 1);
    CHECK(x.f.s[0].opt[TO_WAVES_PER_EU].key >= 0);
    CHECK(x.f.s[0].opt[TO_KPACK].key >= 0);
    CHECK(x.f.s[0].opt[TO_NONKDIM].key < 0);
    long long v;
    CHECK(pysrc_int(&x.p, x.f.s[0].opt[TO_KPACK].vb, x.f.s[0].opt[TO_KPACK].ve, &v));
    CHECK_INT(v, 2);
    arena_release(&x.a);
}

TEST(triton_survives_garbage)
{
    static const char *const inputs[] = {
        "@triton.jit\n", "@triton.jit\ndef", "@triton.jit\ndef k(", "@triton.jit\ndef k(x):",
        "k[", "k[g](", "triton.Config(", "@triton.autotune(configs=[\n@triton.jit\ndef k(): pass",
        ")))]]]}}}", "@\n@\n@", "def f(:\n\tif\n  else:\n", "f(x=)\ng(=1)\n"};
    for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) {
        py x;
        py_open(&x, inputs[i]);
        CHECK(x.ok);
        arena_release(&x.a);
    }
}
