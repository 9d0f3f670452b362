#!/usr/bin/env python3
"""import-ref.py: (re)creates the imported rows of data/cuda2hip/*.tsv from a directory of
reference tables (one row per CUDA name with its HIP and ROC equivalents and versions).
Rows of functions named in data/tables/argrewrites.tsv get the flag args, and hipBLAS names
spelled with _v2 the flag v2.

    tools/import-ref.py REFDIR [DATADIR]

Each family file holds an imported block and rows written by hand; only the block between the
markers '# begin imported' and '# end imported' is replaced, and a hand-written row wins over an
imported row of the same name. Not part of the build.
"""
import os
import re
import sys

FILES = [  # (reference table, family)
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
BEGIN = "# begin imported"
END = "# end imported"
HEAD = "# cuda\thip\tkind\tsince\tdeprecated\tremoved\tlegacy\troc\tflags"


def version(v):
    v = v.strip()
    if not v:
        return "-"
    m = re.match(r"^(\d+)\.(\d+)", v)
    return f"{int(m.group(1))}.{int(m.group(2))}" if m else "-"


def kind_of(section, name):
    s = section.lower()
    if "type" in s:
        if name.endswith("_t") or name.endswith("_st") or re.match(r"^CU[a-z]", name):
            return "type"
        return "enum"
    if "function" in s or "reference" in s or "management" in s or "api" in s \
            or "control" in s or "interop" in s or "handling" in s or "routines" in s \
            or "occupancy" in s or "access" in s or "extension" in s or "logging" in s \
            or "addressing" in s or "execution" in s or "operations" in s or "allocator" in s \
            or "contexts" in s or "version" in s or "interactions" in s:
        if re.match(r"^[A-Z0-9_]+$", name):
            return "macro"
        return "func"
    return "enum"


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: import-ref.py REFDIR [DATADIR]")
    ref = sys.argv[1]
    data = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "data", "cuda2hip")
    # Names written by hand in any family file win over imported rows everywhere.
    hand_all = set()
    for fn in os.listdir(data):
        if not fn.endswith(".tsv"):
            continue
        with open(os.path.join(data, fn), encoding="utf-8") as f:
            inside = False
            for l in f.read().split("\n"):
                if l == BEGIN:
                    inside = True
                elif l == END:
                    inside = False
                elif l and not l.startswith("#") and not inside:
                    hand_all.add(l.split("\t")[0])
    seen = {n: None for n in hand_all}
    # Functions with argument rewrites carry the flag args.
    args = set()
    argtab = os.path.join(data, "..", "tables", "argrewrites.tsv")
    if os.path.exists(argtab):
        with open(argtab, encoding="utf-8") as f:
            for l in f:
                if l.strip() and not l.startswith("#"):
                    args.add(l.split("\t")[0].split("/")[0])
    out = {}
    for fname, fam in FILES:
        rows = out.setdefault(fam, [])
        with open(os.path.join(ref, fname), encoding="utf-8") as f:
            hdr = f.readline().rstrip("\n").split("\t")
            col = {n: i for i, n in enumerate(hdr)}
            for line in f:
                c = line.rstrip("\n").split("\t")
                c += [""] * (len(hdr) - len(c))
                name = c[col["cuda"]]
                if not name or name in seen:
                    continue
                seen[name] = fam
                hip = c[col["hip"]] or "-"
                roc = c[col["roc"]] or "-"
                flags = []
                if c[col["hip_experimental"]]:
                    flags.append("experimental")
                if name in args:
                    flags.append("args")
                if fam == "cublas" and "_v2" in hip:
                    # hipBLAS 3.0 (HIP 7.0) dropped the _v2 spellings (see map_defs.h)
                    flags.append("v2")
                since = version(c[col["hip_added"]]) if hip != "-" else "-"
                rows.append([name, hip, kind_of(c[col["section"]], name), since,
                             version(c[col["hip_deprecated"]]), version(c[col["hip_removed"]]),
                             "-", roc, ",".join(flags) or "-"])
    with open(os.path.join(ref, "headers.tsv"), encoding="utf-8") as f:
        f.readline()
        for line in f:
            c = line.rstrip("\n").split("\t")
            c += [""] * (5 - len(c))
            fam = HEADER_FAMILY.get(c[3])
            if not fam or c[0] in seen:
                continue
            seen[c[0]] = fam
            out[fam].append([c[0], c[1] or "-", "header", "-", "-", "-", "-", c[2] or "-",
                             "-" if c[1] else "drop"])
    for fam, rows in out.items():
        path = os.path.join(data, fam + ".tsv")
        before, after = [], []
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                lines = f.read().split("\n")
            if lines and lines[-1] == "":
                lines.pop()
            if BEGIN in lines and END in lines:
                before = lines[:lines.index(BEGIN)]
                after = lines[lines.index(END) + 1:]
            else:
                sys.exit(f"{path}: no '{BEGIN}' block; refusing to overwrite")
        else:
            before = [f"# {fam}: CUDA names and their HIP equivalents", HEAD]
        hand = {l.split("\t")[0] for l in before + after if l and not l.startswith("#")}
        body = ["\t".join(r) for r in sorted(rows) if r[0] not in hand]
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(before + [BEGIN] + body + [END] + after) + "\n")
        print(f"{fam}: {len(body)} imported rows", file=sys.stderr)


if __name__ == "__main__":
    main()
