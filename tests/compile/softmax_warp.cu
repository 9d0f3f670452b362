// Row softmax with one warp per row, the butterfly __shfl_xor_sync all-reduce for max and sum,
// a shared header of warp helpers, and float4 vectorised loads.
#include <cuda_runtime.h>
#include <cfloat>
#include <cstdio>
#include "common/warp.cuh"

__global__ void softmax_forward(float *out, const float *inp, int N, int C)
{
    int row = blockIdx.x * (blockDim.x / WARP_SIZE) + threadIdx.x / WARP_SIZE;
    int lane = threadIdx.x % WARP_SIZE;
    if (row >= N)
        return;
    const float *x = inp + (size_t)row * C;
    float maxval = -FLT_MAX;
    for (int i = lane; i < C; i += WARP_SIZE)
        maxval = fmaxf(maxval, x[i]);
    maxval = warpReduceMax(maxval);
    float sum = 0.f;
    for (int i = lane; i < C; i += WARP_SIZE)
        sum += __expf(x[i] - maxval);
    for (int offset = 16; offset > 0; offset >>= 1)
        sum += __shfl_xor_sync(FULL_MASK, sum, offset);
    float inv = 1.f / sum;
    float *y = out + (size_t)row * C;
    if ((C & 3) == 0) {
        const float4 *x4 = reinterpret_cast<const float4 *>(x);
        float4 *y4 = reinterpret_cast<float4 *>(y);
        for (int i = lane; i < C / 4; i += WARP_SIZE) {
            float4 v = x4[i];
            y4[i] = make_float4(__expf(v.x - maxval) * inv, __expf(v.y - maxval) * inv,
                                __expf(v.z - maxval) * inv, __expf(v.w - maxval) * inv);
        }
    } else {
        for (int i = lane; i < C; i += WARP_SIZE)
            y[i] = __expf(x[i] - maxval) * inv;
    }
}

__global__ void row_norm(const float *inp, float *norms, int C)
{
    float s = 0.f;
    for (int i = threadIdx.x; i < C; i += blockDim.x)
        s += inp[blockIdx.x * C + i] * inp[blockIdx.x * C + i];
    s = blockReduceSum(s);
    if (threadIdx.x == 0)
        norms[blockIdx.x] = sqrtf(s);
}

int main()
{
    const int N = 4096, C = 1024;
    float *in, *out;
    cudaMalloc(&in, (size_t)N * C * sizeof(float));
    cudaMalloc(&out, (size_t)N * C * sizeof(float));
    softmax_forward<<<N / 8, 256>>>(out, in, N, C);
    row_norm<<<N, 256>>>(in, out, C);
    cudaDeviceSynchronize();
    cudaFree(in);
    cudaFree(out);
    return 0;
}
