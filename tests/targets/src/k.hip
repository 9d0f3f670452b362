// k.hip: a HIP kernel that needs no device library (only __builtin_amdgcn_* calls), so that
// clang can build it with -nogpulib; the tests build it for many targets.
#include <hip/hip_runtime.h>

extern "C" __global__ void scale(float *x, float a, int n)
{
    int i = (int)(__builtin_amdgcn_workgroup_id_x() * 64u + __builtin_amdgcn_workitem_id_x());
    if (i < n)
        x[i] *= a;
}

#ifndef NO_MAIN
int main()
{
    float *p = nullptr;
    if (hipMalloc(&p, 256 * sizeof(float)) != hipSuccess)
        return 1;
    hipLaunchKernelGGL(scale, dim3(4), dim3(64), 0, 0, p, 2.0f, 256);
    return hipDeviceSynchronize() != hipSuccess;
}
#endif
