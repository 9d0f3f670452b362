#pragma once
__global__ void scale(float *p, float s) { p[threadIdx.x] *= s; }
