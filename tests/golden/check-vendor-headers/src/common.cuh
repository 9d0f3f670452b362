#pragma once
#if defined(USE_HIP)
#include "vendors/hip.h"
#else
#include "vendors/cuda.h"
#include "common_cuda.h"
#endif
