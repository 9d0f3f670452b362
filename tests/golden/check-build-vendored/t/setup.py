from setuptools import setup
from torch.utils.cpp_extension import CUDAExtension, BuildExtension
ext = CUDAExtension("pkg", ["csrc/k.cu", "third_party/named/n.cu"])
setup(name="pkg", ext_modules=[ext], cmdclass={"build_ext": BuildExtension})
