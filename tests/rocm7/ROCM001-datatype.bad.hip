#include <hipblas/hipblas.h>
hipblasDatatype_t t = HIP_R_32F;
