/* rules_pytorch.c: rules PT001-PT005: vendor and capability checks, extension build settings
 * and fp8 dtypes in PyTorch code, and ATen CUDA APIs in C++ extension sources. */
#include <string.h>

#include "nvcc_flags_tab.h"
#include "pyrules.h"
#include "pysrc.h"
#include "rules.h"
#include "rules_build.h"
#include "rules_py.h"
#include "rules_pytorch.h"
#include "str.h"

#include "banned.h"

#define QN 160

/* Findings on a span of tokens (pyrules.c). */
#define add_span pyrules_add_span

static int guarded(const pysrc *p, ptrdiff_t i)
{
    return pysrc_guarded(p, i, pysrc_pred_amd, NULL);
}

static const char *const nv_pkgs[] = {"cutlass", "cuda", "nvshmem", "tensorrt"};

/* Is the dotted module name s an NVIDIA-only package or one of its modules ("cutlass",
 * "cuda.tile", "cuda.bindings.driver")? */
static int nv_pkg(hp_str s)
{
    for (size_t k = 0; k < sizeof nv_pkgs / sizeof *nv_pkgs; k++) {
        hp_str w = str_cstr(nv_pkgs[k]);
        if (str_starts(s, w) && (s.len == w.len || s.s[w.len] == '.'))
            return 1;
    }
    return 0;
}

/* Is token i the name of a call that asks for an NVIDIA-only package by its name: kind 1
 * pytest.importorskip("cutlass"), kind 2 find_spec("cuda.tile") (importlib.util.find_spec and
 * cached wrappers named find_spec_*)? Returns the kind, or 0. */
static int nv_pkg_probe(const pysrc *p, ptrdiff_t i)
{
    if (p->t[i].kind != PY_NAME || !pysrc_op(p, i + 1, '(') || p->match[i + 1] <= i + 1)
        return 0;
    hp_str n = pysrc_text(p, i);
    int kind = RULES_EQ(n, "importorskip") ? 1 : RULES_STARTS(n, "find_spec") ? 2 : 0;
    hp_str body;
    if (!kind || !pysrc_str(p, i + 2, p->match[i + 1], &body) || !nv_pkg(body))
        return 0;
    return kind;
}

/* Does the file import an NVIDIA-only package at its top level, outside any try or if
 * (import cutlass, import cuda.bindings.driver, from cuda import cudart, nvshmem, tensorrt),
 * or skip its tests without one (pytest.importorskip("cutlass"), in the module or a test)?
 * Importing it fails on ROCm, so none of the file's code runs there; the tests of a file that
 * skips without it test that package. */
static int nvidia_only_file(const pysrc *p)
{
    for (ptrdiff_t i = 0; i + 1 < p->n; i++) {
        if (nv_pkg_probe(p, i) == 1)
            return 1;
        if (p->lstart[i] != i || p->up[i] >= 0 ||
            (!pysrc_is(p, i, "import") && !pysrc_is(p, i, "from")))
            continue;
        for (size_t k = 0; k < sizeof nv_pkgs / sizeof *nv_pkgs; k++)
            if (pysrc_is(p, i + 1, nv_pkgs[k]))
                return 1;
    }
    return 0;
}

/* Does the logical line of token i also ask whether an NVIDIA-only package is installed
 * (find_spec("cutlass") is not None and capability >= (9, 0))? Its tests then run only where
 * that package is, which ROCm never has. */
static int needs_nv_pkg(const pysrc *p, ptrdiff_t i)
{
    ptrdiff_t e = pysrc_line_end(p, i);
    for (ptrdiff_t k = p->lstart[i]; k < e; k++)
        if (nv_pkg_probe(p, k))
            return 1;
    return 0;
}

/* Is token i in code AMD does not run or already tells apart: under a vendor test of
 * either side, after an early exit on one, or in a function only such code calls (or one
 * named for NVIDIA)? Not for the vendor tests themselves (torch.version.cuda), which are
 * the findings. */
static int one_side(const pysrc *p, ptrdiff_t i)
{
    return pysrc_vendor_only(p, i) || needs_nv_pkg(p, i);
}

static int is_cmp(const pysrc *p, ptrdiff_t i)
{
    return pysrc_op(p, i, '<') || pysrc_op(p, i, '>') || pysrc_op(p, i, PO_LE) ||
           pysrc_op(p, i, PO_GE) || pysrc_op(p, i, PO_EQ) || pysrc_op(p, i, PO_NE) ||
           pysrc_is(p, i, "in");
}

/* Is the name compared with something anywhere after token from? */
static int name_compared(const pysrc *p, hp_str name, ptrdiff_t from)
{
    for (ptrdiff_t i = from; i < p->n; i++) {
        if (p->t[i].kind != PY_NAME || !str_eq(pysrc_text(p, i), name) ||
            pysrc_op(p, i - 1, '.'))
            continue;
        ptrdiff_t j = i + 1;
        if (pysrc_op(p, j, '[') && p->match[j] > j)
            j = p->match[j] + 1;
        if (is_cmp(p, j) || is_cmp(p, i - 1) || (pysrc_is(p, j, "not") && is_cmp(p, j + 1)) ||
            pysrc_is(p, j, "is"))
            return 1;
    }
    return 0;
}

static const char pt002_fix[] =
    "gate on torch.version.hip and torch.cuda.get_device_properties(d).gcnArchName (e.g. "
    "'gfx942' in it), or probe the feature itself";

static const char pt002_msg[] =
    "compute-capability gate: ROCm reports AMD GPUs as capabilities (9, 0) MI200, (9, 4) "
    "MI300, (9, 5) MI350, (11, x) RDNA3, so NVIDIA thresholds at Hopper such as >= (9, 0) "
    "or == 9 pick the wrong path on AMD";

static const char pt002_test[] =
    "compute-capability gate in test code: ROCm reports AMD GPUs as capabilities (9, x) and "
    "(11, x), so on AMD this gate skips or runs a test, or picks its parameters, as on an "
    "NVIDIA GPU of that major; the code under test is not chosen here";

/* A PT002 finding at [b, e): a note in test code (test_code), else at sev with msg. */
static void pt002_add(pyrules *r, const pysrc *p, ptrdiff_t b, ptrdiff_t e, hp_severity sev,
                      const char *msg)
{
    if (r->test_code)
        add_span(r, p, b, e, RID_PT002, HP_SEV_NOTE, pt002_test, pt002_fix);
    else
        add_span(r, p, b, e, RID_PT002, sev, msg, pt002_fix);
}

static const char pt002_note[] =
    "compute-capability gate at an NVIDIA generation AMD does not report: MI200, MI300 and "
    "MI350 report major 9, so a gate at Ampere or older passes as on a newer NVIDIA GPU and "
    "one at Blackwell takes the older path; check that the path taken is what AMD needs";

/* The highest capability major of the run's AMD targets: 9 for Instinct (MI200 (9, 0), MI300
 * (9, 4), MI350 (9, 5)), which is what a run without targets assumes; 11 for RDNA2/3 and 12
 * for RDNA4 when the targets name them. */
static int amd_major(const pyrules *r)
{
    if (r->targets & TGT_GFX12)
        return 12;
    if (r->targets & TGT_RDNA)
        return 11;
    return 9;
}

/* The major of a capability literal: 9, or 90 as major * 10 + minor. */
static unsigned major_bit(long long v)
{
    if (v >= 20)
        v /= 10;
    if (v < 0 || v > 31)
        return 0;
    return 1u << v;
}

/* The majors an operand names, as bits: an int (9, 90), a (major, minor) tuple, a name bound to
 * ints, or with set (the right side of in) a tuple or list of those. The operand opens at token
 * k. Returns 0 when it is none of these. */
static int operand_majors(const pysrc *p, ptrdiff_t k, int set, unsigned *m)
{
    long long v;
    if (k < 0 || k >= p->n)
        return 0;
    if (pysrc_int(p, k, k + 1, &v)) {
        *m |= major_bit(v);
        return 1;
    }
    if (p->t[k].kind == PY_NAME && !pysrc_op(p, k + 1, '.') && !pysrc_op(p, k + 1, '(') &&
        !pysrc_op(p, k + 1, '[')) {
        pysrc_ints iv;
        if (pysrc_int_values(p, k, k + 1, &iv) <= 0)
            return 0;
        for (long long x = iv.min; x <= iv.max && x - iv.min < 32; x++)
            *m |= major_bit(x);
        return 1;
    }
    if ((!pysrc_op(p, k, '(') && !pysrc_op(p, k, '[')) || p->match[k] <= k)
        return 0;
    pysrc_arg a[16];
    int n = pysrc_args(p, k, a, 16);
    if (n < 1 || n > 16)
        return 0;
    if (!set)
        return pysrc_int(p, a[0].b, a[0].e, &v) ? (*m |= major_bit(v), 1) : 0;
    for (int j = 0; j < n; j++) {
        if (pysrc_int(p, a[j].b, a[j].e, &v))
            *m |= major_bit(v);
        else if (!operand_majors(p, a[j].b, 0, m))
            return 0;
    }
    return 1;
}

