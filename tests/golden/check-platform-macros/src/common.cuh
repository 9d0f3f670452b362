#pragma once
#if defined(USE_ROCM)
#define WARP 64
#else
#define PTX_AVAILABLE
#endif
