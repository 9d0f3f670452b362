__global__ void k(float *v) {
    int lane = threadIdx.x & 31; // hipport-ignore: WAVE002
    // hipport-ignore: WAVE003, WAVE007
    v[lane] = __shfl_xor_sync(0xffffffff, v[lane], 1);
    /* hipport-ignore: ASM */ __nanosleep(10);
    v[0] = __shfl_xor_sync(0xffffffff, v[0], 2); // hipport-ignore: WAVE002
    __nanosleep(1);
}
