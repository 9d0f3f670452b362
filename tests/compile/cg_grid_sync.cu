// Grid-wide synchronisation: a persistent kernel using this_grid().sync(), launched with
// cudaLaunchCooperativeKernel after checking the cooperative-launch attribute and sizing the
// grid from the occupancy API.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <cstdio>
#include "common/check.cuh"

namespace cg = cooperative_groups;

__global__ void jacobi(float *a, float *b, int n, int iters)
{
    cg::grid_group grid = cg::this_grid();
    for (int it = 0; it < iters; ++it) {
        for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) {
            float left = i > 0 ? a[i - 1] : 0.f;
            float right = i + 1 < (unsigned long long)n ? a[i + 1] : 0.f;
            b[i] = 0.5f * (left + right);
        }
        grid.sync();
        float *t = a;
        a = b;
        b = t;
    }
    if (grid.is_valid() && grid.thread_rank() == 0)
        a[0] += 0.f;
}

int main()
{
    int dev = 0;
    checkCudaErrors(cudaGetDevice(&dev));
    int supportsCoop = 0;
    checkCudaErrors(cudaDeviceGetAttribute(&supportsCoop, cudaDevAttrCooperativeLaunch, dev));
    if (!supportsCoop) {
        printf("cooperative launch not supported\n");
        return 0;
    }
    int numSms = 0, blocksPerSm = 0;
    const int threads = 256;
    checkCudaErrors(cudaDeviceGetAttribute(&numSms, cudaDevAttrMultiProcessorCount, dev));
    checkCudaErrors(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocksPerSm, jacobi, threads, 0));
    dim3 grid(numSms * blocksPerSm), block(threads);

    int n = 1 << 20, iters = 50;
    float *a, *b;
    checkCudaErrors(cudaMalloc(&a, n * sizeof(float)));
    checkCudaErrors(cudaMalloc(&b, n * sizeof(float)));
    void *args[] = {&a, &b, &n, &iters};
    checkCudaErrors(cudaLaunchCooperativeKernel((void *)jacobi, grid, block, args, 0, 0));
    checkCudaErrors(cudaDeviceSynchronize());
    checkCudaErrors(cudaFree(a));
    checkCudaErrors(cudaFree(b));
    return 0;
}
