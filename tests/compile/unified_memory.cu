// hip-5.2: reported
// Managed memory: cudaMallocManaged buffers touched from host and device, attached to a stream
// with cudaStreamAttachMemAsync, queried with cudaPointerGetAttributes, and the
// concurrent-managed-access attribute, and a __managed__ global shared by host and device.
#include <cuda_runtime.h>
#include <cstdio>

struct Particle {
    float3 pos;
    float3 vel;
};

__global__ void integrate(Particle *p, int n, float dt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        p[i].pos.x += p[i].vel.x * dt;
        p[i].pos.y += p[i].vel.y * dt;
        p[i].pos.z += p[i].vel.z * dt;
    }
}

__managed__ int managedCounter;

__global__ void bump() { atomicAdd(&managedCounter, 1); }

int main()
{
    const int n = 1 << 14;
    Particle *ps = nullptr;
    if (cudaMallocManaged(&ps, n * sizeof(Particle), cudaMemAttachGlobal) != cudaSuccess)
        return 1;
    for (int i = 0; i < n; ++i)
        ps[i] = Particle{make_float3(0.f, 0.f, 0.f), make_float3(1.f, 0.5f, 0.25f)};
    int dev = 0, concurrent = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, dev);

    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaStreamAttachMemAsync(s, ps, 0, cudaMemAttachSingle);
    integrate<<<(n + 255) / 256, 256, 0, s>>>(ps, n, 0.01f);
    cudaStreamSynchronize(s);

    cudaPointerAttributes attr;
    cudaPointerGetAttributes(&attr, ps);
    printf("type=%d device=%d concurrent=%d pos.x=%f\n", (int)attr.type, attr.device, concurrent,
           ps[0].pos.x);
    if (attr.type == cudaMemoryTypeManaged)
        printf("managed\n");

    managedCounter = 0;
    bump<<<1, 32, 0, s>>>();
    cudaStreamSynchronize(s);
    printf("counter %d\n", managedCounter);
    cudaStreamDestroy(s);
    cudaFree(ps);
    return 0;
}
