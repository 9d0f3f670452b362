#include <hip/hip_runtime.h>
int f() { hipDeviceProp_t p; hipGetDeviceProperties(&p, 0); return p.gcnArch; }
