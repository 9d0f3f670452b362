/* rules_pytorch.c: rules PT001-PT005: vendor and capability checks, extension build settings
 * and fp8 dtypes in PyTorch code, and ATen CUDA APIs in C++ extension sources. */
#include <string.h>

#include "nvcc_flags_tab.h"
#include "pyrules.h"
#include "pysrc.h"
#include "rules.h"
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

static int is_cmp(const pysrc *p, ptrdiff_t i)
{
    return pysrc_op(p, i, '<') || pysrc_op(p, i, '>') || pysrc_op(p, i, PO_LE) ||
           pysrc_op(p, i, PO_GE) || pysrc_op(p, i, PO_EQ) || pysrc_op(p, i, PO_NE) ||
           pysrc_is(p, i, "in");
}

static int line_has_cmp(const pysrc *p, ptrdiff_t b, ptrdiff_t e)
{
    for (ptrdiff_t i = b; i < e; i++)
        if (is_cmp(p, i))
            return 1;
    return 0;
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
        if (is_cmp(p, j) || is_cmp(p, i - 1))
            return 1;
    }
    return 0;
}

static const char pt002_fix[] =
    "gate on torch.version.hip and torch.cuda.get_device_properties(d).gcnArchName (e.g. "
    "'gfx942' in it), or probe the feature itself";

static const char pt002_msg[] =
    "compute-capability gate: ROCm reports AMD GPUs as capabilities (9, 0) MI200, (9, 4) "
    "MI300, (9, 5) MI350, (11, x) RDNA3, so NVIDIA thresholds such as >= (8, 0) or == (9, 0) "
    "pick the wrong path on AMD";

