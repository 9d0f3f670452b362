from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="proj",
    ext_modules=[CUDAExtension("proj._C", ["csrc/ops.cu"],
                               extra_compile_args={"nvcc": ["-O3", "--expt-relaxed-constexpr"]})],
    cmdclass={"build_ext": BuildExtension},
)
