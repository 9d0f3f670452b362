// offload-arch: gfx1201
// A FNUZ FP8 type in device code: HIP has no device constructor for it on the OCP targets
// (gfx950 and gfx12; gfx1201 stands for them where the compiler predates gfx950).
#include <hip/hip_runtime.h>
#include <hip/hip_fp8.h>
__global__ void quant(__hip_fp8_storage_t *q, const float *x) {
    __hip_fp8_e4m3_fnuz v(x[threadIdx.x]);
    q[threadIdx.x] = v.__x;
}
