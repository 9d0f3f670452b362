// Stand-in, PyTorch before 2.11: the HIP caching allocator, and its masquerading get().
#pragma once

namespace c10 {
struct Allocator;
namespace hip {
namespace HIPCachingAllocator {
void emptyCache();
} // namespace HIPCachingAllocator
namespace HIPCachingAllocatorMasqueradingAsCUDA {
Allocator *get();
} // namespace HIPCachingAllocatorMasqueradingAsCUDA
} // namespace hip
} // namespace c10
