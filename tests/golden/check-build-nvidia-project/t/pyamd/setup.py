import torch
if torch.version.hip:
    cmake_args = ["-DUSE_ROCM=ON"]
