#include <hip/hip_runtime.h>
#include <string.h>
int f() { hipDeviceProp_t p; hipGetDeviceProperties(&p, 0); hipMemsetParams q; (void)q; return strlen(p.gcnArchName); }
