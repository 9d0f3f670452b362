#!/usr/bin/env python3
"""run.py CASES_DIR OUT_DIR [JOBS]: compiles every Triton case of CASES_DIR for AMD's gfx942 and
gfx950 and for NVIDIA's sm_90 (the reference), without a GPU: Triton's compiler takes a
GPUTarget and needs no device. Each case file defines a @triton.jit kernel and
CASE = {"kernel": fn, "signature": {...}, "constexprs": {...}, "options": {...}}.
Each compilation runs in a process of its own with an empty cache. Writes OUT_DIR/results.json:
per case and target, whether it compiled, the error's first line, the last stage it reached
(ttir, ttgir, llir, then amdgcn/hsaco or ptx/cubin), and the metadata that predicts a launch
failure: threads per workgroup (num_warps times the wavefront) and shared memory in bytes."""
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

TARGETS = (("hip", "gfx942", 64), ("hip", "gfx950", 64), ("cuda", "90", 32))
STAGES = {"hip": ("ttir", "ttgir", "llir", "amdgcn", "hsaco"),
          "cuda": ("ttir", "ttgir", "llir", "ptx", "cubin")}

CHILD = r"""
import importlib.util, json, sys
case_path, backend, arch, lanes = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
out = {"compiled": False}
try:
    import triton
    from triton.backends.compiler import GPUTarget
    spec = importlib.util.spec_from_file_location("case", case_path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    c = mod.CASE
    fn, consts = c["kernel"], dict(c.get("constexprs") or {})
    try:
        src = triton.compiler.ASTSource(fn=fn, signature=c["signature"], constexprs=consts)
    except Exception:
        keyed = {(fn.arg_names.index(k),): v for k, v in consts.items()}
        src = triton.compiler.ASTSource(fn=fn, signature=c["signature"], constexprs=keyed)
    target = GPUTarget(backend, int(arch) if backend == "cuda" else arch, lanes)
    k = triton.compile(src, target=target, options=dict(c.get("options") or {}))
    md = k.metadata
    warps = getattr(md, "num_warps", None)
    out.update(compiled=True, shared=getattr(md, "shared", None), num_warps=warps,
               threads=warps * lanes if warps else None)
except BaseException as e:
    lines = [l.strip() for l in (type(e).__name__ + ": " + str(e)).splitlines() if l.strip()]
    cause = e.__cause__ or e.__context__
    if cause is not None and str(cause).strip():
        lines.append(type(cause).__name__ + ": " + str(cause).strip().splitlines()[-1])
    out["error"] = (lines[0] + (" ... " + lines[-1] if len(lines) > 1 else ""))[:400]
print("@@" + json.dumps(out))
"""


def compile_one(case, target):
    backend, arch, lanes = target
    cache = tempfile.mkdtemp(prefix="tri-")
    env = dict(os.environ, TRITON_CACHE_DIR=cache, TRITON_ALWAYS_COMPILE="1")
    try:
        p = subprocess.run([sys.executable, "-c", CHILD, case, backend, arch, str(lanes)],
                           env=env, capture_output=True, text=True, timeout=240)
        line = [l for l in p.stdout.splitlines() if l.startswith("@@")]
        res = json.loads(line[-1][2:]) if line else {
            "compiled": False, "error": "the compiler ended the process (status %d): %s"
            % (p.returncode, (p.stderr.strip().splitlines() or [""])[-1][:300])}
    except subprocess.TimeoutExpired:
        res = {"compiled": False, "error": "timeout"}
    seen = set()
    for root, _, files in os.walk(cache):
        for f in files:
            seen.add(f.rsplit(".", 1)[-1])
    reached = [s for s in STAGES[backend] if s in seen]
    res["reached"] = reached[-1] if reached else "none"
    return res


def main():
    cases_dir, out_dir = sys.argv[1], sys.argv[2]
    jobs = int(sys.argv[3]) if len(sys.argv) > 3 else os.cpu_count() or 4
    cases = sorted(os.path.join(cases_dir, f) for f in os.listdir(cases_dir)
                   if f.endswith(".py") and not f.startswith("_"))
    work = [(c, t) for c in cases for t in TARGETS]
    results = {}
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        futs = {ex.submit(compile_one, c, t): (c, t) for c, t in work}
        for f in concurrent.futures.as_completed(futs):
            c, t = futs[f]
            name = os.path.basename(c)[:-3]
            key = t[1] if t[0] == "hip" else "sm_" + t[1]
            results.setdefault(name, {})[key] = f.result()
    try:
        import triton
        version = triton.__version__
    except Exception:
        version = "unknown"
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "results.json"), "w") as f:
        json.dump({"triton": version, "cases": results}, f, indent=1, sort_keys=True)
    print("triton", version, "cases", len(results))


if __name__ == "__main__":
    main()
