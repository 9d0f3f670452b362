// Device symbols reached through templates and namespaces: a namespaced __constant__ struct of
// parameters, a templated copy helper that takes the symbol by reference, and a __device__
// array whose address is taken with cudaGetSymbolAddress.
#include <cuda_runtime.h>
#include <cstdio>

namespace params {
struct Model {
    int layers;
    float eps;
    float scale[8];
};
__constant__ Model c_model;
__device__ int d_hist[64];
} // namespace params

template <typename Sym, typename T>
cudaError_t upload(const Sym &symbol, const T &value)
{
    return cudaMemcpyToSymbol(symbol, &value, sizeof(T));
}

__global__ void use_model(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] = x[i] * params::c_model.scale[i % 8] + params::c_model.eps;
        atomicAdd(&params::d_hist[i % 64], 1);
    }
}

int main()
{
    params::Model m = {12, 1e-5f, {1, 1, 1, 1, 2, 2, 2, 2}};
    if (upload(params::c_model, m) != cudaSuccess)
        return 1;
    int *hist = nullptr;
    cudaGetSymbolAddress(reinterpret_cast<void **>(&hist), params::d_hist);
    cudaMemset(hist, 0, sizeof(int) * 64);
    float *x;
    cudaMalloc(&x, 1024 * sizeof(float));
    use_model<<<4, 256>>>(x, 1024);
    int h[64];
    cudaMemcpyFromSymbol(h, params::d_hist, sizeof h, 0, cudaMemcpyDeviceToHost);
    printf("hist[0] = %d\n", h[0]);
    cudaFree(x);
    return 0;
}
