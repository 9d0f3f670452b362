// RUN: %run_test hipify "%s" "%t" %hipify_args "--roc" %clang_args
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NOT: hip
// CHECK: int x;
#include <cuda_runtime.h>
int x;
