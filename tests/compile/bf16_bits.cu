// hip-5.2: reported
// bfloat16 values taken apart and put together: the raw 16 bits as short and unsigned short,
// the halves of a bfloat162 swapped and combined, an int converted with round-to-nearest, and
// the round-to-nearest arithmetic that keeps the compiler from contracting into an FMA.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void bits(const __nv_bfloat16 *x, short *raw, unsigned short *uraw, __nv_bfloat16 *y,
                     int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    raw[i] = __bfloat16_as_short(x[i]);
    uraw[i] = __bfloat16_as_ushort(x[i]);
    __nv_bfloat16 back = __short_as_bfloat16(raw[i]);
    __nv_bfloat16 k = __int2bfloat16_rn(i);
    y[i] = __hadd_rn(__hmul_rn(back, k), __hsub_rn(back, k));
}

__global__ void pairs(const __nv_bfloat162 *a, const __nv_bfloat162 *b, __nv_bfloat162 *out,
                      int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __nv_bfloat162 lo = __low2bfloat162(a[i]), hi = __high2bfloat162(a[i]);
    __nv_bfloat162 mixed = __lows2bfloat162(a[i], b[i]);
    __nv_bfloat162 tops = __highs2bfloat162(a[i], b[i]);
    out[i] = __hadd2_rn(__hmul2_rn(lo, hi), __hsub2_rn(mixed, tops));
}

int main()
{
    const int n = 256;
    __nv_bfloat16 *x, *y;
    __nv_bfloat162 *a, *b, *o;
    short *raw;
    unsigned short *uraw;
    cudaMalloc(&x, n * sizeof *x);
    cudaMalloc(&y, n * sizeof *y);
    cudaMalloc(&raw, n * sizeof *raw);
    cudaMalloc(&uraw, n * sizeof *uraw);
    cudaMalloc(&a, n * sizeof *a);
    cudaMalloc(&b, n * sizeof *b);
    cudaMalloc(&o, n * sizeof *o);
    bits<<<(n + 127) / 128, 128>>>(x, raw, uraw, y, n);
    pairs<<<(n + 127) / 128, 128>>>(a, b, o, n);
    cudaDeviceSynchronize();
    cudaFree(x);
    cudaFree(y);
    cudaFree(raw);
    cudaFree(uraw);
    cudaFree(a);
    cudaFree(b);
    cudaFree(o);
    return 0;
}
