from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension
setup(name="ext", ext_modules=[CUDAExtension("ext", ["ext.cpp", "k.cu"],
      extra_compile_args={"cxx": ["-O3"], "nvcc": ["-O3", "--use_fast_math", "-gencode", "arch=compute_80,code=sm_80", "-arch", "sm_90"]})],
      cmdclass={"build_ext": BuildExtension})
