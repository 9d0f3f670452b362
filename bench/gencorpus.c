/* gencorpus.c: writes a synthetic CUDA project tree (or one large file) for the benchmarks.
 * The output depends only on the seed and the size: the same arguments give the same bytes
 * on every machine.
 *
 *   gencorpus [-s SEED] [-m MB] -o DIR     a tree of about MB megabytes under DIR
 *   gencorpus [-s SEED] [-m MB] -f FILE    one .cu file of about MB megabytes
 *
 * What a tree holds follows what CUDA projects hold (training codes, sample collections,
 * PyTorch extensions): by bytes about 35% .cu (kernels, launchers and host code), 15% .cuh
 * (device helpers and templated kernels), 20% headers (.h/.hpp: declarations, structs,
 * inline host code, include guards) and 30% host C++ (.cpp/.cc: mostly plain C++, some of it
 * calling the CUDA runtime, cuBLAS or PyTorch's C++ API). About one line in eight is a
 * comment (licence blocks, doc comments, remarks), one in ten is blank, and one identifier
 * in twenty to forty is a CUDA name. File sizes are log-normal (median 12 KB)
 * with a few files (3 in 1000) of 0.3 to 1.3 MB (generated or amalgamated sources). */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------------ random numbers */

static uint64_t rng_state;

static uint64_t rnd64(void)
{
    /* splitmix64 */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* 0 <= r < n */
static int rnd(int n)
{
    return n <= 1 ? 0 : (int)(rnd64() % (uint64_t)n);
}

/* true with probability pct/100 */
static int chance(int pct)
{
    return rnd(100) < pct;
}

/* uniform in [0, 1) */
static double unit(void)
{
    return (double)(rnd64() >> 11) * (1.0 / 9007199254740992.0);
}

/* about normal (mean 0, deviation 1): the sum of twelve uniforms, so that no libm function
 * (whose last bit may differ between C libraries) decides a size */
static double normal(void)
{
    double s = 0;
    for (int i = 0; i < 12; i++)
        s += unit();
    return s - 6.0;
}

#define PICK(arr) (arr[rnd((int)(sizeof arr / sizeof *arr))])

/* ------------------------------------------------------------------ output buffer */

static char *ob;
static size_t olen, ocap;
static int ind; /* indent width of the current file: 2 or 4 */

static void out(const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(ob + olen, ocap - olen, fmt, ap);
        va_end(ap);
        if (n < 0)
            exit(1);
        if ((size_t)n < ocap - olen) {
            olen += (size_t)n;
            return;
        }
        ocap = ocap * 2 + (size_t)n + 4096;
        ob = realloc(ob, ocap);
        if (!ob) {
            fprintf(stderr, "gencorpus: out of memory\n");
            exit(1);
        }
    }
}

/* indentation for nesting level d */
static void tab(int d)
{
    out("%*s", d * ind, "");
}

/* ------------------------------------------------------------------ vocabulary */

static const char *const words[] = {
    "layer", "norm", "attn", "softmax", "gemm", "fused", "bias", "residual", "encoder",
    "decoder", "tile", "row", "col", "reduce", "scan", "sort", "hist", "conv", "pool", "embed",
    "rope", "gelu", "relu", "adam", "grad", "weight", "scale", "mask", "token", "batch", "head",
    "block", "lane", "chunk", "stride", "offset", "index", "buffer", "cache", "state", "kv",
    "query", "key", "value", "matmul", "transpose", "copy", "fill", "init", "update", "compute",
    "apply", "forward", "backward", "quant", "dequant", "pack", "unpack", "mean", "var", "sum",
    "max", "min", "loss", "logits", "prob", "sample", "seed", "params", "config", "desc",
    "plan", "workspace", "timer", "bench", "util", "helper", "parse", "load", "save", "image",
    "pixel", "filter", "kernel", "grid", "mesh", "particle", "force", "energy", "spectrum",
    "signal", "matrix", "vector", "sparse", "dense", "graph", "edge", "node", "queue", "count",
};

static const char *const orgs[] = {
    "The Authors", "NVIDIA CORPORATION & AFFILIATES", "Meta Platforms, Inc. and affiliates",
    "Tri Dao", "Andrej Karpathy", "The Apache Software Foundation", "Microsoft Corporation",
    "Google LLC", "the project contributors", "Intel Corporation",
};

