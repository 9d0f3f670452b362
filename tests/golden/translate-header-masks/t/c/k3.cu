__global__ void k3(float *x, unsigned FULL) {
    x[0] = __shfl_xor_sync(FULL, x[0], 2);
}
