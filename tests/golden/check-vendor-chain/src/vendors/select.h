#pragma once
#ifdef WITH_CUDA
#include "nvidia.h"
#elif WITH_HIP
#include "amd.h"
#elif WITH_MUSA
#include "mt.h"
#endif
