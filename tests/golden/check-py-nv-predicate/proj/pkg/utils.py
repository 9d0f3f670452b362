import torch


def is_blackwell():
    return (
        torch.cuda.is_available()
        and torch.version.cuda
        and torch.cuda.get_device_capability() >= (10, 0)
    )


def is_big():
    return torch.cuda.get_device_properties(0).total_memory > 1 << 36
