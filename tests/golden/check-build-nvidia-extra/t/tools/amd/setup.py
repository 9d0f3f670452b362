import torch
from torch.utils.cpp_extension import CUDAExtension
flags = ["-O3"] if torch.version.hip else ["-O3", "-Xptxas", "-v"]
ext = CUDAExtension("tool", ["tool.cu"], extra_compile_args={"nvcc": ["--use_fast_math"]})
