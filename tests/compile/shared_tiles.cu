// Shared-memory tiling: a padded 32x33 tile transpose (TILE_DIM / BLOCK_ROWS constants) and a
// tiled SGEMM with static __shared__ arrays, __syncthreads and #pragma unroll.
#include <cuda_runtime.h>
#include <cstdio>

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transposeNoBankConflicts(float *odata, const float *idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < height && y + j < width)
            odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

template <int BLOCK_SIZE>
__global__ void matrixMulShared(float *C, const float *A, const float *B, int wA, int wB)
{
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int aBegin = wA * BLOCK_SIZE * by, aEnd = aBegin + wA - 1, aStep = BLOCK_SIZE;
    int bBegin = BLOCK_SIZE * bx, bStep = BLOCK_SIZE * wB;
    float Csub = 0;
    for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
        As[ty][tx] = A[a + wA * ty + tx];
        Bs[ty][tx] = B[b + wB * ty + tx];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BLOCK_SIZE; ++k)
            Csub += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    C[c + wB * ty + tx] = Csub;
}

int main()
{
    const int w = 1024, h = 1024;
    float *a, *b, *c;
    cudaMalloc(&a, w * h * sizeof(float));
    cudaMalloc(&b, w * h * sizeof(float));
    cudaMalloc(&c, w * h * sizeof(float));
    dim3 dimGrid(w / TILE_DIM, h / TILE_DIM, 1), dimBlock(TILE_DIM, BLOCK_ROWS, 1);
    transposeNoBankConflicts<<<dimGrid, dimBlock>>>(b, a, w, h);
    dim3 threads(32, 32), grid(w / 32, h / 32);
    matrixMulShared<32><<<grid, threads>>>(c, a, b, w, w);
    matrixMulShared<16><<<dim3(w / 16, h / 16), dim3(16, 16)>>>(c, a, b, w, w);
    cudaDeviceSynchronize();
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    return 0;
}