static const char *const licence_lines[] = {
    "Licensed under the Apache License, Version 2.0 (the \"License\");",
    "you may not use this file except in compliance with the License.",
    "You may obtain a copy of the License at",
    "    http://www.apache.org/licenses/LICENSE-2.0",
    "Unless required by applicable law or agreed to in writing, software",
    "distributed under the License is distributed on an \"AS IS\" BASIS,",
    "WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.",
    "See the License for the specific language governing permissions and",
    "limitations under the License.",
    "Redistribution and use in source and binary forms, with or without",
    "modification, are permitted provided that the following conditions are met:",
    "This source code is licensed under the BSD-style license found in the",
    "LICENSE file in the root directory of this source tree.",
};

static const char *const remarks[] = {
    "one thread per output element",
    "grid-stride loop so any launch size works",
    "TODO: vectorize the loads (float4)",
    "the block reduces into shared memory first",
    "keep in sync with the host-side layout",
    "avoid bank conflicts by padding the tile",
    "numerically stable: subtract the max first",
    "accumulate in fp32 even for half inputs",
    "see the paper, section 3.2",
    "this path is only taken for small batches",
    "NOTE: the caller owns the buffer",
    "FIXME: handle n not divisible by the block size",
    "bounds check: the last block may be partial",
    "coalesced: consecutive threads read consecutive addresses",
    "two passes: partial sums per block, then a final reduction",
    "cudaMemcpy is synchronous here on purpose",
    "the kernel is launched on the current stream",
};

static const char *const sys_headers[] = {
    "cstdio", "cstdlib", "cstring", "cmath", "cstdint", "vector", "string", "memory",
    "algorithm", "stdexcept", "iostream", "sstream", "unordered_map", "utility", "cassert",
    "chrono", "functional", "array", "numeric", "limits",
};

static const char *const cuda_headers[] = {
    "cuda_runtime.h", "cuda.h", "cuda_fp16.h", "cuda_bf16.h", "cublas_v2.h",
    "cooperative_groups.h", "curand_kernel.h", "cuda_runtime_api.h", "device_launch_parameters.h",
    "cub/cub.cuh", "thrust/device_vector.h", "cusparse.h", "cufft.h", "nvtx3/nvToolsExt.h",
};

static const char *const rt_calls[] = {
    "cudaDeviceSynchronize()", "cudaGetLastError()", "cudaStreamSynchronize(stream)",
    "cudaSetDevice(device)", "cudaEventRecord(start, stream)", "cudaEventRecord(stop, stream)",
    "cudaEventSynchronize(stop)", "cudaPeekAtLastError()", "cudaFreeHost(host_buf)",
    "cudaStreamCreate(&stream)", "cudaStreamDestroy(stream)", "cudaEventCreate(&start)",
    "cudaEventDestroy(stop)", "cudaMemGetInfo(&free_bytes, &total_bytes)",
    "cudaGetDeviceCount(&num_devices)", "cudaGetDevice(&device)",
};

static const char *const math_fns[] = {
    "expf", "__expf", "rsqrtf", "sqrtf", "fmaxf", "fminf", "tanhf", "logf", "fabsf", "__fdividef",
};

static const char *const ctypes[] = {"float", "float", "float", "int", "half", "double",
                                     "__half", "__nv_bfloat16", "int64_t", "float"};

/* ------------------------------------------------------------------ names */

static char names[64][48];
static int nnames;

static const char *ident(void)
{
    static char b[8][64];
    static int k;
    char *s = b[k++ & 7];
    int parts = 1 + rnd(3);
    s[0] = 0;
    int camel = chance(30);
    for (int p = 0; p < parts; p++) {
        const char *w = PICK(words);
        size_t n = strlen(s);
        if (p && !camel)
            s[n++] = '_';
        snprintf(s + n, 64 - n, "%s", w);
        if (p && camel && s[n] >= 'a' && s[n] <= 'z')
            s[n] = (char)(s[n] - 'a' + 'A');
    }
    return s;
}

/* a name remembered for this file (kernels that the launchers call) */
static const char *remember(const char *suffix)
{
    if (nnames == 64)
        nnames = 0;
    snprintf(names[nnames], sizeof names[nnames], "%s%s", ident(), suffix);
    return names[nnames++];
}

/* a local of device code: kernels and device functions declare all of them (LOCALS) */
static const char *var(void)
{
    static const char *const v[] = {"x", "y", "acc", "val", "tmp", "sum"};
    return PICK(v);
}

