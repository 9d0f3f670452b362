#include "cuda.h"
#include "helper_drv.h"
int main()
{
    checkCudaErrors(cuInit(0));
    return 0;
}
