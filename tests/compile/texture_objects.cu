// hip-7.2: reported
// Bindless textures: a cudaArray filled with cudaMemcpy2DToArray, a texture object created
// from cudaResourceDesc and cudaTextureDesc with linear filtering, sampled with tex2D<float>,
// and a texture over linear memory read with tex1Dfetch.
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

__global__ void rotate(float *out, cudaTextureObject_t tex, int w, int h, float theta)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float u = (float)x / w - 0.5f, v = (float)y / h - 0.5f;
    float tu = u * cosf(theta) - v * sinf(theta) + 0.5f;
    float tv = v * cosf(theta) + u * sinf(theta) + 0.5f;
    out[y * w + x] = tex2D<float>(tex, tu, tv);
}

__global__ void gather(float *out, cudaTextureObject_t lin, const int *idx, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<float>(lin, idx[i]);
}

int main()
{
    const int w = 256, h = 256;
    std::vector<float> img(w * h, 0.5f);
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t array;
    cudaMallocArray(&array, &desc, w, h);
    cudaMemcpy2DToArray(array, 0, 0, img.data(), w * sizeof(float), w * sizeof(float), h,
                        cudaMemcpyHostToDevice);

    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    cudaTextureDesc td = {};
    td.addressMode[0] = cudaAddressModeWrap;
    td.addressMode[1] = cudaAddressModeWrap;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 1;
    cudaTextureObject_t tex = 0;
    cudaCreateTextureObject(&tex, &res, &td, nullptr);

    float *out, *lin;
    int *idx;
    cudaMalloc(&out, w * h * sizeof(float));
    cudaMalloc(&lin, w * h * sizeof(float));
    cudaMalloc(&idx, w * h * sizeof(int));
    cudaResourceDesc linRes = {};
    linRes.resType = cudaResourceTypeLinear;
    linRes.res.linear.devPtr = lin;
    linRes.res.linear.desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    linRes.res.linear.sizeInBytes = w * h * sizeof(float);
    cudaTextureDesc linTd = {};
    linTd.readMode = cudaReadModeElementType;
    cudaTextureObject_t linTex = 0;
    cudaCreateTextureObject(&linTex, &linRes, &linTd, nullptr);

    dim3 block(16, 16), grid(w / 16, h / 16);
    rotate<<<grid, block>>>(out, tex, w, h, 0.5f);
    gather<<<w * h / 256, 256>>>(out, linTex, idx, w * h);
    cudaDeviceSynchronize();
    cudaDestroyTextureObject(tex);
    cudaDestroyTextureObject(linTex);
    cudaFreeArray(array);
    cudaFree(out);
    cudaFree(lin);
    cudaFree(idx);
    printf("done\n");
    return 0;
}
