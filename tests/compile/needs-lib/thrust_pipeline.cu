// Thrust containers and algorithms: device_vector, a functor passed to thrust::transform,
// thrust::reduce and transform_reduce, sort_by_key, and raw pointers handed to a kernel with
// thrust::raw_pointer_cast.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/sequence.h>
#include <thrust/functional.h>
#include <cstdio>

struct saxpy_functor {
    const float a;
    explicit saxpy_functor(float a_) : a(a_) {}
    __host__ __device__ float operator()(const float &x, const float &y) const { return a * x + y; }
};

struct square {
    __host__ __device__ float operator()(float x) const { return x * x; }
};

__global__ void halve(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] *= 0.5f;
}

int main()
{
    const int n = 1 << 16;
    thrust::device_vector<float> x(n), y(n, 1.f);
    thrust::sequence(x.begin(), x.end());
    thrust::transform(x.begin(), x.end(), y.begin(), y.begin(), saxpy_functor(2.f));
    halve<<<(n + 255) / 256, 256>>>(thrust::raw_pointer_cast(y.data()), n);
    float sum = thrust::reduce(y.begin(), y.end(), 0.f, thrust::plus<float>());
    float sq = thrust::transform_reduce(x.begin(), x.end(), square(), 0.f, thrust::plus<float>());
    thrust::device_vector<int> keys(n);
    thrust::sequence(keys.begin(), keys.end(), n, -1);
    thrust::sort_by_key(keys.begin(), keys.end(), x.begin());
    thrust::host_vector<float> h = x;
    printf("sum=%f sq=%f first=%f\n", sum, sq, (float)h[0]);
    return 0;
}
