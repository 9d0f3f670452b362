import torch
import triton
import triton.language as tl


@triton.autotune(configs=[
    triton.Config({"BLOCK": 1024}, num_warps=32, num_stages=3),
    triton.Config({"BLOCK": 512}, num_warps=8, num_stages=2),
], key=["n"])
@triton.jit
def add_kernel(x_ptr, y_ptr, o_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(o_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)


def add(x, y):
    if torch.cuda.get_device_capability() < (8, 0):
        raise RuntimeError("needs Ampere")
    o = torch.empty_like(x)
    grid = lambda meta: (triton.cdiv(x.numel(), meta["BLOCK"]),)
    add_kernel[grid](x, y, o, x.numel())
    return o
