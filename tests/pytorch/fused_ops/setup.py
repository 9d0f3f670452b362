# Fused elementwise and normalisation ops: kernels in csrc/cuda/, headers in csrc/include/.
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="fused_ops",
    ext_modules=[
        CUDAExtension(
            name="fused_ops",
            sources=[
                "csrc/bindings.cpp",
                "csrc/cuda/fused_bias_gelu.cu",
                "csrc/cuda/fused_layernorm_cuda.cu",
            ],
            include_dirs=["csrc/include"],
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
