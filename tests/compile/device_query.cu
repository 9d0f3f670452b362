// hip-5.2: reported
// A deviceQuery-like report: cudaGetDeviceProperties fields, attributes queried one by one
// (clock rates moved out of cudaDeviceProp), PCI bus id, cache and limit configuration.
#include <cuda_runtime.h>
#include <cstdio>

int main()
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        printf("There are no available device(s) that support CUDA\n");
        return 0;
    }
    for (int dev = 0; dev < count; ++dev) {
        cudaSetDevice(dev);
        cudaDeviceProp prop;
        cudaGetDeviceProperties(&prop, dev);
        int clockKHz = 0, memClockKHz = 0, busWidth = 0, l2 = 0;
        cudaDeviceGetAttribute(&clockKHz, cudaDevAttrClockRate, dev);
        cudaDeviceGetAttribute(&memClockKHz, cudaDevAttrMemoryClockRate, dev);
        cudaDeviceGetAttribute(&busWidth, cudaDevAttrGlobalMemoryBusWidth, dev);
        cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev);
        char busId[32];
        cudaDeviceGetPCIBusId(busId, sizeof busId, dev);
        printf("Device %d: \"%s\" [%s]\n", dev, prop.name, busId);
        printf("  CUDA Capability Major/Minor version number:    %d.%d\n", prop.major, prop.minor);
        printf("  Total amount of global memory:                 %zu bytes\n", prop.totalGlobalMem);
        printf("  Multiprocessors:                               %d\n", prop.multiProcessorCount);
        printf("  GPU Max Clock rate:                            %.0f MHz\n", clockKHz * 1e-3f);
        printf("  Memory Clock rate / bus width:                 %.0f MHz / %d-bit\n",
               memClockKHz * 1e-3f, busWidth);
        printf("  L2 Cache Size:                                 %d bytes\n", l2);
        printf("  Total shared memory per block:                 %zu bytes\n", prop.sharedMemPerBlock);
        printf("  Shared memory per block (opt-in):              %zu bytes\n",
               prop.sharedMemPerBlockOptin);
        printf("  Registers per block:                           %d\n", prop.regsPerBlock);
        printf("  Warp size:                                     %d\n", prop.warpSize);
        printf("  Max threads per multiprocessor:                %d\n",
               prop.maxThreadsPerMultiProcessor);
        printf("  Max threads per block:                         %d\n", prop.maxThreadsPerBlock);
        printf("  Max block dims:                                (%d, %d, %d)\n",
               prop.maxThreadsDim[0], prop.maxThreadsDim[1], prop.maxThreadsDim[2]);
        printf("  Max grid dims:                                 (%d, %d, %d)\n",
               prop.maxGridSize[0], prop.maxGridSize[1], prop.maxGridSize[2]);
        printf("  Concurrent copy engines:                       %d\n", prop.asyncEngineCount);
        printf("  Unified addressing:                            %s\n",
               prop.unifiedAddressing ? "Yes" : "No");
        printf("  Managed memory:                                %s\n",
               prop.managedMemory ? "Yes" : "No");
        printf("  ECC enabled:                                   %s\n", prop.ECCEnabled ? "Yes" : "No");
        printf("  PCI domain/bus/device:                         %d / %d / %d\n", prop.pciDomainID,
               prop.pciBusID, prop.pciDeviceID);
    }
    cudaDeviceProp want = {};
    want.major = 8;
    int chosen = -1;
    cudaChooseDevice(&chosen, &want);
    cudaDeviceSetCacheConfig(cudaFuncCachePreferShared);
    cudaDeviceSetLimit(cudaLimitStackSize, 4096);
    cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 << 20);
    size_t stack = 0;
    cudaDeviceGetLimit(&stack, cudaLimitStackSize);
    printf("chosen %d, stack %zu\n", chosen, stack);
    return 0;
}
