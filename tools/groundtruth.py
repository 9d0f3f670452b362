#!/usr/bin/env python3
"""groundtruth.py: measures hipport check against what people porting a project to AMD changed.

usage: tools/groundtruth.py [-b HIPPORT] [-o DIR] [-m MACRO]... [-p PRED]... [--seed N]
                            [--sample N] TREE...

A tree with in-source AMD branches is its own ground truth: every place where its authors wrote
code for AMD beside the CUDA code (#ifdef USE_ROCM / __HIP_PLATFORM_AMD__ / GGML_USE_HIP ...,
Python's is_hip() / torch.version.hip / IS_AMD ...) is a place where the CUDA code had to change.
For each tree the script

 1. lists those sites: the CUDA side of each branch (the lines a CUDA build compiles and an AMD
    build does not), or, where the AMD side only adds code, the directive's line;
 2. writes the tree as a CUDA build sees it (DIR/NAME/cuda): the AMD-only lines are blanked and the
    AMD macros in directives read as 0, Python's AMD predicates as False, so that line numbers are
    kept and check sees the code as it was before the port;
 3. runs `hipport check --format json` on that copy and on the tree as it is;
 4. classifies each site (by the words of its two sides: warp, asm, types, library, ...), and
    marks the sites whose AMD side is the CUDA side renamed (translate's job, not check's: the CUDA
    side is run through `hipport translate` and compared);
 5. prints recall by category: sites with a finding of any severity on their lines, and with an
    error or warning; writes DIR/NAME/sites.md (each site, its two sides and the findings on it)
    and DIR/NAME/sample.md (a seeded random sample of the findings on the tree as it is, with their
    code, for judging precision by reading).

Macros: any identifier naming HIP, ROCm, AMD GPUs (the same test as check's), the -m names, and
every macro that the tree defines only inside AMD-only branches (found to a fixed point).
Python predicates: is_hip(), is_rocm(), torch.version.hip, IS_HIP*, IS_ROCM*, IS_AMD*, the -p
names, and names assigned from one of those.
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

CPP_EXT = ('.cu', '.cuh', '.h', '.hpp', '.hh', '.cc', '.cpp', '.cxx', '.c', '.inl', '.hip')
PY_EXT = ('.py',)

IDENT = re.compile(r'[A-Za-z_]\w*')


def is_amd_macro(name, extra):
    if name in extra:
        return True
    if name.startswith('__gfx') or name.startswith('__GFX'):
        return True
    if 'AMDGCN' in name or 'AMDGPU' in name:
        return True
    for w in ('HIP', 'ROCM', 'ROCm', 'AMD'):
        at = name.find(w)
        while at >= 0:
            if at == 0 or name[at - 1] == '_':
                end = at + len(w)
                if w != 'AMD' or end == len(name) or name[end] == '_':
                    return True
            at = name.find(w, at + 1)
    return False


# ----------------------------------------------------------------- preprocessor conditions

TOK = re.compile(r'\s*(?:(\d[\w.]*)|([A-Za-z_]\w*)|(&&|\|\||==|!=|<=|>=|<<|>>|[-+*/%<>!()?:~&|^,]))')


def cond_tokens(s):
    s = re.sub(r'/\*.*?\*/', ' ', s)
    s = re.sub(r'//.*', '', s)
    out, at = [], 0
    while at < len(s):
        m = TOK.match(s, at)
        if not m:
            if s[at:].strip() == '':
                break
            return None
        at = m.end()
        out.append(m.group(0).strip())
    return out


class Eval:
    """Three-valued evaluation of a #if expression: numbers, or None for unknown. AMD macros are
    0 when amd is False, unknown when True (defined(AMD macro) is 1)."""

    def __init__(self, toks, amd, extra):
        self.t, self.i, self.amd, self.extra = toks, 0, amd, extra

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else None

    def take(self):
        tok = self.peek()
        self.i += 1
        return tok

    def primary(self):
        tok = self.take()
        if tok is None:
            raise ValueError
        if tok == '(':
            v = self.cond()
            if self.take() != ')':
                raise ValueError
            return v
        if tok in ('!', '-', '~', '+'):
            v = self.primary()
            if v is None:
                return None
            return int(not v) if tok == '!' else -v if tok == '-' else ~v if tok == '~' else v
        if tok == 'defined':
            paren = self.peek() == '('
            if paren:
                self.take()
            name = self.take()
            if paren and self.take() != ')':
                raise ValueError
            if name and is_amd_macro(name, self.extra):
                return 1 if self.amd else 0
            return None
        if tok[0].isdigit():
            m = re.match(r'(0x[0-9a-fA-F]+|\d+)', tok)
            return int(m.group(1), 0) if m else None
        if IDENT.fullmatch(tok):
            if self.peek() == '(':  # function-like macro: skip its arguments
                depth = 0
                while self.peek() is not None:
                    x = self.take()
                    depth += x == '('
                    depth -= x == ')'
                    if depth == 0:
                        break
                return None
            if is_amd_macro(tok, self.extra):
                if not self.amd:
                    return 0
                # a bare AMD macro (#if USE_ROCM) is set on AMD; a compared one
                # (HIP_VERSION >= 60000) is unknown
                nxt = self.peek()
                prev = self.t[self.i - 2] if self.i >= 2 else None
                cmp = ('==', '!=', '<', '>', '<=', '>=', '+', '-', '*', '/', '%', '<<', '>>', '&', '|', '^')
                return None if nxt in cmp or prev in cmp else 1
            return None
        raise ValueError

    BIN = [('||',), ('&&',), ('|',), ('^',), ('&',), ('==', '!='), ('<', '>', '<=', '>='),
           ('<<', '>>'), ('+', '-'), ('*', '/', '%')]

    def binary(self, level):
        if level == len(self.BIN):
            return self.primary()
        v = self.binary(level + 1)
        while self.peek() in self.BIN[level]:
            op = self.take()
            w = self.binary(level + 1)
            if op == '||':
                v = 1 if (v or w) else (None if v is None or w is None else 0)
            elif op == '&&':
                v = 0 if (v == 0 or w == 0) else (None if v is None or w is None else 1)
            elif v is None or w is None:
                v = None
            else:
                try:
                    v = int(eval(f'({v}) {op} ({w})'.replace('&&', 'and').replace('||', 'or')))
                except (ZeroDivisionError, SyntaxError):
                    v = None
        return v

    def cond(self):
        v = self.binary(0)
        if self.peek() == '?':
            self.take()
            a = self.cond()
            if self.take() != ':':
                raise ValueError
            b = self.cond()
            v = (a if v else b) if v is not None else (a if a == b else None)
        return v


def eval_cond(text, amd, extra):
    toks = cond_tokens(text)
    if toks is None:
        return None
    try:
        e = Eval(toks, amd, extra)
        v = e.cond()
        return v if e.peek() is None else None
    except (ValueError, RecursionError):
        return None


def mentions_amd(text, extra):
    return any(is_amd_macro(w, extra) for w in IDENT.findall(re.sub(r'//.*|/\*.*?\*/', '', text)))


DIRECTIVE = re.compile(r'\s*#\s*(if|ifdef|ifndef|elif|else|endif|define)\b(.*)')


def logical_lines(text):
    """(first line number, last line number, joined text) of each logical line."""
    lines = text.split('\n')
    i = 0
    while i < len(lines):
        j, s = i, lines[i]
        while s.endswith('\\') and j + 1 < len(lines):
            j += 1
            s = s[:-1] + ' ' + lines[j]
        yield i + 1, j + 1, s
        i = j + 1


def cpp_branches(text, extra):
    """Each conditional branch of the file as (kind, directive first line, directive last line,
    body first, body last, directive text, ancestor): kind is 'amd' (an AMD build only), 'cuda'
    (a CUDA build only, or only the CUDA build may take it) or None; ancestor is the kind of the
    innermost enclosing branch that has one (a branch inside a site is part of that site)."""
    out, stack = [], []
    for a, b, s in logical_lines(text):
        m = DIRECTIVE.match(s)
        if not m or m.group(1) == 'define':
            continue
        d, rest = m.group(1), m.group(2)
        if d in ('if', 'ifdef', 'ifndef'):
            if d == 'ifdef':
                rest = f'defined({rest.strip().split()[0] if rest.strip() else "x"})'
            elif d == 'ifndef':
                rest = f'!defined({rest.strip().split()[0] if rest.strip() else "x"})'
            anc = None
            for og in stack:
                if og['open'] and og['open'][-1][0]:
                    anc = og['open'][-1][0]
                    break
            stack.append({'open': [], 'taken_cuda': 0, 'taken_amd': 0, 'amd_group': False,
                          'anc': anc, 'id': a})
            g = stack[-1]
        elif d in ('elif', 'else', 'endif'):
            if not stack:
                continue
            g = stack[-1]
            if g['open']:
                br = g['open'].pop()
                br[4] = a - 1
                out.append(tuple(br))
            if d == 'endif':
                stack.pop()
                continue
            if d == 'else':
                rest = '1'
        mention = mentions_amd(rest, extra)
        g['amd_group'] |= mention
        vc = eval_cond(rest, False, extra)
        va = eval_cond(rest, True, extra) if mention else vc
        # a branch is reached in a build when no earlier branch of the group was certainly taken
        cuda_reach = not g['taken_cuda']
        amd_reach = not g['taken_amd']
        kind = None
        if g['anc'] == 'amd':
            kind = 'amd'          # inside an AMD-only branch: blanked with it, no site of its own
        elif g['amd_group'] or mention:
            cuda_can = cuda_reach and vc != 0
            amd_can = amd_reach and va != 0
            if amd_can and not cuda_can:
                kind = 'amd'
            elif cuda_can and not amd_can:
                kind = 'cuda'
        if vc == 1:
            g['taken_cuda'] = 1
        if va == 1:
            g['taken_amd'] = 1
        g['open'].append([kind, a, b, b + 1, None, s.strip(), g['anc'], g['id']])
    return out


def derive_macros(files, extra):
    """Macros the tree defines only inside AMD-only branches, to a fixed point."""
    while True:
        inside, outside = set(), set()
        for text in files:
            spans = [(br[3], br[4]) for br in cpp_branches(text, extra) if br[0] == 'amd']
            for a, b, s in logical_lines(text):
                m = re.match(r'\s*#\s*define\s+([A-Za-z_]\w*)', s)
                if not m:
                    continue
                (inside if any(x <= a <= y for x, y in spans) else outside).add(m.group(1))
        new = {n for n in inside - outside if not is_amd_macro(n, extra)}
        if not new:
            return extra
        extra = extra | new


# ----------------------------------------------------------------- Python

PRED_RE = None


def py_preds(extra_preds):
    names = [r'is_hip\s*\(\s*\)', r'is_rocm\s*\(\s*\)', r'is_amd\s*\(\s*\)', r'is_hip_available\s*\(\s*\)',
             r'torch\.version\.hip', r'\bIS_HIP\w*', r'\bIS_ROCM\w*', r'\bIS_AMD\w*', r'\bis_hip_\w+',
             r'current_platform\.is_rocm\s*\(\s*\)', r'\bHIP_BUILD\b', r'\bIS_HIP_EXTENSION\b',
             r'\bROCM_HOME\b']
    names += [r'\b' + re.escape(p) + r'\b' for p in extra_preds]
    return re.compile('|'.join(names))


def py_derived(text, pred):
    """Names a module binds to a predicate alone (IS_HIP = torch.version.hip is not None,
    _is_amd = is_hip())."""
    out = set()
    for m in re.finditer(r'^([A-Za-z_]\w*)\s*(?::[^=]+)?=\s*(.+)$', text, re.M):
        rhs = m.group(2)
        if not pred.search(rhs):
            continue
        rest = pred.sub(' ', rhs)
        if re.fullmatch(r'(?:\s|\bis\b|\bnot\b|\bNone\b|\band\b|\bor\b|\bbool\b|[()])*', rest):
            out.add(m.group(1))
    return out


def indent(s):
    return len(s) - len(s.lstrip(' \t'))


def py_sites(text, pred):
    """(kind, first, last, cond line) for each Python site: 'cuda' lines that only a CUDA run
    takes, or 'add' where an AMD branch only adds code."""
    lines = text.split('\n')
    out = []
    n = len(lines)

    def block_end(i):
        ind = indent(lines[i])
        j = i + 1
        last = i
        while j < n:
            if lines[j].strip() and indent(lines[j]) <= ind:
                break
            if lines[j].strip():
                last = j
            j += 1
        return last

    for i, s in enumerate(lines):
        st = s.strip()
        if not pred.search(st) or st.startswith('#'):
            continue
        m = re.match(r'(if|elif)\b(.*):\s*(#.*)?$', st)
        if m:
            neg = re.match(r'\s*not\b', m.group(2)) is not None or \
                re.search(r'\bis\s+None\b|==\s*None\b', m.group(2)) is not None
            body_end = block_end(i)
            # the else of this if, at the same indentation
            j = body_end + 1
            while j < n and not lines[j].strip():
                j += 1
            has_else = j < n and indent(lines[j]) == indent(s) and \
                re.match(r'(else|elif)\b', lines[j].strip()) is not None
            if neg:
                out.append(('cuda', i + 1, body_end + 1, st))
            elif has_else:
                out.append(('cuda', j + 1, block_end(j) + 1, st))
            elif ' and ' in m.group(2) or ' or ' in m.group(2):
                out.append(('add', i + 1, i + 1, st))
            else:
                out.append(('add', i + 1, i + 1, st))
            continue
        if re.search(r'\bif\b.*\belse\b', st):  # a conditional expression
            out.append(('cuda', i + 1, i + 1, st))
            continue
        if re.match(r'return\b', st) or re.match(r'assert\b', st):
            out.append(('add', i + 1, i + 1, st))
    return out


def py_ternary(line, pred):
    """line with each `A if PRED else B` (or `A if not PRED else B`) replaced by the operand a
    CUDA run takes, when the condition is the predicate alone; None if there is none."""
    m = None
    for mm in re.finditer(r'\bif\s+(not\s+)?(\(?\s*(?:%s)(?:\s+is\s+(?:not\s+)?None)?\s*\)?)\s+else\b'
                          % pred.pattern, line):
        m = mm
        break
    if not m:
        return None
    cond = m.group(0)
    amd_true = not m.group(1)
    if re.search(r'\bis\s+None', cond) or re.search(r'==\s*None', cond):
        amd_true = not amd_true
    # A: back to an opening bracket, '=', ',', ':', 'return' at depth 0
    depth, i = 0, m.start() - 1
    while i >= 0:
        ch = line[i]
        if ch in ')]}':
            depth += 1
        elif ch in '([{':
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and (ch in ',:' or (ch == '=' and line[i - 1:i] not in '=!<>' and
                                            line[i + 1:i + 2] != '=')):
            break
        i -= 1
    a_start = i + 1
    rm = re.match(r'\s*return\b', line[a_start:m.start()])
    if rm:
        a_start += rm.end()
    depth, j = 0, m.end()
    while j < len(line):
        ch = line[j]
        if ch in '([{':
            depth += 1
        elif ch in ')]}':
            if depth == 0:
                break
            depth -= 1
        elif ch in ',#' and depth == 0:
            break
        j += 1
    a = line[a_start:m.start()].strip()
    b = line[m.end():j].strip()
    keep = b if amd_true else a
    lead = line[a_start:m.start()]
    lead = lead[:len(lead) - len(lead.lstrip())]
    return line[:a_start] + lead + keep + line[j:]


def py_resolve(text, pred):
    """The file as a CUDA run sees it: conditional expressions on a predicate become the CUDA
    operand, other predicates False (torch.version.hip None)."""
    out = []
    for line in text.split('\n'):
        for _ in range(4):
            r = py_ternary(line, pred)
            if r is None:
                break
            line = r
        out.append(pred.sub(lambda m: 'None' if 'version' in m.group(0) else 'False', line))
    return '\n'.join(out)


# ----------------------------------------------------------------- categories

CATS = [
    ('asm', r'\basm\b|__asm__|\bptx\b'),
    ('warp', r'\b32\b|\b31\b|0x1f|0xffffffff|warpSize|WARP_SIZE|warp_size|__shfl|shfl_|ballot|'
             r'__activemask|lane|__popc|__any|__all|syncwarp|num_warps'),
    ('types', r'fp8|e4m3|e5m2|bf16|bfloat|__half|half2|__nv_|float8|tf32|allow_tf32|input_precision'),
    ('library', r'cublas|cub::|thrust|cusparse|curand|cudnn|cutlass|cufft|nccl|hipcub|rocprim|cute'),
    ('arch', r'__CUDA_ARCH__|\bsm_\d|capability|\bsm\d\d|sm90|sm80|__nv_arch'),
    ('atomics', r'atomic'),
    ('memory', r'__launch_bounds__|cudaFuncSetAttribute|__shared__|SharedMemory|maxThreads|'
               r'num_stages|smem|shared_mem|LDS'),
    ('intrinsics', r'__ldg|__ld[a-z]{2}\b|__st[a-z]{2}\b|__nanosleep|clock|__threadfence|__prmt|'
                   r'__byte_perm|__dp4a|__vabs|__vsub|__vadd|__funnelshift|__reduce_'),
    ('include', r'^\s*#\s*include'),
    ('runtime', r'\bcuda[A-Z]\w*|\bcu[A-Z]\w*\('),
    ('triton', r'\btl\.|triton'),
]


def categorize(cuda_text, amd_text):
    both = cuda_text + '\n' + amd_text
    for name, pat in CATS:
        if name == 'include':
            ls = [x for x in both.split('\n') if x.strip() and not x.strip().startswith('//')]
            if ls and all(re.match(pat, x) for x in ls):
                return name
            continue
        if re.search(pat, both, re.M):
            return name
    return 'other'


def norm(s):
    s = re.sub(r'//[^\n]*|/\*.*?\*/', ' ', s, flags=re.S)
    return re.sub(r'\s+', ' ', s).strip()


# ----------------------------------------------------------------- driver

def walk(tree, exts):
    for root, dirs, files in os.walk(tree):
        dirs[:] = sorted(d for d in dirs if not d.startswith('.'))
        for f in sorted(files):
            if f.endswith(exts):
                yield os.path.join(root, f)


def read(path):
    with open(path, 'rb') as f:
        return f.read().decode('utf-8', 'replace')


def check_json(binary, tree, extra_args=()):
    p = subprocess.run([binary, 'check', '--format', 'json', '--fail-on', 'never', '-j', '2',
                        *extra_args, tree], capture_output=True)
    try:
        return json.loads(p.stdout.decode('utf-8', 'replace'))['findings']
    except (ValueError, KeyError):
        sys.exit(f'groundtruth: check failed on {tree}: {p.stderr.decode()[:400]}')


def translate_text(binary, text, name):
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, name)
        with open(src, 'w') as f:
            f.write(text)
        p = subprocess.run([binary, 'translate', src], capture_output=True)
        return p.stdout.decode('utf-8', 'replace')


def finding_key(f):
    return f.get('path', ''), int(f.get('line', 0))


def run_tree(args, tree, outdir):
    name = os.path.basename(os.path.normpath(tree))
    dest = os.path.join(outdir, name)
    cuda = os.path.join(dest, 'cuda')
    if os.path.exists(dest):
        shutil.rmtree(dest)
    os.makedirs(cuda)
    cpp_files = list(walk(tree, CPP_EXT))
    py_files = list(walk(tree, PY_EXT))
    texts = {p: read(p) for p in cpp_files}
    extra = derive_macros(list(texts.values()), set(args.macro))
    base_pred = py_preds(args.pred)
    pytexts = {p: read(p) for p in py_files}
    derived = set()
    for t in pytexts.values():
        derived |= py_derived(t, base_pred)
    pred = py_preds(list(args.pred) + sorted(derived))

    sites = []
    # copy every file the check would read, then resolve the ones with sites
    for root, dirs, files in os.walk(tree):
        dirs[:] = [d for d in dirs if not d.startswith('.')]
        rel = os.path.relpath(root, tree)
        os.makedirs(os.path.join(cuda, rel), exist_ok=True)
        for f in files:
            src = os.path.join(root, f)
            if os.path.islink(src) or not os.path.isfile(src):
                continue
            shutil.copyfile(src, os.path.join(cuda, rel, f))
    for p, text in texts.items():
        rel = os.path.relpath(p, tree)
        brs = cpp_branches(text, extra)
        if not any(b[0] for b in brs):
            continue
        lines = text.split('\n')
        out = list(lines)
        groups = {}
        for kind, da, db, ba, bb, dtext, anc, gid in brs:
            if kind == 'amd':
                for k in range(ba - 1, min(bb, len(lines))):
                    out[k] = ''
        # directives: AMD macros read as 0
        for a, b, s in logical_lines(text):
            m = DIRECTIVE.match(s)
            if not m or m.group(1) in ('else', 'endif', 'define') or not mentions_amd(m.group(2), extra):
                continue
            d = m.group(1)
            if d == 'ifdef':
                new = '#if 0'
            elif d == 'ifndef':
                new = '#if 1'
            else:
                cond = re.sub(r'defined\s*\(\s*([A-Za-z_]\w*)\s*\)|defined\s+([A-Za-z_]\w*)',
                              lambda mm: '0' if is_amd_macro(mm.group(1) or mm.group(2), extra)
                              else mm.group(0), m.group(2))
                cond = IDENT.sub(lambda mm: '0' if is_amd_macro(mm.group(0), extra) else mm.group(0), cond)
                new = f'#{d} {cond}'
            out[a - 1] = new
            for k in range(a, b):
                out[k] = ''
        with open(os.path.join(cuda, rel), 'w') as f:
            f.write('\n'.join(out))
        # sites: a group's CUDA-only branches against its AMD-only ones
        groups = {}
        for kind, da, db, ba, bb, dtext, anc, gid in brs:
            if kind is None or anc:
                continue
            g = groups.setdefault(gid, {'cuda': [], 'amd': []})
            g[kind].append((da, ba, bb, dtext))
        for gid, g in sorted(groups.items()):
            amd = '\n'.join('\n'.join(lines[ba - 1:bb]) for da, ba, bb, dt in g['amd'])
            for da, ba, bb, dt in g['cuda']:
                sites.append({'file': rel, 'lang': 'cpp', 'kind': 'cuda', 'first': ba, 'last': bb,
                              'cond': dt, 'group': gid, 'cuda': '\n'.join(lines[ba - 1:bb]),
                              'amd': amd})
            if not g['cuda']:
                sites.append({'file': rel, 'lang': 'cpp', 'kind': 'add', 'first': gid, 'last': gid,
                              'cond': g['amd'][0][3], 'group': gid, 'cuda': '', 'amd': amd})
    for p, text in pytexts.items():
        rel = os.path.relpath(p, tree)
        ss = py_sites(text, pred)
        if not ss and not pred.search(text):
            continue
        with open(os.path.join(cuda, rel), 'w') as f:
            f.write(py_resolve(text, pred))
        lines = text.split('\n')
        for kind, a, b, cond in ss:
            body = '\n'.join(lines[a - 1:b])
            sites.append({'file': rel, 'lang': 'py', 'kind': kind, 'first': a, 'last': b, 'cond': cond,
                          'cuda': body if kind == 'cuda' else '', 'amd': cond})

    # rename-only sites: the AMD side is the CUDA side translated
    for s in sites:
        s['cat'] = categorize(s['cuda'], s['amd'])
        s['rename'] = False
        if s['lang'] == 'cpp' and s['cuda'].strip() and s['amd'].strip():
            t = translate_text(args.binary, s['cuda'] + '\n', 'site.cu')
            s['rename'] = norm(t) == norm(s['amd'])
        if s['rename']:
            s['cat'] = 'rename'
        elif s['kind'] == 'add' and s['cat'] in ('include', 'runtime', 'other', 'library'):
            s['cat'] = 'add-' + s['cat']

    found = check_json(args.binary, cuda)
    bypos = {}
    for f in found:
        path = os.path.relpath(os.path.abspath(f['path']), os.path.abspath(cuda))
        bypos.setdefault(path, []).append(f)
    # findings on a definition (WARP_SIZE is defined as 32) also speak of the sites that use it
    defs = {}
    for path, fs in bypos.items():
        for f in fs:
            m = DEF_MSG.match(f['message'])
            if m:
                defs.setdefault(path, []).append((m.group(1), f))
    for s in sites:
        lo, hi = s['first'], s['last']
        if s['kind'] == 'add':
            lo, hi = lo - args.window, hi + args.window
        # the directives that select the site (its own, and the group's #if) speak of it too
        heads = {s['first'] - 1, s.get('group', -1)} if s['lang'] == 'cpp' else set()
        s['hits'] = [f for f in bypos.get(s['file'], [])
                     if lo <= int(f['line']) <= hi or int(f['line']) in heads]
        words = set(IDENT.findall(s['cuda']))
        s['linked'] = [f for name, f in defs.get(s['file'], []) if name in words and f not in s['hits']]
        s['hits'] += s['linked']
        s['hit'] = bool(s['hits'])
        s['hit_ew'] = any(f['severity'] in ('error', 'warning') for f in s['hits'])

    labels = read_labels(args, name)
    for s in sites:
        lab = labels.get(site_key(s))
        s['label'] = lab[0] if lab else ''
        s['why'] = lab[1] if lab else ''
        s['translate'] = lab[2] if lab else ''
    report(name, sites, found)
    with open(os.path.join(dest, 'sites.json'), 'w') as f:
        json.dump(sites, f, indent=1)
    with open(os.path.join(dest, 'sites.md'), 'w') as f:
        for s in sorted(sites, key=lambda s: (s['hit_ew'], s['cat'], s['file'], s['first'])):
            mark = 'HIT' if s['hit_ew'] else 'note' if s['hit'] else 'MISS'
            f.write(f'## {mark} {s["cat"]} {site_key(s)} (to line {s["last"]}, {s["lang"]}, '
                    f'{s["kind"]}) {s["label"]}\n')
            if s['why']:
                f.write(f'label: {s["label"]}: {s["why"]}\n')
            if s['translate']:
                f.write(f'{s["translate"]}\n')
            f.write(f'cond: `{s["cond"]}`\n\n```\n{s["cuda"][:1500]}\n```\nAMD side:\n```\n'
                    f'{s["amd"][:800]}\n```\n')
            for h in s['hits']:
                via = ' (at the definition of a name it uses)' if h in s['linked'] else ''
                f.write(f'- {h["severity"]} {h["rule"]} line {h["line"]}{via}: {h["message"][:200]}\n')
            f.write('\n')
    orig = check_json(args.binary, tree) if args.sample else []
    for x in orig:
        x['tree'] = name
        x['root'] = tree
    return sites, orig


DEF_MSG = re.compile(r"'?([A-Za-z_]\w*)(?:\(\))?'? (?:is defined as|is set to|returns|\(\) returns|takes) ")


def site_key(s):
    return f'{s["file"]}:{s["first"]}'


LABELS = ('hazard', 'perf', 'feature', 'plumbing', 'unclear')


def read_labels(args, name):
    """Judged sites: tools/groundtruth/NAME.tsv (or the -l directory): key, label, reason."""
    path = os.path.join(args.labels, name + '.tsv')
    out = {}
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith('#'):
                continue
            parts = line.rstrip('\n').split('\t')
            if len(parts) < 3 or parts[1] not in LABELS or \
                    (len(parts) > 3 and not parts[3].startswith('translate: ')):
                sys.exit(f'{path}:{n}: want KEY<TAB>LABEL<TAB>REASON[<TAB>translate: HOW], LABEL '
                         f'one of {LABELS}')
            out[parts[0]] = (parts[1], parts[2], parts[3] if len(parts) > 3 else '')
    return out


def report(name, sites, found):
    labelled = any(s['label'] for s in sites)
    print(f'# {name}: {len(sites)} sites ({sum(1 for s in sites if s["rename"])} renames), '
          f'{len(found)} findings on the CUDA view')
    if labelled:
        rows = {}
        for s in sites:
            c = rows.setdefault((s['label'] or 'unlabelled', s['lang'], s['cat']), [0, 0, 0])
            c[0] += 1
            c[1] += s['hit']
            c[2] += s['hit_ew']
        print(f'{"label":10} {"lang":5} {"category":14} {"sites":>6} {"any":>6} {"err/warn":>9}')
        for (lab, lang, cat), (n, h, e) in sorted(rows.items()):
            print(f'{lab:10} {lang:5} {cat:14} {n:6} {h:6} {e:9}')
        hz = [s for s in sites if s['label'] == 'hazard']
        if hz:
            n = len(hz)
            h = sum(s['hit'] for s in hz)
            e = sum(s['hit_ew'] for s in hz)
            t = sum(bool(s['translate']) for s in hz)
            c = sum(bool(s['hit_ew'] or s['translate']) for s in hz)
            print(f'hazards: {n}; check finds {h} ({100 * h / n:.0f}%), {e} at error/warning '
                  f'({100 * e / n:.0f}%); translate repairs {t}; found at error/warning or '
                  f'repaired: {c} ({100 * c / n:.0f}%)')
        return
    cats = {}
    for s in sites:
        c = cats.setdefault((s['lang'], s['cat']), [0, 0, 0])
        c[0] += 1
        c[1] += s['hit']
        c[2] += s['hit_ew']
    print(f'{"lang":5} {"category":14} {"sites":>6} {"any":>6} {"err/warn":>9}')
    tot = [0, 0, 0]
    for (lang, cat), (n, h, e) in sorted(cats.items()):
        print(f'{lang:5} {cat:14} {n:6} {h:6} {e:9}')
        if cat != 'rename' and not cat.startswith('add-'):
            tot = [tot[0] + n, tot[1] + h, tot[2] + e]
    if tot[0]:
        print(f'{"":5} {"counted":14} {tot[0]:6} {tot[1]:6} {tot[2]:9}   '
              f'recall any {100 * tot[1] / tot[0]:.0f}%, err/warn {100 * tot[2] / tot[0]:.0f}%')


def tree_kind(path):
    if re.search(r'(^|/)(CMakeLists\.txt|[^/]*\.cmake|Makefile[^/]*|[^/]*\.mk|setup\.py|'
                 r'pyproject\.toml|[^/]*\.sh|Dockerfile[^/]*|[^/]*\.[Dd]ockerfile)$', path):
        return 'build'
    return 'py' if path.endswith('.py') else 'cpp'


def write_sample(args, findings):
    """A seeded sample of the errors and warnings on the trees as they are, per kind of file
    (C++, Python, build files), half errors where there are enough, for judging by reading."""
    rng = random.Random(args.seed)
    pools = {}
    for x in findings:
        if x['severity'] in ('error', 'warning'):
            pools.setdefault(tree_kind(x['path']), {}).setdefault(x['severity'], []).append(x)
    path = os.path.join(args.out, 'sample.md')
    with open(path, 'w') as f:
        f.write(f'# Precision sample (seed {args.seed}, {args.sample} per kind of file)\n\n')
        for kind in sorted(pools):
            errs = pools[kind].get('error', [])
            warns = pools[kind].get('warning', [])
            ne = min(len(errs), max(args.sample // 2, args.sample - len(warns)))
            nw = min(len(warns), args.sample - ne)
            pick = rng.sample(errs, ne) + rng.sample(warns, nw)
            pick.sort(key=lambda x: (x['tree'], x['path'], int(x['line'])))
            f.write(f'## {kind}: {ne} of {len(errs)} errors, {nw} of {len(warns)} warnings\n\n')
            for k, x in enumerate(pick):
                try:
                    ls = read(x['path']).split('\n')
                except OSError:
                    ls = []
                ln = int(x['line'])
                ctx = '\n'.join(f'{j + 1:5} {ls[j]}' for j in range(max(0, ln - 5), min(len(ls), ln + 3)))
                rel = os.path.relpath(x['path'], x['root'])
                f.write(f'### {kind}-{k + 1} {x["severity"]} {x["rule"]} {x["tree"]}/{rel}:{ln}\n')
                f.write(f'{x["message"]}\n```\n{ctx}\n```\nverdict: \n\n')
    print(f'sample: {path}')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('-b', '--binary', default='build/hipport')
    ap.add_argument('-o', '--out', default='build/groundtruth')
    ap.add_argument('-m', '--macro', action='append', default=[])
    ap.add_argument('-p', '--pred', action='append', default=[])
    ap.add_argument('-w', '--window', type=int, default=3)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--sample', type=int, default=0)
    ap.add_argument('-l', '--labels', default=os.path.join(os.path.dirname(__file__), 'groundtruth'))
    ap.add_argument('trees', nargs='+')
    args = ap.parse_args()
    args.binary = os.path.abspath(args.binary)
    os.makedirs(args.out, exist_ok=True)
    allsites, allfind = [], []
    for t in args.trees:
        sites, found = run_tree(args, t, args.out)
        allsites += sites
        allfind += found
    if len(args.trees) > 1:
        report('all', allsites, [])
    if args.sample:
        write_sample(args, allfind)


if __name__ == '__main__':
    main()
