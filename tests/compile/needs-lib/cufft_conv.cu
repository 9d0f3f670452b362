// FFT-based convolution with cuFFT: real-to-complex and complex-to-real plans (cufftPlan1d,
// cufftPlanMany for a batch), a pointwise complex multiply on cufftComplex, and a stream.
#include <cuda_runtime.h>
#include <cufft.h>
#include <cstdio>

#define CUFFT_CHECK(call)                                                                  \
    do {                                                                                   \
        cufftResult r_ = (call);                                                           \
        if (r_ != CUFFT_SUCCESS) {                                                         \
            fprintf(stderr, "%s failed: %d\n", #call, (int)r_);                            \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

__global__ void pointwise_mul(cufftComplex *a, const cufftComplex *b, int n, float scale)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        cufftComplex x = a[i], y = b[i];
        a[i].x = (x.x * y.x - x.y * y.y) * scale;
        a[i].y = (x.x * y.y + x.y * y.x) * scale;
    }
}

int main()
{
    const int n = 4096, batch = 16, nc = n / 2 + 1;
    cufftReal *signal, *kernel;
    cufftComplex *sigF, *kerF;
    cudaMalloc(&signal, sizeof(cufftReal) * n * batch);
    cudaMalloc(&kernel, sizeof(cufftReal) * n);
    cudaMalloc(&sigF, sizeof(cufftComplex) * nc * batch);
    cudaMalloc(&kerF, sizeof(cufftComplex) * nc);
    cudaStream_t stream;
    cudaStreamCreate(&stream);

    cufftHandle planKer, planFwd, planInv;
    CUFFT_CHECK(cufftPlan1d(&planKer, n, CUFFT_R2C, 1));
    int dims[1] = {n};
    CUFFT_CHECK(cufftPlanMany(&planFwd, 1, dims, nullptr, 1, n, nullptr, 1, nc, CUFFT_R2C, batch));
    CUFFT_CHECK(cufftPlanMany(&planInv, 1, dims, nullptr, 1, nc, nullptr, 1, n, CUFFT_C2R, batch));
    CUFFT_CHECK(cufftSetStream(planFwd, stream));
    CUFFT_CHECK(cufftSetStream(planInv, stream));
    CUFFT_CHECK(cufftExecR2C(planKer, kernel, kerF));
    CUFFT_CHECK(cufftExecR2C(planFwd, signal, sigF));
    for (int b = 0; b < batch; ++b)
        pointwise_mul<<<(nc + 255) / 256, 256, 0, stream>>>(sigF + b * nc, kerF, nc, 1.f / n);
    CUFFT_CHECK(cufftExecC2R(planInv, sigF, signal));
    cudaStreamSynchronize(stream);
    CUFFT_CHECK(cufftDestroy(planKer));
    CUFFT_CHECK(cufftDestroy(planFwd));
    CUFFT_CHECK(cufftDestroy(planInv));
    cudaStreamDestroy(stream);
    cudaFree(signal);
    cudaFree(kernel);
    cudaFree(sigF);
    cudaFree(kerF);
    return 0;
}
