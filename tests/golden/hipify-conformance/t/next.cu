// RUN: %run_test hipify "%s" "%t" %hipify_args %clang_args
// CHECK: hipError_t e;
// CHECK-NEXT: hipFree(0);
cudaError_t e;

void g() { cudaFree(0); }