/* Is the comparison at token op an equality (== or !=)? With something other than a literal
 * it compares two capabilities (a cache made on another GPU), which is no gate. */
static int identity(const pysrc *p, ptrdiff_t op)
{
    return pysrc_op(p, op, PO_EQ) || pysrc_op(p, op, PO_NE);
}

/* The comparison right after token x (x >= 9, x not in (10, 12)), if any: its operand's majors
 * into *m. Returns 1 for a comparison with a literal, 0 for one with something else, -1 for no
 * comparison. */
static int cmp_after(const pysrc *p, ptrdiff_t x, unsigned *m)
{
    if (pysrc_is(p, x, "not") && pysrc_is(p, x + 1, "in"))
        x++;
    if (!is_cmp(p, x))
        return -1;
    if (operand_majors(p, x + 1, pysrc_is(p, x, "in"), m))
        return 1;
    return identity(p, x) ? -1 : 0;
}

/* The same for a comparison before token x (9 <= x, (9, 0) == x); not in, where the value is
 * what is searched or iterated. */
static int cmp_before(const pysrc *p, ptrdiff_t x, unsigned *m)
{
    if (x < 2 || !is_cmp(p, x - 1) || pysrc_is(p, x - 1, "in"))
        return -1;
    ptrdiff_t k = x - 2;
    if ((pysrc_op(p, k, ')') || pysrc_op(p, k, ']')) && p->match[k] >= 0)
        k = p->match[k];
    if (operand_majors(p, k, 0, m))
        return 1;
    return identity(p, x - 1) ? -1 : 0;
}

/* The token after a capability value that starts at token v: past a subscript ([0]) and a
 * .major/.minor. */
static ptrdiff_t past_value(const pysrc *p, ptrdiff_t v)
{
    if (pysrc_op(p, v, '[') && p->match[v] > v)
        v = p->match[v] + 1;
    if (pysrc_op(p, v, '.') && (pysrc_is(p, v + 1, "major") || pysrc_is(p, v + 1, "minor")))
        v += 2;
    return v;
}

/* The comparisons of a name from token from to the end of the function it is bound in (major
 * >= 9, cap[0] in (10, 12)), as for cmp_after. Returns how many there are; *unknown counts
 * those with no literal. */
static int name_gates(const pysrc *p, hp_str name, ptrdiff_t from, unsigned *m, int *unknown)
{
    int n = 0;
    ptrdiff_t end = p->n, bb, be;
    for (ptrdiff_t h = p->up[from - 1]; h >= 0; h = p->up[h])
        if (pysrc_is(p, h, "def") && pysrc_block(p, h, &bb, &be)) {
            end = be;
            break;
        }
    for (ptrdiff_t i = from; i < end; i++) {
        if (p->t[i].kind != PY_NAME || !str_eq(pysrc_text(p, i), name) ||
            pysrc_op(p, i - 1, '.'))
            continue;
        int c = cmp_after(p, past_value(p, i + 1), m);
        if (c < 0)
            c = cmp_before(p, i, m);
        if (c < 0)
            continue;
        n++;
        *unknown += c == 0;
    }
    return n;
}

/* A capability query at token i whose call opens at open: reported where its value is compared,
 * directly or through the names it is stored in. A gate matters on AMD when it gives AMD the
 * answer of a generation whose features AMD lacks: the GPU reports major 9, so a gate at 9
 * (>= 9, == (9, 0), >= 90, < 9) sends it down Hopper's path (a warning), while one at
 * Ampere or older passes as it should and one at 10 or more takes the older path (a note).
 * With RDNA targets (majors 10 to 12) gates up to their major count as well. An operand
 * that is no literal leaves the warning. */
static void pt002_capability(pyrules *r, const pysrc *p, ptrdiff_t i, ptrdiff_t open)
{
    ptrdiff_t ls = p->lstart[i], le = pysrc_line_end(p, i);
    ptrdiff_t close = p->match[open];
    unsigned m = 0;
    int gates = 0, unknown = 0;
    int c = cmp_after(p, past_value(p, close + 1), &m);
    if (c < 0)
        c = cmp_before(p, i, &m);
    if (c >= 0) {
        gates = 1;
        unknown = c == 0;
    }
    /* cap = torch.cuda.get_device_capability(); major, minor = ...; later compared */
    if (!gates && p->t[ls].kind == PY_NAME) {
        for (ptrdiff_t k = ls; k < i; k++) {
            if (pysrc_op(p, k, '='))
                break;
            if (p->t[k].kind == PY_NAME)
                gates += name_gates(p, pysrc_text(p, k), le, &m, &unknown);
        }
    }
    if (!gates)
        return;
    unsigned matter = 0;
    for (int v = 9; v <= amd_major(r); v++)
        matter |= 1u << v;
    if (unknown || (m & matter))
        pt002_add(r, p, i, open, HP_SEV_WARNING, pt002_msg);
    else
        pt002_add(r, p, i, open, HP_SEV_NOTE, pt002_note);
}

/* sm_90 / sm90 strings and is_sm90-style helpers. */
static int sm_word(hp_str s)
{
    ptrdiff_t k = 0;
    if (s.len >= 3 && s.s[0] == 's' && s.s[1] == 'm')
        k = s.s[2] == '_' ? 3 : 2;
    else
        return 0;
    if (k >= s.len)
        return 0;
    ptrdiff_t d = k;
    while (d < s.len && s.s[d] >= '0' && s.s[d] <= '9')
        d++;
    if (d - k < 2 || d - k > 3)
        return 0;
    return d == s.len || (d + 1 == s.len && (s.s[d] == 'a' || s.s[d] == 'f'));
}

/* is_sm90(), has_sm100a(), is_sm_90(), not is_smollm_available(). */
static int sm_helper(hp_str s)
{
    ptrdiff_t k = RULES_STARTS(s, "is_sm") ? 5 : RULES_STARTS(s, "has_sm") ? 6 : 0;
    if (k && k < s.len && s.s[k] == '_')
        k++;
    if (k && k < s.len && s.s[k] >= '0' && s.s[k] <= '9')
        return 1;
    return RULES_EQ(s, "has_device_capability") || RULES_EQ(s, "is_sm_at_least");
}

static int nvidia_name(hp_str s)
{
    static const char *const names[] = {"NVIDIA", "A100", "H100", "H200", "B200", "V100",
                                        "Tesla",  "GeForce", "RTX", "A10G", "L40"};
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        if (str_find(s, str_cstr(names[k])) >= 0)
            return 1;
    return 0;
}

/* The canonical name of the call whose arguments hold token i, or "". */
static const char *enclosing_call(const pysrc *p, ptrdiff_t i, char *q, ptrdiff_t cap)
{
    q[0] = 0;
    for (ptrdiff_t k = i - 1; k >= 0 && k >= p->lstart[i]; k--) {
        if (!pysrc_op(p, k, '(') || p->match[k] < i || k == 0 || p->t[k - 1].kind != PY_NAME)
            continue;
        ptrdiff_t h = k - 1;
        while (h >= 2 && pysrc_op(p, h - 1, '.') && p->t[h - 2].kind == PY_NAME)
            h -= 2;
        pysrc_qualname(p, h, q, cap);
        return q;
    }
    return q;
}

/* Is token i (a string) an argument of a call that runs a program? */
static int in_command(const pysrc *p, ptrdiff_t i)
{
    char q[QN];
    const char *c = enclosing_call(p, i, q, sizeof q);
    return strncmp(c, "subprocess.", 11) == 0 || strcmp(c, "os.system") == 0 ||
           strcmp(c, "os.popen") == 0 || strcmp(c, "shutil.which") == 0 ||
           strncmp(c, "os.exec", 7) == 0;
}

/* Is the string at token i the value of a flag in a list ("-arch", "sm_90")? */
static int flag_value(const pysrc *p, ptrdiff_t i)
{
    if (i < 2 || !pysrc_op(p, i - 1, ',') || p->t[i - 2].kind != PY_STRING)
        return 0;
    hp_str prev = pylex_string_body(p->src, &p->t[i - 2]);
    return prev.len > 0 && prev.s[0] == '-';
}

/* Does the logical line of token i open with keyword w (if, elif, assert, ...)? */
static int line_opens(const pysrc *p, ptrdiff_t i, const char *w)
{
    return pysrc_is(p, p->lstart[i], w);
}

/* Does the file read TORCH_CUDA_ARCH_LIST back to decide something: the name in the condition
 * of an if, elif or while that compares a value (==, !=, .split, .startswith:
 * `if os.environ["TORCH_CUDA_ARCH_LIST"].strip() != "9.0":`)? A test of whether it is set
 * (if not os.getenv(...)) and a print decide nothing that ROCm needs. */
