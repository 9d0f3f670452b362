from torch.utils.cpp_extension import CUDAExtension
ext = CUDAExtension("sub", ["s.cu"], extra_compile_args={"nvcc": ["--expt-relaxed-constexpr"]})
