// assert in a kernel and in host code, with no header of its own: CUDA's runtime header brings
// it; from HIP 7.0 HIP's does not, and translate includes <cassert>.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void check_positive(const int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        assert(v[i] > 0);
}

int main()
{
    int *d = nullptr;
    assert(cudaMalloc(&d, 4 * sizeof(int)) == cudaSuccess);
    check_positive<<<1, 4>>>(d, 0);
    cudaDeviceSynchronize();
    cudaFree(d);
    std::printf("ok\n");
    return 0;
}
