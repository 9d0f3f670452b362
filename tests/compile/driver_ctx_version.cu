// hip-5.2: reported
// hip-7.2: reported
// Driver API context management written for several CUDA releases: CUDA_VERSION selects the
// cuCtxCreate signature (CUDA 13 added a parameters argument); cuMemGetInfo, streams, events.
#include <cuda.h>
#include <cstdio>
#include <cstdlib>

#define CU_CHECK(expr)                                                                      \
    do {                                                                                    \
        CUresult r_ = (expr);                                                               \
        if (r_ != CUDA_SUCCESS) {                                                           \
            const char *msg_ = nullptr;                                                     \
            cuGetErrorString(r_, &msg_);                                                    \
            fprintf(stderr, "%s failed: %s\n", #expr, msg_ ? msg_ : "?");                   \
            std::abort();                                                                   \
        }                                                                                   \
    } while (0)

static CUcontext createContext(CUdevice dev)
{
    CUcontext ctx = nullptr;
#if CUDA_VERSION >= 13000
    CU_CHECK(cuCtxCreate(&ctx, nullptr, CU_CTX_SCHED_BLOCKING_SYNC, dev));
#else
    CU_CHECK(cuCtxCreate(&ctx, CU_CTX_SCHED_BLOCKING_SYNC, dev));
#endif
    return ctx;
}

int main()
{
    CU_CHECK(cuInit(0));
    int driverVersion = 0;
    CU_CHECK(cuDriverGetVersion(&driverVersion));
    printf("driver %d.%d, built against %d\n", driverVersion / 1000, (driverVersion % 100) / 10,
           CUDA_VERSION);
    CUdevice dev;
    CU_CHECK(cuDeviceGet(&dev, 0));
    size_t totalMem = 0;
    CU_CHECK(cuDeviceTotalMem(&totalMem, dev));

    CUcontext ctx = createContext(dev);
    CU_CHECK(cuCtxPushCurrent(ctx));
    size_t freeMem = 0, total = 0;
    CU_CHECK(cuMemGetInfo(&freeMem, &total));
    printf("%zu of %zu bytes free\n", freeMem, totalMem);

    CUstream stream;
    CU_CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    CUevent start, stop;
    CU_CHECK(cuEventCreate(&start, CU_EVENT_DEFAULT));
    CU_CHECK(cuEventCreate(&stop, CU_EVENT_DEFAULT));
    CUdeviceptr buf;
    CU_CHECK(cuMemAlloc(&buf, 1 << 20));
    CU_CHECK(cuEventRecord(start, stream));
    CU_CHECK(cuMemsetD32Async(buf, 0u, (1 << 20) / 4, stream));
    CU_CHECK(cuEventRecord(stop, stream));
    CU_CHECK(cuStreamSynchronize(stream));
    float ms = 0.f;
    CU_CHECK(cuEventElapsedTime(&ms, start, stop));
    printf("memset: %.3f ms\n", ms);

    CU_CHECK(cuMemFree(buf));
    CU_CHECK(cuEventDestroy(start));
    CU_CHECK(cuEventDestroy(stop));
    CU_CHECK(cuStreamDestroy(stream));
    CUcontext popped;
    CU_CHECK(cuCtxPopCurrent(&popped));
    CU_CHECK(cuCtxDestroy(ctx));
    return 0;
}
