// driver-API helpers, compiled only where cuda.h (its include guard) came first
#pragma once
#include <stdio.h>
#ifdef __cuda_cuda_h__
#ifndef checkCudaErrors
#define checkCudaErrors(err) check_drv(err, __LINE__)
inline void check_drv(CUresult e, int line)
{
    if (e != CUDA_SUCCESS)
        printf("error at %d\n", line);
}
#endif
inline CUdevice findCudaDeviceDRV(int argc, const char **argv)
{
    CUdevice d;
    cuDeviceGet(&d, 0);
    return d;
}
#endif
