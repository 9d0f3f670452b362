// Templated dynamic shared memory: a SharedMemory<T> helper struct with per-type extern
// __shared__ declarations (so that one kernel template can use float and double buffers).
#include <cuda_runtime.h>
#include <cstdio>

template <class T>
struct SharedMemory {
    __device__ inline operator T *()
    {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
    __device__ inline operator const T *() const
    {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
};

template <>
struct SharedMemory<double> {
    __device__ inline operator double *()
    {
        extern __shared__ double __smem_d[];
        return (double *)__smem_d;
    }
};

template <class T>
__global__ void reduce(const T *g_idata, T *g_odata, unsigned int n)
{
    T *sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = sdata[0];
}

template <class T>
void runReduce(int n, int threads)
{
    T *in, *out;
    int blocks = (n + threads - 1) / threads;
    cudaMalloc(&in, n * sizeof(T));
    cudaMalloc(&out, blocks * sizeof(T));
    int smemSize = (threads <= 32) ? 2 * threads * sizeof(T) : threads * sizeof(T);
    reduce<T><<<blocks, threads, smemSize>>>(in, out, n);
    cudaDeviceSynchronize();
    cudaFree(in);
    cudaFree(out);
}

int main()
{
    runReduce<float>(1 << 20, 256);
    runReduce<double>(1 << 20, 128);
    runReduce<int>(1 << 18, 512);
    printf("done\n");
    return 0;
}
