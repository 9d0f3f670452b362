// Kernel templates over type and tile size, launched with explicit template arguments
// (k<T, 4><<<...>>>), a runtime-to-compile-time dispatch switch and explicit instantiation.
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

template <typename T, int VEC>
__global__ void copy_vec(T *__restrict__ dst, const T *__restrict__ src, int n)
{
    int base = (blockIdx.x * blockDim.x + threadIdx.x) * VEC;
#pragma unroll
    for (int v = 0; v < VEC; ++v) {
        int i = base + v;
        if (i < n)
            dst[i] = src[i];
    }
}

template <typename T>
struct Scale {
    T s;
    __device__ T operator()(T x) const { return x * s; }
};

template <typename T, typename Op, int BLOCK = 128>
__global__ void __launch_bounds__(BLOCK) apply(T *data, Op op, int n)
{
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n)
        data[i] = op(data[i]);
}

template <typename T, int VEC>
void launch_copy(T *dst, const T *src, int n, cudaStream_t stream)
{
    const int threads = 256;
    const int blocks = (n + threads * VEC - 1) / (threads * VEC);
    copy_vec<T, VEC><<<blocks, threads, 0, stream>>>(dst, src, n);
}

template <typename T>
void dispatch_copy(T *dst, const T *src, int n, int vec, cudaStream_t stream)
{
    switch (vec) {
    case 1: launch_copy<T, 1>(dst, src, n, stream); break;
    case 2: launch_copy<T, 2>(dst, src, n, stream); break;
    case 4: copy_vec<T, 4><<<(n + 1023) / 1024, 256, 0, stream>>>(dst, src, n); break;
    default: copy_vec<T, 8><<<(n + 2047) / 2048, 256, 0, stream>>>(dst, src, n); break;
    }
}

template __global__ void copy_vec<double, 2>(double *, const double *, int);
template void dispatch_copy<int8_t>(int8_t *, const int8_t *, int, int, cudaStream_t);

int main()
{
    const int n = 1 << 16;
    float *a, *b;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    for (int vec : {1, 2, 4, 8})
        dispatch_copy<float>(b, a, n, vec, 0);
    apply<float, Scale<float>><<<(n + 127) / 128, 128>>>(b, Scale<float>{0.5f}, n);
    apply<float, Scale<float>, 256><<<n / 256, 256>>>(b, Scale<float>{2.f}, n);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    cudaFree(a);
    cudaFree(b);
    return 0;
}