static int arch_list_read_back(const pysrc *p)
{
    for (ptrdiff_t k = 0; k < p->n; k++) {
        if (p->t[k].kind != PY_STRING ||
            !RULES_EQ(pylex_string_body(p->src, &p->t[k]), "TORCH_CUDA_ARCH_LIST") ||
            !(line_opens(p, k, "if") || line_opens(p, k, "elif") || line_opens(p, k, "while")))
            continue;
        for (ptrdiff_t j = p->lstart[k]; j < p->lend[k]; j++)
            if (pysrc_op(p, j, PO_EQ) || pysrc_op(p, j, PO_NE) || pysrc_is(p, j, "split") ||
                pysrc_is(p, j, "startswith"))
                return 1;
    }
    return 0;
}

/* Is the string at token i a program that the code runs or looks up: an argument of a call
 * that runs one (subprocess.run(["nvidia-smi", "-L"]), shutil.which("nvcc")), or, outside
 * every other call, the first item of a command list or the whole value of an assignment
 * (cmd = ["nvidia-smi", "-L"]; exe = "/usr/bin/nvidia-smi")? The same words in a docstring,
 * a message (raise, log, print, assert), a comparison or a list of sample commands name the
 * tool without detecting anything. */
static int runs_program(const pysrc *p, ptrdiff_t i, hp_str s)
{
    if (in_command(p, i))
        return 1;
    if (!RULES_EQ(s, "nvidia-smi") && !RULES_STARTS(s, "nvidia-smi ") &&
        !str_ends(s, S("/nvidia-smi")))
        return 0;
    char q[QN];
    if (enclosing_call(p, i, q, sizeof q)[0] || is_cmp(p, i - 1) || is_cmp(p, i + 1))
        return 0;
    ptrdiff_t ls = p->lstart[i];
    if (line_opens(p, i, "assert") || line_opens(p, i, "raise") || p->t[ls].kind == PY_STRING)
        return 0;
    if (pysrc_op(p, i - 1, '=') || pysrc_op(p, i - 1, PO_WALRUS))
        return 1;
    return (pysrc_op(p, i - 1, '[') || pysrc_op(p, i - 1, '(')) && pysrc_op(p, i - 2, '=');
}

/* The first token of the qualified name before '(' at open (os.system for "os.system("). */
static ptrdiff_t call_head(const pysrc *p, ptrdiff_t open)
{
    ptrdiff_t h = open - 1;
    while (h >= 2 && pysrc_op(p, h - 1, '.') && p->t[h - 2].kind == PY_NAME)
        h -= 2;
    return h;
}

/* Is the name at token h a call that shows what it is given (print, a logger's info/debug/
 * warning, a stream's write)? */
static int shows(const pysrc *p, ptrdiff_t h, ptrdiff_t open)
{
    hp_str last = pysrc_text(p, open - 1);
    return (h == open - 1 && RULES_EQ(last, "print")) || RULES_EQ(last, "info") ||
           RULES_EQ(last, "debug") || RULES_EQ(last, "warning") || RULES_EQ(last, "write");
}

/* Is the program that the string at token i names run through a shell (os.system, os.popen,
 * subprocess with shell=True and no check=) only to be shown or recorded: the whole statement
 * (os.system("nvidia-smi")), its output handed to print or a logger, or kept as a value of a
 * dict display ({"GPU": list(os.popen("nvidia-smi"))}, a report of the machine)? Nothing then
 * depends on the tool: on AMD the shell prints "not found" and the output is empty. A tested
 * status (if os.system(...) == 0), parsed output, or a subprocess call without a shell (which
 * raises FileNotFoundError where the program is missing) is no such use. */
static int tool_for_display(const pysrc *p, ptrdiff_t i)
{
    ptrdiff_t open = -1;
    for (ptrdiff_t k = i - 1; k > 0 && k >= p->lstart[i]; k--)
        if (pysrc_op(p, k, '(') && p->match[k] >= i && p->t[k - 1].kind == PY_NAME) {
            open = k;
            break;
        }
    if (open < 0)
        return 0;
    char q[QN];
    ptrdiff_t h = call_head(p, open);
    pysrc_qualname(p, h, q, sizeof q);
    /* through a shell, a missing program is a status or an empty output; subprocess without
     * one raises FileNotFoundError, which stops the script on AMD */
    int shell = strcmp(q, "os.system") == 0 || strcmp(q, "os.popen") == 0 ||
                strcmp(q, "subprocess.getoutput") == 0 ||
                strcmp(q, "subprocess.getstatusoutput") == 0;
    if (!shell && (strcmp(q, "subprocess.run") == 0 || strcmp(q, "subprocess.call") == 0 ||
                   strcmp(q, "subprocess.Popen") == 0)) {
        pysrc_arg a[16];
        int n = pysrc_args(p, open, a, 16);
        n = n < 16 ? n : 16;
        int k = n > 0 ? pysrc_kwarg(p, a, n, "shell") : -1;
        shell = k >= 0 && pysrc_is(p, a[k].vb, "True") && pysrc_kwarg(p, a, n, "check") < 0;
    }
    if (!shell)
        return 0;
    if (h == p->lstart[h])
        return 1;
    /* out through wrappers: list(os.popen(...)), print(...), "".join(...) */
    for (int depth = 0; depth < 4 && h >= 2; depth++) {
        if (pysrc_op(p, h - 1, ':'))
            break;
        if (!pysrc_op(p, h - 1, '(') || p->t[h - 2].kind != PY_NAME)
            return 0;
        ptrdiff_t w = call_head(p, h - 1);
        if (shows(p, w, h - 1))
            return 1;
        h = w;
    }
    if (!pysrc_op(p, h - 1, ':'))
        return 0;
    /* a value of a dict display: the innermost bracket open before it is '{' */
    for (ptrdiff_t k = h - 2; k >= 0; k--) {
        if ((pysrc_op(p, k, ')') || pysrc_op(p, k, ']') || pysrc_op(p, k, '}')) &&
            p->match[k] >= 0 && p->match[k] < k) {
            k = p->match[k];
            continue;
        }
        if (pysrc_op(p, k, '(') || pysrc_op(p, k, '['))
            return 0;
        if (pysrc_op(p, k, '{'))
            return 1;
    }
    return 0;
}

/* Does the function around token i also take an AMD route (its code, docstrings aside, names
 * amd-smi, rocm-smi, torch.version.hip or another AMD word: pysrc_pred_amd)? Then an NVIDIA
 * tool in it is one step of a vendor cascade. */
static int fn_has_amd_route(const pysrc *p, ptrdiff_t i)
{
    ptrdiff_t h = p->up[i];
    while (h >= 0 && !pysrc_is(p, h, "def") && !(pysrc_is(p, h, "async") && pysrc_is(p, h + 1, "def")))
        h = p->up[h];
    ptrdiff_t b, e;
    if (h < 0 || !pysrc_block(p, h, &b, &e) || !pysrc_pred_amd(p, b, e, NULL))
        return 0;
    /* code, not a docstring that only names the other tool */
    for (ptrdiff_t k = b; k < e; k++)
        if (!(p->t[k].kind == PY_STRING && p->lstart[k] == k) && pysrc_pred_amd(p, k, k + 1, NULL))
            return 1;
    return 0;
}

/* An NVIDIA brand word alone ("NVIDIA", "Tesla", "GeForce") tells the vendor; a string that
 * also names a model ("NVIDIA GB10", "H100") singles out one product, for a workaround or a
 * tuning of that product, which AMD GPUs rightly miss. */
static int nvidia_brand_only(hp_str s)
{
    if (!nvidia_name(s))
        return 0;
    for (ptrdiff_t k = 0; k < s.len; k++)
        if (s.s[k] >= '0' && s.s[k] <= '9')
            return 0;
    return 1;
}

/* Is the value at tokens [b, e) tested: in the header of an if, elif or while, an assert, a
 * comparison, a boolean operator or a conditional expression; or stored in a name that is
 * compared later (cuda = str(torch.version.cuda); if cuda not in (...))? Recording the
 * value (a report, a dict of versions, a cache key) is no vendor test. */
/* Does the code that the test of torch.version.cuda at i guards work on CUDA's own version or
 * arch list: the body of the if (or, for an if not ...: that exits, the rest of its block)
 * reads torch.version.cuda again, a name holding a CUDA version (cuda_version), or names
 * TORCH_CUDA_ARCH_LIST? Then leaving it out on ROCm is the point. */
static int cuda_version_code(const pysrc *p, ptrdiff_t i)
{
    ptrdiff_t ls = p->lstart[i], bb, be;
    if (!(pysrc_is(p, ls, "if") || pysrc_is(p, ls, "elif")) || !pysrc_block(p, ls, &bb, &be))
        return 0;
    for (ptrdiff_t k = ls + 1; k < bb && k < p->n; k++)
        if (pysrc_is(p, k, "or"))
            return 0; /* the test holds for other reasons too */
    int neg = pysrc_is(p, ls + 1, "not");
    if (neg) {
        /* a bare exit (return, return None): the rest is CUDA's. A predicate that answers
         * False there turns a feature off on ROCm: that stays */
        int exits = 0;
        for (ptrdiff_t k = bb; k < be && k < p->n; k++)
            if (pysrc_is(p, k, "return"))
                exits = p->t[k + 1].kind == PY_NEWLINE || pysrc_is(p, k + 1, "None") ? 1 : -1;
        if (exits <= 0)
            return 0;
        ptrdiff_t h = p->up[ls];
        ptrdiff_t pb, pe;
        if (h < 0) {
            pb = be;
            pe = p->n;
        } else if (!pysrc_block(p, h, &pb, &pe)) {
            return 0;
        }
        bb = be;
        be = pe;
    }
    for (ptrdiff_t k = bb; k < be && k < p->n; k++) {
        if (p->t[k].kind == PY_STRING) {
            if (str_find(pylex_string_body(p->src, &p->t[k]), S("TORCH_CUDA_ARCH_LIST")) >= 0)
                return 1;
            continue;
        }
        if (p->t[k].kind != PY_NAME)
            continue;
        hp_str w = pysrc_text(p, k);
        if (pysrc_contains_nocase(w, "cuda_version") ||
            (RULES_EQ(w, "cuda") && k >= 2 && pysrc_op(p, k - 1, '.') &&
             pysrc_is(p, k - 2, "version")))
            return 1;
    }
    return 0;
}

