// A math helper header's own component-wise operators on the vector types (helper_math.h
// style: float2 * float2, float2 / float2, float3 += float3, float4 -= float4), which HIP's
// vector types carry themselves, next to the scalar forms HIP has only as templates.
#include <cuda_runtime.h>

inline __host__ __device__ float2 operator*(float2 a, float2 b)
{
    return make_float2(a.x * b.x, a.y * b.y);
}
inline __host__ __device__ float2 operator/(float2 a, float2 b)
{
    return make_float2(a.x / b.x, a.y / b.y);
}
inline __host__ __device__ float2 operator-(float2 a, float2 b)
{
    return make_float2(a.x - b.x, a.y - b.y);
}
inline __host__ __device__ float2 operator*(float2 a, float b)
{
    return make_float2(a.x * b, a.y * b);
}
inline __host__ __device__ void operator+=(float3 &a, float3 b)
{
    a.x += b.x;
    a.y += b.y;
    a.z += b.z;
}
inline __host__ __device__ void operator-=(float4 &a, float4 b)
{
    a.x -= b.x;
    a.y -= b.y;
    a.z -= b.z;
    a.w -= b.w;
}
inline __host__ __device__ float2 smoothstep2(float2 a, float2 b, float2 x)
{
    float2 y = (x - a) / (b - a);
    return y * y * 0.5f;
}

__global__ void blend(float2 *v, float3 *p, float4 *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    v[i] = smoothstep2(v[0], v[1], v[i]) * v[i];
    p[i] += p[0];
    q[i] -= q[0];
}

int main()
{
    float2 *v;
    float3 *p;
    float4 *q;
    cudaMalloc(&v, 256 * sizeof(float2));
    cudaMalloc(&p, 256 * sizeof(float3));
    cudaMalloc(&q, 256 * sizeof(float4));
    blend<<<1, 256>>>(v, p, q, 256);
    cudaDeviceSynchronize();
    cudaFree(v);
    cudaFree(p);
    cudaFree(q);
    return 0;
}
