/* test_rules_py.c: the Triton (TRI), PyTorch (PT) and build-file (BLD) rules through the
 * public check API, one positive and one negative case (at least) per rule. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "hipport.h"

/* "line:col RULE s; ..." with s one of e, w, n (error, warning, note). */
static const char *chk_t(const char *path, const char *src, const char *targets)
{
    static char buf[8192];
    buf[0] = 0;
    hp_ctx *ctx = hp_ctx_new();
    if (!ctx)
        return "no memory";
    hp_check_opts o;
    hp_check_opts_init(&o);
    o.targets = targets;
    hp_check_result r;
    if (hp_check_buffer(ctx, &o, path, src, (ptrdiff_t)strlen(src), &r) != HP_OK) {
        hp_ctx_free(ctx);
        return "failed";
    }
    size_t n = 0;
    for (int i = 0; i < r.nfindings && n < sizeof buf - 64; i++) {
        const hp_finding *f = &r.findings[i];
        char s = f->severity == HP_SEV_ERROR ? 'e' : f->severity == HP_SEV_WARNING ? 'w' : 'n';
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%d:%d %s %c", i ? "; " : "", f->line,
                              f->col, f->rule, s);
    }
    hp_ctx_free(ctx);
    return buf;
}

static const char *chk(const char *path, const char *src)
{
    return chk_t(path, src, NULL);
}

/* Only the rules of one family (other families' findings stay out of the expected text). */
static const char *chk_only(const char *path, const char *src, const char *family)
{
    static const char *sel[2];
    sel[0] = "-all";
    sel[1] = family;
    hp_ctx *ctx = hp_ctx_new();
    hp_check_opts o;
    hp_check_opts_init(&o);
    o.rules = sel;
    o.nrules = 2;
    hp_check_result r;
    static char buf[4096];
    buf[0] = 0;
    if (!ctx || hp_check_buffer(ctx, &o, path, src, (ptrdiff_t)strlen(src), &r) != HP_OK) {
        hp_ctx_free(ctx);
        return "failed";
    }
    size_t n = 0;
    for (int i = 0; i < r.nfindings && n < sizeof buf - 64; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%d:%d %s", i ? "; " : "",
                              r.findings[i].line, r.findings[i].col, r.findings[i].rule);
    hp_ctx_free(ctx);
    return buf;
}

#define PY_HEAD "import torch\nimport triton\nimport triton.language as tl\n"

/* ------------------------------------------------------------------ the two kernels */

TEST(rules_py_masked_kernel_is_clean)
{
    CHECK_STR(chk("k.py", PY_HEAD
                  "@triton.jit\n"
                  "def fused_relu_bias_kernel(x_ptr, bias_ptr, out_ptr, n_elements, "
                  "BLOCK_SIZE: tl.constexpr):\n"
                  "    pid = tl.program_id(axis=0)\n"
                  "    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)\n"
                  "    mask = offsets < n_elements\n"
                  "    x = tl.load(x_ptr + offsets, mask=mask)\n"
                  "    bias = tl.load(bias_ptr + offsets, mask=mask)\n"
                  "    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) + bias, mask=mask)\n"),
              "");
}

TEST(rules_py_unmasked_kernel_tri012)
{
    CHECK_STR(chk("k.py", PY_HEAD
                  "@triton.jit\n"
                  "def scaled_add_kernel(x_ptr, y_ptr, out_ptr, scale: tl.constexpr, "
                  "BLOCK_SIZE: tl.constexpr):\n"
                  "    offs = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)\n"
                  "    x = tl.load(x_ptr + offs).to(tl.float32)\n"
                  "    y = tl.load(y_ptr + offs).to(tl.float32)\n"
                  "    tl.store(out_ptr + offs, (x + y * scale).to(tl.float16))\n"),
              "7:9 TRI012 n; 8:9 TRI012 n; 9:5 TRI012 n");
}

TEST(rules_py_tri012_follows_assignments)
{
    /* ptrs built in steps; the pid enters through the pointer; @jit after a from-import */
    CHECK_STR(chk("k.py", "from triton import jit\nimport triton.language as tl\n"
                          "@jit\ndef k(x_ptr, o_ptr, stride, BLOCK: tl.constexpr):\n"
                          "    row = tl.program_id(0)\n"
                          "    x_ptr += row * stride\n"
                          "    cols = tl.arange(0, BLOCK)\n"
                          "    ptrs = x_ptr + cols\n"
                          "    v = tl.load(ptrs)\n"
                          "    tl.store(o_ptr + cols, v)\n"),
              "9:9 TRI012 n");
}

