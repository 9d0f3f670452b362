// Histograms with shared-memory privatisation: per-block bins updated with shared atomics,
// merged with global atomics, and block-wide predicates with __syncthreads_count / _or / _and.
#include <cuda_runtime.h>
#include <cstdio>

#define NUM_BINS 256

__global__ void histogram256(const unsigned char *data, unsigned int *hist, int n, int *stats)
{
    __shared__ unsigned int s_hist[NUM_BINS];
    for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x)
        s_hist[b] = 0;
    __syncthreads();
    bool sawZero = false;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        unsigned char v = data[i];
        sawZero |= v == 0;
        atomicAdd(&s_hist[v], 1u);
    }
    int zeros = __syncthreads_count(sawZero);
    int anyZero = __syncthreads_or(sawZero);
    int allZero = __syncthreads_and(sawZero);
    for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x)
        atomicAdd(&hist[b], s_hist[b]);
    if (threadIdx.x == 0) {
        atomicAdd(&stats[0], zeros);
        atomicMax(&stats[1], anyZero);
        atomicMin(&stats[2], allZero);
    }
}

int main()
{
    const int n = 1 << 24;
    unsigned char *data;
    unsigned int *hist;
    int *stats;
    cudaMalloc(&data, n);
    cudaMalloc(&hist, NUM_BINS * sizeof(unsigned int));
    cudaMalloc(&stats, 3 * sizeof(int));
    cudaMemset(hist, 0, NUM_BINS * sizeof(unsigned int));
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    histogram256<<<sms * 4, 512>>>(data, hist, n, stats);
    cudaDeviceSynchronize();
    cudaFree(data);
    cudaFree(hist);
    cudaFree(stats);
    return 0;
}
