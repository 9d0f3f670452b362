#include <cuda_runtime.h>
void flush(cudaStream_t s) {
    cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                       cudaFlushGPUDirectRDMAWritesToOwner);
    cudaStreamSynchronize(s);
}
