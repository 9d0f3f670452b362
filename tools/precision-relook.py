#!/usr/bin/env python3
"""precision-relook.py: looks up the judged findings of a precision sample in what a build of
hipport check reports now, by rule, path and line.

    python3 tools/precision-relook.py [-b BINARY] ROOT SAMPLE.tsv...

ROOT holds the trees the sample names (ROOT/TREE); SAMPLE.tsv has the columns of
tools/groundtruth/precision-sample-2.tsv (id, severity, rule, tree/path:line, verdict, reason).
Prints, per kind of file (the id's prefix), severity and verdict when judged, and what the
build reports at that place now (error, warning, or gone: a note or nothing), the counts."""
import argparse, collections, json, os, subprocess

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('-b', '--binary', default='build/hipport')
    ap.add_argument('root')
    ap.add_argument('samples', nargs='+')
    args = ap.parse_args()
    rows = []
    for f in args.samples:
        with open(f) as fh:
            for line in fh:
                if line.startswith('#') or not line.strip():
                    continue
                rows.append(line.rstrip('\n').split('\t'))
    now = {}
    for tree in sorted({r[3].split('/')[0] for r in rows}):
        top = os.path.join(args.root, tree)
        out = subprocess.run([args.binary, 'check', '--format', 'json', top],
                             capture_output=True, text=True).stdout
        data = json.loads(out)
        for x in data['findings'] if isinstance(data, dict) else data:
            if x.get('severity') not in ('error', 'warning'):
                continue
            p = x.get('file') or x.get('path') or ''
            rel = os.path.relpath(p, args.root) if os.path.isabs(p) else os.path.join(tree, p)
            key = (x.get('rule'), rel, x.get('line'))
            if now.get(key) != 'error':
                now[key] = x['severity']
    counts = collections.Counter()
    for r in rows:
        path, line = r[3].rsplit(':', 1)
        counts[(r[0].split('-')[0], r[1], r[4], now.get((r[2], path, int(line)), 'gone'))] += 1
    print('kind\tjudged at\tverdict\tnow\tcount')
    for k in sorted(counts):
        print('\t'.join(k) + '\t' + str(counts[k]))

if __name__ == '__main__':
    main()
