// RUN: %run_test hipify "%s" "%t" %hipify_args %clang_args
// CHECK: hipMalloc(&p, 4);
// CHECK-NEXT: hipFree(p);
// CHECK-NEXT: hipDeviceSynchronize();
// CHECK: printf("hipMalloc failed");
// CHECK-NOT: cuda
// CHECK: return 0;
#include <cstdio>
int main() {
    void *p;
    cudaMalloc(&p, 4);
    cudaDeviceSynchronize();
    cudaFree(p);
    printf("cudaMalloc failed");
    return 0;
}
