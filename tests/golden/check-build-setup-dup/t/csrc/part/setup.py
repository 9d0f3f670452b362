from torch.utils.cpp_extension import CUDAExtension
ext = CUDAExtension("p", ["a.cu", "b.cu"], extra_compile_args={"nvcc": ["--use_fast_math"]})
