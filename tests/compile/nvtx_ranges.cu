// hip-5.2: reported
// hip-7.2: reported
// Profiler annotations with NVTX v3: push/pop ranges around phases, a scoped RAII range,
// start/end ranges with colour attributes, markers and named threads.
#include <nvtx3/nvToolsExt.h>
#include <cuda_runtime.h>
#include <cstdio>

struct NvtxScope {
    explicit NvtxScope(const char *name) { nvtxRangePushA(name); }
    ~NvtxScope() { nvtxRangePop(); }
};

__global__ void work(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = sqrtf(p[i] + 1.f);
}

static nvtxRangeId_t colouredRange(const char *msg, uint32_t argb)
{
    nvtxEventAttributes_t attr = {};
    attr.version = NVTX_VERSION;
    attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attr.colorType = NVTX_COLOR_ARGB;
    attr.color = argb;
    attr.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attr.message.ascii = msg;
    return nvtxRangeStartEx(&attr);
}

int main()
{
    nvtxNameOsThreadA(0, "main");
    const int n = 1 << 20;
    float *d;
    {
        NvtxScope scope("alloc");
        cudaMalloc(&d, n * sizeof(float));
    }
    nvtxRangeId_t r = colouredRange("compute", 0xFF00FF00);
    for (int step = 0; step < 4; ++step) {
        nvtxRangePush("step");
        work<<<n / 256, 256>>>(d, n);
        nvtxMarkA("launched");
        nvtxRangePop();
    }
    cudaDeviceSynchronize();
    nvtxRangeEnd(r);
    cudaFree(d);
    return 0;
}
