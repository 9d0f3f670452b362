# TRI009: a 16-bit float atomic.
import triton
import triton.language as tl


@triton.jit
def acc(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.atomic_add(y_ptr + offs % 8, tl.load(x_ptr + offs))


CASE = {"kernel": acc, "signature": {"x_ptr": "*bf16", "y_ptr": "*bf16", "BLOCK": "constexpr"},
        "constexprs": {"BLOCK": 256}, "options": {"num_warps": 4}}
