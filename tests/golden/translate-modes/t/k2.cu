__global__ void k2(float *x) { cudaDeviceSynchronize(); }
