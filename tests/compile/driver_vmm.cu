// hip-5.2: reported
// hip-7.2: reported
// Virtual memory management with the driver API: reserve an address range, create physical
// allocations with cuMemCreate, map them, grant access with cuMemSetAccess, then unmap and
// release (the growable-buffer pattern of allocators).
#include <cuda.h>
#include <cstdio>

#define DRV(call)                                                                           \
    do {                                                                                    \
        CUresult status_ = (call);                                                          \
        if (status_ != CUDA_SUCCESS) {                                                      \
            const char *s_ = nullptr;                                                       \
            cuGetErrorString(status_, &s_);                                                 \
            fprintf(stderr, "%s:%d %s -> %s\n", __FILE__, __LINE__, #call, s_);             \
            return 1;                                                                       \
        }                                                                                   \
    } while (0)

int main()
{
    DRV(cuInit(0));
    CUdevice dev;
    DRV(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    DRV(cuDevicePrimaryCtxRetain(&ctx, dev));
    DRV(cuCtxSetCurrent(ctx));

    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = dev;
    size_t gran = 0;
    DRV(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    const size_t chunk = gran * 4, reserve = chunk * 8;

    CUdeviceptr base = 0;
    DRV(cuMemAddressReserve(&base, reserve, 0, 0, 0));
    CUmemGenericAllocationHandle handles[2];
    for (int i = 0; i < 2; ++i) {
        DRV(cuMemCreate(&handles[i], chunk, &prop, 0));
        DRV(cuMemMap(base + i * chunk, chunk, 0, handles[i], 0));
    }
    CUmemAccessDesc access = {};
    access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    access.location.id = dev;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    DRV(cuMemSetAccess(base, 2 * chunk, &access, 1));
    DRV(cuMemsetD8(base, 0, 2 * chunk));
    DRV(cuCtxSynchronize());

    DRV(cuMemUnmap(base, 2 * chunk));
    for (int i = 0; i < 2; ++i)
        DRV(cuMemRelease(handles[i]));
    DRV(cuMemAddressFree(base, reserve));
    DRV(cuDevicePrimaryCtxRelease(dev));
    printf("granularity %zu\n", gran);
    return 0;
}
