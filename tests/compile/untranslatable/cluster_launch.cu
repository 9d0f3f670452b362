// Thread-block clusters (sm_90): cudaLaunchKernelEx with a cluster-dimension attribute and
// distributed shared memory through cooperative_groups::this_cluster().
// compile-flags: -arch=sm_90
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) pair_sum(float *out)
{
    __shared__ float v;
    cg::cluster_group cluster = cg::this_cluster();
    if (threadIdx.x == 0)
        v = (float)cluster.block_rank();
    cluster.sync();
    float *peer = cluster.map_shared_rank(&v, cluster.block_rank() ^ 1);
    if (threadIdx.x == 0)
        out[blockIdx.x] = v + *peer;
    cluster.sync();
}

__global__ void plain(float *out) { out[blockIdx.x] = 1.f; }

int main()
{
    float *out;
    cudaMalloc(&out, 64 * sizeof(float));
    pair_sum<<<64, 32>>>(out);

    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(64);
    cfg.blockDim = dim3(32);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = 4;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    cudaLaunchKernelEx(&cfg, plain, out);
    cudaDeviceSynchronize();
    return 0;
}
