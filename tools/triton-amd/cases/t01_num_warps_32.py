# TRI001: num_warps=32 is 1024 threads on NVIDIA but 2048 on AMD's 64-lane wavefronts.
import triton
import triton.language as tl


@triton.jit
def scale(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=m) * 2.0, mask=m)


def launch(x, n):
    scale[(triton.cdiv(n, 4096),)](x, n, BLOCK=4096, num_warps=32)


CASE = {"kernel": scale, "signature": {"x_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
        "constexprs": {"BLOCK": 4096}, "options": {"num_warps": 32}}
