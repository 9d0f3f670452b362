__global__ void k() { __trap(); }
