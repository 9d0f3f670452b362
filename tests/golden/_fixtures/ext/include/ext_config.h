// Settings shared by the extension's sources.
#pragma once
#include <cuda_runtime.h>

constexpr int kThreads = 256;

inline int blocks_for(int n) { return (n + kThreads - 1) / kThreads; }
