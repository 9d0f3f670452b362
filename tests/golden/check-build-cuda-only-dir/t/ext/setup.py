from setuptools import setup
from torch.utils.cpp_extension import CUDAExtension, BuildExtension
setup(name="ext", ext_modules=[CUDAExtension("ext", ["ext.cu"],
      extra_compile_args={"nvcc": ["--expt-extended-lambda"]})],
      cmdclass={"build_ext": BuildExtension})
