# A causal depthwise 1-D convolution extension, laid out as such extensions are: a binding file,
# one .cu file per entry point, shared headers and an include directory.
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="causal_conv1d_ext",
    ext_modules=[
        CUDAExtension(
            name="causal_conv1d_ext",
            sources=[
                "csrc/causal_conv1d.cpp",
                "csrc/causal_conv1d_fwd.cu",
                "csrc/causal_conv1d_bwd.cu",
                "csrc/causal_conv1d_update.cu",
            ],
            include_dirs=["csrc"],
            extra_compile_args={"cxx": ["-O3"], "nvcc": ["-O3", "--use_fast_math"]},
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
