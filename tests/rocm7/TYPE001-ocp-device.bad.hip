// An OCP FP8 type in device code: on gfx942 HIP gives it no device conversions (and its one
// device constructor, from short, compiles to a trap).
#include <hip/hip_runtime.h>
#include <hip/hip_fp8.h>
__global__ void roundtrip(float *y, const __hip_fp8_storage_t *q) {
    __hip_fp8_e4m3 v;
    v.__x = q[threadIdx.x];
    y[threadIdx.x] = float(v);
}
