from setuptools import setup
from torch.utils.cpp_extension import CUDAExtension, BuildExtension

setup(name="ext", ext_modules=[CUDAExtension("ext", ["src/k.cu"])],
      cmdclass={"build_ext": BuildExtension})
