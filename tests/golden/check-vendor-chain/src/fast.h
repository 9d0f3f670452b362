#pragma once
#if CUDART_VERSION >= 11080
#define HAS_FP8 1
#endif