#define LOCALS "float acc = 0.0f, x = 0.0f, y = 0.0f, val = 0.0f, tmp = 0.0f, sum = 0.0f;\n"
/* the parameters every statement of device code may use */
#define DEVICE_PARAMS "const float *__restrict__ in, float *__restrict__ out, const float " \
                      "*weight,\n        const float *bias, float scale, int n, int K, int N"

/* ------------------------------------------------------------------ comments */

static void licence(void)
{
    int year = 2015 + rnd(10);
    if (chance(30)) {
        out("// Copyright (c) %d %s. All rights reserved.\n", year, PICK(orgs));
        out("// SPDX-License-Identifier: %s\n\n", chance(50) ? "Apache-2.0" : "BSD-3-Clause");
        return;
    }
    out("/*\n * Copyright (c) %d, %s. All rights reserved.\n *\n", year, PICK(orgs));
    int n = 4 + rnd(9);
    int first = rnd(4);
    for (int i = 0; i < n; i++)
        out(" * %s\n", licence_lines[(first + i) % (int)(sizeof licence_lines / sizeof
                                                          *licence_lines)]);
    out(" */\n\n");
}

static void doc_comment(int d)
{
    int style = rnd(3);
    int lines = 1 + rnd(4);
    if (style == 0) {
        tab(d);
        out("/**\n");
        for (int i = 0; i < lines; i++) {
            tab(d);
            out(" * %s %s of the %s, %s.\n", i ? "Then" : "Computes", ident(), ident(),
                PICK(remarks));
        }
        tab(d);
        out(" * @param %s input, device memory\n", ident());
        tab(d);
        out(" * @return nothing; errors are checked by the caller\n");
        tab(d);
        out(" */\n");
    } else {
        for (int i = 0; i < lines; i++) {
            tab(d);
            out("// %s %s: %s\n", i ? "and" : "Computes the", ident(), PICK(remarks));
        }
    }
}

static void trailing_comment(void)
{
    if (chance(12))
        out("  // %s", PICK(remarks));
    out("\n");
}

/* ------------------------------------------------------------------ preprocessor */

static void includes(int kind)
{
    /* kind: 0 .cu, 1 .cuh, 2 .h, 3 .cpp */
    int ncuda = kind == 0 ? 1 + rnd(4) : kind == 1 ? rnd(3) : kind == 2 ? rnd(2) : rnd(2);
    if (kind == 0 || chance(50))
        out("#include <cuda_runtime.h>\n");
    for (int i = 0; i < ncuda; i++)
        out("#include <%s>\n", PICK(cuda_headers));
    int nsys = 1 + rnd(kind == 3 ? 7 : 4);
    for (int i = 0; i < nsys; i++)
        out("#include <%s>\n", PICK(sys_headers));
    int nproj = rnd(5);
    for (int i = 0; i < nproj; i++)
        out("#include \"%s/%s.%s\"\n", PICK(words), ident(), chance(40) ? "cuh" : "h");
    out("\n");
}

static void check_macro(void)
{
    static const char *const names_[] = {"CUDA_CHECK", "cudaCheck", "CHECK_CUDA", "CUDA_CALL",
                                         "checkCudaErrors", "C10_CUDA_CHECK_LOCAL"};
    const char *m = PICK(names_);
    out("#define %s(call)                                                          \\\n", m);
    out("    do {                                                                       \\\n");
    out("        cudaError_t err_ = (call);                                             \\\n");
    out("        if (err_ != cudaSuccess) {                                             \\\n");
    out("            fprintf(stderr, \"CUDA error %%s at %%s:%%d\\n\",                       \\\n");
    out("                    cudaGetErrorString(err_), __FILE__, __LINE__);             \\\n");
    out("            exit(EXIT_FAILURE);                                                \\\n");
    out("        }                                                                      \\\n");
    out("    } while (0)\n\n");
}

static void macros(void)
{
    if (chance(50))
        check_macro();
    if (chance(40))
        out("#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))\n");
    if (chance(25))
        out("#define WARP_SIZE 32\n");
    if (chance(20))
        out("#define FULL_MASK 0xffffffff\n");
    if (chance(30))
        out("#define %s_BLOCK %d\n", PICK(words), 64 << rnd(4));
    if (chance(20)) {
        out("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= %d\n", chance(50) ? 800 : 700);
        out("#define %s_HAS_FAST_PATH 1\n#else\n#define %s_HAS_FAST_PATH 0\n#endif\n", "USE",
            "USE");
    }
    if (chance(15))
        out("#if CUDA_VERSION >= %d\n#define HAS_%s 1\n#endif\n", 11000 + 10 * rnd(80), "BF16");
    out("\n");
}

