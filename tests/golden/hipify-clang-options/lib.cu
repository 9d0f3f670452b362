#include <cudnn.h>
#include <cublas_v2.h>
void f(cudaDataType_t t, cudnnHandle_t h)
{
    cudaDataType_t u = CUDA_R_32F;
    cudnnCreate(&h);
}
