// OpenMP host code driving several GPUs: one host thread per device in a parallel-for, each
// setting its device, plus an OpenMP-parallel host reference loop.
// nvcc-flags: -Xcompiler -fopenmp
// hipcc-flags: -fopenmp
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

__global__ void square(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= x[i];
}

int main()
{
    int nGpus = 0;
    cudaGetDeviceCount(&nGpus);
    if (nGpus < 1)
        return 0;
    const int n = 1 << 20;
    std::vector<float> host(n, 2.f), ref(n);

#pragma omp parallel for
    for (int i = 0; i < n; ++i)
        ref[i] = host[i] * host[i];

    const int per = n / nGpus;
#pragma omp parallel for num_threads(nGpus) schedule(static, 1)
    for (int g = 0; g < nGpus; ++g) {
        cudaSetDevice(g);
        float *d = nullptr;
        cudaMalloc(&d, per * sizeof(float));
        cudaMemcpy(d, host.data() + g * per, per * sizeof(float), cudaMemcpyHostToDevice);
        square<<<(per + 255) / 256, 256>>>(d, per);
        cudaMemcpy(host.data() + g * per, d, per * sizeof(float), cudaMemcpyDeviceToHost);
        cudaFree(d);
    }

    long mismatches = 0;
#pragma omp parallel for reduction(+ : mismatches)
    for (int i = 0; i < per * nGpus; ++i)
        mismatches += host[i] != ref[i];
    printf("%ld mismatches\n", mismatches);
    return mismatches != 0;
}
