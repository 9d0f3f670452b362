// RUN: %run_test hipify "%s" "%t" %hipify_args %clang_args
// CHECK: puts("hipFree");
// CHECK: hipFree(0);
#include <cstdio>
void f() { puts("cudaFree"); cudaFree(0); }
