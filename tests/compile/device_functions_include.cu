// Legacy explicit includes of CUDA's internal headers: device_functions.h, vector_types.h,
// driver_types.h and cuda_runtime_api.h named one by one, as older code bases do.
#include <cuda_runtime_api.h>
#include <driver_types.h>
#include <vector_types.h>
#include <device_functions.h>
#include <cstdio>

__global__ void kernel(int2 *out)
{
    __syncthreads();
    out[threadIdx.x] = make_int2(threadIdx.x, __mul24(threadIdx.x, 2));
}

int main()
{
    int2 *d;
    cudaMalloc(&d, 64 * sizeof(int2));
    kernel<<<1, 64>>>(d);
    cudaDeviceSynchronize();
    cudaFree(d);
    printf("ok\n");
    return 0;
}
