#!/usr/bin/env python3
"""sweep.py OUT_DIR: the shared memory Triton's backends give a pipelined fp16 matmul, over
tile shapes and num_stages, for gfx942, gfx950 and sm_90 (compile-only). The figures TRI003's
estimate is checked against. Writes OUT_DIR/sweep.json."""
import json
import os
import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget


@triton.jit
def mm(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc.to(tl.float16))


SHAPES = [(64, 32, 32), (64, 64, 32), (128, 128, 32), (128, 128, 64), (128, 256, 64),
          (256, 256, 64), (256, 128, 32)]
STAGES = [1, 2, 3, 4, 5]
TARGETS = [("hip", "gfx942", 64), ("hip", "gfx950", 64), ("cuda", 90, 32)]


def main():
    out = []
    sig = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "K": "i32",
           "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}
    for bm, bn, bk in SHAPES:
        for st in STAGES:
            for backend, arch, lanes in TARGETS:
                row = {"BM": bm, "BN": bn, "BK": bk, "stages": st, "target": str(arch)}
                try:
                    src = triton.compiler.ASTSource(fn=mm, signature=sig,
                                                    constexprs={"BM": bm, "BN": bn, "BK": bk})
                    k = triton.compile(src, target=GPUTarget(backend, arch, lanes),
                                       options={"num_warps": 8, "num_stages": st})
                    row["shared"] = k.metadata.shared
                except Exception as e:
                    row["error"] = str(e).splitlines()[0][:200] if str(e) else type(e).__name__
                out.append(row)
                print(row, flush=True)
    os.makedirs(sys.argv[1], exist_ok=True)
    with open(os.path.join(sys.argv[1], "sweep.json"), "w") as f:
        json.dump({"triton": triton.__version__, "rows": out}, f, indent=0)


if __name__ == "__main__":
    main()
