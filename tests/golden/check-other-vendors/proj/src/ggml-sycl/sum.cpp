// the SYCL backend: sub-groups of 32, not a wavefront
#define WARP_SIZE 32
__device__ unsigned mask = __ballot_sync(0xffffffff, 1);
