// FP8 storage for quantised inference: __nv_fp8_e4m3 / __nv_fp8_e5m2 from cuda_fp8.h with
// per-tensor scaling and saturating conversion.
#include <cuda_fp8.h>
#include <cuda_runtime.h>

__global__ void quantize(const float *x, __nv_fp8_e4m3 *q, float scale, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        q[i] = __nv_fp8_e4m3(x[i] * scale);
}

__global__ void dequantize(const __nv_fp8_e5m2 *q, float *x, float inv_scale, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = float(q[i]) * inv_scale;
}

__global__ void raw_convert(const float2 *x, __nv_fp8x2_storage_t *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = __nv_cvt_float2_to_fp8x2(x[i], __NV_SATFINITE, __NV_E4M3);
}

int main()
{
    float *x;
    __nv_fp8_e4m3 *q;
    cudaMalloc(&x, 1024 * sizeof(float));
    cudaMalloc(&q, 1024);
    quantize<<<4, 256>>>(x, q, 448.f, 1024);
    dequantize<<<4, 256>>>(reinterpret_cast<const __nv_fp8_e5m2 *>(q), x, 1.f / 448.f, 1024);
    raw_convert<<<2, 256>>>(reinterpret_cast<const float2 *>(x), reinterpret_cast<__nv_fp8x2_storage_t *>(q), 512);
    cudaDeviceSynchronize();
    return 0;
}
