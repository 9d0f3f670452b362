// Complex arithmetic with cuComplex.h (cuFloatComplex / cuDoubleComplex, make_cuFloatComplex,
// cuCmulf, cuCaddf, cuCabsf, cuConjf) in a phase-rotation kernel, with constants from a
// project header kept in Latin-1.
#include <cuda_runtime.h>
#include <cuComplex.h>
#include <cstdio>
#include "common/units_latin1.h"

__global__ void rotate_phase(cuFloatComplex *x, float freq, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float phase = TWO_PI_F * freq * i / n;
    cuFloatComplex w = make_cuFloatComplex(cosf(phase), sinf(phase));
    cuFloatComplex v = cuCmulf(x[i], w);
    v = cuCaddf(v, cuConjf(make_cuComplex(0.f, 1e-6f)));
    x[i] = cuCdivf(v, make_cuFloatComplex(cuCabsf(v) + 1.f, 0.f));
}

__global__ void magnitude(const cuDoubleComplex *z, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = cuCabs(cuCmul(z[i], cuConj(z[i]))) + cuCreal(z[i]) + cuCimag(z[i]);
}

int main()
{
    const int n = 4096;
    cuFloatComplex *x;
    cuDoubleComplex *z;
    double *m;
    cudaMalloc(&x, n * sizeof(cuFloatComplex));
    cudaMalloc(&z, n * sizeof(cuDoubleComplex));
    cudaMalloc(&m, n * sizeof(double));
    rotate_phase<<<n / 256, 256>>>(x, 3.f, n);
    magnitude<<<n / 256, 256>>>(z, m, n);
    cudaDeviceSynchronize();
    cuDoubleComplex h = cuComplexFloatToDouble(make_cuFloatComplex(1.f, 2.f));
    printf("%f %f\n", cuCreal(h), (double)ANGSTROM_PER_NM);
    cudaFree(x);
    cudaFree(z);
    cudaFree(m);
    return 0;
}