TEST(rules_py_tri012_evidence)
{
    static const char body[] =
        "    offs = tl.program_id(0) * B + tl.arange(0, B)\n"
        "    tl.store(o_ptr + offs, tl.load(x_ptr + offs))\n";
    char src[1024];
    /* tl.multiple_of */
    snprintf(src, sizeof src, PY_HEAD "@triton.jit\ndef k(x_ptr, o_ptr, n, B: tl.constexpr):\n"
                              "    n = tl.multiple_of(n, B)\n%s", body);
    CHECK_STR(chk("k.py", src), "");
    /* an assert in the host code */
    snprintf(src, sizeof src, PY_HEAD "@triton.jit\ndef k(x_ptr, o_ptr, n, B: tl.constexpr):\n"
                              "%sdef run(x):\n    assert x.numel() %% 1024 == 0\n", body);
    CHECK_STR(chk("k.py", src), "");
    /* heuristics that test divisibility */
    snprintf(src, sizeof src, PY_HEAD "@triton.heuristics({'EVEN': lambda a: a['n'] %% a['B'] "
                              "== 0})\n@triton.jit\ndef k(x_ptr, o_ptr, n, B: tl.constexpr):\n%s",
             body);
    CHECK_STR(chk("k.py", src), "");
    /* other=, boundary_check and a positional mask count as handled */
    CHECK_STR(chk("k.py", PY_HEAD "@triton.jit\ndef k(x_ptr, o_ptr, n, B: tl.constexpr):\n"
                          "    offs = tl.program_id(0) * B + tl.arange(0, B)\n"
                          "    a = tl.load(x_ptr + offs, offs < n)\n"
                          "    b = tl.load(x_ptr + offs, other=0.0)\n"
                          "    tl.store(o_ptr + offs, a + b, offs < n)\n"
                          "    c = tl.load(x_ptr + offs, mask=None)\n"),
              "10:9 TRI012 n");
    /* offsets wrapped into range with % are in bounds */
    CHECK_STR(chk("k.py", PY_HEAD "@triton.jit\ndef k(b_ptr, o_ptr, M, B: tl.constexpr):\n"
                          "    offs = (tl.program_id(0) * B + tl.arange(0, B)) % M\n"
                          "    tl.store(o_ptr + offs, tl.load(b_ptr + offs))\n"),
              "");
    /* offsets without a program id (one program covers the tensor) are left alone */
    CHECK_STR(chk("k.py", PY_HEAD "@triton.jit\ndef k(x_ptr, B: tl.constexpr):\n"
                          "    offs = tl.arange(0, B)\n"
                          "    tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2)\n"),
              "");
}

TEST(rules_py_tri012_suppressed)
{
    CHECK_STR(chk("k.py", PY_HEAD "@triton.jit\ndef k(x_ptr, B: tl.constexpr):\n"
                          "    offs = tl.program_id(0) * B + tl.arange(0, B)\n"
                          "    v = tl.load(x_ptr + offs)  # hipport-ignore: TRI012\n"
                          "    # hipport-ignore: TRI\n"
                          "    tl.store(x_ptr + offs, v)\n"),
              "");
}

/* ------------------------------------------------------------------ TRI001-TRI003 */

