// Launches inside macro bodies: a checked-launch macro with variadic kernel arguments, a
// grid-size macro, a macro generating launch wrappers, and a dispatch macro that expands a
// launch once per template value.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CHECK_LAST()                                                                        \
    do {                                                                                    \
        cudaError_t e_ = cudaGetLastError();                                                \
        if (e_ != cudaSuccess) {                                                            \
            fprintf(stderr, "launch failed: %s\n", cudaGetErrorString(e_));                 \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

#define GRID_FOR(n, b) (((n) + (b) - 1) / (b))
#define LAUNCH(kernel, n, block, stream, ...)                                               \
    do {                                                                                    \
        kernel<<<GRID_FOR(n, block), (block), 0, (stream)>>>(__VA_ARGS__);                  \
        CHECK_LAST();                                                                       \
    } while (0)
#define LAUNCH_SMEM(kernel, grid, block, smem, ...) kernel<<<grid, block, smem>>>(__VA_ARGS__)

__global__ void add_one(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += 1;
}

template <int UNROLL>
__global__ void add_k(int *p, int n, int k)
{
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * UNROLL;
#pragma unroll
    for (int u = 0; u < UNROLL; ++u)
        if (i + u < n)
            p[i + u] += k;
}

__global__ void block_sum(const int *p, int *out, int n)
{
    extern __shared__ int s[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? p[i] : 0;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(out, s[0]);
}

#define DEFINE_LAUNCHER(NAME, UNROLL)                                                       \
    void NAME(int *p, int n, int k, cudaStream_t s)                                         \
    {                                                                                       \
        add_k<UNROLL><<<GRID_FOR(n, 256 * UNROLL), 256, 0, s>>>(p, n, k);                   \
    }
DEFINE_LAUNCHER(add_k1, 1)
DEFINE_LAUNCHER(add_k4, 4)

#define DISPATCH_UNROLL(u, ...)                                                             \
    switch (u) {                                                                            \
    case 2: {                                                                               \
        constexpr int kUnroll = 2;                                                          \
        __VA_ARGS__;                                                                        \
    } break;                                                                                \
    default: {                                                                              \
        constexpr int kUnroll = 1;                                                          \
        __VA_ARGS__;                                                                        \
    } break;                                                                                \
    }

int main()
{
    const int n = 10000;
    int *p, *sum;
    cudaMalloc(&p, n * sizeof(int));
    cudaMalloc(&sum, sizeof(int));
    cudaMemset(p, 0, n * sizeof(int));
    cudaMemset(sum, 0, sizeof(int));
    cudaStream_t s = 0;
    LAUNCH(add_one, n, 256, s, p, n);
    LAUNCH(add_k<2>, n / 2, 128, s, p, n, 3);
    add_k1(p, n, 1, s);
    add_k4(p, n, 1, s);
    int unroll = 2;
    DISPATCH_UNROLL(unroll, add_k<kUnroll><<<GRID_FOR(n, 256 * kUnroll), 256>>>(p, n, 2));
    LAUNCH_SMEM(block_sum, GRID_FOR(n, 256), 256, 256 * sizeof(int), p, sum, n);
    CHECK_LAST();
    int h = 0;
    cudaMemcpy(&h, sum, sizeof(int), cudaMemcpyDeviceToHost);
    printf("sum = %d\n", h);
    cudaFree(p);
    cudaFree(sum);
    return 0;
}
