#!/bin/sh
# gen-classes.sh: writes the files of the scaling classes, the shapes that once cost more than
# linear time (bench/scaling.sh times them), each at a size factor K (1, 2, 4, ...):
#
#   sh bench/gen-classes.sh DIR K        writes DIR/<class>.<ext> for every class
#
#   defines   a .cu whose 10000*K object-like macros (a full warp mask every fourth) are each
#             named by a shuffle of a kernel: the warp-mask classifier's macro look-ups
#   glheader  a .cu including glext.h, a header of 6000*K #defines (an OpenGL extension
#             header's shape), with shuffles on a mask of the header and on a parameter
#   launches  a .cu with one host function of 10000*K kernel launches
#   tileshfl  a .cu whose kernel declares one cooperative-groups tile and shuffles a struct
#             through it 5000*K times (each shuffle's object is looked up back to its
#             declaration, past every earlier use)
#   decls     a .h of 5000*K function declarations with CUDA types in their parameters, each
#             under an #ifndef of its own, every tenth name declared twice (an API header's
#             shape: the overloads HIP's names would merge are compared)
#   configs   a .py with a Triton autotune list of 1000*K triton.Config(...) entries, some
#             over AMD's workgroup (num_warps=32) or gfx950's LDS (the rules that weigh a
#             config by its siblings)
#   python    a .py of about 2*K MB: classes, functions, imports, calls, strings, comments
#   pyline    a .py whose one logical line (a dict literal) holds 5000*K entries with calls
#   pyelif    a .py with an if/elif chain of 2000*K branches, each calling torch.cuda
#   pyimport  a .py with 3000*K import aliases, each used by a call
#   pysetup   a setup.py whose one logical line is a dict of 5000*K entries, each a call with
#             flag strings (the build rules' tests of each string: compared? in a flag list?)
#
# The same bytes for the same K on any machine (awk, no randomness).
set -u
[ $# -eq 2 ] || { echo "usage: gen-classes.sh DIR K" >&2; exit 2; }
D=$1 K=$2
mkdir -p "$D/glheader" "$D/pysetup" || exit 2

awk -v n=$((10000 * K)) 'BEGIN {
    print "#include <cuda_runtime.h>"
    for (i = 0; i < n; i++)
        if (i % 4 == 0) printf "#define MASK_%d 0xffffffff\n", i
        else printf "#define VAL_%d (%d + 1)\n", i, i
    print "__global__ void k(float *p, int w) {"
    print "    float v = p[threadIdx.x];"
    for (i = 0; i < n; i++)
        if (i % 4 == 0) printf "    v += __shfl_down_sync(MASK_%d, v, %d);\n", i, i % 32
        else printf "    v += __shfl_xor_sync(VAL_%d, v, 1);\n", i
    print "    p[threadIdx.x] = v;"
    print "}"
}' > "$D/defines.cu"

awk -v n=$((6000 * K)) 'BEGIN {
    print "#ifndef GLEXT_H"
    print "#define GLEXT_H"
    for (i = 0; i < n; i++) {
        if (i % 3 == 0) printf "#define GL_EXT_CONST_%d 0x%X\n", i, 32768 + i
        else if (i % 3 == 1) printf "#define GL_EXT_enum_%d 1\n", i
        else printf "#define glExtFunc%d(a, b) glExtImpl%d((a), (b))\n", i, i
        if (i % 50 == 0) printf "/* section %d */\n", i
    }
    print "#define GL_FULL_MASK 0xffffffffu"
    print "#endif"
}' > "$D/glheader/glext.h"
awk -v n=$((1000 * K)) 'BEGIN {
    print "#include \"glext.h\""
    print "__global__ void k(float *p, unsigned m) {"
    print "    float v = p[threadIdx.x];"
    for (i = 0; i < n; i++)
        if (i % 2 == 0) printf "    v += __shfl_down_sync(GL_FULL_MASK, v, %d);\n", i % 32
        else printf "    v += __shfl_xor_sync(m, v, %d);\n", i % 32
    print "    p[threadIdx.x] = v;"
    print "}"
}' > "$D/glheader/draw.cu"

awk -v n=$((10000 * K)) 'BEGIN {
    print "#include <cuda_runtime.h>"
    print "__global__ void kern(float *a, const float *b, int n) {"
    print "    int i = blockIdx.x * blockDim.x + threadIdx.x;"
    print "    if (i < n) a[i] += b[i];"
    print "}"
    print "void run(float *a, const float *b, int n, cudaStream_t s) {"
    print "    dim3 grid((n + 255) / 256), block(256);"
    for (i = 0; i < n; i++)
        if (i % 2 == 0) printf "    kern<<<grid, block>>>(a + %d, b, n);\n", i
        else printf "    kern<<<(n + 127) / 128, 128, 0, s>>>(a, b + %d, n);\n", i
    print "    cudaDeviceSynchronize();"
    print "}"
}' > "$D/launches.cu"

