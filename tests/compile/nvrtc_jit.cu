// Runtime compilation: NVRTC compiles a kernel held in a string, the driver API loads the
// result with cuModuleLoadDataEx and launches it (the JIT path of many libraries).
#include <cuda.h>
#include <nvrtc.h>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define NVRTC_SAFE_CALL(x)                                                                  \
    do {                                                                                    \
        nvrtcResult result = x;                                                             \
        if (result != NVRTC_SUCCESS) {                                                      \
            fprintf(stderr, "error: " #x " failed with error %s\n",                          \
                    nvrtcGetErrorString(result));                                           \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

#define CUDA_SAFE_CALL(x)                                                                   \
    do {                                                                                    \
        CUresult result = x;                                                                \
        if (result != CUDA_SUCCESS) {                                                       \
            const char *msg;                                                                \
            cuGetErrorName(result, &msg);                                                   \
            fprintf(stderr, "error: " #x " failed with error %s\n", msg);                   \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

static const char *kSaxpy = R"(
extern "C" __global__ void saxpy(float a, const float *x, float *y, size_t n)
{
    size_t tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n)
        y[tid] = a * x[tid] + y[tid];
}
)";

int main()
{
    nvrtcProgram prog;
    NVRTC_SAFE_CALL(nvrtcCreateProgram(&prog, kSaxpy, "saxpy.cu", 0, nullptr, nullptr));
    const char *opts[] = {"--std=c++17", "-default-device"};
    nvrtcResult compileResult = nvrtcCompileProgram(prog, 2, opts);
    size_t logSize = 0;
    NVRTC_SAFE_CALL(nvrtcGetProgramLogSize(prog, &logSize));
    if (logSize > 1) {
        std::string log(logSize, '\0');
        NVRTC_SAFE_CALL(nvrtcGetProgramLog(prog, &log[0]));
        fprintf(stderr, "%s\n", log.c_str());
    }
    if (compileResult != NVRTC_SUCCESS)
        return 1;
    size_t ptxSize = 0;
    NVRTC_SAFE_CALL(nvrtcGetPTXSize(prog, &ptxSize));
    std::vector<char> ptx(ptxSize);
    NVRTC_SAFE_CALL(nvrtcGetPTX(prog, ptx.data()));
    NVRTC_SAFE_CALL(nvrtcDestroyProgram(&prog));

    CUDA_SAFE_CALL(cuInit(0));
    CUdevice device;
    CUcontext context;
    CUDA_SAFE_CALL(cuDeviceGet(&device, 0));
    CUDA_SAFE_CALL(cuDevicePrimaryCtxRetain(&context, device));
    CUDA_SAFE_CALL(cuCtxSetCurrent(context));
    CUmodule module;
    CUDA_SAFE_CALL(cuModuleLoadDataEx(&module, ptx.data(), 0, nullptr, nullptr));
    CUfunction kernel;
    CUDA_SAFE_CALL(cuModuleGetFunction(&kernel, module, "saxpy"));

    size_t n = 1024;
    CUdeviceptr dX, dY;
    CUDA_SAFE_CALL(cuMemAlloc(&dX, n * sizeof(float)));
    CUDA_SAFE_CALL(cuMemAlloc(&dY, n * sizeof(float)));
    float a = 2.0f;
    void *args[] = {&a, &dX, &dY, &n};
    CUDA_SAFE_CALL(cuLaunchKernel(kernel, (unsigned)(n / 128), 1, 1, 128, 1, 1, 0, NULL, args, 0));
    CUDA_SAFE_CALL(cuCtxSynchronize());
    CUDA_SAFE_CALL(cuMemFree(dX));
    CUDA_SAFE_CALL(cuMemFree(dY));
    CUDA_SAFE_CALL(cuModuleUnload(module));
    CUDA_SAFE_CALL(cuDevicePrimaryCtxRelease(device));
    return 0;
}
