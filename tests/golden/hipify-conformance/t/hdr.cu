// RUN: %run_test hipify "%s" "%t" %hipify_args %clang_args
// CHECK: #include "hipblas.h"
// CHECK: hipblasHandle_t h;
#include "cublas_v2.h"
cublasHandle_t h;
