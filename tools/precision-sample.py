#!/usr/bin/env python3
"""precision-sample.py: draws a seeded sample of hipport check's errors and warnings over real
trees for judging by reading the code, spread evenly over the trees.

    python3 tools/precision-sample.py [-b BINARY] [--seed N] [--per-kind N] -o OUT TREE...

Runs `hipport check --format json` on each tree as it is and sorts the error and warning
findings by kind of file (build files, C++, Python, as tools/groundtruth.py sorts them). Per
kind, half the sample is errors and half warnings (more of one where the other runs short);
each half is taken round-robin over the trees, a shuffled list per tree, so that one tree with
thousands of findings of one pattern does not make the whole sample. Writes OUT/sample.md (each
finding with the lines around it) and OUT/sample.tsv (id, severity, rule, tree/path:line, and
empty verdict and reason columns: the format tools/precision-relook.py reads)."""
import argparse, collections, json, os, random, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from groundtruth import tree_kind  # noqa: E402


def findings(binary, tree):
    out = subprocess.run([binary, 'check', '--format', 'json', tree],
                         capture_output=True, text=True).stdout
    data = json.loads(out)
    rows = []
    for x in data['findings'] if isinstance(data, dict) else data:
        if x.get('severity') not in ('error', 'warning'):
            continue
        x['abs'] = os.path.join(tree, x['path'])    # the path check names, under the tree
        x['rel'] = os.path.relpath(x['abs'], tree)
        x['tree'] = os.path.basename(os.path.normpath(tree))
        rows.append(x)
    return rows


def round_robin(rng, by_tree, n):
    lists = []
    for t in sorted(by_tree):
        xs = list(by_tree[t])
        rng.shuffle(xs)
        lists.append(xs)
    rng.shuffle(lists)
    pick = []
    while len(pick) < n and any(lists):
        for xs in lists:
            if xs and len(pick) < n:
                pick.append(xs.pop())
    return pick


def context(path, line):
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            ls = f.read().split('\n')
    except OSError:
        return ''
    return '\n'.join(f'{j + 1:5} {ls[j]}' for j in range(max(0, line - 6), min(len(ls), line + 4)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('-b', '--binary', default='build/hipport')
    ap.add_argument('-o', '--out', required=True)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--per-kind', type=int, default=70)
    ap.add_argument('trees', nargs='+')
    args = ap.parse_args()
    binary = os.path.abspath(args.binary)
    pools = collections.defaultdict(lambda: collections.defaultdict(lambda: collections.defaultdict(list)))
    for t in args.trees:
        for x in findings(binary, os.path.abspath(t)):
            pools[tree_kind(x['rel'])][x['severity']][x['tree']].append(x)
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    md = open(os.path.join(args.out, 'sample.md'), 'w')
    tsv = open(os.path.join(args.out, 'sample.tsv'), 'w')
    md.write(f'# Precision sample (seed {args.seed}, {args.per_kind} per kind of file, '
             f'round-robin over {len(args.trees)} trees)\n\n')
    tsv.write('# id\tseverity\trule\ttree/path:line\tverdict\treason\n')
    for kind in sorted(pools):
        errs, warns = pools[kind]['error'], pools[kind]['warning']
        n_err = sum(map(len, errs.values()))
        n_warn = sum(map(len, warns.values()))
        ne = min(n_err, max(args.per_kind // 2, args.per_kind - n_warn))
        nw = min(n_warn, args.per_kind - ne)
        pick = round_robin(rng, errs, ne) + round_robin(rng, warns, nw)
        pick.sort(key=lambda x: (x['tree'], x['rel'], int(x['line'])))
        md.write(f'## {kind}: {ne} of {n_err} errors, {nw} of {n_warn} warnings\n\n')
        for k, x in enumerate(pick, 1):
            ln = int(x['line'])
            where = f'{x["tree"]}/{x["rel"]}:{ln}'
            md.write(f'### {kind}-{k} {x["severity"]} {x["rule"]} {where}\n{x["message"]}\n'
                     f'```\n{context(x["abs"], ln)}\n```\n\n')
            tsv.write(f'{kind}-{k}\t{x["severity"]}\t{x["rule"]}\t{where}\t\t\n')
    md.close()
    tsv.close()
    print(f'{args.out}/sample.md, {args.out}/sample.tsv')


if __name__ == '__main__':
    main()
