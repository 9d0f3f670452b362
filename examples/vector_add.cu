// vector_add.cu: a small CUDA program of the kind hipport translates.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                              \
    do {                                                                         \
        cudaError_t err_ = (call);                                               \
        if (err_ != cudaSuccess) {                                               \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                   \
                    cudaGetErrorString(err_));                                   \
            return 1;                                                            \
        }                                                                        \
    } while (0)

__constant__ float scale;

template <typename T>
__global__ void vector_add(const T *a, const T *b, T *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = scale * (a[i] + b[i]);
}

int main()
{
    const int n = 1 << 20;
    float *a, *b, *c;
    CHECK(cudaMalloc(&a, n * sizeof(float)));
    CHECK(cudaMalloc(&b, n * sizeof(float)));
    CHECK(cudaMalloc(&c, n * sizeof(float)));
    float s = 2.0f;
    CHECK(cudaMemcpyToSymbol(scale, &s, sizeof s));
    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));
    dim3 block(256), grid((n + block.x - 1) / block.x);
    vector_add<float><<<grid, block, 0, stream>>>(a, b, c, n); // "cudaLaunch" stays in strings
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(stream));
    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));
    printf("done\n");
    return 0;
}
