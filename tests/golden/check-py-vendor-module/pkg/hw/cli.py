"""the command line: imports gpu at its top, so AMD runs gpu.py too"""
from pkg.hw import (
    shared as s,
    gpu,
)

print(gpu.count(), s.count())
