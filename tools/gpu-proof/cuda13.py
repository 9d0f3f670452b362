#!/usr/bin/env python3
"""Makes HIP 6.3's NVIDIA-platform runtime header compile under CUDA 13.

Usage: cuda13.py INCLUDE_DIR   (the assembled include folder: INCLUDE_DIR/hip/nvidia_detail/...)

hipother's nvidia_detail/nvidia_hip_runtime_api.h (tag rocm-6.3.1) is written against CUDA 12.
All of it is inline code, so every translation that includes hip_runtime.h compiles all of it,
and CUDA 13 breaks it in four ways:
  - cudaDeviceProp lost clockRate, memoryClockRate, computeMode, deviceOverlap,
    kernelExecTimeoutEnabled, maxTexture1DLinear, singleToDoublePrecisionPerfRatio and
    cooperativeMultiDeviceLaunch: hipGetDeviceProperties reads the first seven through
    cudaDeviceGetAttribute instead, hipChooseDevice stops copying them;
  - cudaLaunchCooperativeKernelMultiDevice and cudaDevAttrCooperativeMultiDeviceLaunch are
    gone: the HIP call answers hipErrorNotSupported, the attribute reads 0;
  - cudaMemAdvise and cudaMemPrefetchAsync take a cudaMemLocation (the prefetch also flags);
  - cuCtxCreate gained a CUctxCreateParams* argument, the graph-edge calls an edge-data array
    (NULL: plain edges), and cuStreamGetCaptureInfo_v2 became cuStreamGetCaptureInfo with edge
    data.
Each edit is an exact text replacement that must match exactly once; the script stops with an
error naming the edit otherwise, and changes nothing unless every edit matched.
"""
import pathlib
import sys

if len(sys.argv) != 2:
    sys.exit(__doc__)
path = pathlib.Path(sys.argv[1]) / "hip" / "nvidia_detail" / "nvidia_hip_runtime_api.h"

# a device attribute read as an int (the fields CUDA 13 dropped from cudaDeviceProp)
HELPER = """static inline int hipport_gp_cuda13_attr(enum cudaDeviceAttr attr, int device) {
    int value = 0;
    if (cudaDeviceGetAttribute(&value, attr, device) != cudaSuccess) value = 0;
    return value;
}

inline static hipError_t hipGetDeviceProperties(hipDeviceProp_t* p_prop, int device) {"""
# the managed-memory location of a HIP device number (cudaCpuDeviceId: the host)
def location(dev):
    return (f"cudaMemLocation{{({dev}) == cudaCpuDeviceId ? cudaMemLocationTypeHost : "
            f"cudaMemLocationTypeDevice, ({dev}) == cudaCpuDeviceId ? 0 : ({dev})}}")

def from_attr(field, attr):
    return (f"p_prop->{field} = cdprop.{field};",
            f"p_prop->{field} = hipport_gp_cuda13_attr({attr}, device);")

EDITS = [
    ("inline static hipError_t hipGetDeviceProperties(hipDeviceProp_t* p_prop, int device) {", HELPER),
    from_attr("clockRate", "cudaDevAttrClockRate"),
    from_attr("memoryClockRate", "cudaDevAttrMemoryClockRate"),
    from_attr("computeMode", "cudaDevAttrComputeMode"),
    from_attr("deviceOverlap", "cudaDevAttrGpuOverlap"),
    from_attr("kernelExecTimeoutEnabled", "cudaDevAttrKernelExecTimeout"),
    from_attr("maxTexture1DLinear", "cudaDevAttrMaxTexture1DLinearWidth"),
    from_attr("singleToDoublePrecisionPerfRatio", "cudaDevAttrSingleToDoublePrecisionPerfRatio"),
    ("p_prop->cooperativeMultiDeviceLaunch = cdprop.cooperativeMultiDeviceLaunch;",
     "p_prop->cooperativeMultiDeviceLaunch = 0;"),
    ("    cdprop.clockRate = prop->clockRate;\n", ""),
    ("    cdprop.computeMode = prop->computeMode;\n", ""),
    ("    cdprop.memoryClockRate = prop->memoryClockRate;\n", ""),
    ("        case hipDeviceAttributeCooperativeMultiDeviceLaunch:\n"
     "            cdattr = cudaDevAttrCooperativeMultiDeviceLaunch;\n            break;",
     "        case hipDeviceAttributeCooperativeMultiDeviceLaunch:\n"
     "            *pi = 0;\n            return hipSuccess;"),
    ("    return hipCUDAErrorTohipError(cudaLaunchCooperativeKernelMultiDevice(launchParamsList, numDevices, flags));",
     "    (void)launchParamsList; (void)numDevices; (void)flags;\n    return hipErrorNotSupported;"),
    ("hipMemoryAdviseTocudaMemoryAdvise(advice), device));",
     "hipMemoryAdviseTocudaMemoryAdvise(advice), " + location("device") + "));"),
    ("cudaMemPrefetchAsync(dev_ptr, count, device, stream)",
     "cudaMemPrefetchAsync(dev_ptr, count, " + location("device") + ", 0, stream)"),
    ("cuCtxCreate(ctx, flags, device)", "cuCtxCreate(ctx, NULL, flags, device)"),
    ("cudaGraphAddDependencies(graph, from, to, numDependencies)",
     "cudaGraphAddDependencies(graph, from, to, NULL, numDependencies)"),
    ("cudaGraphRemoveDependencies(graph, from, to, numDependencies)",
     "cudaGraphRemoveDependencies(graph, from, to, NULL, numDependencies)"),
    ("cudaGraphGetEdges(graph, from, to, numEdges)", "cudaGraphGetEdges(graph, from, to, NULL, numEdges)"),
    ("cudaGraphNodeGetDependencies(node, pDependencies, pNumDependencies)",
     "cudaGraphNodeGetDependencies(node, pDependencies, NULL, pNumDependencies)"),
    ("cudaGraphNodeGetDependentNodes(node, pDependentNodes, pNumDependentNodes)",
     "cudaGraphNodeGetDependentNodes(node, pDependentNodes, NULL, pNumDependentNodes)"),
    ("cudaStreamUpdateCaptureDependencies(stream, dependencies,\n",
     "cudaStreamUpdateCaptureDependencies(stream, dependencies, NULL,\n"),
    ("return hipCUResultTohipError(cuStreamGetCaptureInfo_v2(",
     "return hipCUResultTohipError(cuStreamGetCaptureInfo("),
    ("        dependencies_out, numDependencies_out));",
     "        dependencies_out, NULL, numDependencies_out));"),
]

text = path.read_text()
for number, (old, new) in enumerate(EDITS, 1):
    found = text.count(old)
    if found != 1:
        sys.exit(f"cuda13.py: edit {number} matches {found} times in {path}, not once: {old[:80]!r}")
    text = text.replace(old, new)
path.write_text(text)
print(f"cuda13.py: {len(EDITS)} edits applied to {path}")
