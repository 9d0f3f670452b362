import glob
import os

import torch
from torch.utils.cpp_extension import CUDAExtension, setup

here = os.path.dirname(os.path.abspath(__file__))
use_cuda = torch.version.cuda is not None and os.getenv("CUDA_HOME") is not None
csrc = os.path.join(here, "csrc")
sources = glob.glob(os.path.join(csrc, "*.cpp"))
cuda_sources = glob.glob(os.path.join(csrc, "cuda", "*.cu"))
if use_cuda:
    sources += cuda_sources
elif torch.version.hip:
    sources += glob.glob(os.path.join(csrc, "hip", "*.cu"))
ext = [CUDAExtension("k", sources)]
if not torch.version.hip:
    ext.append(CUDAExtension("marlin", ["csrc/marlin/marlin.cu"]))
setup(name="k", ext_modules=ext)
