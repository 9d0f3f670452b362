import subprocess

import torch

from .utils import is_big, is_blackwell


def fp4_gemm(a, b):
    if torch.cuda.is_available() and not is_blackwell():
        raise NotImplementedError("needs SM100")
    subprocess.run(["nvidia-smi", "-q"])


def report():
    if is_blackwell():
        subprocess.run(["nvidia-smi", "-q"])
    if is_big():
        subprocess.run(["nvidia-smi", "-q"])
