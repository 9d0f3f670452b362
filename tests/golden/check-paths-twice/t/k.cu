#define WARP_SIZE 32
__global__ void k(int *p) {
    unsigned m = __ballot_sync(0xffffffff, p[threadIdx.x] > 0);
    p[0] = __popc(m);
}
