/* test_pytorch.c: PyTorch's file names, header paths and generations; the #if evaluator. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "lex.h"
#include "map.h"
#include "ppeval.h"
#include "pytorch.h"
#include "str.h"

TEST(pytorch_rename)
{
    static const char *const cases[][2] = {
        {"csrc/ops.cpp", "csrc/ops_hip.cpp"},         /* a name that did not change: _hip */
        {"csrc/kernel.cu", "csrc/kernel.hip"},        /* .cu is enough of a change */
        {"csrc/cuda/x.cuh", "csrc/hip/x.cuh"},        /* a directory that changed */
        {"my_cuda_kernel.cu", "my_hip_kernel.hip"},   /* cuda in the stem */
        {"src/CUDAUtils.h", "src/HIPUtils.h"},        /* CUDA in the stem */
        {"cuda_ops/cuda.h", "hip_ops/hip.h"},         /* every occurrence */
        {"THCGeneral.h", "THHGeneral.h"},             /* THC, as PyTorch's rules have it */
        {"a.b.c", "a.b_hip.c"},                       /* the last extension */
        {".hidden", ".hidden_hip"},                   /* leading dots are not an extension */
        {"Makefile", "Makefile_hip"},
        {"x.cuh", "x_hip.cuh"},
    };
    arena a;
    arena_init(&a, 4096);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        CHECK_STR(pytorch_rename(&a, cases[i][0]), cases[i][1]);
    arena_release(&a);
}

TEST(pytorch_header_paths)
{
    static const char *const cases[][2] = {
        {"ATen/cuda/CUDAContext.h", "ATen/hip/HIPContext.h"},
        {"ATen/cuda/Exceptions.h", "ATen/hip/Exceptions.h"},
        {"ATen/cuda/detail/IndexUtils.cuh", "ATen/hip/detail/IndexUtils.cuh"},
        {"ATen/native/cuda/Loops.cuh", "ATen/native/hip/Loops.cuh"},
        {"ATen/native/sparse/cuda/SparseCUDABlas.h", "ATen/native/sparse/hip/SparseHIPBlas.h"},
        {"THC/THC.h", "THH/THH.h"},
        {"ATen/cudnn/Handle.h", ""}, /* a table row's (and only with masquerade) */
        {"ATen/ATen.h", ""},
        {"THCP.h", ""},
        {"c10/cuda/CUDAGuard.h", ""}, /* a table row */
    };
    arena a;
    arena_init(&a, 4096);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        hp_str got = pytorch_header(&a, str_cstr(cases[i][0]));
        char buf[256];
        snprintf(buf, sizeof buf, "%.*s", (int)got.len, got.s);
        CHECK_STR(buf, cases[i][1]);
    }
    arena_release(&a);
}

/* Every pytorch row: flagged pytorch; a masq row has the older spelling in legacy. */
TEST(pytorch_rows)
{
    int family = map_family_index("pytorch"), n = 0;
    CHECK(family >= 0);
    for (ptrdiff_t i = 0; i < map_nrows(); i++) {
        const map_row *r = map_row_at(i);
        if (r->family != family)
            continue;
        n++;
        CHECK(r->flags & MAP_F(pytorch));
        if (r->flags & MAP_F(masq))
            CHECK(r->legacy_len > 0);
    }
    CHECK(n > 30);
}

static int write_version(const char *dir, const char *text)
{
    char path[600];
    snprintf(path, sizeof path, "%s/torch", dir);
    mkdir(dir, 0755);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/torch/version.py", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    fputs(text, f);
    fclose(f);
    return 1;
}

