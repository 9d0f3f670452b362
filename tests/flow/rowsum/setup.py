# rowsum: a PyTorch extension shaped like the ones people port: a CUDA kernel with a ROCm
# branch, a Triton kernel with a vendor branch, and a setup.py that builds for either vendor.
import torch
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

if torch.version.hip:
    nvcc_flags = ["-O3", "--offload-arch=gfx942"]
else:
    nvcc_flags = ["-O3", "--use_fast_math", "-gencode=arch=compute_90,code=sm_90"]

setup(
    name="rowsum",
    ext_modules=[
        CUDAExtension(
            name="rowsum",
            sources=["csrc/bind.cpp", "csrc/rowsum.cu"],
            extra_compile_args={"cxx": ["-O3"], "nvcc": nvcc_flags},
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
