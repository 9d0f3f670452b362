#!/usr/bin/env python3
"""compare.py: compares what each translation printed with what its CUDA original printed.

Usage: compare.py BUNDLE OUTDIR
Reads BUNDLE/programs.txt and, from OUTDIR (what run.sh wrote), status.tsv and
run/{cuda,hip}/NAME.out; writes OUTDIR/results.tsv and OUTDIR/results.md and prints the latter.

Before comparing, both outputs are masked the same way:
  - lines that report measurements are dropped: times, rates, bandwidths, clocks, and the
    count of CPU iterations while the GPU ran (TIMING below), and lines that match the
    program's MASK of programs.txt;
  - hexadecimal addresses become 0x?, and the variant's folders (/cuda/ or /hip/ in a path that
    argv[0] or __FILE__ prints) become /*/;
  - empty lines and trailing blanks go.
Verdicts: 'identical' (the masked outputs are equal), 'within tolerance' (equal but for numbers
that differ by at most 1e-3 relatively, or 1e-6 absolutely: floating-point reductions may sum
in another order), 'same lines, other order' (the same lines, in another order: printf from
concurrently running GPU threads or blocks, whose order CUDA does not fix), 'same lines up
to order and numbering' (only for programs whose COMPARE field in programs.txt is 'unordered':
the same lines once their numbers are blanked, in any order), 'differs' (the
first differing line is given). A translation passes when it built, exited with the original's
exit status and its output is identical, within tolerance, the same lines in another order or
(for 'unordered' programs) the same lines up to order and numbering.
The self-check columns read the outputs: PASS or FAIL where a program says so. 'lines compared'
is the number of lines left after masking, over the lines the original printed.
"""
import pathlib
import re
import sys

TIMING = re.compile(
    r"(\btimes?\b|timing|elapsed|\bms\b|msec|usec|\bsecs?\b|seconds|\b[mun]?s\b\s*$|"
    r"[GMKT]B/s|GFlop|TFlop|GOP|flops|throughput|bandwidth|\bclocks?\b|cycles|"
    r"\w/s\b|per second|speedup|"
    r"iterations while waiting|Performance\s*=|Time\s*=)",
    re.I)
HEX = re.compile(r"0x[0-9a-fA-F]{6,}")
VARDIR = re.compile(r"/(cuda|hip)/")
NUM = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)\b", re.I)
PASS = re.compile(r"(test passed|result\s*=\s*pass|\bpassed\b|\bpass\b|results match|success)", re.I)
FAIL = re.compile(r"(test failed|result\s*=\s*fail|\bfailed\b|\bfail\b|mismatch|incorrect)", re.I)


def programs(path):
    out = []
    for line in path.read_text().splitlines():
        f = line.split("|")
        if f[0] == "prog":
            f += [""] * (9 - len(f))
            # the mask is the rest of the line: a regular expression may hold '|'
            out.append({"name": f[1], "corpus": f[2], "compare": f[7], "mask": "|".join(f[8:])})
    return out


def statuses(path):
    d = {}
    if path.exists():
        rows = path.read_text().splitlines()[1:]
        for r in rows:
            v, n, brc, bs, rrc, rs = (r.split("\t") + ["-"] * 6)[:6]
            d[(v, n)] = {"build": brc, "build_s": bs, "run": rrc, "run_s": rs}
    return d


def masked(text, mask):
    extra = re.compile(mask) if mask else None
    lines = []
    for line in text.splitlines():
        line = line.rstrip()
        if not line.strip() or TIMING.search(line) or (extra and extra.search(line)):
            continue
        lines.append(VARDIR.sub("/*/", HEX.sub("0x?", line)))
    return lines


def close(a, b):
    if NUM.split(a) != NUM.split(b):
        return False
    for x, y in zip(NUM.findall(a), NUM.findall(b)):
        fx, fy = float(x), float(y)
        if fx == fy or (fx != fx and fy != fy):
            continue
        if abs(fx - fy) > max(1e-3 * max(abs(fx), abs(fy)), 1e-6):
            return False
    return True


