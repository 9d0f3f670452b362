__global__ void kb(float *x) { x[0] = 1.0f; }