static int value_tested(const pysrc *p, ptrdiff_t b, ptrdiff_t e)
{
    ptrdiff_t ls = p->lstart[b], le = pysrc_line_end(p, b);
    if (line_opens(p, b, "if") || line_opens(p, b, "elif") || line_opens(p, b, "while") ||
        line_opens(p, b, "assert"))
        return 1;
    if (is_cmp(p, b - 1) || is_cmp(p, e) || pysrc_is(p, e, "is") || pysrc_is(p, b - 1, "not") ||
        pysrc_is(p, b - 1, "and") || pysrc_is(p, e, "and") || pysrc_is(p, b - 1, "if"))
        return 1;
    for (ptrdiff_t k = ls; k < le; k++)
        if (pysrc_is(p, k, "if"))
            return 1;
    if (p->t[ls].kind == PY_NAME && pysrc_op(p, ls + 1, '=') &&
        name_compared(p, pysrc_text(p, ls), le))
        return 1;
    return 0;
}

/* Is token i a key of a dict display ({"sm_90": kernel_90, ...}), a table that code looks
 * the architecture up in? */
static int dict_key(const pysrc *p, ptrdiff_t i)
{
    if (!pysrc_op(p, i + 1, ':') || (!pysrc_op(p, i - 1, '{') && !pysrc_op(p, i - 1, ',')))
        return 0;
    for (ptrdiff_t k = i - 1; k >= 0 && k >= p->lstart[i]; k--)
        if (pysrc_op(p, k, '{') && p->match[k] > i)
            return 1;
        else if ((pysrc_op(p, k, '(') || pysrc_op(p, k, '[')) && p->match[k] > i)
            return 0;
    return 0;
}

static int has_string_on_line(const pysrc *p, ptrdiff_t ls, ptrdiff_t le, int (*f)(hp_str))
{
    for (ptrdiff_t k = ls; k < le; k++)
        if (p->t[k].kind == PY_STRING && f(pylex_string_body(p->src, &p->t[k])))
            return 1;
    return 0;
}

/* ------------------------------------------------------------------ PT003 */

static int nvcc_only_flag(hp_str w)
{
    for (int r = 0; r < nvcc_flags_rows_COUNT; r++) {
        hp_str f = str_cstr(nvcc_flags_rows[r][0]);
        if (f.s[0] != '-')
            continue;
        if (str_eq(w, f) || (str_starts(w, f) && w.len > f.len && w.s[f.len] == '='))
            return 1;
    }
    return 0;
}

/* Does a string inside tokens [b, e) hold an nvcc-only flag? */
static int range_has_nvcc_flag(const pysrc *p, ptrdiff_t b, ptrdiff_t e)
{
    for (ptrdiff_t k = b; k < e; k++) {
        if (p->t[k].kind != PY_STRING)
            continue;
        hp_str s = pylex_string_body(p->src, &p->t[k]);
        ptrdiff_t i = 0;
        while (i < s.len) {
            while (i < s.len && str_is_space(s.s[i]))
                i++;
            ptrdiff_t j = i;
            while (j < s.len && !str_is_space(s.s[j]))
                j++;
            if (j > i && nvcc_only_flag(str_make(s.s + i, j - i)))
                return 1;
            i = j;
        }
    }
    return 0;
}

/* The string a name was last assigned at module level (NAME = "..."), or an empty slice. */
static hp_str assigned_string(const pysrc *p, hp_str name)
{
    hp_str none = {0, 0};
    for (ptrdiff_t k = 0; k + 2 < p->n; k++) {
        if (p->lstart[k] != k || p->t[k].kind != PY_NAME || !str_eq(pysrc_text(p, k), name) ||
            !pysrc_op(p, k + 1, '='))
            continue;
        ptrdiff_t le = pysrc_line_end(p, k);
        hp_str body;
        if (pysrc_str(p, k + 2, le, &body))
            none = body;
    }
    return none;
}

static void pt003_call(pyrules *r, const pysrc *p, ptrdiff_t i, ptrdiff_t open, int amd_file)
{
    pysrc_arg a[32];
    int n = pysrc_args(p, open, a, 32);
    if (n > 32)
        n = 32;
    /* extra_compile_args={"nvcc": [...]}, extra_cuda_cflags=[...] */
    int flags = -1;
    for (int k = 0; k < n; k++) {
        if (a[k].kw < 0)
            continue;
        hp_str kw = pysrc_text(p, a[k].kw);
        if (RULES_EQ(kw, "extra_compile_args") || RULES_EQ(kw, "extra_cuda_cflags")) {
            if (range_has_nvcc_flag(p, a[k].vb, a[k].e))
                flags = k;
        }
    }
    /* where BLD001 reports the list's flags as errors, one per flag, this finding about the
     * same list says nothing more: a note; so is it where every nvcc-only flag of the list is
     * one clang ignores or only warns about (BLD001's notes: -lineinfo) */
    if (flags >= 0 && !amd_file && !guarded(p, i)) {
        hp_severity worst = rules_build_py_sev(r, p, rules_py_kind(r->c->path) == PYK_SETUP,
                                               a[flags].vb, a[flags].e);
        const char *m;
        hp_severity sev = HP_SEV_NOTE;
        if (worst == HP_SEV_ERROR)
            m = "nvcc flags with no ROCm branch: on ROCm builds of PyTorch the extension is "
                "hipified and these flags go to hipcc, which rejects nvcc-only options "
                "(BLD001 reports each of them)";
        else if (worst == HP_SEV_NOTE)
            m = "nvcc flags with no ROCm branch: on ROCm builds of PyTorch the extension is "
                "hipified and these flags go to hipcc, which ignores the nvcc-only ones here "
                "or only warns about them (BLD001 notes each of them)";
        else if (worst == HP_SEV_WARNING) {
            sev = HP_SEV_WARNING;
            m = "nvcc flags with no ROCm branch: on ROCm builds of PyTorch the extension is "
                "hipified and these flags go to hipcc, which misreads the nvcc-only ones here "
                "and only warns, so what they ask for is lost (BLD001 reports each of them)";
        } else {
            sev = HP_SEV_WARNING;
            m = "nvcc flags with no ROCm branch: on ROCm builds of PyTorch the extension is "
                "hipified and these flags go to hipcc, which rejects nvcc-only options";
        }
        add_span(r, p, a[flags].kw, a[flags].kw + 1, RID_PT003, sev, m,
                 "branch on torch.version.hip (or IS_HIP_EXTENSION) and give hipcc its own "
                 "flags; set PYTORCH_ROCM_ARCH for the targets");
    }
    /* inline PTX in load_inline(cuda_sources=...) */
    int ks = pysrc_kwarg(p, a, n, "cuda_sources");
    if (ks >= 0) {
        hp_str body = {0, 0};
        if (!pysrc_str(p, a[ks].vb, a[ks].e, &body) && a[ks].e - a[ks].vb == 1 &&
            p->t[a[ks].vb].kind == PY_NAME)
            body = assigned_string(p, pysrc_text(p, a[ks].vb));
        if (body.len && (str_find(body, S("asm(")) >= 0 || str_find(body, S("asm volatile")) >= 0 ||
                         str_find(body, S("asm (")) >= 0))
            add_span(r, p, a[ks].kw, a[ks].kw + 1, RID_PT003, HP_SEV_WARNING,
                     "cuda_sources holds inline assembly: hipify leaves PTX as it is and "
                     "hipcc cannot assemble it",
                     "replace the asm with HIP intrinsics, or add an AMDGCN path under "
                     "USE_ROCM");
    }
}

/* ------------------------------------------------------------------ PT005 */

/* ------------------------------------------------------------------ PT005: where a dtype goes */

/* A file's fp8 GEMM calls and the names that lead to one, made on first use: an OCP dtype is
 * an error only where it reaches an operand of such a call. */
#define FLOW_NAMES 48
#define FLOW_DEPTH 3

typedef struct fp8flow {
    int built;
    int32_t *gemm;        /* the name tokens of torch._scaled_mm-like calls */
    int ngemm;
    nameidx lead;         /* functions and classes of the file whose body calls one of them */
    int nlead;
    unsigned char *ret;   /* per def header: 1 its fp8 return reaches no GEMM, 2 it does */
} fp8flow;

