import triton
import triton.language as tl

@triton.jit
def fused_relu_bias_kernel(x_ptr, bias_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    bias = tl.load(bias_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) + bias, mask=mask)

@triton.jit
def scaled_add_kernel(x_ptr, y_ptr, out_ptr, scale: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + offs).to(tl.float32)
    y = tl.load(y_ptr + offs).to(tl.float32)
    tl.store(out_ptr + offs, (x + y * scale).to(tl.float16))