TEST(rules_py_tri001)
{
    CHECK_STR(chk("k.py", PY_HEAD "cfgs = [triton.Config({'B': 64}, num_warps=32),\n"
                          "        triton.Config({'B': 64}, num_warps=16)]\n"
                          "THREADS_PER_WARP = 32\n"
                          "def threads(num_warps):\n    return num_warps * 32\n"),
              "4:44 TRI001 n; 6:1 TRI001 w; 8:12 TRI001 w");
    /* no config of the list fits: the autotuner has nothing to run */
    CHECK_STR(chk("k.py", PY_HEAD "cfgs = [triton.Config({'B': 64}, num_warps=32),\n"
                          "        triton.Config({'B': 128}, num_warps=32)]\n"
                          "more = [triton.Config({}, num_warps=w) for w in [32]]\n"),
              "4:44 TRI001 e; 5:45 TRI001 e; 6:50 TRI001 e");
    /* a comprehension: the largest value is reported where it is written; the autotuner
     * skips it and runs the 4 and 8, so nothing needs to change (a note) */
    CHECK_STR(chk("k.py", PY_HEAD "cfgs = [triton.Config({}, num_warps=w) for w in [4, 8, 32]]\n"),
              "4:56 TRI001 n");
    /* wave32 targets allow 32 warps of 32 lanes */
    CHECK_STR(chk_t("k.py", PY_HEAD "c = triton.Config({}, num_warps=32)\n", "gfx1100"), "");
    CHECK_STR(chk_t("k.py", PY_HEAD "c = triton.Config({}, num_warps=64)\n", "gfx1100"),
              "4:33 TRI001 e");
    /* written per vendor */
    CHECK_STR(chk("k.py", PY_HEAD "w = 8 if torch.version.hip else 32\n"
                          "c = triton.Config({}, num_warps=8 if torch.version.hip else 32)\n"),
              "");
}

TEST(rules_py_tri001_launch)
{
    CHECK_STR(chk("k.py", PY_HEAD "@triton.jit\ndef k(x):\n    pass\n"
                          "def run(x):\n    k[(1,)](x, num_warps=32)\n"),
              "8:26 TRI001 e");
}

TEST(rules_py_tri002)
{
    CHECK_STR(chk("k.py", PY_HEAD "c = triton.Config({'B': 64, 'matrix_instr_nonkdim': 64}, "
                          "kpack=2, waves_per_eu=12)\n"),
              "4:29 TRI002 w; 4:58 TRI002 w; 4:67 TRI002 w");
    /* valid values; kpack=2 is fine without gfx950 among the targets */
    CHECK_STR(chk_t("k.py", PY_HEAD "c = triton.Config({'matrix_instr_nonkdim': 16}, kpack=2, "
                            "waves_per_eu=2)\n",
                    "gfx942"),
              "");
    /* autotune configs with no AMD variant: a note on the decorator, unless they fit AMD */
    CHECK_STR(chk("k.py", PY_HEAD "@triton.autotune(configs=[triton.Config({}, num_warps=8, "
                          "num_stages=3)], key=['n'])\n@triton.jit\ndef k(x):\n    pass\n"),
              "4:2 TRI002 n");
    CHECK_STR(chk("k.py", PY_HEAD "@triton.autotune(configs=[triton.Config({}, num_warps=8, "
                          "num_stages=2)], key=['n'])\n@triton.jit\ndef k(x):\n    pass\n"),
              "");
    CHECK_STR(chk("k.py", PY_HEAD "@triton.autotune(configs=[triton.Config({'waves_per_eu': 2}, "
                          "num_warps=8, num_stages=2)], key=['n'])\n@triton.jit\ndef k(x):\n"
                          "    pass\n"),
              "");
}

TEST(rules_py_tri003)
{
    /* without tiles nothing is known of the LDS a config needs; num_stages=0 is always wrong */
    CHECK_STR(chk("k.py", PY_HEAD "a = triton.Config({}, num_stages=4)\n"
                          "b = triton.Config({}, num_stages=0)\n"
                          "c = triton.Config({}, num_stages=2)\n"),
              "5:34 TRI003 w");
    /* (num_stages - 1) x (BM x BK + BK x BN) x 2 bytes against gfx950's 160 KiB: 3 x 64 KiB is
     * over, 2 x 64 KiB and 3 x 48 KiB fit; no finding without gfx950 among the targets */
    const char *big = PY_HEAD "a = triton.Config({'BLOCK_M': 256, 'BLOCK_N': 256, 'BLOCK_K': 64}, "
                              "num_stages=4)\n"
                              "b = triton.Config({'BLOCK_M': 256, 'BLOCK_N': 256, 'BLOCK_K': 64}, "
                              "num_stages=3)\n"
                              "c = triton.Config({'BM': 128, 'BN': 256, 'BK': 64}, num_stages=4)\n";
    CHECK_STR(chk("k.py", big), "4:79 TRI003 e");
    CHECK_STR(chk_t("k.py", big, "gfx950"), "4:79 TRI003 e");
    CHECK_STR(chk_t("k.py", big, "gfx942,gfx90a"), "");
    /* in a list whose other config fits, the autotuner skips it */
    CHECK_STR(chk("k.py", PY_HEAD "cs = [triton.Config({'BLOCK_M': 256, 'BLOCK_N': 256, "
                          "'BLOCK_K': 64}, num_stages=4),\n"
                          "      triton.Config({'BLOCK_M': 64, 'BLOCK_N': 64, 'BLOCK_K': 64}, "
                          "num_stages=2)]\n"),
              "4:81 TRI003 w");
}

