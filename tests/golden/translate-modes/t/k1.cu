__global__ void k1(float *x) { cudaDeviceSynchronize(); }
