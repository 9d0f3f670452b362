#include <cuda.h>
#include <cuda_runtime.h>
#include <helper_rt.h>
#include <helper_drv.h>
#ifdef __cuda_cuda_h__
static CUdevice pick(int argc, const char **argv) { return findCudaDeviceDRV(argc, argv); }
#endif
int main()
{
    checkCudaErrors(cudaDeviceSynchronize());
    return 0;
}
