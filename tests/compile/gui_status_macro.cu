// A program whose GUI headers come first and define Status as a macro (X11's Xlib.h has
// "#define Status int"), then include a header that uses cuSPARSE: what hipport_compat.h
// declares there must not be spelled with such common names.
#define Status int
#include "common/sparse_errors.h"
#include <cstdio>

__global__ void fill(int *p) { p[threadIdx.x] = (int)threadIdx.x; }

int main()
{
    Status ok = 1;
    std::printf("%s %d\n", sparse_error_name(CUSPARSE_STATUS_SUCCESS), ok);
    return 0;
}
