__device__ int image[4];
__global__ void k(int *p) {}
void f(cudaGraphNode_t *n, cudaGraph_t g, cudaGraphNode_t d, cudaGraphExec_t e, void **args, cudaStream_t s, int *src)
{
    cudaGraphAddMemcpyNodeToSymbol(n, g, &d, 1, image, src, 16, 0, cudaMemcpyHostToDevice);
    cudaGraphAddMemcpyNodeFromSymbol(n, g, &d, 1, src, image, 16, 0, cudaMemcpyDeviceToHost);
    cudaGraphMemcpyNodeSetParamsToSymbol(d, image, src, 16, 0, cudaMemcpyHostToDevice);
    cudaGraphMemcpyNodeSetParamsFromSymbol(d, src, image, 16, 0, cudaMemcpyDeviceToHost);
    cudaGraphExecMemcpyNodeSetParamsToSymbol(e, d, image, src, 16, 0, cudaMemcpyHostToDevice);
    cudaGraphExecMemcpyNodeSetParamsFromSymbol(e, d, src, image, 16, 0, cudaMemcpyDeviceToHost);
    cudaLaunchKernel(k, dim3(1), dim3(1), args, 0, s);
    cudaLaunchKernel((const void *)k, dim3(1), dim3(1), args, 0, s);
    cudaLaunchCooperativeKernel(k, dim3(1), dim3(1), args, 0, s);
}
void entry(void **p, unsigned long long flags, cudaDriverEntryPointQueryResult *q)
{
    cudaGetDriverEntryPoint("cuInit", p, flags, q);
    cudaGetDriverEntryPoint("cuInit", p, flags);
}
void f(cusparseHandle_t h, cusparseOperation_t o, const void *al, cusparseSpMatDescr_t a, cusparseDnMatDescr_t b, cusparseDnMatDescr_t c, cudaDataType t, cusparseSpSMAlg_t g, cusparseSpSMDescr_t d) {
    cusparseSpSM_solve(h, o, o, al, a, b, c, t, g, d);
}