awk -v n=$((5000 * K)) 'BEGIN {
    print "#include <cooperative_groups.h>"
    print "namespace cg = cooperative_groups;"
    print "struct pair { float a, b; };"
    print "__global__ void k(pair *p) {"
    print "    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());"
    print "    pair v = p[threadIdx.x];"
    for (i = 0; i < n; i++)
        if (i % 2 == 0) printf "    v = tile.shfl_down(v, %d);\n", 1 + i % 16
        else printf "    v = tile.shfl_xor(v, %d);\n", 1 + i % 16
    print "    p[threadIdx.x] = v;"
    print "}"
}' > "$D/tileshfl.cu"

awk -v n=$((5000 * K)) 'BEGIN {
    print "#include <cuda_runtime.h>"
    for (i = 0; i < n; i++) {
        printf "#ifndef NO_API_%d\n", i
        printf "void apiCall%d(cudaStream_t stream, cudaEvent_t ev, int n);\n", i - i % 10
        print "#endif"
    }
}' > "$D/decls.h"

awk -v n=$((1000 * K)) 'BEGIN {
    print "import triton"
    print "import triton.language as tl"
    print ""
    print "@triton.autotune("
    print "    configs=["
    for (i = 0; i < n; i++)
        printf "        triton.Config({\"BLOCK_M\": %d, \"BLOCK_N\": %d, \"BLOCK_K\": 128}, num_warps=%d, num_stages=%d),\n",
            16 * (1 + i % 8), 32 * (1 + int(i / 8) % 8), 4 * 2 ^ (i % 4), 1 + i % 5
    print "    ],"
    print "    key=[\"M\", \"N\"],"
    print ")"
    print "@triton.jit"
    print "def kernel(x_ptr, y_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):"
    print "    pid = tl.program_id(0)"
    print "    offs = pid * BLOCK_M + tl.arange(0, BLOCK_M)"
    print "    x = tl.load(x_ptr + offs, mask=offs < M)"
    print "    tl.store(y_ptr + offs, x, mask=offs < M)"
}' > "$D/configs.py"

# about 2 MB per K: 330 bytes a unit
awk -v n=$((6000 * K)) 'BEGIN {
    print "import os"
    print "import torch"
    print "from torch.utils.cpp_extension import load"
    for (i = 0; i < n; i++) {
        if (i % 40 == 0) {
            printf "\n\nclass Model%d(torch.nn.Module):\n", i
            printf "    \"\"\"A model, number %d.\"\"\"\n\n", i
            printf "    def __init__(self, dim=%d):\n        super().__init__()\n", 64 + i % 64
            printf "        self.lin = torch.nn.Linear(dim, dim).cuda()\n"
        }
        printf "\n    def step_%d(self, x, y=None):\n", i
        printf "        # step %d: move to the device and combine\n", i
        printf "        x = x.to(\"cuda\") * %d + torch.cuda.current_device()\n", i % 7
        printf "        if y is not None and x.shape[0] > %d:\n", i % 100
        printf "            y = self.lin(y) + torch.randn(%d, device=\"cuda\")\n", i % 13
        printf "        return {\"x\": x, \"y\": y, \"id\": \x27step_%d\x27}\n", i
    }
}' > "$D/python.py"

awk -v n=$((5000 * K)) 'BEGIN {
    print "import torch"
    print "TABLE = {"
    for (i = 0; i < n; i++)
        printf "    \"k%d\": torch.cuda.device_count() + torch.zeros(%d, device=\"cuda\").sum(),\n", i, i
    print "}"
}' > "$D/pyline.py"

awk -v n=$((2000 * K)) 'BEGIN {
    print "import torch"
    print "def pick(x):"
    print "    if x == 0:"
    print "        return torch.cuda.current_device()"
    for (i = 1; i < n; i++)
        printf "    elif x == %d:\n        y = torch.cuda.current_device() + %d\n        return \"cuda:%d\"\n", i, i, i
    print "    else:"
    print "        return None"
}' > "$D/pyelif.py"

awk -v n=$((3000 * K)) 'BEGIN {
    for (i = 0; i < n; i++)
        printf "import mod%d as m%d\nfrom pkg%d import thing%d as t%d\n", i, i, i, i, i
    for (i = 0; i < n; i++)
        printf "m%d.run(t%d.cuda())\n", i, i
}' > "$D/pyimport.py"

awk -v n=$((5000 * K)) 'BEGIN {
    print "from setuptools import setup"
    printf "flags = {"
    for (i = 0; i < n; i++)
        printf "%s\"k%d\": opt(\"-O%d\", [\"-x%d\"])", (i ? ", " : ""), i, i % 3, i
    print "}"
    print "setup(name=\"x\")"
}' > "$D/pysetup/setup.py"
