import torch
from torch.utils.cpp_extension import CUDAExtension

if torch.version.hip:
    flags = ["-O3", "--offload-arch=gfx942"]
else:
    flags = ["-O3", "--use_fast_math"]
ext = CUDAExtension("core", ["csrc/core.cu"], extra_compile_args={"nvcc": flags})
# the extension below is built with the package
sub = "csrc/used"
