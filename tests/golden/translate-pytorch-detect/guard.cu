#include <c10/cuda/CUDAGuard.h>
void run(const at::Tensor &x) {
    const at::cuda::OptionalCUDAGuard device_guard(device_of(x));
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}
