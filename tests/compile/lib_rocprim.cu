// lib_rocprim.cu: portable code in the style of projects that run on both vendors: CUB on
// CUDA, rocPRIM on AMD (selected by __HIP_PLATFORM_AMD__, which hipcc defines). The CUB branch
// is translated (cub:: becomes hipcub::), the rocPRIM branch is left as it is, and the
// translation compiles against rocPRIM.
#include <cuda_runtime.h>
#if defined(__HIP_PLATFORM_AMD__)
#include <rocprim/rocprim.hpp>
#else
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_reduce.cuh>
#endif

constexpr int kBlock = 128;

__global__ void block_sum(const int *in, int *out) {
#if defined(__HIP_PLATFORM_AMD__)
    using reduce_t = rocprim::block_reduce<int, kBlock>;
    __shared__ reduce_t::storage_type storage;
    int sum;
    reduce_t().reduce(in[blockIdx.x * kBlock + threadIdx.x], sum, storage);
#else
    using reduce_t = cub::BlockReduce<int, kBlock>;
    __shared__ typename reduce_t::TempStorage storage;
    int sum = reduce_t(storage).Sum(in[blockIdx.x * kBlock + threadIdx.x]);
#endif
    if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

int device_sum(const int *in, int *out, int n, cudaStream_t stream) {
    void *tmp = nullptr;
    size_t bytes = 0;
#if defined(__HIP_PLATFORM_AMD__)
    rocprim::reduce(tmp, bytes, in, out, 0, (size_t)n, rocprim::plus<int>(), stream);
    cudaMalloc(&tmp, bytes);
    rocprim::reduce(tmp, bytes, in, out, 0, (size_t)n, rocprim::plus<int>(), stream);
#else
    cub::DeviceReduce::Sum(tmp, bytes, in, out, n, stream);
    cudaMalloc(&tmp, bytes);
    cub::DeviceReduce::Sum(tmp, bytes, in, out, n, stream);
#endif
    block_sum<<<n / kBlock, kBlock, 0, stream>>>(in, out);
    cudaError_t err = cudaStreamSynchronize(stream);
    cudaFree(tmp);
    return err == cudaSuccess ? 0 : 1;
}
