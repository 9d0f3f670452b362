__global__ void warp_sum(float *out, const float *in)
{
    float v = in[threadIdx.x];
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffff, v, o);
    if (threadIdx.x % 32 == 0)
        out[threadIdx.x / 32] = v;
}
