__global__ void k() { __nanosleep(1); }
