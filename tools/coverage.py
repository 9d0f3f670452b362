#!/usr/bin/env python3
"""coverage.py: measures how much of a reference table directory our name tables cover.

    tools/coverage.py REFDIR [--roc] [--list] [DATADIR]

REFDIR holds reference tables in the layout of tools/import-ref.py (one TSV per API with the
columns cuda, hip, roc; headers.tsv for headers). For every reference name that has a HIP
equivalent (with --roc: a ROC equivalent), the name is covered when data/cuda2hip maps it to
the same name, to a name whose legacy spelling (for older HIPs) is the reference's, or to a
documented better name listed in tools/coverage-better.tsv (cuda, reference name, ours, why).
Prints one line per family and the total; --list prints the names not covered. Not part of
the build or of `make test`.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = [  # the families of tools/import-ref.py
    ("CUDA_Runtime_API_functions_supported_by_HIP.tsv", "runtime"),
    ("CUDA_Driver_API_functions_supported_by_HIP.tsv", "driver"),
    ("CUDA_Device_API_supported_by_HIP.tsv", "device"),
    ("cuComplex_API_supported_by_HIP.tsv", "complex"),
    ("CUDA_RTC_API_supported_by_HIP.tsv", "nvrtc"),
    ("CUBLAS_API_supported_by_HIP_and_ROC.tsv", "cublas"),
    ("CURAND_API_supported_by_HIP_and_ROC.tsv", "curand"),
    ("CUFFT_API_supported_by_HIP.tsv", "cufft"),
    ("CUSPARSE_API_supported_by_HIP_and_ROC.tsv", "cusparse"),
    ("CUSOLVER_API_supported_by_HIP_and_ROC.tsv", "cusolver"),
    ("CUDNN_API_supported_by_HIP_and_MIOPEN.tsv", "cudnn"),
    ("CUB_API_supported_by_HIP.tsv", "cub"),
]
HEADER_FAMILY = {"driver": "driver", "runtime": "runtime", "complex": "complex",
                 "blas": "cublas", "rand": "curand", "dnn": "cudnn", "fft": "cufft",
                 "sparse": "cusparse", "solver": "cusolver", "cub": "cub", "rtc": "nvrtc"}


def load_ours(data):
    rows = {}
    for fn in sorted(os.listdir(data)):
        if not fn.endswith(".tsv"):
            continue
        with open(os.path.join(data, fn), encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if not line or line.startswith("#"):
                    continue
                c = line.split("\t")
                if len(c) == 9:
                    rows[c[0]] = {"hip": c[1], "legacy": c[6], "roc": c[7], "family": fn[:-4]}
    return rows


def load_better():
    better = {}
    path = os.path.join(HERE, "coverage-better.tsv")
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            c = line.split("\t")
            better[(c[0], c[1])] = c[2]
    return better


def load_ref(ref):
    """(family, cuda, hip, roc) for every reference row."""
    out = []
    for fname, fam in FILES:
        with open(os.path.join(ref, fname), encoding="utf-8") as f:
            hdr = f.readline().rstrip("\n").split("\t")
            col = {n: i for i, n in enumerate(hdr)}
            for line in f:
                c = line.rstrip("\n").split("\t")
                c += [""] * (len(hdr) - len(c))
                out.append((fam, c[col["cuda"]], c[col["hip"]], c[col["roc"]]))
    with open(os.path.join(ref, "headers.tsv"), encoding="utf-8") as f:
        f.readline()
        for line in f:
            c = line.rstrip("\n").split("\t")
            c += [""] * (5 - len(c))
            fam = HEADER_FAMILY.get(c[3])
            if fam:
                out.append((fam, c[0], c[1], c[2]))
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    roc = "--roc" in sys.argv
    show = "--list" in sys.argv
    if not args:
        sys.exit("usage: coverage.py REFDIR [--roc] [--list] [DATADIR]")
    data = args[1] if len(args) > 1 else os.path.join(HERE, "..", "data", "cuda2hip")
    ours = load_ours(data)
    better = load_better()
    fams, missing = {}, []
    for fam, cuda, hip, rocname in load_ref(args[0]):
        want = rocname if roc else hip
        if not cuda or not want:
            continue
        t = fams.setdefault(fam, [0, 0])
        t[1] += 1
        r = ours.get(cuda)
        got = (r["roc"] if roc else r["hip"]) if r else None
        ok = r is not None and (got == want or (not roc and r["legacy"] == want)
                                or better.get((cuda, want)) == got)
        if ok:
            t[0] += 1
        else:
            missing.append((fam, cuda, want, got or "-"))
    what = "ROC" if roc else "HIP"
    print(f"{'family':<10} {'covered':>8} {'of':>6} {'percent':>8}   ({what} names of {args[0]})")
    tc = tt = 0
    for _, fam in FILES:
        if fam not in fams:
            continue
        c, t = fams[fam]
        tc += c
        tt += t
        print(f"{fam:<10} {c:>8} {t:>6} {100.0 * c / t:>7.1f}%")
    print(f"{'total':<10} {tc:>8} {tt:>6} {100.0 * tc / tt if tt else 100.0:>7.1f}%")
    if show:
        for fam, cuda, want, got in missing:
            print(f"not covered: {fam}: {cuda}: reference {want}, ours {got}")


if __name__ == "__main__":
    main()
