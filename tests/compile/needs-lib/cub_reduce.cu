// CUB primitives: cub::BlockReduce and cub::BlockLoad inside a kernel with TempStorage in
// shared memory, and the two-phase cub::DeviceReduce::Sum / DeviceScan calls (query the
// temporary storage size, allocate, run).
#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include <cstdio>

template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
__global__ void block_sum(const int *in, int *out)
{
    using BlockLoadT = cub::BlockLoad<int, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_LOAD_TRANSPOSE>;
    using BlockReduceT = cub::BlockReduce<int, BLOCK_THREADS>;
    __shared__ union {
        typename BlockLoadT::TempStorage load;
        typename BlockReduceT::TempStorage reduce;
    } temp;
    int items[ITEMS_PER_THREAD];
    int offset = blockIdx.x * (BLOCK_THREADS * ITEMS_PER_THREAD);
    BlockLoadT(temp.load).Load(in + offset, items);
    __syncthreads();
    int aggregate = BlockReduceT(temp.reduce).Sum(items);
    if (threadIdx.x == 0)
        out[blockIdx.x] = aggregate;
}

int main()
{
    const int n = 1 << 20;
    int *in, *partial, *total, *scanned;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&partial, (n / 512) * sizeof(int));
    cudaMalloc(&total, sizeof(int));
    cudaMalloc(&scanned, n * sizeof(int));
    block_sum<128, 4><<<n / 512, 128>>>(in, partial);

    void *d_temp = nullptr;
    size_t temp_bytes = 0;
    cub::DeviceReduce::Sum(d_temp, temp_bytes, in, total, n);
    cudaMalloc(&d_temp, temp_bytes);
    cub::DeviceReduce::Sum(d_temp, temp_bytes, in, total, n);
    cudaFree(d_temp);

    d_temp = nullptr;
    temp_bytes = 0;
    cub::DeviceScan::ExclusiveSum(d_temp, temp_bytes, in, scanned, n);
    cudaMalloc(&d_temp, temp_bytes);
    cub::DeviceScan::ExclusiveSum(d_temp, temp_bytes, in, scanned, n);
    cudaDeviceSynchronize();
    cudaFree(d_temp);
    cudaFree(in);
    cudaFree(partial);
    cudaFree(total);
    cudaFree(scanned);
    return 0;
}
