import torch
from setuptools import setup
from torch.utils.cpp_extension import CUDAExtension

flags = ["-O3"] if torch.version.hip else ["-O3", "--use_fast_math"]
setup(name="ext", ext_modules=[CUDAExtension("ext", ["src/k.cu"], extra_compile_args={"nvcc": flags})])
