#include <cuda.h>
#include <helper_drv.h>
int main(int argc, const char **argv)
{
    checkCudaErrors(cuInit(0));
    CUdevice d = findCudaDeviceDRV(argc, argv);
    (void)d;
    return 0;
}
