// The FP8 type chosen per target: the format the device pass has.
#include <hip/hip_runtime.h>
#include <hip/hip_fp8.h>
#if HIP_FP8_TYPE_FNUZ
typedef __hip_fp8_e4m3_fnuz fp8_t;
#else
typedef __hip_fp8_e4m3 fp8_t;
#endif
__global__ void quant(__hip_fp8_storage_t *q, const float *x) {
    fp8_t v(x[threadIdx.x]);
    q[threadIdx.x] = v.__x;
}
