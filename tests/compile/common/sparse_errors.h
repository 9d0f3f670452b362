// A project header that reports cuSPARSE errors by name.
#pragma once
#include <cusparse.h>

inline const char *sparse_error_name(cusparseStatus_t s) { return cusparseGetErrorString(s); }
