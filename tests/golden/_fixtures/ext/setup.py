from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="scale_ext",
    ext_modules=[
        CUDAExtension(
            name="scale_ext",
            sources=["csrc/scale.cpp", "csrc/scale_kernel.cu"],
            include_dirs=["include"],
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
