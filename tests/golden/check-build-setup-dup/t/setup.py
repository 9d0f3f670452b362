import torch
from setuptools import setup
from torch.utils.cpp_extension import CUDAExtension, BuildExtension
flags = ["-O3"] if torch.version.hip else ["-O3", "-lineinfo"]
ext = CUDAExtension("pkg", ["csrc/ext/k.cu", "csrc/part/a.cu"], extra_compile_args={"nvcc": flags})
setup(name="pkg", ext_modules=[ext], cmdclass={"build_ext": BuildExtension})
