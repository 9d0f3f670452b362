import triton

configs = [triton.Config({"BLOCK": 64}, num_warps=32)]
