// RUN: %run_test hipify "%s" "%t" %hipify_args 1 --hip-kernel-execution-syntax %clang_args -std=c++17
// CHECK: #include <hip/hip_runtime.h>
__global__ void k(int *p) {}
void f(int *d, cudaStream_t s)
{
    // CHECK: hipStream_t t = s;
    // CHECK-NEXT: hipLaunchKernelGGL(k, dim3(1), dim3(2), 0, t, d);
    // CHECK-NOT: cudaMalloc
    // CHECK: hipMalloc({{\(void \*\*\)}}&d, 4);
    cudaStream_t t = s;
    k<<<1, 2, 0, t>>>(d);
    cudaMalloc((void **)&d, 4);
}
