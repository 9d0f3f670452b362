// hip-5.2: reported
// hip-7.2: reported
// CUDA graphs by stream capture: a training-step-like sequence of kernels captured once,
// instantiated with the three-argument cudaGraphInstantiate and replayed; the executable graph
// is then updated in place after a change of kernel arguments.
#include <cuda_runtime.h>
#include <cstdio>
#include "common/check.cuh"

__global__ void forward(float *act, const float *w, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        act[i] = act[i] * w[i];
}

__global__ void backward(float *grad, const float *act, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        grad[i] += act[i];
}

__global__ void update(float *w, const float *grad, float lr, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        w[i] -= lr * grad[i];
}

static void step(float *act, float *w, float *grad, float lr, int n, cudaStream_t s)
{
    forward<<<(n + 255) / 256, 256, 0, s>>>(act, w, n);
    backward<<<(n + 255) / 256, 256, 0, s>>>(grad, act, n);
    update<<<(n + 255) / 256, 256, 0, s>>>(w, grad, lr, n);
    checkCudaErrors(cudaMemsetAsync(grad, 0, n * sizeof(float), s));
}

int main()
{
    const int n = 1 << 16;
    float *act, *w, *grad;
    checkCudaErrors(cudaMalloc(&act, n * sizeof(float)));
    checkCudaErrors(cudaMalloc(&w, n * sizeof(float)));
    checkCudaErrors(cudaMalloc(&grad, n * sizeof(float)));
    cudaStream_t stream;
    checkCudaErrors(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

    cudaGraph_t graph;
    cudaGraphExec_t exec;
    checkCudaErrors(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    step(act, w, grad, 0.01f, n, stream);
    checkCudaErrors(cudaStreamEndCapture(stream, &graph));
    cudaStreamCaptureStatus status;
    checkCudaErrors(cudaStreamIsCapturing(stream, &status));
    size_t numNodes = 0;
    checkCudaErrors(cudaGraphGetNodes(graph, nullptr, &numNodes));
    printf("captured %zu nodes\n", numNodes);
    checkCudaErrors(cudaGraphInstantiate(&exec, graph, 0));
    for (int it = 0; it < 10; ++it)
        checkCudaErrors(cudaGraphLaunch(exec, stream));

    // Capture again with a new learning rate and update the executable graph.
    cudaGraph_t graph2;
    checkCudaErrors(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    step(act, w, grad, 0.001f, n, stream);
    checkCudaErrors(cudaStreamEndCapture(stream, &graph2));
    cudaGraphExecUpdateResultInfo info;
    if (cudaGraphExecUpdate(exec, graph2, &info) != cudaSuccess) {
        checkCudaErrors(cudaGraphExecDestroy(exec));
        checkCudaErrors(cudaGraphInstantiateWithFlags(&exec, graph2,
                                                      cudaGraphInstantiateFlagAutoFreeOnLaunch));
    }
    checkCudaErrors(cudaGraphLaunch(exec, stream));
    checkCudaErrors(cudaStreamSynchronize(stream));

    checkCudaErrors(cudaGraphExecDestroy(exec));
    checkCudaErrors(cudaGraphDestroy(graph));
    checkCudaErrors(cudaGraphDestroy(graph2));
    checkCudaErrors(cudaStreamDestroy(stream));
    checkCudaErrors(cudaFree(act));
    checkCudaErrors(cudaFree(w));
    checkCudaErrors(cudaFree(grad));
    return 0;
}
