#!/usr/bin/env python3
"""compare.py RESULTS.json HIPPORT CASES_DIR: holds what Triton's backends did with each case
(run.py's results) against what `hipport check --target T` says of the case file, for T in
gfx942 and gfx950. The device verdict of a case on a target: "fails" when it does not
compile, "launch fails" when its metadata predicts it (more than 1024 threads per workgroup,
or more shared memory than the target's LDS: 64 KiB on gfx942, 160 KiB on gfx950), else "ok".
They agree when check reports an error exactly where the device verdict is not "ok". Prints a
Markdown table and the count of disagreements (the exit status is 1 if there is one)."""
import json
import os
import subprocess
import sys

LDS = {"gfx942": 64 * 1024, "gfx950": 160 * 1024}
RANK = {"note": 1, "warning": 2, "error": 3}


def device_verdict(r, arch):
    if not r.get("compiled"):
        return "fails", r.get("error", "")
    if (r.get("threads") or 0) > 1024:
        return "launch fails", "%d threads per workgroup" % r["threads"]
    if (r.get("shared") or 0) > LDS[arch]:
        return "launch fails", "%d bytes of shared memory, LDS %d" % (r["shared"], LDS[arch])
    return "ok", "shared %s, threads %s" % (r.get("shared"), r.get("threads"))


def check_findings(hipport, path, arch):
    p = subprocess.run([hipport, "check", "--target", arch, "--format", "json", path],
                       capture_output=True, text=True)
    doc = json.loads(p.stdout)
    return [(f["rule"], f["severity"]) for f in doc["findings"] if f["rule"].startswith("TRI")]


def main():
    results, hipport, cases = sys.argv[1], sys.argv[2], sys.argv[3]
    data = json.load(open(results))
    print("Triton %s. Device: what the backend did (compile-only); check: `hipport check --target T`.\n"
          % data["triton"])
    print("| case | target | device | check | agree | detail |")
    print("|---|---|---|---|---|---|")
    bad = 0
    for name in sorted(data["cases"]):
        per = data["cases"][name]
        ref = per.get("sm_90", {})
        for arch in ("gfx942", "gfx950"):
            verdict, detail = device_verdict(per.get(arch, {}), arch)
            found = check_findings(hipport, os.path.join(cases, name + ".py"), arch)
            top = max((RANK[s] for _, s in found), default=0)
            said = ", ".join("%s %s" % f for f in found) or "-"
            agree = (top == 3) == (verdict != "ok")
            bad += not agree
            print("| %s | %s | %s | %s | %s | %s |" % (
                name, arch, verdict, said, "yes" if agree else "**no**",
                detail.replace("|", "/")[:160]))
        print("| %s | sm_90 | %s | | | reference |" % (name, "ok" if ref.get("compiled") else "fails"))
    print("\n%d disagreement%s" % (bad, "" if bad == 1 else "s"))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
