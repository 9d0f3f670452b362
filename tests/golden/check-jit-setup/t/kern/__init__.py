import torch
from torch.utils import cpp_extension


def load():
    flags = ["-O3"]
    if torch.version.hip is None:
        flags += ["--use_fast_math"]
    return cpp_extension.load(
        name="softmax_ext",
        sources=["softmax.cpp", "softmax_cuda.cu"],
        extra_cuda_cflags=flags,
    )