TEST(pytorch_generation_from_version)
{
    char tmpl[] = "/tmp/hipport-unit-torch.XXXXXX";
    char *root = mkdtemp(tmpl);
    CHECK(root);
    static const struct {
        const char *text;
        int mode;
        const char *version;
    } cases[] = {
        {"__version__ = '2.10.0+rocm7.0'\n", HP_PYTORCH_MASQUERADE, "2.10.0+rocm7.0"},
        {"from typing import Optional\n__version__ = \"2.11.0a0+git5f2e0\"\n", HP_PYTORCH_V2,
         "2.11.0a0+git5f2e0"},
        {"__version__ = '1.13.1'\n", HP_PYTORCH_MASQUERADE, "1.13.1"},
        {"__version__ = '3.0.0'\n", HP_PYTORCH_V2, "3.0.0"},
    };
    arena a;
    arena_init(&a, 4096);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char dir[128];
        snprintf(dir, sizeof dir, "%.64s/site%zu", root, i);
        CHECK(write_version(dir, cases[i].text));
        const char *dirs[] = {"/nonexistent/site-packages", dir};
        hp_pytorch_info info;
        CHECK(pytorch_find_in(&a, dirs, 2, &info));
        CHECK(info.found);
        CHECK_INT(info.mode, cases[i].mode);
        CHECK_STR(info.version, cases[i].version);
    }
    const char *none[] = {"/nonexistent/site-packages"};
    hp_pytorch_info info;
    CHECK(!pytorch_find_in(&a, none, 1, &info));
    CHECK(!info.found);
    CHECK_INT(info.mode, HP_PYTORCH_V2); /* without PyTorch: the current generation */
    arena_release(&a);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    CHECK(system(cmd) == 0);
}

/* The value of the condition of the first directive of src, given macros. */
static int eval(const char *src, const char *const *macros, int n)
{
    arena a;
    arena_init(&a, 4096);
    ppenv e;
    ppeval_env_init(&e, &a, macros, n);
    lex_out lx;
    lex_all(&a, src, (ptrdiff_t)strlen(src), &lx);
    int r = -2;
    for (ptrdiff_t i = 0; i < lx.n; i++)
        if (lx.toks[i].kind == TK_PP_HASH) {
            r = ppeval_directive(&e, src, lx.toks, lx.n, i);
            break;
        }
    arena_release(&a);
    return r;
}

TEST(ppeval_conditions)
{
    static const char *const m[] = {"-DX", "-DV=12000", "-UGONE", "-DF(a)=a", "-DE=", "-DR=R"};
    static const struct {
        const char *src;
        int want;
    } cases[] = {
        {"#if 0x10 == 16 && 010 == 8 && 0b11 == 3 && 1'000 == 1000 && 10UL == 10\n", 1},
        {"#if V >= 11000 && V < 13000\n", 1},
        {"#if defined X && !defined(GONE) && GONE == 0\n", 1},
        {"#ifdef X\n", 1},
        {"#ifndef GONE\n", 1},
        {"#ifdef OTHER\n", -1},
        {"#if OTHER\n", -1},
        {"#if 0 && OTHER\n", 0},
        {"#if 1 || OTHER(3)\n", 1},
        {"#if OTHER ? 2 : 2\n", 1},
        {"#if 1 ? 0 : OTHER\n", 0},
        {"#if -1 < 0 && ~0 == -1 && 7 % 4 == 3 && (1 << 4) == 16 && (-8 >> 1) == -4\n", 1},
        {"#if 1 / 0\n", -1},
        {"#if (1 << 64)\n", -1},
        {"#if -9223372036854775807 - 1 == -9223372036854775807 - 1\n", 1},
        {"#if 2.5 > 1\n", -1},
        {"#if 'a'\n", -1},
        {"#if F(1)\n", -1},
        {"#if E\n", -1},   /* empty: not a value */
        {"#if R\n", -1},   /* expands to itself: given up */
        {"#if (1 +\n", -1},
        {"#if 1 2\n", -1},
        {"#if\n", -1},
        {"#if defined(\n", -1},
        {"#if true && !false\n", 1},
        {"#elif X\n", 1},
        {"#define X 1\n", -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int got = eval(cases[i].src, m, (int)(sizeof m / sizeof *m));
        if (got != cases[i].want) {
            harness_failf(__FILE__, __LINE__, "%s: got %d, want %d", cases[i].src, got,
                          cases[i].want);
            return;
        }
    }
}

/* A deeply nested condition is evaluated or given up, never a crash. */
TEST(ppeval_deep)
{
    char src[4096];
    int k = snprintf(src, sizeof src, "#if ");
    for (int i = 0; i < 1500; i++)
        src[k++] = '(';
    src[k++] = '1';
    for (int i = 0; i < 1500; i++)
        src[k++] = ')';
    src[k++] = '\n';
    src[k] = 0;
    CHECK_INT(eval(src, NULL, 0), -1);
}
