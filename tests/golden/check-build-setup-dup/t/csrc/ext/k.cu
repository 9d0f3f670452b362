__global__ void kk(float *x) { x[0] = 1.0f; }
