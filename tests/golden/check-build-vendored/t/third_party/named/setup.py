from torch.utils.cpp_extension import CUDAExtension
ext = CUDAExtension("named", ["n.cu"], extra_compile_args={"nvcc": ["--use_fast_math"]})