/* ------------------------------------------------------------------ statements */

static void stmt(int d, int device);

static void expr(void)
{
    switch (rnd(8)) {
    case 0: out("%s * scale + bias[idx]", var()); break;
    case 1: out("%s(%s) * %s", PICK(math_fns), var(), var()); break;
    case 2: out("in[idx] - %s", var()); break;
    case 3: out("(%s + %s) * 0.5f", var(), var()); break;
    case 4: out("%s[row * n + col]", chance(50) ? "in" : "weight"); break;
    case 5: out("%s > 0.0f ? %s : 0.0f", var(), var()); break;
    case 6: out("%s * %s + %s", var(), var(), var()); break;
    default: out("static_cast<float>(%s) / n", var()); break;
    }
}

static void stmt(int d, int device)
{
    if (chance(10)) {
        tab(d);
        out("// %s\n", PICK(remarks));
    }
    tab(d);
    switch (rnd(device ? 12 : 10)) {
    case 0:
    case 1:
        out("%s %s = ", chance(70) ? "float" : "auto", ident());
        expr();
        out(";");
        trailing_comment();
        break;
    case 2:
        out("%s += ", var());
        expr();
        out(";");
        trailing_comment();
        break;
    case 3:
        out("if (idx < n) {\n");
        stmt(d + 1, device);
        tab(d);
        out("}\n");
        break;
    case 4:
        out("for (int k = 0; k < %s; ++k) {\n", chance(50) ? "n" : "K");
        tab(d + 1);
        out("acc += in[row * K + k] * weight[k * N + col];\n");
        if (chance(30))
            stmt(d + 1, device);
        tab(d);
        out("}\n");
        break;
    case 5:
        out("out[idx] = ");
        expr();
        out(";\n");
        break;
    case 6:
        out("const int %s = %s * %d + %s;\n", ident(), var(), 1 + rnd(64), var());
        break;
    case 7:
        out("%s = %s(%s, %s);\n", var(), chance(50) ? "fmaxf" : "std::max", var(), var());
        break;
    case 8:
        out("if (%s == nullptr) {\n", chance(50) ? "weight" : "bias");
        tab(d + 1);
        out("return;\n");
        tab(d);
        out("}\n");
        break;
    case 9:
        out("out[idx + %d] = %s;\n", rnd(4), var());
        break;
    case 10:
        out("%s = __shfl_xor_sync(0xffffffff, %s, %d);\n", var(), var(), 1 << rnd(5));
        break;
    default:
        out("__syncthreads();\n");
        break;
    }
}

/* ------------------------------------------------------------------ device code */

static void device_fn(void)
{
    const char *t = PICK(ctypes);
    if (chance(40))
        doc_comment(0);
    out("__device__ %s%s %s(%s a, %s b,\n        " DEVICE_PARAMS ")\n{\n",
        chance(60) ? "__forceinline__ " : "", t, remember(""), t, t);
    tab(1);
    out("const int idx = threadIdx.x, row = blockIdx.y, col = idx %% 32;\n");
    tab(1);
    out(LOCALS);
    int n = 1 + rnd(4);
    for (int i = 0; i < n; i++)
        stmt(1, 1);
    tab(1);
    out("return a * b;\n}\n\n");
}

static void warp_reduce(void)
{
    out("template <typename T>\n__device__ __forceinline__ T warp_reduce_%s(T val)\n{\n",
        PICK(words));
    tab(1);
    out("#pragma unroll\n");
    tab(1);
    out("for (int offset = %s / 2; offset > 0; offset /= 2)\n", chance(50) ? "32" : "warpSize");
    tab(2);
    out("val += __shfl_down_sync(0xffffffff, val, offset);\n");
    tab(1);
    out("return val;\n}\n\n");
}

