// libcu++ in device code: cuda::atomic_ref with explicit thread scopes, cuda::std::array and
// cuda::std::numeric_limits, and cuda::barrier for a block-scoped arrive/wait.
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/std/array>
#include <cuda/std/limits>
#include <cuda_runtime.h>

__global__ void minmax(const float *x, float *result, int n)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    cuda::std::array<float, 2> local = {cuda::std::numeric_limits<float>::max(),
                                        cuda::std::numeric_limits<float>::lowest()};
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        local[0] = fminf(local[0], x[i]);
        local[1] = fmaxf(local[1], x[i]);
    }
    bar.arrive_and_wait();
    cuda::atomic_ref<float, cuda::thread_scope_device> lo(result[0]), hi(result[1]);
    lo.fetch_min(local[0], cuda::memory_order_relaxed);
    hi.fetch_max(local[1], cuda::memory_order_relaxed);
}

int main()
{
    float *x, *r;
    cudaMalloc(&x, 4096 * sizeof(float));
    cudaMalloc(&r, 2 * sizeof(float));
    minmax<<<8, 256>>>(x, r, 4096);
    cudaDeviceSynchronize();
    return 0;
}
