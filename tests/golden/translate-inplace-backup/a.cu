#include <cuda_runtime.h>
int main() { return cudaFree(0); }
