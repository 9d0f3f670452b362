// common/timer.cuh: a small event-based GPU timer class used by benchmarks.
#pragma once
#include <cuda_runtime.h>

class GpuTimer {
public:
    explicit GpuTimer(cudaStream_t stream = 0) : stream_(stream)
    {
        cudaEventCreate(&start_);
        cudaEventCreate(&stop_);
    }
    ~GpuTimer()
    {
        cudaEventDestroy(start_);
        cudaEventDestroy(stop_);
    }
    GpuTimer(const GpuTimer &) = delete;
    GpuTimer &operator=(const GpuTimer &) = delete;

    void start() { cudaEventRecord(start_, stream_); }
    void stop() { cudaEventRecord(stop_, stream_); }
    float elapsedMs()
    {
        float ms = 0.f;
        cudaEventSynchronize(stop_);
        cudaEventElapsedTime(&ms, start_, stop_);
        return ms;
    }

private:
    cudaStream_t stream_;
    cudaEvent_t start_, stop_;
};
