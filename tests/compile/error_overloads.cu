// Error-name helpers overloaded on the runtime's and the driver's result types, as utility
// headers of driver-API projects write them: cudaError_t and CUresult are both hipError_t,
// so the second overload becomes a redefinition, which translation reports on its line.
// hip-5.2: reported
// hip-7.2: reported
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>

static const char *errorName(cudaError_t e) { return cudaGetErrorName(e); }
static const char *errorName(CUresult e)
{
    const char *s = nullptr;
    cuGetErrorName(e, &s);
    return s;
}

int main()
{
    std::printf("%s %s\n", errorName(cudaSuccess), errorName(CUDA_SUCCESS));
    return 0;
}
