__global__ void k3(float *x) { cudaDeviceSynchronize(); }
