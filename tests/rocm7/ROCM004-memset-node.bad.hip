#include <hip/hip_runtime.h>
HIP_MEMSET_NODE_PARAMS q;
