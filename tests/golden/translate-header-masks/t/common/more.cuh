#pragma once
#include "masks.cuh"
#define ALL_LANES FULL
