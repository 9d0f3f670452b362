__global__ void ka(float *x) { x[0] = 1.0f; }
