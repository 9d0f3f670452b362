from torch.utils.cpp_extension import CUDAExtension
ext = CUDAExtension("used", ["used.cu"], extra_compile_args={"nvcc": ["-O3", "--use_fast_math"]})
