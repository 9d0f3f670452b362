// hip-7.2: reported
// Surface objects for image processing: a cudaArray allocated with cudaArraySurfaceLoadStore,
// a cudaSurfaceObject_t written with surf2Dwrite and read with surf2Dread in a box filter.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void boxFilter(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float acc = 0.f;
    int cnt = 0;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            int xx = min(max(x + dx, 0), w - 1), yy = min(max(y + dy, 0), h - 1);
            float v;
            surf2Dread(&v, src, xx * (int)sizeof(float), yy);
            acc += v;
            ++cnt;
        }
    surf2Dwrite(acc / cnt, dst, x * (int)sizeof(float), y);
}

static cudaSurfaceObject_t makeSurface(cudaArray_t arr)
{
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaSurfaceObject_t s = 0;
    cudaCreateSurfaceObject(&s, &rd);
    return s;
}

int main()
{
    const int w = 512, h = 512;
    cudaChannelFormatDesc fmt = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    cudaArray_t in, out;
    cudaMallocArray(&in, &fmt, w, h, cudaArraySurfaceLoadStore);
    cudaMallocArray(&out, &fmt, w, h, cudaArraySurfaceLoadStore);
    cudaSurfaceObject_t sIn = makeSurface(in), sOut = makeSurface(out);
    boxFilter<<<dim3(w / 16, h / 16), dim3(16, 16)>>>(sIn, sOut, w, h);
    cudaDeviceSynchronize();
    cudaDestroySurfaceObject(sIn);
    cudaDestroySurfaceObject(sOut);
    cudaFreeArray(in);
    cudaFreeArray(out);
    printf("filtered\n");
    return 0;
}
