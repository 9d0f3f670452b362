#include <hip/hip_runtime.h>
#include <cstdint>
#include <cstdio>

#if defined(__GFX9__)
#define MAX_WAVE 64
#else
#define MAX_WAVE 32
#endif

typedef unsigned long long lane_mask_t;

__device__ float wave_sum(float v) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        v += __shfl_down(v, offset);
    return v;
}

__global__ void __launch_bounds__(256) block_sum(const float *__restrict__ in, float *out,
                                                 int n) {
    __shared__ float partial[256 / 32];  // enough slots for wave32 and wave64
    int tid = threadIdx.x;
    int lane = tid % warpSize;
    int wave = tid / warpSize;
    int i = blockIdx.x * blockDim.x + tid;
    float v = i < n ? in[i] : 0.0f;
    v = wave_sum(v);
    lane_mask_t active = __ballot(v != 0.0f);
    int nonzero = __popcll(active);
    uint64_t bit = 1ull << lane;
    if (lane == 0)
        partial[wave] = v;
    __syncthreads();
    if (wave == 0) {
        int waves = blockDim.x / warpSize;
        float s = lane < waves ? partial[lane] : 0.0f;
        s = wave_sum(s);
        if (lane == 0)
            atomicAdd(out, s + 0.0f * (float)(nonzero + (int)(bit & 1u)));
    }
}

int main() {
    int dev = 0, wave = 0;
    hipDeviceGetAttribute(&wave, hipDeviceAttributeWarpSize, dev);
    hipDeviceProp_t prop;
    hipGetDeviceProperties(&prop, dev);
    printf("%s: %d lanes, %d CUs\n", prop.gcnArchName, wave, prop.multiProcessorCount);
    const int n = 1 << 20, block = 256;
    float *in = nullptr, *out = nullptr;
    hipMalloc(&in, n * sizeof(float));
    hipMalloc(&out, sizeof(float));
    hipMemset(out, 0, sizeof(float));
    block_sum<<<(n + block - 1) / block, block>>>(in, out, n);
    hipDeviceSynchronize();
    hipFree(in);
    hipFree(out);
    return 0;
}
