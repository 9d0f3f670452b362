// Tensor-core GEMM with the warp matrix API (mma.h): 16x16x16 half fragments, load_matrix_sync,
// mma_sync with float accumulators and store_matrix_sync, one warp per output tile.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

constexpr int WMMA_M = 16, WMMA_N = 16, WMMA_K = 16;

__global__ void wmma_gemm(const half *a, const half *b, float *c, int M, int N, int K)
{
    int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
    int warpN = blockIdx.y * blockDim.y + threadIdx.y;
    wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, half, wmma::row_major> aFrag;
    wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, half, wmma::col_major> bFrag;
    wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += WMMA_K) {
        int aRow = warpM * WMMA_M, bCol = warpN * WMMA_N;
        if (aRow < M && bCol < N) {
            wmma::load_matrix_sync(aFrag, a + aRow * K + k, K);
            wmma::load_matrix_sync(bFrag, b + bCol * K + k, K);
            wmma::mma_sync(acc, aFrag, bFrag, acc);
        }
    }
    int cRow = warpM * WMMA_M, cCol = warpN * WMMA_N;
    if (cRow < M && cCol < N)
        wmma::store_matrix_sync(c + cRow * N + cCol, acc, N, wmma::mem_row_major);
}

int main()
{
    const int M = 256, N = 256, K = 256;
    half *a, *b;
    float *c;
    cudaMalloc(&a, M * K * sizeof(half));
    cudaMalloc(&b, K * N * sizeof(half));
    cudaMalloc(&c, M * N * sizeof(float));
    dim3 block(128, 4), grid((M + (WMMA_M * 128 / 32) - 1) / (WMMA_M * 128 / 32),
                             (N + WMMA_N * 4 - 1) / (WMMA_N * 4));
    wmma_gemm<<<grid, block>>>(a, b, c, M, N, K);
    cudaDeviceSynchronize();
    return 0;
}
