// Constant and global device symbols: a __constant__ filter table and scalar set with
// cudaMemcpyToSymbol (with offset, async), read back with cudaMemcpyFromSymbol, a __device__
// counter found with cudaGetSymbolAddress and cudaGetSymbolSize.
#include <cuda_runtime.h>
#include <cstdio>
#include "common/check.cuh"

#define FILTER_RADIUS 4
#define FILTER_WIDTH (2 * FILTER_RADIUS + 1)

__constant__ float c_filter[FILTER_WIDTH];
__constant__ float c_bias;
__device__ unsigned int d_clipped;
__device__ float d_stats[2];

__global__ void convolve1d(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float acc = c_bias;
#pragma unroll
    for (int k = -FILTER_RADIUS; k <= FILTER_RADIUS; ++k) {
        int j = min(max(i + k, 0), n - 1);
        acc += c_filter[k + FILTER_RADIUS] * in[j];
    }
    if (acc > 1.f) {
        acc = 1.f;
        atomicAdd(&d_clipped, 1u);
    }
    out[i] = acc;
    if (i == 0)
        d_stats[0] = acc;
}

int main()
{
    const int n = 1 << 16;
    float h_filter[FILTER_WIDTH];
    for (int k = 0; k < FILTER_WIDTH; ++k)
        h_filter[k] = 1.f / FILTER_WIDTH;
    checkCudaErrors(cudaMemcpyToSymbol(c_filter, h_filter, sizeof h_filter));
    float center = 0.5f;
    checkCudaErrors(cudaMemcpyToSymbol(c_filter, &center, sizeof(float),
                                       FILTER_RADIUS * sizeof(float), cudaMemcpyHostToDevice));
    float bias = 0.01f;
    cudaStream_t s;
    checkCudaErrors(cudaStreamCreate(&s));
    checkCudaErrors(cudaMemcpyToSymbolAsync(c_bias, &bias, sizeof bias, 0,
                                            cudaMemcpyHostToDevice, s));
    unsigned int zero = 0;
    checkCudaErrors(cudaMemcpyToSymbol(d_clipped, &zero, sizeof zero));

    unsigned int *clippedPtr = nullptr;
    size_t clippedSize = 0;
    checkCudaErrors(cudaGetSymbolAddress((void **)&clippedPtr, d_clipped));
    checkCudaErrors(cudaGetSymbolSize(&clippedSize, d_clipped));
    checkCudaErrors(cudaMemsetAsync(clippedPtr, 0, clippedSize, s));

    float *in, *out;
    checkCudaErrors(cudaMalloc(&in, n * sizeof(float)));
    checkCudaErrors(cudaMalloc(&out, n * sizeof(float)));
    convolve1d<<<n / 256, 256, 0, s>>>(in, out, n);
    checkCudaErrors(cudaStreamSynchronize(s));

    unsigned int clipped = 0;
    float stats[2];
    checkCudaErrors(cudaMemcpyFromSymbol(&clipped, d_clipped, sizeof clipped));
    checkCudaErrors(cudaMemcpyFromSymbolAsync(stats, d_stats, sizeof stats, 0,
                                              cudaMemcpyDeviceToHost, s));
    checkCudaErrors(cudaStreamSynchronize(s));
    float readBack[FILTER_WIDTH];
    checkCudaErrors(cudaMemcpyFromSymbol(readBack, c_filter, sizeof readBack));
    printf("clipped %u, first %f, centre tap %f\n", clipped, stats[0], readBack[FILTER_RADIUS]);
    checkCudaErrors(cudaFree(in));
    checkCudaErrors(cudaFree(out));
    checkCudaErrors(cudaStreamDestroy(s));
    return 0;
}
