// Sharing device memory and events between processes: cudaIpcGetMemHandle /
// cudaIpcOpenMemHandle and interprocess events, with the handle passed as raw bytes.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>

struct SharedBlock {
    cudaIpcMemHandle_t mem;
    cudaIpcEventHandle_t event;
    int n;
};

__global__ void produce(int *buf, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        buf[i] = v;
}

static int exportSide(SharedBlock *blk, int **buf, cudaEvent_t *ev)
{
    const int n = 1 << 16;
    if (cudaMalloc(buf, n * sizeof(int)) != cudaSuccess)
        return 1;
    cudaEventCreateWithFlags(ev, cudaEventDisableTiming | cudaEventInterprocess);
    produce<<<n / 256, 256>>>(*buf, n, 7);
    cudaEventRecord(*ev, 0);
    cudaIpcGetMemHandle(&blk->mem, *buf);
    cudaIpcGetEventHandle(&blk->event, *ev);
    blk->n = n;
    return 0;
}

static int importSide(const SharedBlock *blk)
{
    int *peer = nullptr;
    cudaEvent_t ev;
    if (cudaIpcOpenMemHandle((void **)&peer, blk->mem, cudaIpcMemLazyEnablePeerAccess) !=
        cudaSuccess)
        return 1;
    cudaIpcOpenEventHandle(&ev, blk->event);
    cudaStreamWaitEvent(0, ev, 0);
    int first = 0;
    cudaMemcpy(&first, peer, sizeof first, cudaMemcpyDeviceToHost);
    cudaIpcCloseMemHandle(peer);
    return first == 7 ? 0 : 1;
}

int main()
{
    SharedBlock blk;
    unsigned char wire[sizeof(SharedBlock)];
    int *buf = nullptr;
    cudaEvent_t ev;
    if (exportSide(&blk, &buf, &ev))
        return 1;
    memcpy(wire, &blk, sizeof blk);
    SharedBlock received;
    memcpy(&received, wire, sizeof received);
    int rc = importSide(&received);
    cudaEventDestroy(ev);
    cudaFree(buf);
    printf("rc=%d\n", rc);
    return 0;
}