static const char *kernel(int templated)
{
    const char *name = remember(chance(50) ? "_kernel" : "Kernel");
    if (chance(60))
        doc_comment(0);
    if (templated)
        out("template <typename T, int BLOCK_SIZE>\n");
    const char *t = templated ? "T" : PICK(ctypes);
    out("__global__ void %s%s(const %s *__restrict__ in, %s *__restrict__ out,\n",
        chance(30) ? "__launch_bounds__(256) " : "", name, t, t);
    tab(4);
    out("const float *weight, const float *bias, float scale, int n, int K, int N)\n{\n");
    if (chance(50)) {
        tab(1);
        out("__shared__ float tile[%d];\n", 256 << rnd(2));
    }
    tab(1);
    out("const int idx = blockIdx.x * blockDim.x + threadIdx.x;\n");
    tab(1);
    out("const int row = blockIdx.y, col = threadIdx.x %% %s;\n", chance(50) ? "32" : "warpSize");
    tab(1);
    out(LOCALS);
    if (chance(50)) {
        tab(1);
        out("for (int i = idx; i < n; i += blockDim.x * gridDim.x) {\n");
        int n = 2 + rnd(5);
        for (int i = 0; i < n; i++)
            stmt(2, 1);
        tab(1);
        out("}\n");
    }
    int n = 3 + rnd(10);
    for (int i = 0; i < n; i++)
        stmt(1, 1);
    if (chance(40)) {
        tab(1);
        out("if (threadIdx.x %% 32 == 0)\n");
        tab(2);
        out("atomicAdd(&out[blockIdx.x], acc);\n");
    }
    out("}\n\n");
    return name;
}

/* ------------------------------------------------------------------ host code */

static void launcher(const char *k, int templated)
{
    if (chance(30))
        doc_comment(0);
    out("void launch_%s(const float *in, float *out, const float *weight, const float *bias,\n",
        k);
    tab(4);
    out("int n, cudaStream_t stream)\n{\n");
    int bs = 64 << rnd(3);
    tab(1);
    out("dim3 block(%d);\n", bs);
    tab(1);
    out("dim3 grid((n + %d - 1) / %d%s);\n", bs, bs, chance(30) ? ", batch_size" : "");
    if (chance(30)) {
        tab(1);
        out("size_t smem = %d * sizeof(float);\n", bs);
    }
    tab(1);
    if (templated)
        out("%s<float, %d><<<grid, block, 0, stream>>>(in, out, weight, bias, 1.0f, n, n, n);\n",
            k, bs);
    else if (chance(50))
        out("%s<<<grid, block, 0, stream>>>(in, out, weight, bias, 1.0f, n, n, n);\n", k);
    else
        out("%s<<<grid, block>>>(in, out, weight, bias, /*scale=*/1.0f, n, n, n);\n", k);
    tab(1);
    out("CUDA_CHECK(cudaGetLastError());\n}\n\n");
}

static void host_runtime(void)
{
    if (chance(40))
        doc_comment(0);
    const char *f = remember("");
    out("int %s(int n, int iters)\n{\n", f);
    tab(1);
    out("float *d_in = nullptr, *d_out = nullptr;\n");
    tab(1);
    out("std::vector<float> h_in(n), h_out(n);\n");
    tab(1);
    out("for (int i = 0; i < n; ++i)\n");
    tab(2);
    out("h_in[i] = static_cast<float>(rand()) / RAND_MAX;\n");
    tab(1);
    out("CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));\n");
    tab(1);
    out("CUDA_CHECK(cudaMalloc((void **)&d_out, n * sizeof(float)));\n");
    tab(1);
    out("CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), "
        "cudaMemcpyHostToDevice));\n");
    tab(1);
    out("cudaStream_t stream;\n");
    tab(1);
    out("cudaEvent_t start, stop;\n");
    int n = 2 + rnd(5);
    for (int i = 0; i < n; i++) {
        tab(1);
        out("CUDA_CHECK(%s);", PICK(rt_calls));
        trailing_comment();
    }
    if (chance(40)) {
        tab(1);
        out("cudaDeviceProp prop;\n");
        tab(1);
        out("cudaGetDeviceProperties(&prop, 0);\n");
        tab(1);
        out("printf(\"device %%s, %%d SMs, warp size %%d\\n\", prop.name, "
            "prop.multiProcessorCount, prop.warpSize);\n");
    }
    tab(1);
    out("float ms = 0.0f;\n");
    tab(1);
    out("cudaEventElapsedTime(&ms, start, stop);\n");
    tab(1);
    out("CUDA_CHECK(cudaMemcpyAsync(h_out.data(), d_out, n * sizeof(float), "
        "cudaMemcpyDeviceToHost, stream));\n");
    tab(1);
    out("printf(\"%s: %%.3f ms per iteration\\n\", ms / iters);\n", f);
    tab(1);
    out("cudaFree(d_in);\n");
    tab(1);
    out("cudaFree(d_out);\n");
    tab(1);
    out("return 0;\n}\n\n");
}

