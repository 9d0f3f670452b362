from torch.utils.cpp_extension import CUDAExtension
ext = CUDAExtension("k", ["k.cu"], extra_compile_args={"nvcc": ["--use_fast_math"]})
