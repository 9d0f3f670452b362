import subprocess
import torch


def sm_arch():
    out = subprocess.check_output(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv"])
    major, minor = torch.cuda.get_device_capability()
    if major >= 9:
        return f"sm_{major}{minor}a"
    return out.decode()