/* ------------------------------------------------------------------ TRI004-TRI011 */

TEST(rules_py_tri004)
{
    static const char src[] = PY_HEAD "@triton.jit\ndef k(x):\n"
                              "    a = x.to(tl.float8e4b15)\n"
                              "    b = x.to(tl.float8e4nv)\n"
                              "    c = x.to(tl.float8e4b8)\n";
    CHECK_STR(chk("k.py", src), "6:14 TRI004 e; 7:14 TRI004 w; 8:14 TRI004 w");
    CHECK_STR(chk_t("k.py", src, "gfx950"), "6:14 TRI004 e; 8:14 TRI004 w");
    CHECK_STR(chk_t("k.py", src, "gfx942"), "6:14 TRI004 e; 7:14 TRI004 w");
    /* chosen per architecture */
    CHECK_STR(chk("k.py", PY_HEAD "FP8 = tl.float8e4b8 if 'gfx94' in arch else tl.float8e4nv\n"),
              "");
}

TEST(rules_py_tri005)
{
    static const char src[] = PY_HEAD "@triton.jit\ndef k(a, b):\n"
                              "    c = tl.dot(a, b, input_precision=\"tf32\")\n"
                              "    d = tl.dot(a, b, input_precision=\"tf32x3\")\n"
                              "    e = tl.dot(a, b, allow_tf32=True)\n"
                              "    f = tl.dot(a, b, input_precision=\"ieee\")\n"
                              "    g = tl.dot(a, b, allow_tf32=False)\n";
    CHECK_STR(chk("k.py", src), "6:22 TRI005 e; 7:22 TRI005 e; 8:22 TRI005 n");
    CHECK_STR(chk_t("k.py", src, "gfx942"), "6:22 TRI005 n; 7:22 TRI005 e; 8:22 TRI005 n");
}

TEST(rules_py_tri006)
{
    CHECK_STR(chk("k.py", PY_HEAD "@triton.jit\ndef k(x):\n"
                          "    y = tl.inline_asm_elementwise(\"cvt.rn.f16.f32 $0, $1;\", "
                          "\"=h,r\", [x], dtype=tl.float16, is_pure=True, pack=1)\n"
                          "    z = tl.inline_asm_elementwise(asm=\"v_add_f32 $0, $1, $1\", "
                          "constraints=\"=v,v\", args=[x], dtype=tl.float32, is_pure=True, "
                          "pack=1)\n"
                          "    w = tl.inline_asm_elementwise(ASM, \"=v,v\", [x], "
                          "dtype=tl.float32, is_pure=True, pack=1)\n"),
              "6:9 TRI006 e; 8:9 TRI006 w");
    /* under a flag named for NVIDIA the PTX is never compiled on AMD; IS_HOPPER alone may be
     * a capability gate that MI300 passes */
    static const char flagged[] = PY_HEAD "if %s:\n    @triton.jit\n    def f(x):\n"
                                  "        return tl.inline_asm_elementwise(\"mov.f32 $0, $1;\", "
                                  "\"=r,r\", [x], dtype=tl.float32, is_pure=True, pack=1)\n";
    char src[512];
    snprintf(src, sizeof src, flagged, "IS_NVIDIA_BLACKWELL");
    CHECK_STR(chk("k.py", src), "");
    snprintf(src, sizeof src, flagged, "is_nvidia_hopper()");
    CHECK_STR(chk("k.py", src), "");
    snprintf(src, sizeof src, flagged, "IS_HOPPER");
    CHECK_STR(chk("k.py", src), "7:16 TRI006 e");
}

TEST(rules_py_tri007)
{
    CHECK_STR(chk("k.py", PY_HEAD "from triton.language.extra.cuda import libdevice\n"
                          "from triton.language.extra import libdevice as ld\n"
                          "@triton.jit\ndef k(x):\n    t = tl.extra.cuda.globaltimer()\n"
                          "    y = libdevice.exp(x)\n"),
              "4:6 TRI007 e; 8:9 TRI007 e");
}

