# TRI006: tl.inline_asm_elementwise written in PTX.
import triton
import triton.language as tl


@triton.jit
def bits(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int32,
                                  is_pure=True, pack=1)
    tl.store(y_ptr + offs, y)


CASE = {"kernel": bits, "signature": {"x_ptr": "*i32", "y_ptr": "*i32", "BLOCK": "constexpr"},
        "constexprs": {"BLOCK": 256}, "options": {"num_warps": 4}}
