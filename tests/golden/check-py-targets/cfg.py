import triton
import triton.language as tl

configs = [triton.Config({"B": 64}, num_warps=32, num_stages=2)]

@triton.jit
def k(a, b):
    c = tl.dot(a, b, input_precision="tf32")
    d = a.to(tl.float8e4b8)
