// Streams and events as overlap pipelines use them: priorities, non-blocking streams, events
// created with flags (including the C++ two-argument cudaEventCreate overload), cross-stream
// waits, queries and elapsed time, and the per-thread default stream.
#include <cuda_runtime.h>
#include <cstdio>
#include "common/check.cuh"

__global__ void busy(float *p, int n, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = p[i];
    for (int k = 0; k < iters; ++k)
        v = v * 0.999f + 0.001f;
    p[i] = v;
}

int main()
{
    const int nStreams = 4;
    const int n = 1 << 20;
    const int chunk = n / nStreams;
    float *h = nullptr, *d = nullptr;
    checkCudaErrors(cudaMallocHost(&h, n * sizeof(float)));
    checkCudaErrors(cudaMalloc(&d, n * sizeof(float)));

    int lo = 0, hi = 0;
    checkCudaErrors(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    cudaStream_t streams[nStreams];
    for (int s = 0; s < nStreams; ++s)
        checkCudaErrors(cudaStreamCreateWithPriority(&streams[s], cudaStreamNonBlocking,
                                                     s == 0 ? hi : lo));

    cudaEvent_t start, stop, done[nStreams];
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreate(&stop, cudaEventBlockingSync));
    for (int s = 0; s < nStreams; ++s)
        checkCudaErrors(cudaEventCreateWithFlags(&done[s], cudaEventDisableTiming));

    checkCudaErrors(cudaEventRecord(start, streams[0]));
    for (int s = 0; s < nStreams; ++s) {
        float *hp = h + s * chunk, *dp = d + s * chunk;
        checkCudaErrors(cudaMemcpyAsync(dp, hp, chunk * sizeof(float), cudaMemcpyHostToDevice,
                                        streams[s]));
        busy<<<chunk / 256, 256, 0, streams[s]>>>(dp, chunk, 100);
        checkCudaErrors(cudaMemcpyAsync(hp, dp, chunk * sizeof(float), cudaMemcpyDeviceToHost,
                                        streams[s]));
        checkCudaErrors(cudaEventRecord(done[s], streams[s]));
        checkCudaErrors(cudaStreamWaitEvent(streams[0], done[s], 0));
    }
    checkCudaErrors(cudaEventRecord(stop, streams[0]));
    while (cudaEventQuery(stop) == cudaErrorNotReady) {
    }
    checkCudaErrors(cudaEventSynchronize(stop));
    float ms = 0.f;
    checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
    printf("pipeline: %.3f ms\n", ms);

    busy<<<n / 256, 256, 0, cudaStreamPerThread>>>(d, n, 1);
    checkCudaErrors(cudaStreamSynchronize(cudaStreamPerThread));
    busy<<<n / 256, 256, 0, cudaStreamLegacy>>>(d, n, 1);
    if (cudaStreamQuery(streams[1]) == cudaSuccess)
        printf("stream 1 idle\n");
    unsigned int flags = 0;
    int prio = 0;
    checkCudaErrors(cudaStreamGetFlags(streams[0], &flags));
    checkCudaErrors(cudaStreamGetPriority(streams[0], &prio));

    for (int s = 0; s < nStreams; ++s) {
        checkCudaErrors(cudaStreamDestroy(streams[s]));
        checkCudaErrors(cudaEventDestroy(done[s]));
    }
    checkCudaErrors(cudaEventDestroy(start));
    checkCudaErrors(cudaEventDestroy(stop));
    checkCudaErrors(cudaFreeHost(h));
    checkCudaErrors(cudaFree(d));
    return 0;
}
