from torch.utils.cpp_extension import CUDAExtension
ext = CUDAExtension("old", ["csrc/o.cu"], extra_compile_args={"nvcc": ["-O3", "--use_fast_math"]})