typedef struct fp8taint {
    hp_str name[FLOW_NAMES];
    int n;
    int self_attr; /* a self.X was assigned from the dtype: the class is the scope */
    int returned;  /* a return statement gives the dtype, or what was made with it */
} fp8taint;

static int gemm_name(const pysrc *p, ptrdiff_t i)
{
    return p->t[i].kind == PY_NAME && pysrc_op(p, i + 1, '(') && p->match[i + 1] > i + 1 &&
           (pysrc_is(p, i, "_scaled_mm") || pysrc_is(p, i, "scaled_mm") ||
            pysrc_is(p, i, "_scaled_grouped_mm"));
}

static int is_def(const pysrc *p, ptrdiff_t h)
{
    return pysrc_is(p, h, "def") || (pysrc_is(p, h, "async") && pysrc_is(p, h + 1, "def"));
}

/* The name token of the def or class whose header starts at h, or -1. */
static ptrdiff_t header_name(const pysrc *p, ptrdiff_t h)
{
    ptrdiff_t k = pysrc_is(p, h, "async") ? h + 1 : h;
    if ((pysrc_is(p, k, "def") || pysrc_is(p, k, "class")) && k + 1 < p->n &&
        p->t[k + 1].kind == PY_NAME)
        return k + 1;
    return -1;
}

/* The outermost def around the logical line ls (the line itself when it is a def), or -1:
 * a closure shares its function's names. */
static ptrdiff_t outer_def(const pysrc *p, ptrdiff_t ls)
{
    ptrdiff_t d = is_def(p, ls) ? ls : -1;
    for (ptrdiff_t h = p->up[ls]; h >= 0; h = p->up[h])
        if (is_def(p, h))
            d = h;
    return d;
}

/* The tokens of a def or class at header h, parameters included. */
static int scope_of(const pysrc *p, ptrdiff_t h, ptrdiff_t *b, ptrdiff_t *e)
{
    ptrdiff_t bb;
    if (!pysrc_block(p, h, &bb, e))
        return 0;
    *b = h;
    return 1;
}

static void flow_build(const pysrc *p, arena *a, fp8flow *f)
{
    f->built = 1;
    int n = 0;
    for (ptrdiff_t i = 0; i + 1 < p->n; i++)
        n += gemm_name(p, i);
    if (!n)
        return;
    f->gemm = NEW(a, int32_t, n);
    f->ret = NEW(a, unsigned char, p->n);
    if (!f->gemm || !f->ret)
        return;
    for (ptrdiff_t i = 0; i + 1 < p->n; i++)
        if (gemm_name(p, i))
            f->gemm[f->ngemm++] = (int32_t)i;
    int nh = 0;
    for (ptrdiff_t i = 0; i < p->n; i++)
        nh += p->lstart[i] == i && header_name(p, i) >= 0;
    if (!nameidx_init(&f->lead, a, nh + 1))
        return;
    f->nlead = 1;
    /* a def or class leads to a GEMM when its body calls one, or calls what leads to one */
    for (int round = 0, grew = 1; grew && round < 4; round++) {
        grew = 0;
        for (ptrdiff_t h = 0; h < p->n; h++) {
            ptrdiff_t nm = p->lstart[h] == h ? header_name(p, h) : -1;
            ptrdiff_t b, e;
            if (nm < 0 || nameidx_get(&f->lead, pysrc_text(p, nm)) >= 0 || !scope_of(p, h, &b, &e))
                continue;
            for (ptrdiff_t k = nm + 1; k < e; k++) {
                if (gemm_name(p, k) ||
                    (p->t[k].kind == PY_NAME && pysrc_op(p, k + 1, '(') && k != nm &&
                     nameidx_get(&f->lead, pysrc_text(p, k)) >= 0)) {
                    nameidx_put(&f->lead, pysrc_text(p, nm), 1, 0);
                    grew = 1;
                    break;
                }
            }
        }
    }
}

static int taint_has(const fp8taint *t, hp_str s)
{
    for (int k = 0; k < t->n; k++)
        if (str_eq(t->name[k], s))
            return 1;
    return 0;
}

static int taint_add(fp8taint *t, hp_str s)
{
    if (taint_has(t, s) || t->n >= FLOW_NAMES)
        return 0;
    t->name[t->n++] = s;
    return 1;
}

/* Does [b, e) hold token at, or name a tainted value (not a keyword, not finfo's argument)? */
static int mentions(const pysrc *p, ptrdiff_t b, ptrdiff_t e, const fp8taint *t, ptrdiff_t at)
{
    if (at >= b && at < e)
        return 1;
    for (ptrdiff_t k = b; k < e; k++) {
        if (p->t[k].kind != PY_NAME || !taint_has(t, pysrc_text(p, k)))
            continue;
        if (pysrc_op(p, k + 1, '=') && !pysrc_op(p, k - 1, '.'))
            continue;
        if (pysrc_op(p, k - 1, '(') && (pysrc_is(p, k - 2, "finfo") || pysrc_is(p, k - 2, "iinfo")))
            continue;
        return 1;
    }
    return 0;
}

/* The depth-0 '=' of the logical line [ls, le), or -1. */
static ptrdiff_t assign_op(const pysrc *p, ptrdiff_t ls, ptrdiff_t le)
{
    for (ptrdiff_t k = ls; k < le; k++) {
        if ((pysrc_op(p, k, '(') || pysrc_op(p, k, '[') || pysrc_op(p, k, '{')) && p->match[k] > k)
            k = p->match[k];
        else if (pysrc_op(p, k, '=') || pysrc_op(p, k, PO_AUGASSIGN))
            return k;
    }
    return -1;
}

/* Taints the names an assignment binds (a, b = ...; ctx.x = ...; buf[i] = ...). */
static int taint_targets(const pysrc *p, ptrdiff_t ls, ptrdiff_t eq, fp8taint *t)
{
    int grew = 0;
    for (ptrdiff_t k = ls; k < eq; k++) {
        if ((pysrc_op(p, k, '(') || pysrc_op(p, k, '[')) && p->match[k] > k) {
            k = p->match[k];
            continue;
        }
        if (p->t[k].kind != PY_NAME || pysrc_op(p, k + 1, '.'))
            continue;
        grew |= taint_add(t, pysrc_text(p, k));
        if (pysrc_op(p, k - 1, '.') && pysrc_is(p, k - 2, "self"))
            t->self_attr = 1;
    }
    return grew;
}

/* Follows the value at token at (a dtype, or a call that returns one) through the assignments
 * of [sb, se): the names it binds, and what is made from them. */
static void taint_scope(const pysrc *p, ptrdiff_t sb, ptrdiff_t se, ptrdiff_t at, fp8taint *t)
{
    ptrdiff_t ls = p->lstart[at];
    /* a parameter's default: the parameter (past its annotation) */
    if (is_def(p, ls) && pysrc_op(p, at - 1, '=')) {
        ptrdiff_t k = at - 2;
        while (k > ls && !pysrc_op(p, k, ',') && !pysrc_op(p, k, '(')) {
            if ((pysrc_op(p, k, ']') || pysrc_op(p, k, ')')) && p->match[k] >= 0 &&
                p->match[k] < k)
                k = p->match[k];
            k--;
        }
        if (k > ls && p->t[k + 1].kind == PY_NAME)
            taint_add(t, pysrc_text(p, k + 1));
    }
    for (int round = 0, grew = 1; grew && round < 4; round++) {
        grew = 0;
        for (ptrdiff_t k = sb; k < se; k++) {
            if (p->lstart[k] != k || p->t[k].kind == PY_NEWLINE || p->t[k].kind == PY_INDENT ||
                p->t[k].kind == PY_DEDENT)
                continue;
            ptrdiff_t le = p->lend[k];
            if (pysrc_is(p, k, "return") || pysrc_is(p, k, "yield")) {
                if (mentions(p, k + 1, le, t, at))
                    t->returned = 1;
                continue;
            }
            ptrdiff_t eq = assign_op(p, k, le);
            if (eq > k && mentions(p, eq + 1, le, t, at))
                grew |= taint_targets(p, k, eq, t);
            /* for x in <tainted>: x */
            if (pysrc_is(p, k, "for"))
                for (ptrdiff_t in = k + 1; in < le; in++)
                    if (pysrc_is(p, in, "in")) {
                        if (mentions(p, in + 1, le, t, at))
                            grew |= taint_targets(p, k + 1, in, t);
                        break;
                    }
        }
    }
}

/* Does a GEMM call in [sb, se), or a call of what leads to one, take the value as an
 * operand? */
