// hip-5.2: reported
// hip-7.2: reported
// Fast-math and bit intrinsics used in numerical kernels: __expf, __logf, __fdividef,
// __saturatef, rsqrtf, fmaf, sincosf, rounding-mode intrinsics, __popc / __clz / __ffs /
// __brev, __umulhi, __byte_perm, __ldg and the read-only cache path.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void fastmath(const float *__restrict__ x, float *__restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = __ldg(&x[i]);
    float s, c;
    sincosf(v, &s, &c);
    float a = __expf(v) + __logf(fabsf(v) + 1.f) + __fdividef(s, c + 2.f);
    float b = __saturatef(v) + rsqrtf(v * v + 1.f) + fmaf(v, 2.f, 1.f);
    float r = __fadd_rn(a, b) + __fmul_rz(a, b) + __fdiv_rn(a, b + 1.f) + __frcp_rn(b + 3.f);
    float t = __sinf(v) + __cosf(v) + __powf(fabsf(v), 0.5f) + exp2f(v) + log1pf(fabsf(v));
    y[i] = r + t + erff(v) + erfinvf(0.5f) + normcdff(v) + lgammaf(fabsf(v) + 1.f) +
           __int2float_rn(__float2int_rn(v)) + truncf(v) + copysignf(1.f, v);
}

__global__ void bits(const unsigned int *in, unsigned int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned int v = in[i];
    unsigned long long w = ((unsigned long long)v << 32) | v;
    out[i] = __popc(v) + __clz(v) + __ffs(v) + __brev(v) + __popcll(w) + __clzll(w) + __ffsll(w) +
             __umulhi(v, 2654435761u) + __byte_perm(v, 0, 0x0123) + __mul24(v, 3) +
             (unsigned)__double2int_rn(__hiloint2double(1, 2)) + __funnelshift_l(v, v, 3) +
             __sad(v, 7u, 0u) + __usad(v, 9u, 1u) + __uhadd(v, 5u);
}

int main()
{
    float *x, *y;
    unsigned int *u, *o;
    cudaMalloc(&x, 1024 * sizeof(float));
    cudaMalloc(&y, 1024 * sizeof(float));
    cudaMalloc(&u, 1024 * sizeof(unsigned));
    cudaMalloc(&o, 1024 * sizeof(unsigned));
    fastmath<<<4, 256>>>(x, y, 1024);
    bits<<<4, 256>>>(u, o, 1024);
    cudaDeviceSynchronize();
    cudaFree(x);
    cudaFree(y);
    cudaFree(u);
    cudaFree(o);
    return 0;
}
