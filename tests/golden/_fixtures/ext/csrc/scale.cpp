#include "scale.h"

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("scale", &scale_cuda, "y = alpha * x (CUDA)");
}