TEST(rules_py_tri008)
{
    CHECK_STR(chk("k.py", PY_HEAD "a = triton.Config({}, num_ctas=2, maxnreg=128)\n"
                          "b = triton.Config({}, num_ctas=1)\n"
                          "@triton.jit\ndef k(p, M, N):\n"
                          "    d = tl.make_tensor_descriptor(p, shape=[M, N], strides=[N, 1], "
                          "block_shape=[16, 16])\n"
                          "    for i in tl.range(0, M, warp_specialize=True):\n        pass\n"),
              "4:32 TRI008 e; 4:35 TRI008 w; 8:9 TRI008 n; 9:29 TRI008 w");
    /* an import of the helper is no use of it */
    CHECK_STR(chk("k.py", PY_HEAD "from triton.tools.tensor_descriptor import TensorDescriptor\n"
                          "d = TensorDescriptor.from_tensor(x, block_shape=[16, 16])\n"),
              "5:5 TRI008 n");
}

TEST(rules_py_tri009)
{
    CHECK_STR(chk("k.py", PY_HEAD "@triton.jit\ndef k(p, v):\n"
                          "    tl.atomic_add(p, v, scope=\"sys\")\n"
                          "    tl.atomic_add(p, v.to(tl.bfloat16))\n"
                          "    tl.atomic_add(p, v, sem=\"relaxed\")\n"
                          "    tl.atomic_max(p, v)\n"),
              "6:25 TRI009 w; 7:5 TRI009 w");
}

TEST(rules_py_tri010)
{
    CHECK_STR(chk("k.py", PY_HEAD "@triton.jit\ndef k(x_ptr, o_ptr, B: tl.constexpr):\n"
                          "    r = tl.arange(0, B)\n"
                          "    x = tl.load(x_ptr + r)\n"
                          "    s = tl.sum(x, axis=0)\n"
                          "    t = tl.sum(x.to(tl.float32), axis=0)\n"
                          "    u = tl.sum(x, axis=0, dtype=tl.float32)\n"
                          "    acc = tl.zeros((B,), dtype=tl.float16)\n"
                          "    acc += x\n"
                          "    tl.store(o_ptr + r, acc.to(tl.float16))\n"),
              "8:9 TRI010 n; 11:11 TRI010 n");
    /* nothing in the kernel is fp16 or bf16: no finding */
    CHECK_STR(chk("k.py", PY_HEAD "@triton.jit\ndef k(x_ptr, o_ptr, B: tl.constexpr):\n"
                          "    r = tl.arange(0, B)\n    s = tl.sum(tl.load(x_ptr + r), axis=0)\n"
                          "    tl.store(o_ptr, s)\n"),
              "");
}

TEST(rules_py_tri011)
{
    CHECK_STR(chk("k.py", "import os\nos.environ['TRITON_PTXAS_PATH'] = '/x'\n"
                          "os.environ['AMDGCN_USE_BUFFER_OPS'] = '1'\n"
                          "os.environ['TRITON_CACHE_DIR'] = '/tmp'\n"),
              "2:13 TRI011 n; 3:13 TRI011 n");
    CHECK_STR(chk("run.sh", "#!/bin/sh\nexport TRITON_HIP_USE_ASYNC_COPY=1\n"
                            "# TRITON_PTXAS_PATH in a comment\nTRITON_CACHE_DIR=/x python a.py\n"),
              "2:8 TRI011 n");
}

/* ------------------------------------------------------------------ PT */

TEST(rules_py_pt001)
{
    CHECK_STR(chk("a.py", "import subprocess, torch\n"
                          "if torch.version.cuda:\n    pass\n"
                          "subprocess.run(['nvidia-smi', '-L'])\n"
                          "if 'NVIDIA' in torch.cuda.get_device_name(0):\n    pass\n"
                          "ok = '+cu' in torch.__version__\n"
                          "v = torch.backends.cudnn.version()\n"),
              "2:4 PT001 w; 4:17 PT001 w; 5:16 PT001 w; 7:6 PT001 w; 8:5 PT001 w");
    /* a model name singles out one product; a shell run only shown detects nothing */
    CHECK_STR(chk("a.py", "import os, torch\n"
                          "if 'A100' in torch.cuda.get_device_name(0):\n    pass\n"
                          "os.system('nvidia-smi')\n"),
              "");
    /* the file tells the vendors apart: torch.version.cuda is fine there */
    CHECK_STR(chk("a.py", "import torch\nif torch.version.hip:\n    x = 1\n"
                          "elif torch.version.cuda:\n    x = 2\n"),
              "");
}

