#define WARP_SIZE 32
__global__ void k(int *o, float *v) {
    o[threadIdx.x & 31] = __popc(__ballot(v[0] > 0));
    __shared__ float big[20000];
    v[0] = big[threadIdx.x];
}
texture<float, 1, cudaReadModeElementType> tex;