static int scope_feeds_gemm(const pysrc *p, const fp8flow *f, ptrdiff_t sb, ptrdiff_t se,
                            const fp8taint *t, ptrdiff_t at)
{
    for (int g = 0; g < f->ngemm; g++) {
        ptrdiff_t k = f->gemm[g];
        if (k >= sb && k < se && mentions(p, k + 2, p->match[k + 1], t, at))
            return 1;
    }
    for (ptrdiff_t k = sb; k < se; k++) {
        if (p->t[k].kind != PY_NAME || !pysrc_op(p, k + 1, '(') || p->match[k + 1] <= k + 1 ||
            header_name(p, k - 1) == k || header_name(p, k - 2) == k)
            continue;
        /* f(...), or Cls.apply(...) of a class that leads to one */
        int lead = nameidx_get(&f->lead, pysrc_text(p, k)) >= 0 ||
                   (pysrc_op(p, k - 1, '.') && k >= 2 && p->t[k - 2].kind == PY_NAME &&
                    nameidx_get(&f->lead, pysrc_text(p, k - 2)) >= 0);
        if (lead && mentions(p, k + 2, p->match[k + 1], t, at))
            return 1;
    }
    return 0;
}

/* Is the call at token c made only once the data's dtype was tested against an fp8 type
 * (if x.dtype == torch.float8_e4m3fn:, or a name assigned such a test)? Then the format the
 * call fixes is the one the data already has. */
static int dtype_dispatched(const pysrc *p, ptrdiff_t c, ptrdiff_t sb, ptrdiff_t se)
{
    for (ptrdiff_t h = p->up[p->lstart[c]]; h >= sb && h >= 0; h = p->up[h]) {
        if (!pysrc_is(p, h, "if") && !pysrc_is(p, h, "elif"))
            continue;
        ptrdiff_t he = p->lend[h];
        for (int pass = 0; pass < 2; pass++)
            for (ptrdiff_t k = h + 1; k < he; k++) {
                if (pysrc_is(p, k, "dtype") && pysrc_op(p, k - 1, '.') &&
                    (pysrc_op(p, k + 1, PO_EQ) || pysrc_is(p, k + 1, "is")))
                    return 1;
                if (pass || p->t[k].kind != PY_NAME || pysrc_op(p, k - 1, '.'))
                    continue;
                /* a name: the test it was assigned */
                hp_str nm = pysrc_text(p, k);
                for (ptrdiff_t j = sb; j < h; j++) {
                    if (p->lstart[j] != j || p->t[j].kind != PY_NAME || !str_eq(pysrc_text(p, j), nm) ||
                        !pysrc_op(p, j + 1, '='))
                        continue;
                    for (ptrdiff_t q = j + 2; q < p->lend[j] && q < se; q++)
                        if (pysrc_is(p, q, "dtype") && pysrc_op(p, q - 1, '.') &&
                            pysrc_op(p, q + 1, PO_EQ))
                            return 1;
                }
            }
    }
    return 0;
}

static int reaches_gemm(const pysrc *p, const fp8flow *f, ptrdiff_t at, int depth);

/* Does the return value of the def at header d reach a GEMM where it is called? */
static int return_reaches(const pysrc *p, const fp8flow *f, ptrdiff_t d, int depth)
{
    if (f->ret[d])
        return f->ret[d] == 2;
    f->ret[d] = 1;
    ptrdiff_t nm = header_name(p, d);
    int r = 0;
    for (ptrdiff_t k = 0; nm >= 0 && k + 1 < p->n && !r; k++) {
        if (k == nm || p->t[k].kind != PY_NAME || !pysrc_op(p, k + 1, '(') ||
            !str_eq(pysrc_text(p, k), pysrc_text(p, nm)))
            continue;
        ptrdiff_t g = outer_def(p, p->lstart[k]);
        ptrdiff_t sb = 0, se = p->n;
        if (g >= 0 && !scope_of(p, g, &sb, &se))
            continue;
        if (g >= 0 && dtype_dispatched(p, k, sb, se))
            continue;
        r = reaches_gemm(p, f, k, depth + 1);
    }
    f->ret[d] = (unsigned char)(r ? 2 : 1);
    return r;
}

/* Does the value at token at reach an operand of an fp8 GEMM: in the GEMM call, through the
 * names it is bound to in its function (self.X: in its class), or through the function's
 * return where that is called? */
static int reaches_gemm(const pysrc *p, const fp8flow *f, ptrdiff_t at, int depth)
{
    ptrdiff_t d = outer_def(p, p->lstart[at]);
    ptrdiff_t sb = 0, se = p->n;
    if (d >= 0 && !scope_of(p, d, &sb, &se))
        return 1;
    fp8taint t;
    t.n = t.self_attr = t.returned = 0;
    if (d < 0) {
        /* at the top level the value may go anywhere: only a call made with it is followed */
        ptrdiff_t ls = p->lstart[at];
        sb = ls;
        se = p->lend[at];
        ptrdiff_t eq = assign_op(p, ls, se);
        return eq < 0 || at < eq ? scope_feeds_gemm(p, f, sb, se, &t, at) : 1;
    }
    taint_scope(p, sb, se, at, &t);
    if (scope_feeds_gemm(p, f, sb, se, &t, at))
        return 1;
    ptrdiff_t c = p->up[d];
    ptrdiff_t cb, ce;
    if (t.self_attr && c >= 0 && pysrc_is(p, c, "class") && scope_of(p, c, &cb, &ce)) {
        taint_scope(p, cb, ce, at, &t);
        if (scope_feeds_gemm(p, f, cb, ce, &t, at))
            return 1;
    }
    return t.returned && depth < FLOW_DEPTH && return_reaches(p, f, d, depth);
}

/* Is the call around token i one of the MX formats (MXLinear, mx_formats.MXTensor)? MXFP8
 * always stores OCP e4m3/e5m2 elements: there is no FNUZ MX variant to choose. */
static int in_mx_call(const pysrc *p, ptrdiff_t i)
{
    char q[QN];
    hp_str c = str_cstr(enclosing_call(p, i, q, sizeof q));
    if (!c.len)
        return 0;
    ptrdiff_t dot = c.len;
    while (dot > 0 && c.s[dot - 1] != '.')
        dot--;
    hp_str last = {c.s + dot, c.len - dot};
    return RULES_STARTS(last, "MX") || RULES_STARTS(last, "Mx") || RULES_STARTS(last, "mx_") ||
           str_find(c, S("mx_")) >= 0;
}

static void pt005(pyrules *r, const pysrc *p, ptrdiff_t b, ptrdiff_t e, const char *q,
                  int both_kinds, fp8flow *f)
{
    unsigned tg = pyrules_targets(r);
    const char *t = q + strlen("torch.");
    int fnuz = str_ends(str_cstr(t), S("fnuz"));
    /* float8_e8m0fnu, the MX scale type, has no FNUZ twin; nor has an MX element type; an
     * assignment to the name is a stub, not a dtype */
    if (both_kinds || str_find(str_cstr(t), S("e8m0")) >= 0 || in_mx_call(p, b) ||
        (pysrc_op(p, e, '=') && p->lstart[b] == b) || one_side(p, b))
        return;
    /* a dtype map of both families, a bit view, finfo, an NVFP4 or MX format: no format is
     * chosen here */
    int use = pyrules_fp8_use(r, p, b, e);
    if (use == PYFP8_NEUTRAL)
        return;
    /* comparing a tensor's dtype recognises the format data came in; only a GEMM rejects it,
     * and only a dtype that reaches one of its operands */
    hp_severity sev = HP_SEV_NOTE;
    if (use != PYFP8_COMPARED && !is_cmp(p, b - 1) && !is_cmp(p, e) &&
        !line_opens(p, b, "assert")) {
        if (!f->built)
            flow_build(p, r->a, f);
        if (f->ngemm && reaches_gemm(p, f, b, 0))
            sev = HP_SEV_ERROR;
    }
    if (!fnuz && (tg & (TGT_GFX942 | TGT_CDNA12))) {
        const char *m = arena_printf(
            r->a, "torch.%s is OCP fp8: MI300 (gfx942) computes fp8 in the FNUZ variants "
                     "(hipBLASLt's fp8 GEMMs there take only FNUZ), whose e4m3 range ends at "
                     "240, not 448",
            t);
        add_span(r, p, b, e, RID_PT005, sev, m,
                 "choose the dtype from gcnArchName: gfx942 -> torch.float8_e4m3fnuz / "
                 "float8_e5m2fnuz, gfx950 and RDNA4 -> the OCP types; rescale checkpoints");
    } else if (fnuz && (tg & ~(unsigned)TGT_GFX942)) {
        const char *m = arena_printf(
            r->a, "torch.%s is FNUZ fp8, which only gfx942 (MI300) runs natively; MI350, "
                     "RDNA4 and NVIDIA GPUs use the OCP types",
            t);
        add_span(r, p, b, e, RID_PT005, sev, m,
                 "choose the dtype from gcnArchName instead of hard-coding FNUZ");
    }
}

/* ------------------------------------------------------------------ PT002 chains */

/* The name compared with the string at i (arch in arch == "sm80"), or -1. */
static ptrdiff_t cmp_operand(const pysrc *p, ptrdiff_t i)
{
    if (i >= 2 && is_cmp(p, i - 1) && p->t[i - 2].kind == PY_NAME)
        return i - 2;
    if (is_cmp(p, i + 1) && i + 2 < p->n && p->t[i + 2].kind == PY_NAME)
        return i + 2;
    return -1;
}

