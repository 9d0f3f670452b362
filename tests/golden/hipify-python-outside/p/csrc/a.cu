#include "shared.h"
__global__ void k() {}