TEST(rules_py_pt002)
{
    CHECK_STR(chk("a.py", "import torch\n"
                          "if torch.cuda.get_device_capability() >= (8, 0):\n    pass\n"
                          "major, minor = torch.cuda.get_device_capability(0)\n"
                          "use_fa3 = major == 9\n"
                          "big = torch.cuda.get_device_properties(0).major >= 8\n"
                          "kern = {'sm_90': 1}\n"
                          "if is_sm90():\n    pass\n"),
              "2:4 PT002 n; 4:16 PT002 w; 6:7 PT002 n; 7:9 PT002 w; 8:4 PT002 w");
    /* the gate's threshold decides: AMD reports major 9; names bound per function */
    CHECK_STR(chk("a.py", "import torch\n"
                          "def f():\n"
                          "    major, _ = torch.cuda.get_device_capability()\n"
                          "    return major in (10, 12)\n"
                          "def g():\n"
                          "    major, _ = torch.cuda.get_device_capability()\n"
                          "    return major < 9\n"
                          "def h(c):\n"
                          "    return torch.cuda.get_device_capability() != c\n"
                          "assert 'sm_75' in err\n"
                          "ok = is_smollm_available()\n"),
              "3:16 PT002 n; 6:16 PT002 w");
    CHECK_STR(chk("a.py", "import torch\n"
                          "if torch.version.hip:\n"
                          "    fast = 'gfx942' in torch.cuda.get_device_properties(0).gcnArchName\n"
                          "else:\n"
                          "    fast = torch.cuda.get_device_capability() >= (9, 0)\n"),
              "");
}

TEST(rules_py_pt003)
{
    CHECK_STR(chk("a.py", "import os\nfrom torch.utils.cpp_extension import load, load_inline\n"
                          "os.environ['TORCH_CUDA_ARCH_LIST'] = '8.0'\n"
                          "m = load(name='m', sources=['m.cu'], extra_cuda_cflags=['-O3', "
                          "'--use_fast_math'])\n"
                          "SRC = 'void f() { asm volatile(\"membar.gl;\"); }'\n"
                          "n = load_inline(name='n', cpp_sources='', cuda_sources=SRC)\n"),
              "3:12 PT003 n; 4:38 PT003 n; 4:65 BLD001 e; 6:43 PT003 w");
    CHECK_STR(chk("a.py", "import os\nos.environ['TORCH_CUDA_ARCH_LIST'] = '8.0'\n"
                          "os.environ['PYTORCH_ROCM_ARCH'] = 'gfx942'\n"),
              "");
}

TEST(rules_py_pt004)
{
    CHECK_STR(chk_only("ext.cu", "#include <torch/extension.h>\n"
                            "#include <ATen/cuda/CUDAContext.h>\n"
                            "void f(at::Tensor t) {\n"
                            "  auto s = at::cuda::getCurrentCUDAStream();\n"
                            "  auto *p = reinterpret_cast<__nv_bfloat16 *>(t.data_ptr());\n"
                            "  C10_CUDA_KERNEL_LAUNCH_CHECK();\n}\n",
              "PT"),
              "5:13 PT004");
    /* the APIs count in headers, which hipify may not process */
    CHECK_STR(chk_only("ext.cuh", "#include <torch/extension.h>\n"
                             "#include <ATen/cuda/CUDAContext.h>\n"
                             "void f(at::Tensor t) {\n"
                             "  auto s = at::cuda::getCurrentCUDAStream();\n"
                             "  C10_CUDA_KERNEL_LAUNCH_CHECK();\n}\n",
              "PT"),
              "4:22 PT004; 5:3 PT004");
    /* not an extension source */
    CHECK_STR(chk_only("plain.cu", "void f() { auto s = getCurrentCUDAStream(); }\n", "PT"), "");
}

