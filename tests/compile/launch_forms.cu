// Every spelling of the triple-chevron launch seen in real code: dynamic shared memory and a
// stream, arguments split over lines, comments inside the chevrons, namespaced and
// qualified kernels, templates with nested angle brackets, and a launch as an expression.
#include <cuda_runtime.h>
#include <cstdio>

namespace kernels {
__global__ void zero(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = 0.f;
}
namespace detail {
template <int N>
__global__ void shift(float *p, int n)
{
    extern __shared__ float tile[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? p[i] : 0.f;
    __syncthreads();
    if (i < n)
        p[i] = tile[(threadIdx.x + N) % blockDim.x];
}
} // namespace detail
} // namespace kernels

struct Pair {
    int a, b;
};

template <typename T, int N>
struct Traits {
    static constexpr int value = N;
};

template <typename P, int K>
__global__ void sum_pairs(const P *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i].a + in[i].b + K;
}

__global__ void empty() {}

int main()
{
    const int n = 4096;
    float *p;
    int *out;
    Pair *pairs;
    cudaMalloc(&p, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(int));
    cudaMalloc(&pairs, n * sizeof(Pair));
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    const int threads = 256;
    const size_t smem = threads * sizeof(float);

    kernels::zero<<<n / threads, threads>>>(p, n);
    ::kernels::zero<<<dim3(n / threads), dim3(threads), 0, stream>>>(p, n);
    kernels::detail::shift<3><<<n / threads, threads, smem, stream>>>(p, n);
    kernels::detail::shift<1>
        <<<n / threads,
           threads,
           smem,
           stream>>>(p,
                     n);
    kernels::zero<<</* grid */ n / threads, /* block */ threads, /* smem */ 0, /* stream */ stream>>>(
        p, n);
    kernels::zero<<<n / threads, threads // threads per block
                    , 0, stream>>>(p, n);
    sum_pairs<Pair, Traits<Pair, (2 > 1) ? 4 : 8>::value><<<(n + 255) / 256, 256, 0, stream>>>(
        pairs, out, n);
    sum_pairs<Pair, (3 >> 1)><<<(n + 255) / 256, 256>>>(pairs, out, n);
    empty<<<1, 1>>>();
    for (int i = 0; i < 2; ++i)
        empty<<<1, 32, 0, stream>>>();
    if (n > 0) empty<<<dim3(1, 1, 1), dim3(32, 2)>>>();
    cudaStreamSynchronize(stream);
    cudaStreamDestroy(stream);
    cudaFree(p);
    cudaFree(out);
    cudaFree(pairs);
    return 0;
}
