// Pitched and 3D memory: cudaMallocPitch with cudaMemcpy2D / cudaMemset2D, cudaMalloc3D with
// make_cudaExtent, make_cudaPitchedPtr and cudaMemcpy3D parameters.
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

__global__ void scale2d(float *img, size_t pitch, int w, int h, float s)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float *row = (float *)((char *)img + y * pitch);
        row[x] *= s;
    }
}

__global__ void fill3d(cudaPitchedPtr p, cudaExtent ext, float v)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= (int)(ext.width / sizeof(float)) || y >= (int)ext.height)
        return;
    for (size_t z = 0; z < ext.depth; ++z) {
        char *slice = (char *)p.ptr + z * p.pitch * ext.height;
        ((float *)(slice + y * p.pitch))[x] = v;
    }
}

int main()
{
    const int w = 1000, h = 500;
    std::vector<float> host(w * h, 1.f);
    float *img;
    size_t pitch = 0;
    cudaMallocPitch((void **)&img, &pitch, w * sizeof(float), h);
    cudaMemset2D(img, pitch, 0, w * sizeof(float), h);
    cudaMemcpy2D(img, pitch, host.data(), w * sizeof(float), w * sizeof(float), h,
                 cudaMemcpyHostToDevice);
    dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
    scale2d<<<grid, block>>>(img, pitch, w, h, 2.f);
    cudaMemcpy2DAsync(host.data(), w * sizeof(float), img, pitch, w * sizeof(float), h,
                      cudaMemcpyDeviceToHost, 0);

    cudaExtent ext = make_cudaExtent(64 * sizeof(float), 64, 32);
    cudaPitchedPtr vol;
    cudaMalloc3D(&vol, ext);
    cudaMemset3D(vol, 0, ext);
    fill3d<<<dim3(4, 4), dim3(16, 16)>>>(vol, ext, 3.f);
    std::vector<float> hostVol(64 * 64 * 32);
    cudaMemcpy3DParms parms = {};
    parms.srcPtr = vol;
    parms.dstPtr = make_cudaPitchedPtr(hostVol.data(), 64 * sizeof(float), 64, 64);
    parms.extent = ext;
    parms.kind = cudaMemcpyDeviceToHost;
    cudaMemcpy3D(&parms);
    cudaDeviceSynchronize();
    printf("%f %f\n", host[0], hostVol[0]);
    cudaFree(img);
    cudaFree(vol.ptr);
    return 0;
}