static void cublas_fn(void)
{
    out("void %s(cublasHandle_t handle, const float *A, const float *B, float *C, int m, "
        "int n, int k)\n{\n", remember("_gemm"));
    tab(1);
    out("const float alpha = 1.0f, beta = 0.0f;\n");
    tab(1);
    out("cublasStatus_t st = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_%s, m, n, k, &alpha, A, "
        "m, B, k, &beta, C, m);\n", chance(50) ? "N" : "T");
    tab(1);
    out("if (st != CUBLAS_STATUS_SUCCESS)\n");
    tab(2);
    out("throw std::runtime_error(\"cublasSgemm failed\");\n}\n\n");
}

static void torch_fn(void)
{
    const char *k = remember("_cuda");
    out("torch::Tensor %s(torch::Tensor input, torch::Tensor weight, double eps)\n{\n", k);
    tab(1);
    out("TORCH_CHECK(input.is_cuda(), \"input must be a CUDA tensor\");\n");
    tab(1);
    out("TORCH_CHECK(input.is_contiguous(), \"input must be contiguous\");\n");
    tab(1);
    out("const at::cuda::OptionalCUDAGuard device_guard(device_of(input));\n");
    tab(1);
    out("cudaStream_t stream = at::cuda::getCurrentCUDAStream();\n");
    tab(1);
    out("auto output = torch::empty_like(input);\n");
    tab(1);
    out("const int n = input.numel();\n");
    tab(1);
    out("AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), \"%s\", [&] {\n", k);
    tab(2);
    out("%s_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(\n", k);
    tab(3);
    out("input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);\n");
    tab(1);
    out("});\n");
    tab(1);
    out("C10_CUDA_KERNEL_LAUNCH_CHECK();\n");
    tab(1);
    out("return output;\n}\n\n");
}

static void cpp_fn(void)
{
    if (chance(50))
        doc_comment(0);
    const char *f = remember("");
    out("static %s %s(const std::vector<%s> &items, const std::string &%s)\n{\n",
        chance(50) ? "int" : "size_t", f, chance(50) ? "int" : "std::string", ident());
    tab(1);
    out("size_t count = 0;\n");
    tab(1);
    out("for (size_t i = 0; i < items.size(); ++i) {\n");
    int n = 1 + rnd(4);
    for (int i = 0; i < n; i++) {
        tab(2);
        switch (rnd(5)) {
        case 0: out("if (items[i] == items[0])\n"); tab(3); out("continue;\n"); break;
        case 1: out("count += %d;", 1 + rnd(9)); trailing_comment(); break;
        case 2: out("std::ostringstream os;\n"); tab(2); out("os << \"%s \" << i;\n", ident());
            break;
        case 3: out("switch (i %% 3) {\n"); tab(2); out("case 0: ++count; break;\n"); tab(2);
            out("default: break;\n"); tab(2); out("}\n"); break;
        default: out("assert(i < items.size());\n"); break;
        }
    }
    tab(1);
    out("}\n");
    tab(1);
    out("return count;\n}\n\n");
}

static void cpp_class(void)
{
    const char *c = ident();
    char cls[64];
    snprintf(cls, sizeof cls, "%c%s", c[0] >= 'a' && c[0] <= 'z' ? c[0] - 'a' + 'A' : c[0],
             c + 1);
    if (chance(60))
        doc_comment(0);
    out("class %s {\npublic:\n", cls);
    tab(1);
    out("explicit %s(int capacity) : capacity_(capacity), size_(0) {}\n", cls);
    tab(1);
    out("~%s() = default;\n\n", cls);
    int n = 2 + rnd(4);
    for (int i = 0; i < n; i++) {
        tab(1);
        out("%s %s(%s %s) %s{\n", chance(50) ? "int" : "void", ident(),
            chance(50) ? "int" : "const std::string &", var(), chance(30) ? "const " : "");
        tab(2);
        out("%s;\n", chance(50) ? "size_ += 1" : "return");
        tab(1);
        out("}\n");
    }
    out("\nprivate:\n");
    tab(1);
    out("int capacity_;\n");
    tab(1);
    out("int size_;\n");
    tab(1);
    out("std::vector<float> %s_;\n};\n\n", ident());
}

