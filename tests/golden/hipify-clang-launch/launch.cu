template <typename T> __global__ void vs(T *a, int n) {}
__global__ void plain(int *a) {}
void f(int *d, int n, cudaStream_t s) {
    vs <<< blocks,threads >>> (d, n);
    plain<<<dim3(1, 1, 1), dim3(n)>>>(d);
    plain<<<1,n,n*sizeof(int)>>>(d);
    plain<<<g, b, 0, s>>>(
        d);
    plain<<<1 /* grid */, 2>>> /* x */ (d);
    vs<float><<<1, 2>>>();
}
#define L(k) k<<<1, 1>>>(0, 0)
void g(int *d)
{
    plain<<<1, 2>>> ( );
    vs<<<dim3(4), 8, 0>>>(d, 1);
}
