import torch

IS_ROCM = torch.version.hip is not None


def backend():
    if IS_ROCM:
        from . import amd as mod
    else:
        from . import nvidia as mod
    return mod


def count():
    from . import shared
    return shared.count()


def probe():
    if not IS_ROCM:
        from . import gpu
        return gpu.count()