static void struct_decl(void)
{
    if (chance(50))
        doc_comment(0);
    out("struct %s {\n", ident());
    int n = 2 + rnd(6);
    for (int i = 0; i < n; i++) {
        tab(1);
        out("%s %s;", PICK(ctypes), ident());
        trailing_comment();
    }
    out("};\n\n");
    if (chance(30)) {
        out("enum class %sMode { kDefault, kFast, kAccurate };\n\n", PICK(words));
    }
}

static void decls(void)
{
    int n = 2 + rnd(6);
    for (int i = 0; i < n; i++) {
        if (chance(30))
            out("// %s\n", PICK(remarks));
        out("void %s(const float *in, float *out, int n, cudaStream_t stream%s);\n", ident(),
            chance(30) ? " = 0" : "");
    }
    out("\n");
}

static void main_fn(void)
{
    out("int main(int argc, char **argv)\n{\n");
    tab(1);
    out("int n = argc > 1 ? atoi(argv[1]) : 1 << 20;\n");
    tab(1);
    out("int device = 0;\n");
    tab(1);
    out("CUDA_CHECK(cudaSetDevice(device));\n");
    if (nnames) {
        tab(1);
        out("%s(n, 10);\n", names[rnd(nnames)]);
    }
    tab(1);
    out("CUDA_CHECK(cudaDeviceReset());\n");
    tab(1);
    out("return 0;\n}\n");
}

/* ------------------------------------------------------------------ files */

enum { K_CU, K_CUH, K_H, K_CPP };

/* Appends roughly `size` bytes of a file of this kind to the buffer. */
static void file_body(int kind, size_t size, const char *guard)
{
    size_t start = olen;
    nnames = 0;
    ind = chance(80) ? 4 : 2;
    licence();
    int guarded = 0;
    if (guard) {
        if (chance(50)) {
            out("#pragma once\n\n");
        } else {
            out("#ifndef %s\n#define %s\n\n", guard, guard);
            guarded = 1;
        }
    }
    includes(kind);
    if (kind != K_CPP || chance(30))
        macros();
    int ns = chance(40);
    if (ns)
        out("namespace %s {\n\n", PICK(words));
    while (olen - start < size) {
        int r = rnd(100);
        switch (kind) {
        case K_CU:
            if (r < 12)
                device_fn();
            else if (r < 17)
                warp_reduce();
            else if (r < 60) {
                int t = chance(25);
                const char *k = kernel(t);
                if (chance(80))
                    launcher(k, t);
            } else if (r < 75)
                host_runtime();
            else if (r < 80)
                cublas_fn();
            else if (r < 86)
                torch_fn();
            else if (r < 94)
                cpp_fn();
            else
                struct_decl();
            break;
        case K_CUH:
            if (r < 35)
                device_fn();
            else if (r < 45)
                warp_reduce();
            else if (r < 80)
                kernel(chance(60));
            else if (r < 90)
                struct_decl();
            else
                decls();
            break;
        case K_H:
            if (r < 35)
                struct_decl();
            else if (r < 60)
                decls();
            else if (r < 80)
                cpp_class();
            else if (r < 90)
                cpp_fn();
            else
                device_fn();
            break;
        default:
            if (r < 40)
                cpp_fn();
            else if (r < 65)
                cpp_class();
            else if (r < 80)
                host_runtime();
            else if (r < 85)
                cublas_fn();
            else if (r < 92)
                torch_fn();
            else
                struct_decl();
            break;
        }
        if (chance(30))
            out("\n");
    }
    if (ns)
        out("}  // namespace\n\n");
    if ((kind == K_CU || kind == K_CPP) && chance(20))
        main_fn();
    if (guarded)
        out("#endif  // %s\n", guard);
}

/* log-normal: median 12 KB, e^(deviation 1); computed as 12000 * 2^(k/8) by products only */
static size_t file_size(void)
{
    if (rnd(1000) < 3)
        return (size_t)(300000 + rnd(1000000));
    double z = normal() * 1.4426950408889634 * 8; /* in eighths of a binary octave */
    int k = (int)(z < 0 ? z - 0.5 : z + 0.5);
    double s = 12000;
    for (int i = 0; i < (k < 0 ? -k : k); i++)
        s = k < 0 ? s / 1.0905077326652577 : s * 1.0905077326652577;
    if (s < 600)
        s = 600;
    if (s > 400000)
        s = 400000;
    return (size_t)s;
}

