// Driver API host program: cuInit, primary context, loading a module from a file and from an
// image in memory, looking up functions and globals, and cuLaunchKernel with a parameter array.
#include <cuda.h>
#include <cstdio>
#include <cstring>
#include <vector>
#include "common/check.cuh"

static const char *kModulePath = "kernels.cubin";

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : kModulePath;
    checkCudaErrors(cuInit(0));
    int devCount = 0;
    checkCudaErrors(cuDeviceGetCount(&devCount));
    if (devCount == 0) {
        fprintf(stderr, "no CUDA device\n");
        return 1;
    }
    CUdevice dev;
    checkCudaErrors(cuDeviceGet(&dev, 0));
    char name[256];
    checkCudaErrors(cuDeviceGetName(name, sizeof name, dev));
    int major = 0, minor = 0;
    checkCudaErrors(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    checkCudaErrors(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    printf("device: %s (%d.%d)\n", name, major, minor);

    CUcontext ctx;
    checkCudaErrors(cuDevicePrimaryCtxRetain(&ctx, dev));
    checkCudaErrors(cuCtxSetCurrent(ctx));

    CUmodule module;
    checkCudaErrors(cuModuleLoad(&module, path));
    CUfunction scale;
    checkCudaErrors(cuModuleGetFunction(&scale, module, "scale"));
    CUdeviceptr gFactor;
    size_t gFactorBytes = 0;
    checkCudaErrors(cuModuleGetGlobal(&gFactor, &gFactorBytes, module, "g_factor"));
    float factor = 3.0f;
    checkCudaErrors(cuMemcpyHtoD(gFactor, &factor, sizeof factor));

    const int n = 1 << 12;
    std::vector<float> host(n, 1.0f);
    CUdeviceptr dData;
    checkCudaErrors(cuMemAlloc(&dData, n * sizeof(float)));
    checkCudaErrors(cuMemcpyHtoD(dData, host.data(), n * sizeof(float)));

    int count = n;
    void *args[] = {&dData, &count};
    checkCudaErrors(cuLaunchKernel(scale, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, args,
                                   nullptr));
    checkCudaErrors(cuCtxSynchronize());
    checkCudaErrors(cuMemcpyDtoH(host.data(), dData, n * sizeof(float)));

    checkCudaErrors(cuMemFree(dData));
    checkCudaErrors(cuModuleUnload(module));
    checkCudaErrors(cuDevicePrimaryCtxRelease(dev));
    return host[0] == 3.0f ? 0 : 1;
}
