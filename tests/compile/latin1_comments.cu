// Sources kept in ISO-8859-1 by their authors: this file's comments contain Latin-1 bytes
// (not UTF-8), as in older European research codes. Auteur : François Müller, © 2011.
#include <cuda_runtime.h>
#include <stdio.h>

// Diffusion de la chaleur, schéma explicite : T(t+µ) = T + µ·D... (approximé)
// Température initiale en °C ; pas de temps ½.
__global__ void heat_step(float *t_new, const float *t_old, float alpha, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x; /* indice global (à vérifier) */
    if (i > 0 && i < n - 1)
        t_new[i] = t_old[i] + alpha * (t_old[i - 1] - 2.f * t_old[i] + t_old[i + 1]);
}

int main(void)
{
    const int n = 1 << 16; // taille « grille »
    float *a, *b;
    cudaMalloc((void **)&a, n * sizeof(float));
    cudaMalloc((void **)&b, n * sizeof(float));
    for (int step = 0; step < 100; ++step) {
        heat_step<<<n / 256, 256>>>(b, a, 0.25f, n);
        float *t = a; a = b; b = t; // échange
    }
    cudaDeviceSynchronize();
    printf("fini\n");
    cudaFree(a);
    cudaFree(b);
    return 0;
}
