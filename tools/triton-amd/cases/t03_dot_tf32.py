# TRI005: tl.dot with input_precision="tf32".
import triton
import triton.language as tl


@triton.jit
def mm(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    c = tl.dot(a, b, input_precision="tf32")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


CASE = {"kernel": mm,
        "signature": {"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp32",
                      "M": "constexpr", "N": "constexpr", "K": "constexpr"},
        "constexprs": {"M": 64, "N": 64, "K": 32}, "options": {"num_warps": 4}}