static void mkdirs(const char *path)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(tmp, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "gencorpus: cannot create '%s': %s\n", tmp, strerror(errno));
            exit(1);
        }
        *p = '/';
    }
    if (mkdir(tmp, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "gencorpus: cannot create '%s': %s\n", tmp, strerror(errno));
        exit(1);
    }
}

static void write_out(const char *path)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(ob, 1, olen, f) != olen || fclose(f) != 0) {
        fprintf(stderr, "gencorpus: cannot write '%s': %s\n", path, strerror(errno));
        exit(1);
    }
    olen = 0;
}

static void gen_tree(const char *dir, double mb)
{
    static const char *const subdirs[] = {"src", "kernels", "include", "csrc", "tests",
                                          "tools", "samples", "ops", "layers", "common"};
    static const char *const ext_cpp[] = {"cpp", "cpp", "cc", "cxx"};
    static const char *const ext_h[] = {"h", "h", "hpp", "hh"};
    size_t target = (size_t)(mb * 1e6), total = 0;
    long long files = 0;
    int project = 0;
    while (total < target) {
        char proj[256];
        snprintf(proj, sizeof proj, "%s/p%02d-%s", dir, project++, ident());
        int nfiles = 60 + rnd(240);
        char sub[4][512];
        int nsub = 2 + rnd(3);
        for (int i = 0; i < nsub; i++) {
            if (chance(30))
                snprintf(sub[i], sizeof sub[i], "%s/%s/%s", proj, PICK(subdirs), PICK(words));
            else
                snprintf(sub[i], sizeof sub[i], "%s/%s", proj, PICK(subdirs));
            mkdirs(sub[i]);
        }
        for (int f = 0; f < nfiles && total < target; f++) {
            int r = rnd(100);
            int kind = r < 35 ? K_CU : r < 50 ? K_CUH : r < 70 ? K_H : K_CPP;
            const char *ext = kind == K_CU ? "cu" : kind == K_CUH ? "cuh"
                            : kind == K_H ? PICK(ext_h) : PICK(ext_cpp);
            char base[96];
            snprintf(base, sizeof base, "%s", ident());
            char path[1024];
            snprintf(path, sizeof path, "%s/%s_%d.%s", sub[rnd(nsub)], base, f, ext);
            char guard[128] = {0};
            if (kind == K_CUH || kind == K_H) {
                snprintf(guard, sizeof guard, "%s_%d_H_", base, f);
                for (char *p = guard; *p; p++)
                    if (*p >= 'a' && *p <= 'z')
                        *p = (char)(*p - 'a' + 'A');
            }
            file_body(kind, file_size(), guard[0] ? guard : NULL);
            total += olen;
            files++;
            write_out(path);
        }
    }
    fprintf(stderr, "gencorpus: %lld files, %.1f MB in %d projects under %s\n", files,
            (double)total / 1e6, project, dir);
}

static void gen_file(const char *path, double mb)
{
    size_t target = (size_t)(mb * 1e6);
    file_body(K_CU, target, NULL);
    size_t n = olen;
    write_out(path);
    fprintf(stderr, "gencorpus: %s, %.1f MB\n", path, (double)n / 1e6);
}

int main(int argc, char **argv)
{
    uint64_t seed = 1;
    double mb = 50;
    const char *dir = NULL, *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc)
            mb = strtod(argv[++i], NULL);
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (strcmp(argv[i], "-f") == 0 && i + 1 < argc)
            file = argv[++i];
        else {
            fprintf(stderr, "usage: gencorpus [-s SEED] [-m MB] (-o DIR | -f FILE)\n");
            return 2;
        }
    }
    if ((!dir) == (!file) || mb <= 0) {
        fprintf(stderr, "usage: gencorpus [-s SEED] [-m MB] (-o DIR | -f FILE)\n");
        return 2;
    }
    rng_state = seed * 0x2545f4914f6cdd1dull + 1;
    ocap = 1 << 20;
    ob = malloc(ocap);
    if (!ob)
        return 1;
    if (dir) {
        mkdirs(dir);
        gen_tree(dir, mb);
    } else {
        gen_file(file, mb);
    }
    free(ob);
    return 0;
}
