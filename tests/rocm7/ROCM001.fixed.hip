#include <hipblas/hipblas.h>
hipDataType t = HIP_R_32F; hipblasComputeType_t c = HIPBLAS_COMPUTE_32F; hipFloatComplex z; hipDoubleComplex w;