TEST(rules_py_pt005)
{
    static const char ocp[] = "import torch\nw8 = w.to(torch.float8_e4m3fn)\n"
                              "y = torch._scaled_mm(w8, w8)\n";
    static const char fnuz[] = "import torch\nx8 = x.to(torch.float8_e5m2fnuz)\n"
                               "y = torch._scaled_mm(x8, x8)\n";
    CHECK_STR(chk("a.py", ocp), "2:11 PT005 e");
    CHECK_STR(chk("a.py", fnuz), "2:11 PT005 e");
    CHECK_STR(chk_t("a.py", ocp, "gfx950"), "");
    CHECK_STR(chk_t("a.py", fnuz, "gfx950"), "2:11 PT005 e");
    CHECK_STR(chk_t("a.py", ocp, "gfx942"), "2:11 PT005 e");
    CHECK_STR(chk_t("a.py", fnuz, "gfx942"), "");
    /* no hipBLASLt fp8 GEMM in the file: the dtype is only converted or stored */
    CHECK_STR(chk("a.py", "import torch\nw8 = w.to(torch.float8_e4m3fn)\n"), "2:11 PT005 n");
    CHECK_STR(chk("a.py", "import torch\ns8 = s.to(torch.float8_e8m0fnu)\n"), "");
    /* both formats present: the code chooses */
    CHECK_STR(chk("a.py", "import torch\n"
                          "FP8 = torch.float8_e4m3fnuz if fnuz else torch.float8_e4m3fn\n"),
              "");
}

/* ------------------------------------------------------------------ BLD */

TEST(rules_py_bld001)
{
    CHECK_STR(chk("Makefile", "NVCC ?= nvcc\n"
                              "FLAGS := -O3 -arch=sm_80 -gencode arch=compute_90,code=sm_90 "
                              "--use_fast_math -Xptxas -v # -lineinfo\n"
                              "k: k.cu\n\t$(NVCC) $(FLAGS) -o $@ $<\n"),
              "1:9 BLD001 e; 2:14 BLD001 e; 2:26 BLD001 e; 2:62 BLD001 e; 2:78 BLD001 e");
    CHECK_STR(chk("Makefile", "HIPCC ?= hipcc\nFLAGS := -O3 --offload-arch=gfx942 -ffast-math\n"
                              "k: k.hip\n\t$(HIPCC) $(FLAGS) -o $@ $<\n"),
              "");
    /* -arch with an AMD value, -lcuda outside any CUDA context */
    CHECK_STR(chk("build.sh", "cc -arch x86_64 -o a a.c -lcuda\n"), "");
}

TEST(rules_py_bld001_setup_py)
{
    CHECK_STR(chk("setup.py",
                  "from torch.utils.cpp_extension import CUDAExtension\n"
                  "import torch\n"
                  "if torch.version.hip:\n"
                  "    nvcc = ['-O3', '--offload-arch=gfx942']\n"
                  "else:\n"
                  "    nvcc = ['-O3', '--use_fast_math', '-gencode',\n"
                  "            'arch=compute_80,code=sm_80']\n"
                  "e = CUDAExtension('e', ['e.cu'], extra_compile_args={'nvcc': ['-arch', "
                  "'sm_90']})\n"),
              "8:64 BLD001 e");
}

TEST(rules_py_bld002)
{
    CHECK_STR(chk("CMakeLists.txt",
                  "project(demo LANGUAGES CXX CUDA)  # CUDA in a comment\n"
                  "find_package(CUDAToolkit REQUIRED)\n"
                  "set(CMAKE_CUDA_ARCHITECTURES 80)\n"
                  "target_link_libraries(k CUDA::cublas)\n"
                  "enable_language(CUDA)\n"
                  "#[[ cuda_add_library(x x.cu) ]]\n"
                  "set_source_files_properties(a.cu PROPERTIES LANGUAGE CUDA)\n"),
              /* one warning per file: the repeats are notes */
              "1:28 BLD002 w; 2:14 BLD002 n; 3:5 BLD002 n; 4:25 BLD002 n; 5:17 BLD002 n; "
              "7:54 BLD002 n");
    /* a project that already builds for HIP keeps its CUDA branch */
    CHECK_STR(chk("CMakeLists.txt",
                  "project(demo LANGUAGES CXX)\n"
                  "if(USE_CUDA)\n  enable_language(CUDA)\n"
                  "  set(CMAKE_CUDA_FLAGS \"--use_fast_math\")\n"
                  "else()\n  enable_language(HIP)\n"
                  "  set(CMAKE_HIP_ARCHITECTURES gfx90a gfx942)\nendif()\n"),
              "");
}

