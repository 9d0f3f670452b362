# TRI007: the CUDA-only libdevice module.
import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice


@triton.jit
def erf(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, libdevice.erf(tl.load(x_ptr + offs)))


CASE = {"kernel": erf, "signature": {"x_ptr": "*fp32", "y_ptr": "*fp32", "BLOCK": "constexpr"},
        "constexprs": {"BLOCK": 256}, "options": {"num_warps": 4}}
