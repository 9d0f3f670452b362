#include <cudnn.h>
#include <nvToolsExt.h>

void setup(cudnnHandle_t *h) {
    nvtxRangePushA("setup");
    cudnnCreate(h);
    nvtxRangePop();
}
