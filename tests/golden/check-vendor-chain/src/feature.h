#pragma once
#if defined(WITH_CUDA) && defined(FAST_PATH)
#include "fast.h"
#elif defined(WITH_HIP)
#include "plain.h"
#endif
