#include <hipblaslt/hipblaslt.h>
int v = HIPBLASLT_MATMUL_DESC_A_SCALE_POINTER_VEC_EXT;
