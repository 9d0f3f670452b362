// A .cu file that includes no CUDA header at all and relies on nvcc pre-including the
// runtime: kernels, built-in variables and runtime calls appear without any #include.
#include <stdio.h>

__global__ void iota(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = i;
}

int main(void)
{
    int *d = 0;
    const int n = 1000;
    if (cudaMalloc((void **)&d, n * sizeof(int)) != cudaSuccess)
        return 1;
    iota<<<(n + 127) / 128, 128>>>(d, n);
    int last = 0;
    cudaMemcpy(&last, d + n - 1, sizeof(int), cudaMemcpyDeviceToHost);
    printf("last = %d\n", last);
    cudaFree(d);
    return last == n - 1 ? 0 : 1;
}
