// Graphs built node by node: kernel nodes from cudaKernelNodeParams, a memset node, a memcpy
// node and dependencies, then instantiation and launch.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>

__global__ void axpb(float *y, const float *x, float a, float b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + b;
}

int main()
{
    const int n = 1 << 12;
    float *x, *y, *h;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMallocHost(&h, n * sizeof(float));

    cudaGraph_t graph;
    cudaGraphCreate(&graph, 0);

    cudaMemsetParams memsetParams;
    memset(&memsetParams, 0, sizeof memsetParams);
    memsetParams.dst = x;
    memsetParams.value = 0;
    memsetParams.elementSize = sizeof(float);
    memsetParams.width = n;
    memsetParams.height = 1;
    cudaGraphNode_t memsetNode;
    cudaGraphAddMemsetNode(&memsetNode, graph, nullptr, 0, &memsetParams);

    float a = 2.f, b = 1.f;
    int count = n;
    void *kernelArgs[] = {&y, &x, &a, &b, &count};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)axpb;
    kp.gridDim = dim3((n + 127) / 128, 1, 1);
    kp.blockDim = dim3(128, 1, 1);
    kp.sharedMemBytes = 0;
    kp.kernelParams = kernelArgs;
    kp.extra = nullptr;
    cudaGraphNode_t kernelNode;
    cudaGraphAddKernelNode(&kernelNode, graph, &memsetNode, 1, &kp);

    cudaGraphNode_t copyNode;
    cudaGraphAddMemcpyNode1D(&copyNode, graph, &kernelNode, 1, h, y, n * sizeof(float),
                             cudaMemcpyDeviceToHost);

    cudaGraphExec_t exec;
    cudaGraphInstantiate(&exec, graph, 0);
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaGraphLaunch(exec, s);
    cudaStreamSynchronize(s);
    printf("h[0] = %f\n", h[0]);

    a = 3.f;
    cudaGraphExecKernelNodeSetParams(exec, kernelNode, &kp);
    cudaGraphLaunch(exec, s);
    cudaStreamSynchronize(s);

    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(s);
    cudaFree(x);
    cudaFree(y);
    cudaFreeHost(h);
    return 0;
}
