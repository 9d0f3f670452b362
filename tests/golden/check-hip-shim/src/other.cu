#include "cuda_only.cuh"
#include "compat.cuh"
// compat.cuh defines atomicAdd for half2 only: a __half atomicAdd is still reported.
__global__ void g(unsigned *o, __half *h, __half v) {
    o[0] = __vabsdiffu4(o[1], o[2]);
    atomicAdd(h, v);
}
