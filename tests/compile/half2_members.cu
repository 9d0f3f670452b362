// A half2's lanes read through its members: (float)v.x and (float)v.y to take the larger and
// smaller lane of a packed pair in a reduction kernel, and a __half2 parameter's lane.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void lane_spread(const __half2 *in, float *out, __half2 bias, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    half2 v = __hadd2(in[i], bias);
    float hi = fmaxf((float)v.x, (float)v.y);
    float lo = fminf((float)v.x, (float)v.y);
    out[i] = hi - lo + (float)bias.x;
}

int main()
{
    __half2 *in;
    float *out;
    cudaMalloc(&in, 64 * sizeof(__half2));
    cudaMalloc(&out, 64 * sizeof(float));
    lane_spread<<<1, 64>>>(in, out, __float2half2_rn(0.5f), 64);
    cudaDeviceSynchronize();
    cudaFree(in);
    cudaFree(out);
    return 0;
}
