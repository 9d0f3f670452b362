#pragma once
#include <cuda.h>
#include <helper_drv.h>
inline CUdevice init_rtc(int argc, const char **argv)
{
    return findCudaDeviceDRV(argc, argv);
}
