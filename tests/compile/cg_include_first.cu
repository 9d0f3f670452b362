// A file that includes cooperative_groups.h as its first and only CUDA header (nvcc supplies
// the runtime) and uses the groups in device code and the runtime on the host.
#include <cooperative_groups.h>
#include <cstdio>

using namespace cooperative_groups;

__global__ void blockPrefix(int *data)
{
    thread_block tb = this_thread_block();
    extern __shared__ int buf[];
    unsigned int t = tb.thread_rank();
    buf[t] = data[blockIdx.x * tb.size() + t];
    tb.sync();
    for (unsigned int off = 1; off < tb.size(); off *= 2) {
        int add = t >= off ? buf[t - off] : 0;
        tb.sync();
        buf[t] += add;
        tb.sync();
    }
    data[blockIdx.x * tb.size() + t] = buf[t];
}

int main()
{
    int *d;
    cudaMalloc(&d, 1024 * sizeof(int));
    cudaMemset(d, 0, 1024 * sizeof(int));
    blockPrefix<<<4, 256, 256 * sizeof(int)>>>(d);
    cudaDeviceSynchronize();
    cudaFree(d);
    return 0;
}
