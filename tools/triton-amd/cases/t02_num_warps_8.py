# Negative for TRI001: num_warps=8 is 512 threads on AMD.
import triton
import triton.language as tl


@triton.jit
def scale(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=m) * 2.0, mask=m)


def launch(x, n):
    scale[(triton.cdiv(n, 1024),)](x, n, BLOCK=1024, num_warps=8)


CASE = {"kernel": scale, "signature": {"x_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
        "constexprs": {"BLOCK": 1024}, "options": {"num_warps": 8}}
