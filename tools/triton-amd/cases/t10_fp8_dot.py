# TRI004: an OCP fp8 (e4m3fn) dot: gfx942 computes the FNUZ variants.
import triton
import triton.language as tl


@triton.jit
def mm(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], tl.dot(a, b))


CASE = {"kernel": mm,
        "signature": {"a_ptr": "*fp8e4nv", "b_ptr": "*fp8e4nv", "c_ptr": "*fp32",
                      "M": "constexpr", "N": "constexpr", "K": "constexpr"},
        "constexprs": {"M": 64, "N": 64, "K": 64}, "options": {"num_warps": 4}}
