// Host work ordered in streams: cudaLaunchHostFunc and the older cudaStreamAddCallback, with
// a user-data struct and CUDART_CB callbacks.
#include <cuda_runtime.h>
#include <atomic>
#include <cstdio>

struct Progress {
    std::atomic<int> done{0};
    const char *tag;
};

static void CUDART_CB onHost(void *userData)
{
    Progress *p = static_cast<Progress *>(userData);
    p->done.fetch_add(1);
}

static void CUDART_CB onStream(cudaStream_t stream, cudaError_t status, void *userData)
{
    (void)stream;
    Progress *p = static_cast<Progress *>(userData);
    if (status != cudaSuccess)
        fprintf(stderr, "%s: %s\n", p->tag, cudaGetErrorString(status));
    p->done.fetch_add(1);
}

__global__ void tick(unsigned long long *c) { atomicAdd(c, 1ull); }

int main()
{
    Progress progress;
    progress.tag = "batch";
    unsigned long long *counter;
    cudaMalloc(&counter, sizeof *counter);
    cudaMemset(counter, 0, sizeof *counter);
    cudaStream_t s;
    cudaStreamCreate(&s);
    for (int i = 0; i < 3; ++i) {
        tick<<<1, 64, 0, s>>>(counter);
        cudaLaunchHostFunc(s, onHost, &progress);
        cudaStreamAddCallback(s, onStream, &progress, 0);
    }
    cudaStreamSynchronize(s);
    printf("%d host callbacks ran\n", progress.done.load());
    cudaStreamDestroy(s);
    cudaFree(counter);
    return 0;
}
