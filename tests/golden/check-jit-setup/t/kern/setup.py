from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="softmax_ext",
    ext_modules=[
        CUDAExtension(
            name="softmax_ext",
            sources=["softmax.cpp", "softmax_cuda.cu"],
            extra_compile_args={"nvcc": ["-O3", "--use_fast_math", "-gencode", "arch=compute_80,code=sm_80"]},
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
