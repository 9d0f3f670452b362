__global__ void k() { cudaDeviceSynchronize(); }
