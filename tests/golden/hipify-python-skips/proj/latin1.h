// résumé du noyau (Latin-1)
#include <cuda_runtime.h>
cudaStream_t stream;
