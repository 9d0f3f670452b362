#include <hipblas/hipblas.h>
hipblasComplex z;
