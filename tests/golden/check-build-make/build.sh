#!/bin/sh
export PYTORCH_ROCM_ARCH="gfx90a;gfx942"
export TRITON_HIP_USE_BLOCK_PINGPONG=1
if [ -n "$USE_CUDA" ]; then
  nvcc -arch sm_80 --use_fast_math k.cu   # CUDA branch
fi
hipcc --offload-arch=gfx942 --amdgpu-target=gfx90a -o k k.hip
echo "done" # nvcc in a comment