/* Does the if/elif header at h compare the name nm with an NVIDIA architecture label? */
static int arm_tests(const pysrc *p, ptrdiff_t h, hp_str nm)
{
    if (h < 0 || (!pysrc_is(p, h, "if") && !pysrc_is(p, h, "elif")))
        return 0;
    for (ptrdiff_t k = h + 1; k < p->lend[h]; k++) {
        if (p->t[k].kind != PY_STRING || !sm_word(pylex_string_body(p->src, &p->t[k])))
            continue;
        ptrdiff_t o = cmp_operand(p, k);
        if (o >= 0 && str_eq(pysrc_text(p, o), nm))
            return 1;
    }
    return 0;
}

/* The arms of an if/elif chain that compare one name with NVIDIA labels (if arch == "sm80":
 * ... elif arch == "sm90": ...) need one AMD arm between them: the chain is one finding, at
 * its first arm. Returns 0 for a later arm of such a chain, else the number of arms that
 * compare the name from this one on (1 for a lone test). */
static int label_chain(const pysrc *p, ptrdiff_t i)
{
    ptrdiff_t o = cmp_operand(p, i);
    ptrdiff_t ls = p->lstart[i];
    if (o < 0 || (!pysrc_is(p, ls, "if") && !pysrc_is(p, ls, "elif")))
        return 1;
    hp_str nm = pysrc_text(p, o);
    if (pysrc_is(p, ls, "elif") && arm_tests(p, p->prev[ls], nm))
        return 0;
    int n = 1;
    for (ptrdiff_t h = ls;;) {
        ptrdiff_t bb, be;
        if (!pysrc_block(p, h, &bb, &be))
            break;
        ptrdiff_t k = be;
        while (k < p->n && (p->t[k].kind == PY_DEDENT || p->t[k].kind == PY_NEWLINE))
            k++;
        if (!pysrc_is(p, k, "elif") || !arm_tests(p, k, nm))
            break;
        n++;
        h = k;
    }
    return n;
}

/* Does the string at i name an environment variable being set: env["NAME"] = v,
 * {"NAME": v} (an environment handed to a process), environ.setdefault("NAME", v),
 * putenv("NAME", v)? Reads (environ.get("NAME"), "NAME" in environ, is_env_set("NAME")) change
 * nothing, and nor does a pop. */
static int env_setting(const pysrc *p, ptrdiff_t i)
{
    if (pysrc_op(p, i + 1, ']') && pysrc_op(p, i + 2, '='))
        return 1;
    if (pysrc_op(p, i + 1, ':') && i > 0 && (pysrc_op(p, i - 1, '{') || pysrc_op(p, i - 1, ',')))
        return 1;
    if (i >= 2 && pysrc_op(p, i - 1, '(') && p->t[i - 2].kind == PY_NAME) {
        hp_str f = pysrc_text(p, i - 2);
        return RULES_EQ(f, "setdefault") || RULES_EQ(f, "putenv");
    }
    return 0;
}

/* ------------------------------------------------------------------ entry */

void rules_pytorch(pyrules *r, const pysrc *p)
{
    /* in a file that only imports on NVIDIA, vendor tests, gates and dtypes are NVIDIA's */
    pyrules nv;
    if (nvidia_only_file(p)) {
        nv = *r;
        nv.on &= ~((1ul << pyrules_bit(RID_PT001)) | (1ul << pyrules_bit(RID_PT002)) |
                   (1ul << pyrules_bit(RID_PT005)));
        r = &nv;
    }
    int amd_file = pysrc_mentions_amd(p);
    char q[QN];
    int has_ocp = 0, has_fnuz = 0, rocm_arch = 0;
    for (ptrdiff_t i = 0; i < p->n; i++) {
        if (p->t[i].kind == PY_NAME) {
            hp_str s = pysrc_text(p, i);
            if (RULES_STARTS(s, "float8_e")) {
                if (str_ends(s, S("fnuz")))
                    has_fnuz = 1;
                else
                    has_ocp = 1;
            }
        } else if (p->t[i].kind == PY_STRING) {
            hp_str s = pylex_string_body(p->src, &p->t[i]);
            if (str_find(s, S("PYTORCH_ROCM_ARCH")) >= 0)
                rocm_arch = 1;
        }
    }
    ptrdiff_t last_pt001 = -1, last_pt005 = -1;
    fp8flow flow;
    memset(&flow, 0, sizeof flow);
    int arms = 0;
    for (ptrdiff_t i = 0; i < p->n; i++) {
        const pytok *t = &p->t[i];
        if (t->kind == PY_STRING) {
            hp_str s = pylex_string_body(p->src, t);
            if (pyrules_on(r, RID_PT001) &&
                ((str_find(s, S("nvidia-smi")) >= 0 && runs_program(p, i, s)) ||
                 ((RULES_EQ(s, "nvcc") || RULES_STARTS(s, "nvcc ")) && in_command(p, i))) &&
                !one_side(p, i) && !tool_for_display(p, i) && !fn_has_amd_route(p, i)) {
                add_span(r, p, i, i + 1, RID_PT001, r->test_code ? HP_SEV_NOTE : HP_SEV_WARNING,
                         r->test_code ? "NVIDIA tool in test or CI code: ROCm machines have "
                                        "amd-smi / rocm-smi and hipcc instead (it picks how "
                                        "tests run, not what the code under test does)"
                                      : "NVIDIA tool in a script: ROCm machines have amd-smi / "
                                        "rocm-smi and hipcc instead",
                         "branch on torch.version.hip and call amd-smi (or rocm-smi) there");
            } else if (pyrules_on(r, RID_PT001) && RULES_STARTS(s, "+cu") &&
                       (is_cmp(p, i + 1) || is_cmp(p, i - 1)) && !line_opens(p, i, "assert") &&
                       !one_side(p, i)) {
                add_span(r, p, i, i + 1, RID_PT001, HP_SEV_WARNING,
                         "'+cu' in the version string detects CUDA wheels only; ROCm wheels "
                         "are tagged '+rocm'",
                         "test torch.version.hip / torch.version.cuda instead");
            } else if (pyrules_on(r, RID_PT002) && sm_word(s) && !flag_value(p, i) &&
                       (is_cmp(p, i - 1) || is_cmp(p, i + 1) || dict_key(p, i)) &&
                       !line_opens(p, i, "assert") &&
                       !one_side(p, i) && (arms = label_chain(p, i)) > 0) {
                pt002_add(r, p, i, i + 1, HP_SEV_WARNING,
                          arms > 1 ? arena_printf(r->a, "kernel or path chosen by an NVIDIA "
                                                        "architecture name (%d arms of this "
                                                        "chain); AMD GPUs match none of them, "
                                                        "or a fallback meant for old NVIDIA "
                                                        "parts",
                                                  arms)
                                   : "kernel or path chosen by an NVIDIA architecture name; AMD "
                                     "GPUs never match it, or match a fallback meant for old "
                                     "NVIDIA parts");
            } else if (pyrules_on(r, RID_PT003) && RULES_EQ(s, "TORCH_CUDA_ARCH_LIST") &&
                       !rocm_arch && env_setting(p, i) && !pysrc_vendor_only(p, i)) {
                int back = arch_list_read_back(p);
                add_span(r, p, i, i + 1, RID_PT003, back ? HP_SEV_WARNING : HP_SEV_NOTE,
                         back ? "TORCH_CUDA_ARCH_LIST is ignored on ROCm: extensions are built "
                                "for PYTORCH_ROCM_ARCH, or for the archs torch itself was built "
                                "for; the script reads it back to decide, and that test sees "
                                "no AMD targets"
                              : "TORCH_CUDA_ARCH_LIST is ignored on ROCm: extensions are built "
                                "for PYTORCH_ROCM_ARCH, or for the archs torch itself was built "
                                "for (nothing in the script reads it back, so setting it only "
                                "does nothing there)",
                         "also set PYTORCH_ROCM_ARCH, e.g. \"gfx90a;gfx942\"");
            }
            continue;
        }
        if (t->kind != PY_NAME || (i > 0 && pysrc_op(p, i - 1, '.')))
            continue;
        if (pyrules_on(r, RID_PT002) && sm_helper(pysrc_text(p, i)) && pysrc_op(p, i + 1, '(') &&
            !one_side(p, i)) {
            pt002_add(r, p, i, i + 1, HP_SEV_WARNING, pt002_msg);
            continue;
        }
        ptrdiff_t e = pysrc_qualname(p, i, q, sizeof q);
        if (e <= i)
            continue;
        int call = pysrc_op(p, e, '(') && p->match[e] > e;
        if (strcmp(q, "torch.version.cuda") == 0 && pyrules_on(r, RID_PT001) && !amd_file &&
            p->lstart[i] != last_pt001 && value_tested(p, i, e)) {
            last_pt001 = p->lstart[i];
            /* in test code the test picks which tests run, or what a check of the
             * environment expects; an assert that demands CUDA declares the code NVIDIA's */
            int own = cuda_version_code(p, i);
            add_span(r, p, i, e, RID_PT001,
                     r->test_code || own || pysrc_nv_assert(p, p->lstart[i]) ? HP_SEV_NOTE
                                                                             : HP_SEV_WARNING,
                     own ? "torch.version.cuda is None on ROCm builds, and the code this test "
                           "guards works on the CUDA version itself (or on TORCH_CUDA_ARCH_LIST), "
                           "which ROCm has not: leaving it out there is what the test is for"
                         : "torch.version.cuda is None on ROCm builds (which still use torch.cuda "
                           "and device 'cuda'): this test takes the CPU or fallback path on AMD",
                     "tell the vendors apart with torch.version.hip and torch.version.cuda; "
                     "test torch.cuda.is_available() for 'a GPU is present'");
        } else if ((strcmp(q, "torch.hip") == 0 || strncmp(q, "torch.hip.", 10) == 0) &&
                   pyrules_on(r, RID_PT001)) {
            add_span(r, p, i, e, RID_PT001, HP_SEV_ERROR,
                     "there is no torch.hip: PyTorch's ROCm builds keep the torch.cuda API and "
                     "the device 'cuda', so this raises AttributeError on every build",
                     "use torch.cuda (torch.cuda.is_available() is True on ROCm); tell the "
                     "vendors apart with torch.version.hip");
        } else if (strcmp(q, "torch.backends.cudnn.version") == 0 && call &&
                   pyrules_on(r, RID_PT001) && !guarded(p, i)) {
            add_span(r, p, i, e, RID_PT001, HP_SEV_WARNING,
                     "on ROCm the cudnn backend is MIOpen: the version number and the features "
                     "it implies are not cuDNN's",
                     "branch on torch.version.hip before reading cuDNN versions");
        } else if (strcmp(q, "torch.cuda.get_device_name") == 0 && call &&
                   pyrules_on(r, RID_PT001) && !one_side(p, i) &&
                   has_string_on_line(p, p->lstart[i], pysrc_line_end(p, i), nvidia_brand_only)) {
            add_span(r, p, i, e, RID_PT001, HP_SEV_WARNING,
                     "vendor detected from NVIDIA product names: ROCm reports names such as "
                     "'AMD Instinct MI300X', which fall to the generic path",
                     "test torch.version.hip, and gcnArchName for the AMD model");
        } else if ((strcmp(q, "torch.cuda.get_device_capability") == 0 ||
                    strcmp(q, "torch.cuda.get_device_properties") == 0) &&
                   call && pyrules_on(r, RID_PT002) && !one_side(p, i)) {
            if (strcmp(q, "torch.cuda.get_device_capability") == 0 ||
                (pysrc_op(p, p->match[e] + 1, '.') &&
                 (pysrc_is(p, p->match[e] + 2, "major") || pysrc_is(p, p->match[e] + 2, "minor"))))
                pt002_capability(r, p, i, e);
        } else if (call && pyrules_on(r, RID_PT003) &&
                   (strcmp(q, "torch.utils.cpp_extension.CUDAExtension") == 0 ||
                    strcmp(q, "torch.utils.cpp_extension.load") == 0 ||
                    strcmp(q, "torch.utils.cpp_extension.load_inline") == 0 ||
                    strcmp(q, "CUDAExtension") == 0)) {
            pt003_call(r, p, i, e, amd_file);
        } else if (strncmp(q, "torch.float8_e", 14) == 0 && pyrules_on(r, RID_PT005) &&
                   p->lstart[i] != last_pt005) {
            last_pt005 = p->lstart[i];
            pt005(r, p, i, e, q, has_ocp && has_fnuz, &flow);
        }
        i = e - 1;
    }
}

