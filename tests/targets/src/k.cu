// k.cu: a CUDA kernel the tests build for several NVIDIA targets.
extern "C" __global__ void scale(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= a;
}

#ifndef NO_MAIN
int main()
{
    float *p = nullptr;
    if (cudaMalloc(&p, 256 * sizeof(float)) != cudaSuccess)
        return 1;
    scale<<<4, 64>>>(p, 2.0f, 256);
    return cudaDeviceSynchronize() != cudaSuccess;
}
#endif
