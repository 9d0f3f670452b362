# TRI003: a 256x256x64 fp16 tile pipelined over 4 stages needs more LDS than gfx942 has.
import triton
import triton.language as tl


@triton.jit
def mm(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc.to(tl.float16))


configs = [triton.Config({"BM": 256, "BN": 256, "BK": 64}, num_warps=8, num_stages=4)]

CASE = {"kernel": mm,
        "signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "K": "i32",
                      "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"},
        "constexprs": {"BM": 256, "BN": 256, "BK": 64}, "options": {"num_warps": 8, "num_stages": 4}}