/* ------------------------------------------------------------------ PT004 (C++) */

static int is_ident(const char *src, const tok *t, const char *w)
{
    size_t l = strlen(w);
    return t->kind == TK_IDENT && (size_t)t->len == l && memcmp(src + t->off, w, l) == 0;
}

static const char *const pt004_apis[] = {
    "getCurrentCUDAStream", "getDefaultCUDAStream", "getStreamFromPool", "CUDAGuard",
    "OptionalCUDAGuard", "CUDAStreamGuard", "OptionalCUDAStreamGuard",
    "C10_CUDA_KERNEL_LAUNCH_CHECK", "C10_CUDA_CHECK", "AT_CUDA_CHECK",
    "getCurrentCUDABlasHandle", "getCurrentCUDABlasLtHandle", "getCurrentCUDASparseHandle",
    "getCurrentCUDASolverDnHandle", "getCurrentDeviceProperties"};

unsigned rules_pytorch_cxx_names(hp_str s)
{
    if (s.len < 9)
        return 0;
    switch (s.s[0]) {
    case 'g':
    case 'C':
    case 'O':
    case 'A':
        for (size_t k = 0; k < sizeof pt004_apis / sizeof *pt004_apis; k++)
            if (s.s[0] == pt004_apis[k][0] && str_eqc(s, pt004_apis[k]))
                return RH_PYT;
        return 0;
    default:
        return 0;
    }
}

/* The next token with one of bits after entry *h of hot, or every token after i without it. */
static ptrdiff_t next_tok(const rules_hot *hot, ptrdiff_t nhot, ptrdiff_t *h, unsigned bits,
                          ptrdiff_t i, ptrdiff_t n)
{
    if (!hot)
        return i + 1 < n ? i + 1 : -1;
    for (; *h < nhot; ++*h)
        if (hot[*h].bits & bits)
            return hot[(*h)++].tok;
    return -1;
}

/* PT004's APIs are about headers: the extension's sources are what hipify processes. */
static int cxx_header(const char *path)
{
    static const char *const ext[] = {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc"};
    hp_str p = str_cstr(path ? path : "");
    for (size_t k = 0; k < sizeof ext / sizeof *ext; k++)
        if (str_ends(p, str_cstr(ext[k])))
            return 1;
    return 0;
}

void rules_pytorch_cxx(pyrules *r, const char *src, ptrdiff_t len, const lex_out *lx,
                       const rules_hot *hot, ptrdiff_t nhot)
{
    (void)len;
    if (!pyrules_on(r, RID_PT004))
        return;
    int header = cxx_header(r->c->path);
    /* only sources of PyTorch extensions */
    int torch = 0;
    ptrdiff_t h = 0;
    for (ptrdiff_t i = next_tok(hot, nhot, &h, RH_STR, -1, lx->n); i >= 0 && !torch;
         i = next_tok(hot, nhot, &h, RH_STR, i, lx->n)) {
        const tok *t = &lx->toks[i];
        if (t->kind != TK_HEADER && t->kind != TK_STRING)
            continue;
        if (i == 0 || lx->toks[i - 1].kind != TK_IDENT)
            continue;
        hp_str hd = {src + t->off, t->len};
        torch = str_find(hd, S("torch/")) >= 0 || str_find(hd, S("ATen/")) >= 0 ||
                str_find(hd, S("c10/")) >= 0;
    }
    if (!torch)
        return;
    h = 0;
    for (ptrdiff_t i = next_tok(hot, nhot, &h, RH_PYT, -1, lx->n); i >= 0;
         i = next_tok(hot, nhot, &h, RH_PYT, i, lx->n)) {
        const tok *t = &lx->toks[i];
        if (t->kind != TK_IDENT)
            continue;
        for (size_t k = 0; header && k < sizeof pt004_apis / sizeof *pt004_apis; k++) {
            if (!is_ident(src, t, pt004_apis[k]))
                continue;
            const char *m = arena_printf(
                r->a, "%s: PyTorch's hipify turns it into its HIP (MasqueradingAsCUDA) form "
                         "only in files it processes; a header outside the extension's "
                         "sources keeps the CUDA types",
                pt004_apis[k]);
            pyrules_add(r, t->off, t->len, RID_PT004, HP_SEV_NOTE, m,
                        "let CUDAExtension hipify every source and header of the extension "
                        "(list them under the extension directory)");
            break;
        }
        /* reinterpret_cast<__nv_bfloat16 *>(t.data_ptr<at::BFloat16>()) */
        if (is_ident(src, t, "reinterpret_cast") && i + 2 < lx->n &&
            lx->toks[i + 1].kind == TK_PUNCT && lx->toks[i + 1].sub == '<') {
            const tok *ty = &lx->toks[i + 2];
            if (is_ident(src, ty, "__nv_bfloat16") || is_ident(src, ty, "__nv_bfloat162") ||
                is_ident(src, ty, "__half") || is_ident(src, ty, "half2") ||
                is_ident(src, ty, "__half2") || is_ident(src, ty, "__nv_fp8_e4m3")) {
                const char *m = arena_printf(
                    r->a, "ATen data reinterpreted as %.*s: on ROCm this lands on HIP's "
                             "half/bf16 types, whose operator and intrinsic coverage differs",
                    (int)ty->len, src + ty->off);
                pyrules_add(r, t->off, t->len, RID_PT004, HP_SEV_NOTE, m,
                            "use at::Half / at::BFloat16 arithmetic, or HIP's __hip_bfloat16 "
                            "under USE_ROCM");
            }
        }
    }
}
