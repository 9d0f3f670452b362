// hip-5.2: reported
// Launch configuration from the occupancy API: cudaOccupancyMaxPotentialBlockSize (the C++
// template), a block-size-dependent shared memory functor variant, and the active-blocks
// query used to report theoretical occupancy.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void axpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] += a * x[i];
}

__global__ void reduceDyn(const float *x, float *out, int n)
{
    extern __shared__ float s[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : 0.f;
    __syncthreads();
    if (threadIdx.x == 0) {
        float t = 0;
        for (unsigned k = 0; k < blockDim.x; ++k)
            t += s[k];
        atomicAdd(out, t);
    }
}

struct SmemPerBlock {
    __host__ __device__ size_t operator()(int blockSize) const { return blockSize * sizeof(float); }
};

int main()
{
    const int n = 1 << 20;
    int minGridSize = 0, blockSize = 0;
    cudaOccupancyMaxPotentialBlockSize(&minGridSize, &blockSize, axpy, 0, 0);
    int gridSize = (n + blockSize - 1) / blockSize;
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    axpy<<<gridSize, blockSize>>>(2.f, x, y, n);

    int maxActive = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&maxActive, axpy, blockSize, 0);
    cudaDeviceProp props;
    cudaGetDeviceProperties(&props, 0);
    float occupancy = (maxActive * blockSize / props.warpSize) /
                      (float)(props.maxThreadsPerMultiProcessor / props.warpSize);
    printf("block %d, min grid %d, occupancy %.2f\n", blockSize, minGridSize, occupancy);

    int dynBlock = 0, dynGrid = 0;
    cudaOccupancyMaxPotentialBlockSizeVariableSMem(&dynGrid, &dynBlock, reduceDyn, SmemPerBlock());
    reduceDyn<<<(n + dynBlock - 1) / dynBlock, dynBlock, dynBlock * sizeof(float)>>>(x, y, n);
    size_t availSmem = 0;
    cudaOccupancyAvailableDynamicSMemPerBlock(&availSmem, reduceDyn, 2, dynBlock);
    cudaDeviceSynchronize();
    cudaFree(x);
    cudaFree(y);
    return 0;
}
