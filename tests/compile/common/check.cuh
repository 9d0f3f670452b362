// common/check.cuh: error-checking helpers in the style of the helper headers that sample
// collections ship. Each overload of errName() exists only when the matching CUDA header was
// included first, detected through that header's include guard.
#ifndef CORPUS_COMMON_CHECK_CUH
#define CORPUS_COMMON_CHECK_CUH

#include <cstdio>
#include <cstdlib>

#ifdef __DRIVER_TYPES_H__
static inline const char *errName(cudaError_t error) { return cudaGetErrorName(error); }
#endif

#ifdef __cuda_cuda_h__
static inline const char *errName(CUresult error)
{
    const char *name = nullptr;
    cuGetErrorName(error, &name);
    return name ? name : "CUDA_ERROR_UNKNOWN";
}
#endif

#ifdef CUBLAS_API_H_
static inline const char *errName(cublasStatus_t error)
{
    switch (error) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    default: return "<unknown cublas status>";
    }
}
#endif

#ifdef CURAND_H_
static inline const char *errName(curandStatus_t error)
{
    switch (error) {
    case CURAND_STATUS_SUCCESS: return "CURAND_STATUS_SUCCESS";
    case CURAND_STATUS_NOT_INITIALIZED: return "CURAND_STATUS_NOT_INITIALIZED";
    case CURAND_STATUS_ALLOCATION_FAILED: return "CURAND_STATUS_ALLOCATION_FAILED";
    case CURAND_STATUS_LAUNCH_FAILURE: return "CURAND_STATUS_LAUNCH_FAILURE";
    default: return "<unknown curand status>";
    }
}
#endif

#ifdef CUSPARSE_H_
static inline const char *errName(cusparseStatus_t error) { return cusparseGetErrorString(error); }
#endif

template <typename T>
void check(T result, char const *const func, const char *const file, int const line)
{
    if (result) {
        fprintf(stderr, "error at %s:%d code=%d(%s) \"%s\"\n", file, line,
                static_cast<int>(result), errName(result), func);
        exit(EXIT_FAILURE);
    }
}

#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)

#ifdef __CUDA_RUNTIME_H__
// Reports the error of the last kernel launch, with the caller's message.
#define getLastCudaError(msg) lastErrorCheck(msg, __FILE__, __LINE__)

inline void lastErrorCheck(const char *errorMessage, const char *file, const int line)
{
    cudaError_t err = cudaGetLastError();
    if (cudaSuccess != err) {
        fprintf(stderr, "%s(%i) : getLastCudaError() error : %s : (%d) %s.\n", file, line,
                errorMessage, static_cast<int>(err), cudaGetErrorString(err));
        exit(EXIT_FAILURE);
    }
}

// Picks the device with the most multiprocessors.
inline int pickFastestDevice()
{
    int count = 0, best = 0, bestSms = -1;
    checkCudaErrors(cudaGetDeviceCount(&count));
    for (int d = 0; d < count; ++d) {
        int sms = 0;
        checkCudaErrors(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d));
        if (sms > bestSms) {
            bestSms = sms;
            best = d;
        }
    }
    checkCudaErrors(cudaSetDevice(best));
    return best;
}
#endif

#endif // CORPUS_COMMON_CHECK_CUH
