import subprocess
from setuptools import setup
from torch.utils.cpp_extension import CUDAExtension

subprocess.check_call(["make", "lib"])
setup(name="ext", ext_modules=[CUDAExtension("ext", ["src/k.cu"])])
