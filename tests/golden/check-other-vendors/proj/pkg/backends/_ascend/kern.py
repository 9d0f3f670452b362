import triton

configs = [triton.Config({"BLOCK": 128}, num_warps=32)]
