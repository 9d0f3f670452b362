// Built-in vector types: float4 / int4 vectorised loads via reinterpret_cast, uchar4 RGBA pixels,
// make_* constructors, double2, and alignment-checked fast paths.
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>

__global__ void rgba_to_gray(const uchar4 *rgba, unsigned char *gray, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        uchar4 p = rgba[i];
        gray[i] = (unsigned char)(0.299f * p.x + 0.587f * p.y + 0.114f * p.z);
    }
}

__global__ void add_vec4(float *out, const float *a, const float *b, int n)
{
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    if (i + 3 < n && ((uintptr_t)a % 16) == 0) {
        float4 va = *reinterpret_cast<const float4 *>(a + i);
        float4 vb = __ldg(reinterpret_cast<const float4 *>(b + i));
        reinterpret_cast<float4 *>(out)[i / 4] =
            make_float4(va.x + vb.x, va.y + vb.y, va.z + vb.z, va.w + vb.w);
    } else {
        for (int k = i; k < n && k < i + 4; ++k)
            out[k] = a[k] + b[k];
    }
}

__global__ void misc(int4 *i4, double2 *d2, short2 *s2, ulonglong2 *u2, dim3 *d3)
{
    int t = threadIdx.x;
    i4[t] = make_int4(t, t + 1, t + 2, t + 3);
    d2[t] = make_double2(t * 0.5, t * 0.25);
    s2[t] = make_short2((short)t, (short)-t);
    u2[t] = make_ulonglong2(t, ~0ull);
    if (t == 0)
        *d3 = dim3(gridDim.x, blockDim.x);
}

int main()
{
    const int n = 1 << 16;
    uchar4 *rgba;
    unsigned char *gray;
    float *a, *b, *o;
    cudaMalloc(&rgba, n * sizeof(uchar4));
    cudaMalloc(&gray, n);
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMalloc(&o, n * sizeof(float));
    rgba_to_gray<<<n / 256, 256>>>(rgba, gray, n);
    add_vec4<<<n / 4 / 256, 256>>>(o, a, b, n);
    int4 *i4;
    double2 *d2;
    short2 *s2;
    ulonglong2 *u2;
    dim3 *d3;
    cudaMalloc(&i4, 32 * sizeof(int4));
    cudaMalloc(&d2, 32 * sizeof(double2));
    cudaMalloc(&s2, 32 * sizeof(short2));
    cudaMalloc(&u2, 32 * sizeof(ulonglong2));
    cudaMalloc(&d3, sizeof(dim3));
    misc<<<1, 32>>>(i4, d2, s2, u2, d3);
    cudaDeviceSynchronize();
    float2 h = make_float2(1.f, 2.f);
    printf("%f\n", h.x + h.y);
    return 0;
}
