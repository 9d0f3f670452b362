#include <cuda_runtime.h>
void f(cudaStream_t s) {
    cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                       cudaFlushGPUDirectRDMAWritesToOwner);
    cudaStreamSynchronize(s);
}
