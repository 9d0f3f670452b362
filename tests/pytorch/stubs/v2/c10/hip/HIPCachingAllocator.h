// Stand-in, PyTorch 2.11 and newer: the caching allocator keeps its CUDA name.
#pragma once

namespace c10 {
namespace cuda {
namespace CUDACachingAllocator {
void emptyCache();
} // namespace CUDACachingAllocator
} // namespace cuda
} // namespace c10