def compare(a, b, unordered=False):
    if a == b:
        return "identical", ""
    if sorted(a) == sorted(b):
        return "same lines, other order", ""
    if unordered:
        blank = lambda lines: sorted(NUM.sub("#", x) for x in lines)
        if blank(a) == blank(b):
            return "same lines up to order and numbering", ""
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y and not close(x, y):
            return "differs", f"line {i + 1}: `{x[:100]}` / `{y[:100]}`"
    if len(a) != len(b):
        more = a[len(b)] if len(a) > len(b) else b[len(a)]
        return "differs", f"{len(a)} / {len(b)} lines, first extra: `{more[:100]}`"
    return "within tolerance", ""


def selfcheck(text):
    if text is None:
        return "-"
    if FAIL.search(text):
        return "FAIL"
    return "PASS" if PASS.search(text) else "-"


def main():
    bundle, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    progs = programs(bundle / "programs.txt")
    st = statuses(out / "status.tsv")
    rows = []
    for p in progs:
        n = p["name"]
        c, h = st.get(("cuda", n), {}), st.get(("hip", n), {})
        text = {}
        for v in ("cuda", "hip"):
            f = out / "run" / v / f"{n}.out"
            text[v] = f.read_text(errors="replace") if f.exists() else None
        verdict, why, lines = "-", "", "-"
        if text["cuda"] is not None and text["hip"] is not None:
            a, b = masked(text["cuda"], p["mask"]), masked(text["hip"], p["mask"])
            verdict, why = compare(a, b, p["compare"] == "unordered")
            lines = f"{len(a)}/{len(text['cuda'].splitlines())}"
        elif c.get("build") == "0" and h.get("build", "-") not in ("0", "-"):
            verdict, why = "not built", f"see build/hip/{n}.log"
        row = {
            "name": n, "corpus": p["corpus"],
            "cuda_build": c.get("build", "-"), "hip_build": h.get("build", "-"),
            "cuda_rc": c.get("run", "-"), "hip_rc": h.get("run", "-"),
            "self_check": selfcheck(text["cuda"]), "hip_self_check": selfcheck(text["hip"]),
            "output": verdict, "lines": lines, "why": why,
        }
        if row["hip_rc"] != row["cuda_rc"] and "-" not in (row["hip_rc"], row["cuda_rc"]):
            row["why"] = (f"exit status {row['cuda_rc']} / {row['hip_rc']}" + (f"; {why}" if why else ""))
        row["pass"] = "yes" if (row["hip_build"] == "0" and row["hip_rc"] == row["cuda_rc"] != "-"
                                and verdict in ("identical", "within tolerance", "same lines, other order",
                                                "same lines up to order and numbering")) else "no"
        rows.append(row)

    cols = ["name", "corpus", "cuda_build", "hip_build", "cuda_rc", "hip_rc", "self_check",
            "hip_self_check", "output", "lines", "pass", "why"]
    with open(out / "results.tsv", "w") as f:
        f.write("\t".join(cols) + "\n")
        for r in rows:
            f.write("\t".join(r[c] for c in cols) + "\n")

    ok = lambda s: "yes" if s == "0" else ("-" if s == "-" else f"no ({s})")
    md = ["| program | corpus | original built | translation built (no shim) | exit codes (orig/transl) "
          "| self-check (orig/transl) | output | lines compared | pass |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        md.append(f"| {r['name']} | {r['corpus']} | {ok(r['cuda_build'])} | {ok(r['hip_build'])} "
                  f"| {r['cuda_rc']}/{r['hip_rc']} | {r['self_check']}/{r['hip_self_check']} | {r['output']} "
                  f"| {r['lines']} | {r['pass']} |")
    n = len(rows)
    count = lambda key, val: sum(1 for r in rows if r[key] == val)
    md += ["",
           f"- programs: {n}",
           f"- originals built: {count('cuda_build', '0')}, ran with exit status 0: {count('cuda_rc', '0')}",
           f"- translations built as they are (no shim): {count('hip_build', '0')}",
           f"- translations with the original's exit status and output: {count('pass', 'yes')} "
           f"(identical {count('output', 'identical')}, within tolerance {count('output', 'within tolerance')}, "
           f"same lines in another order {count('output', 'same lines, other order')}, "
           f"same lines up to order and numbering {count('output', 'same lines up to order and numbering')}); "
           f"outputs that differ: {count('output', 'differs')}",
           ""]
    notes = [f"- {r['name']}: {r['output']}: {r['why']}" for r in rows if r["why"]]
    if notes:
        md += ["Differences and failures:"] + notes + [""]
    (out / "results.md").write_text("\n".join(md))
    print("\n".join(md))


if __name__ == "__main__":
    main()
