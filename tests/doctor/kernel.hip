// kernel.hip: the one kernel of the stand-in PyTorch GPU libraries under roots/. It needs no
// device library, so it builds with -nogpulib (Debian's HIP has no device library for newer GPUs).
#include <hip/hip_runtime.h>

extern "C" __global__ void hipport_fill(int *p, int v)
{
    p[__builtin_amdgcn_workitem_id_x()] = v;
}
