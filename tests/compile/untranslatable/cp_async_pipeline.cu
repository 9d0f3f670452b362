// Asynchronous global-to-shared copies: cuda::pipeline with cuda::memcpy_async double
// buffering (libcu++ cuda/pipeline), and the raw cp.async PTX form with commit/wait groups.
// compile-flags: -arch=sm_80
#include <cooperative_groups.h>
#include <cuda/pipeline>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void stage_sum(const float *in, float *out, int tiles)
{
    constexpr int TILE = 256;
    __shared__ float buf[2][TILE];
    auto block = cg::this_thread_block();
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    float acc = 0.f;
    pipe.producer_acquire();
    cuda::memcpy_async(&buf[0][threadIdx.x], &in[threadIdx.x], sizeof(float), pipe);
    pipe.producer_commit();
    for (int t = 0; t < tiles; ++t) {
        if (t + 1 < tiles) {
            pipe.producer_acquire();
            cuda::memcpy_async(&buf[(t + 1) & 1][threadIdx.x], &in[(t + 1) * TILE + threadIdx.x],
                               sizeof(float), pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        block.sync();
        acc += buf[t & 1][(threadIdx.x + 1) % TILE];
        pipe.consumer_release();
        block.sync();
    }
    out[blockIdx.x * TILE + threadIdx.x] = acc;
}

__global__ void raw_cp_async(const float4 *in, float *out)
{
    __shared__ float4 tile[128];
    unsigned smem = static_cast<unsigned>(__cvta_generic_to_shared(&tile[threadIdx.x]));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem), "l"(in + threadIdx.x));
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("cp.async.wait_group 0;\n" ::);
    __syncthreads();
    out[threadIdx.x] = tile[127 - threadIdx.x].x;
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, 8 * 256 * sizeof(float));
    cudaMalloc(&out, 256 * sizeof(float));
    stage_sum<<<1, 256>>>(in, out, 8);
    raw_cp_async<<<1, 128>>>(reinterpret_cast<const float4 *>(in), out);
    cudaDeviceSynchronize();
    return 0;
}