static void pt002_capability(pyrules *r, const pysrc *p, ptrdiff_t i, ptrdiff_t open)
{
    ptrdiff_t ls = p->lstart[i], le = pysrc_line_end(p, i);
    ptrdiff_t close = p->match[open];
    int flag = line_has_cmp(p, ls, le);
    /* cap = torch.cuda.get_device_capability(); major, minor = ...; later compared */
    if (!flag) {
        for (ptrdiff_t k = ls; k < i; k++) {
            if (pysrc_op(p, k, '='))
                break;
            if (p->t[k].kind == PY_NAME && name_compared(p, pysrc_text(p, k), le))
                flag = 1;
        }
    }
    /* torch.cuda.get_device_properties(d).major */
    if (!flag && pysrc_op(p, close + 1, '.') &&
        (pysrc_is(p, close + 2, "major") || pysrc_is(p, close + 2, "minor")) &&
        line_has_cmp(p, ls, le))
        flag = 1;
    if (flag)
        add_span(r, p, i, open, RID_PT002, HP_SEV_WARNING, pt002_msg, pt002_fix);
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

static int sm_helper(hp_str s)
{
    if (RULES_STARTS(s, "is_sm") || RULES_STARTS(s, "has_sm"))
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
    if (flags >= 0 && !amd_file && !guarded(p, i))
        add_span(r, p, a[flags].kw, a[flags].kw + 1, RID_PT003, HP_SEV_WARNING,
                 "nvcc flags with no ROCm branch: on ROCm builds of PyTorch the extension is "
                 "hipified and these flags go to hipcc, which rejects nvcc-only options",
                 "branch on torch.version.hip (or IS_HIP_EXTENSION) and give hipcc its own "
                 "flags; set PYTORCH_ROCM_ARCH for the targets");
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

static void pt005(pyrules *r, const pysrc *p, ptrdiff_t b, ptrdiff_t e, const char *q,
                  int both_kinds)
{
    unsigned tg = pyrules_targets(r);
    const char *t = q + strlen("torch.");
    int fnuz = str_ends(str_cstr(t), S("fnuz"));
    if (both_kinds || guarded(p, b))
        return;
    if (!fnuz && (tg & (TGT_GFX942 | TGT_CDNA12))) {
        const char *m = arena_printf(
            r->a, "torch.%s is OCP fp8: MI300 (gfx942) computes fp8 in the FNUZ variants "
                     "(hipBLASLt's fp8 GEMMs there take only FNUZ), whose e4m3 range ends at "
                     "240, not 448",
            t);
        add_span(r, p, b, e, RID_PT005, HP_SEV_ERROR, m,
                 "choose the dtype from gcnArchName: gfx942 -> torch.float8_e4m3fnuz / "
                 "float8_e5m2fnuz, gfx950 and RDNA4 -> the OCP types; rescale checkpoints");
    } else if (fnuz && (tg & ~(unsigned)TGT_GFX942)) {
        const char *m = arena_printf(
            r->a, "torch.%s is FNUZ fp8, which only gfx942 (MI300) runs natively; MI350, "
                     "RDNA4 and NVIDIA GPUs use the OCP types",
            t);
        add_span(r, p, b, e, RID_PT005, HP_SEV_ERROR, m,
                 "choose the dtype from gcnArchName instead of hard-coding FNUZ");
    }
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
    for (ptrdiff_t i = 0; i < p->n; i++) {
        const pytok *t = &p->t[i];
        if (t->kind == PY_STRING) {
            hp_str s = pylex_string_body(p->src, t);
            if (pyrules_on(r, RID_PT001) && !guarded(p, i) &&
                (str_find(s, S("nvidia-smi")) >= 0 ||
                 ((RULES_EQ(s, "nvcc") || RULES_STARTS(s, "nvcc ")) && in_command(p, i)))) {
                add_span(r, p, i, i + 1, RID_PT001, HP_SEV_WARNING,
                         "NVIDIA tool in a script: ROCm machines have amd-smi / rocm-smi and "
                         "hipcc instead",
                         "branch on torch.version.hip and call amd-smi (or rocm-smi) there");
            } else if (pyrules_on(r, RID_PT001) && RULES_STARTS(s, "+cu") && !guarded(p, i)) {
                add_span(r, p, i, i + 1, RID_PT001, HP_SEV_WARNING,
                         "'+cu' in the version string detects CUDA wheels only; ROCm wheels "
                         "are tagged '+rocm'",
                         "test torch.version.hip / torch.version.cuda instead");
            } else if (pyrules_on(r, RID_PT002) && sm_word(s) && !flag_value(p, i) &&
                       !guarded(p, i)) {
                add_span(r, p, i, i + 1, RID_PT002, HP_SEV_WARNING,
                         "kernel or path chosen by an NVIDIA architecture name; AMD GPUs never "
                         "match it, or match a fallback meant for old NVIDIA parts",
                         pt002_fix);
            } else if (pyrules_on(r, RID_PT003) && RULES_EQ(s, "TORCH_CUDA_ARCH_LIST") &&
                       !rocm_arch && env_setting(p, i) && !pysrc_vendor_only(p, i)) {
                add_span(r, p, i, i + 1, RID_PT003, HP_SEV_WARNING,
                         "TORCH_CUDA_ARCH_LIST is ignored on ROCm: extensions are built for "
                         "PYTORCH_ROCM_ARCH, or for the archs torch itself was built for",
                         "also set PYTORCH_ROCM_ARCH, e.g. \"gfx90a;gfx942\"");
            }
            continue;
        }
        if (t->kind != PY_NAME || (i > 0 && pysrc_op(p, i - 1, '.')))
            continue;
        if (pyrules_on(r, RID_PT002) && sm_helper(pysrc_text(p, i)) && pysrc_op(p, i + 1, '(') &&
            !guarded(p, i)) {
            add_span(r, p, i, i + 1, RID_PT002, HP_SEV_WARNING, pt002_msg, pt002_fix);
            continue;
        }
        ptrdiff_t e = pysrc_qualname(p, i, q, sizeof q);
        if (e <= i)
            continue;
        int call = pysrc_op(p, e, '(') && p->match[e] > e;
        if (strcmp(q, "torch.version.cuda") == 0 && pyrules_on(r, RID_PT001) && !amd_file &&
            p->lstart[i] != last_pt001) {
            last_pt001 = p->lstart[i];
            add_span(r, p, i, e, RID_PT001, HP_SEV_WARNING,
                     "torch.version.cuda is None on ROCm builds (which still use torch.cuda "
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
                   pyrules_on(r, RID_PT001) && !guarded(p, i) &&
                   has_string_on_line(p, p->lstart[i], pysrc_line_end(p, i), nvidia_name)) {
            add_span(r, p, i, e, RID_PT001, HP_SEV_WARNING,
                     "vendor detected from NVIDIA product names: ROCm reports names such as "
                     "'AMD Instinct MI300X', which fall to the generic path",
                     "test torch.version.hip, and gcnArchName for the AMD model");
        } else if ((strcmp(q, "torch.cuda.get_device_capability") == 0 ||
                    strcmp(q, "torch.cuda.get_device_properties") == 0) &&
                   call && pyrules_on(r, RID_PT002) && !guarded(p, i)) {
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
            pt005(r, p, i, e, q, has_ocp && has_fnuz);
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
