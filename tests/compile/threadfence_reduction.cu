// Single-pass reduction: each block writes a partial sum, __threadfence makes it visible, and
// the last block (found with atomicInc on a __device__ counter) finishes; the in-block tail is
// the legacy warp-synchronous volatile shared-memory unroll.
#include <cuda_runtime.h>
#include <cstdio>

__device__ unsigned int retirementCount = 0;

template <unsigned int blockSize>
__device__ void warpReduce(volatile float *sdata, unsigned int tid)
{
    if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
    if (blockSize >= 32) sdata[tid] += sdata[tid + 16];
    if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
    if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
    if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
    if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
}

template <unsigned int blockSize>
__device__ float blockSum(const float *g_idata, unsigned int n, float *sdata)
{
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + tid;
    unsigned int gridSize = blockSize * 2 * gridDim.x;
    float sum = 0;
    while (i < n) {
        sum += g_idata[i];
        if (i + blockSize < n)
            sum += g_idata[i + blockSize];
        i += gridSize;
    }
    sdata[tid] = sum;
    __syncthreads();
    if (blockSize >= 512) { if (tid < 256) sdata[tid] += sdata[tid + 256]; __syncthreads(); }
    if (blockSize >= 256) { if (tid < 128) sdata[tid] += sdata[tid + 128]; __syncthreads(); }
    if (blockSize >= 128) { if (tid < 64) sdata[tid] += sdata[tid + 64]; __syncthreads(); }
    if (tid < 32)
        warpReduce<blockSize>(sdata, tid);
    return sdata[0];
}

template <unsigned int blockSize>
__global__ void reduceSinglePass(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[blockSize];
    __shared__ bool amLast;
    float partial = blockSum<blockSize>(g_idata, n, sdata);
    if (threadIdx.x == 0) {
        g_odata[blockIdx.x] = partial;
        __threadfence();
        unsigned int ticket = atomicInc(&retirementCount, gridDim.x);
        amLast = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (amLast) {
        float s = 0;
        for (unsigned int b = threadIdx.x; b < gridDim.x; b += blockSize)
            s += g_odata[b];
        sdata[threadIdx.x] = s;
        __syncthreads();
        float total = blockSum<blockSize>(sdata, blockSize, sdata);
        if (threadIdx.x == 0) {
            g_odata[0] = total;
            retirementCount = 0;
        }
    }
}

int main()
{
    const unsigned int n = 1 << 22;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, 64 * sizeof(float));
    reduceSinglePass<256><<<64, 256>>>(in, out, n);
    cudaDeviceSynchronize();
    float h = 0;
    cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("%f\n", h);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