TEST(rules_py_bld003)
{
    CHECK_STR(chk("CMakeLists.txt",
                  "project(p LANGUAGES CXX HIP)\n"
                  "set(AMDGPU_TARGETS \"gfx90a;gfx940;native;sm_80;gfx9999;gfx942:xnack+\" "
                  "CACHE STRING \"\")\n"),
              "2:28 BLD003 w; 2:35 BLD003 w; 2:42 BLD003 e; 2:48 BLD003 w");
    CHECK_STR(chk("CMakeLists.txt", "project(p LANGUAGES CXX HIP)\nadd_library(k k.hip)\n"),
              "1:25 BLD003 w");
    /* list(APPEND ...), target properties, tests of the variable, lists from variables */
    CHECK_STR(chk("CMakeLists.txt",
                  "project(p LANGUAGES CXX HIP)\nlist(APPEND AMDGPU_TARGETS gfx90a native)\n"
                  "set_target_properties(k PROPERTIES HIP_ARCHITECTURES \"gfx941;gfx942\")\n"
                  "if(AMDGPU_TARGETS STREQUAL \"x\")\nendif()\n"),
              "2:35 BLD003 w; 3:55 BLD003 w");
    CHECK_STR(chk("CMakeLists.txt", "project(p LANGUAGES CXX HIP)\n"
                                    "set(CMAKE_HIP_ARCHITECTURES ${GPU_TARGETS})\n"),
              "");
    CHECK_STR(chk("CMakeLists.txt", "project(p LANGUAGES CXX HIP)\n"
                                    "set(CMAKE_HIP_ARCHITECTURES gfx90a gfx942 gfx950)\n"),
              "");
    CHECK_STR(chk("Dockerfile", "FROM rocm/pytorch\nENV PYTORCH_ROCM_ARCH=\"gfx90a;gfx941\"\n"
                                "RUN hipcc --amdgpu-target=gfx90a -o a a.hip\n"),
              "2:31 BLD003 w; 3:11 BLD003 w");
    CHECK_STR(chk("build.sh", "hipcc -O3 -o a a.hip\n"), "1:1 BLD003 w");
    CHECK_STR(chk("build.sh", "hipcc --offload-arch=gfx90a --offload-arch=gfx942 -o a a.hip\n"),
              "");
}

TEST(rules_py_build_suppressions)
{
    CHECK_STR(chk("CMakeLists.txt", "project(a CUDA) # hipport-ignore: BLD002\n"
                                    "# hipport-ignore: BLD001\nset(F \"-Xptxas -v\")\n"
                                    "set(G \"-lineinfo\")\n"),
              "4:8 BLD001 n");
    CHECK_STR(chk("build.sh", "nvcc a.cu  # hipport-ignore: BLD\nF='# not a comment' nvcc b.cu\n"),
              "2:21 BLD001 e");
}

TEST(rules_py_languages_claim_files)
{
    hp_run_opts r;
    hp_run_opts_init(&r);
    CHECK(hp_check_wants("k.py", &r));
    CHECK(hp_check_wants("setup.py", &r));
    CHECK(hp_check_wants("CMakeLists.txt", &r));
    CHECK(hp_check_wants("cmake/FindX.cmake", &r));
    CHECK(hp_check_wants("Makefile", &r));
    CHECK(hp_check_wants("Makefile.am", &r));
    CHECK(hp_check_wants("pyproject.toml", &r));
    CHECK(hp_check_wants("run.sh", &r));
    CHECK(hp_check_wants("Dockerfile.rocm", &r));
    CHECK(!hp_check_wants("README.md", &r));
    CHECK(!hp_check_wants("requirements.txt", &r));
}

TEST(rules_py_cpp_rules_stay_in_cpp)
{
    /* C++ plain-name rules (ASM003 __nanosleep, LIB001 cuDNN) do not fire on Python names */
    CHECK_STR(chk("a.py", "def f(h):\n    __nanosleep(10)\n    cudnnCreate(h)\n"), "");
    CHECK_STR(chk("CMakeLists.txt", "set(X __nanosleep)\n"), "");
}
