/* rules_asm.c: the ASM rules that need more than a name: inline assembly written in PTX
 * (ASM001), PTX for asynchronous copies, tensor cores or TMA (ASM002), cuda:: pipeline and
 * barrier types (ASM002), and the SIMD-in-word intrinsics __v*2/__v*4 (ASM003). The plain
 * names of ASM002-ASM004 are in data/tables/rule_names.tsv. */
#include <string.h>

#include "rules.h"
#include "str.h"

#include "banned.h"

/* PTX instructions that mean asynchronous copies, tensor cores or TMA. */
static const char *const async_ptx[] = {"cp.async", "cp.reduce.async", "ldmatrix", "stmatrix",
                                        "mma.sync", "wgmma.", "tcgen05.", "mbarrier.",
                                        "setmaxnreg", "griddepcontrol", "elect.sync",
                                        "multimem.", "movmatrix"};

/* Opcodes that, followed by '.', are PTX (mov.u32, ld.global, shfl.sync, ...). */
static const char *const ptx_ops[] = {
    "mov", "ld", "st", "cvt", "cvta", "add", "sub", "mul", "mad", "fma", "shfl", "bar",
    "membar", "fence", "red", "atom", "vote", "setp", "selp", "prmt", "lop3", "bfe", "bfi",
    "brev", "popc", "clz", "isspacep", "and", "or", "xor", "not", "shl", "shr", "min", "max",
    "abs", "neg", "rcp", "sqrt", "rsqrt", "ex2", "lg2", "sin", "cos", "div", "rem", "testp",
    "slct", "bra", "call", "match", "redux", "dp4a", "dp2a", "prefetch", "discard",
    "createpolicy", "nanosleep", "activemask", "cp", "tanh", "copysign", "set", "sad", "szext",
    "bmsk", "fns", "mapa", "getctarank", "stackrestore", "alloca", "tex", "tld4", "suld",
    "sust", "sured", "istypep", "trap", "exit", "brkpt", "pmevent"};

/* Special registers: the marker and the HIP replacement. */
static const struct {
    const char *reg;
    const char *fix;
} ptx_regs[] = {
    {"%laneid", "use __lane_id()"},
    {"%warpid", "compute the wavefront index as threadIdx.x / warpSize"},
    {"%nsmid", "query hipDeviceAttributeMultiprocessorCount on the host"},
    {"%smid", "use __smid() (on AMD it encodes the CU and shader engine, not a dense index)"},
    {"%globaltimer", "use wall_clock64() with hipDeviceAttributeWallClockRate"},
    {"%clock", "use wall_clock64() for time, clock64() for cycles"},
    {"%lanemask_", "use __lanemask_lt() and friends (64-bit masks)"},
    {"%dynamic_smem_size", "pass the dynamic LDS size as a kernel argument"},
    {"%total_smem_size", "pass the LDS size as a kernel argument"},
};

static int is_alnum(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_';
}

/* Modifiers that only PTX puts after an opcode: types, vectors, state spaces, rounding, scopes,
 * orderings, cache operators and the shuffle, vote and atomic variants. Other assemblers also
 * write "op.suffix" (RISC-V mov.m.x, fadd.s; ARM's ld1 lanes), so a dotted opcode counts as PTX
 * only when one of its modifiers is PTX's. */
static const char *const ptx_mods[] = {
    "b8", "b16", "b32", "b64", "b128", "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
    "f16", "f16x2", "f32", "f64", "bf16", "bf16x2", "tf32", "e4m3", "e5m2", "e4m3x2", "e5m2x2",
    "pred", "v2", "v4", "v8", "global", "shared", "local", "param", "const", "generic", "tex",
    "cta", "gpu", "sys", "cluster", "gl", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi",
    "rna", "rs", "sat", "ftz", "noftz", "approx", "full", "sync", "aligned", "all", "any", "uni",
    "ballot", "bfly", "up", "down", "idx", "relaxed", "acquire", "release", "acq_rel", "sc",
    "volatile", "weak", "mmio", "ca", "cg", "cs", "lu", "cv", "wb", "wt", "nc", "L1", "L2",
    "lo", "hi", "wide", "hex", "cc", "inc", "dec", "exch", "cas", "add", "min", "max", "and",
    "or", "xor", "eq", "ne", "lt", "le", "gt", "ge", "ls", "hs", "equ", "neu", "ltu", "leu",
    "gtu", "geu", "num", "nan", "to", "clamp", "wrap", "shiftamt", "finite", "infinite",
    "number", "notanumber", "normal", "subnormal", "proxy", "async", "fractional", "mask",
    "1d", "2d", "3d", "a1d", "a2d", "cube", "acube", "trap", "zero", "mode", "red", "arrive",
    "exact", "ecl", "f4e", "b4e", "rc8", "rc16", "sm_90", "level", "bulk", "tensor"};

static int ptx_mod(hp_str m)
{
    if (str_find(m, S("::")) >= 0)
        return 1; /* shared::cta, L2::evict_last, ... */
    for (size_t j = 0; j < sizeof ptx_mods / sizeof *ptx_mods; j++)
        if (str_eq(m, str_cstr(ptx_mods[j])))
            return 1;
    return 0;
}

/* Whether one of the dot-separated modifiers of the instruction s (op.m1.m2...) is PTX's. */
static int ptx_mods_in(hp_str s)
{
    ptrdiff_t i = 0;
    while (i < s.len && s.s[i] != '.')
        i++;
    while (i < s.len) {
        ptrdiff_t b = ++i;
        while (i < s.len && s.s[i] != '.')
            i++;
        if (ptx_mod(str_cut(s, b, i)))
            return 1;
    }
    return 0;
}

/* The first PTX instruction (or register) in s, its length in *n; -1 if none. */
static ptrdiff_t find_ptx(hp_str s, ptrdiff_t *n)
{
    /* the letters the opcodes begin with, as bits: most bytes begin none */
    uint32_t first = 0;
    for (size_t k = 0; k < sizeof ptx_ops / sizeof *ptx_ops; k++)
        first |= 1u << ((unsigned)(ptx_ops[k][0] - 'a') & 31);
    for (ptrdiff_t i = 0; i < s.len; i++) {
        unsigned char b = (unsigned char)s.s[i];
        if (b < 'a' || b > 'z' || !(first >> (b - 'a') & 1) || (i && is_alnum(s.s[i - 1])))
            continue;
        for (size_t k = 0; k < sizeof ptx_ops / sizeof *ptx_ops; k++) {
            if (ptx_ops[k][0] != s.s[i])
                continue;
            size_t l = strlen(ptx_ops[k]);
            if ((size_t)(s.len - i) > l && memcmp(s.s + i, ptx_ops[k], l) == 0 &&
                ((s.s[i + (ptrdiff_t)l] == '.' && i + (ptrdiff_t)l + 1 < s.len &&
                  is_alnum(s.s[i + (ptrdiff_t)l + 1])) ||
                 ((strcmp(ptx_ops[k], "trap") == 0 || strcmp(ptx_ops[k], "exit") == 0 ||
                   strcmp(ptx_ops[k], "brkpt") == 0) &&
                  s.s[i + (ptrdiff_t)l] == ';'))) {
                ptrdiff_t e = i;
                while (e < s.len && s.s[e] != ' ' && s.s[e] != '\t' && s.s[e] != ';' &&
                       s.s[e] != '\\' && s.s[e] != '"')
                    e++;
                if (s.s[i + (ptrdiff_t)l] == '.' && !ptx_mods_in(str_cut(s, i, e)))
                    break;
                *n = e - i;
                return i;
            }
        }
    }
    ptrdiff_t r = str_find(s, S(".reg ."));
    if (r >= 0) {
        *n = 4;
        return r;
    }
    return -1;
}

static int looks_gcn(hp_str s)
{
    static const char *const gcn[] = {"v_", "s_", "ds_", "global_", "buffer_", "flat_",
                                      "scratch_", "image_"};
    for (ptrdiff_t i = 0; i < s.len; i++) {
        if (i && is_alnum(s.s[i - 1]))
            continue;
        for (size_t k = 0; k < sizeof gcn / sizeof *gcn; k++) {
            if (gcn[k][0] != s.s[i])
                continue;
            size_t l = strlen(gcn[k]);
            if ((size_t)(s.len - i) > l && memcmp(s.s + i, gcn[k], l) == 0 &&
                s.s[i + (ptrdiff_t)l] >= 'a' && s.s[i + (ptrdiff_t)l] <= 'z')
                return 1;
        }
    }
    return 0;
}

/* Constraint letters of PTX operands: "r" "=r" "+l" "h" "f" "d" ("v" and "s" are AMD's). */
static int ptx_constraint(hp_str lit)
{
    if (lit.len < 3 || lit.len > 5)
        return 0;
    hp_str body = str_cut(lit, 1, lit.len - 1);
    while (body.len && (body.s[0] == '=' || body.s[0] == '+' || body.s[0] == '&'))
        body = str_cut(body, 1, body.len);
    return body.len == 1 && strchr("rhlfdn", body.s[0]) != NULL;
}

static void asm_statement(rctx *c, ptrdiff_t i)
{
    if (rules_scope(c, i) & SC_GUARDED)
        return;
    ptrdiff_t open = rules_next(c, i);
    while (rules_is(c, open, "volatile") || rules_is(c, open, "__volatile__") ||
           rules_is(c, open, "goto") || rules_is(c, open, "inline"))
        open = rules_next(c, open);
    if (!rules_punct(c, open, '('))
        return;
    ptrdiff_t close = rules_match(c, open);
    if (close < 0)
        return;
    ptrdiff_t ptx_at = -1, ptx_len = 0, async_at = -1;
    const char *async_name = NULL, *reg_fix = NULL;
    int constraints = 0, gcn = 0;
    for (ptrdiff_t j = rules_next(c, open); j < close; j = rules_next(c, j)) {
        if (c->t[j].kind != TK_STRING)
            continue;
        hp_str s = rules_text(c, j);
        if (ptx_constraint(s))
            constraints = 1;
        if (looks_gcn(s))
            gcn = 1;
        for (size_t k = 0; async_at < 0 && k < sizeof async_ptx / sizeof *async_ptx; k++)
            if (str_find(s, str_cstr(async_ptx[k])) >= 0) {
                async_at = j;
                async_name = async_ptx[k];
            }
        for (size_t k = 0; !reg_fix && k < sizeof ptx_regs / sizeof *ptx_regs; k++)
            if (str_find(s, str_cstr(ptx_regs[k].reg)) >= 0) {
                reg_fix = ptx_regs[k].fix;
                if (ptx_at < 0) {
                    ptx_at = c->t[j].off + str_find(s, str_cstr(ptx_regs[k].reg));
                    ptx_len = (ptrdiff_t)strlen(ptx_regs[k].reg);
                }
            }
        ptrdiff_t n;
        ptrdiff_t at = find_ptx(s, &n);
        if (at >= 0 && (ptx_at < 0 || c->t[j].off + at < ptx_at)) {
            ptx_at = c->t[j].off + at;
            ptx_len = n;
        }
    }
    if (async_at >= 0) {
        rules_report(c, RID_ASM002, i, 0, 0,
                     rules_fmt(c, "inline PTX '%s' (asynchronous copy, tensor-core or TMA "
                                  "instruction) has no AMD equivalent",
                               async_name),
                     NULL);
        return;
    }
    int device = (rules_scope(c, i) & SC_DEVICE) != 0;
    if (ptx_at < 0 && !(device && constraints && !gcn))
        return;
    if (gcn && ptx_at < 0)
        return;
    const char *msg;
    if (ptx_at >= 0)
        msg = rules_fmt(c, "inline PTX '%.*s': AMD GPUs run AMDGCN code and their assembler "
                           "rejects PTX",
                        (int)ptx_len, c->src + ptx_at);
    else
        msg = "inline assembly with PTX operand constraints in device code: AMD GPUs run "
              "AMDGCN code and their assembler rejects PTX";
    rules_report(c, RID_ASM001, i, 0, 0, msg, reg_fix);
}

/* __vadd2, __vabsdiffu4, __vcmpgeu2, ...: SIMD operations on 16- or 8-bit lanes of a word. */
static int simd_in_word(hp_str s)
{
    if (s.len < 6 || s.s[0] != '_' || s.s[1] != '_' || s.s[2] != 'v')
        return 0;
    char last = s.s[s.len - 1];
    if (last != '2' && last != '4')
        return 0;
    for (ptrdiff_t i = 3; i < s.len - 1; i++)
        if (!(s.s[i] >= 'a' && s.s[i] <= 'z'))
            return 0;
    return 1;
}

/* The identifiers the pass below acts on (rules_hot.c) that rule_keys.tsv cannot list: the
 * SIMD intrinsics. */
unsigned rules_asm_names(const rctx *c, hp_str s, int number)
{
    (void)c;
    if (number || s.len <= 0)
        return 0;
    return s.s[0] == '_' && simd_in_word(s) ? RH_ASM : 0;
}

void rules_asm_run(rctx *c)
{
    for (ptrdiff_t hk = 0, i; (i = rules_hot_next(c, &hk, RH_ASM)) >= 0;) {
        if (c->t[i].kind != TK_IDENT)
            continue;
        hp_str s = rules_text(c, i);
        if (RULES_EQ(s, "asm") || RULES_EQ(s, "__asm__") || RULES_EQ(s, "__asm")) {
            asm_statement(c, i);
            continue;
        }
        if (s.s[0] == '_' && simd_in_word(s) && !rules_member(c, i) && rules_call(c, i) >= 0 &&
            !(rules_scope(c, i) & SC_GUARDED) && !rules_shim(c, s) &&
            !rules_file_defines_fn(c, s)) {
            rules_report(c, RID_ASM003, i, 0, 0,
                         rules_fmt(c, "'%.*s' (SIMD arithmetic within a 32-bit word) has no HIP "
                                      "implementation",
                                   (int)s.len, s.s),
                         "unpack the 16- or 8-bit lanes and operate on them one by one, or use "
                         "__byte_perm");
            continue;
        }
        /* cuda::pipeline, cuda::barrier, cuda::memcpy_async, cuda::ptx::..., cooperative_groups::
         * memcpy_async */
        if (RULES_EQ(s, "memcpy_async") || RULES_EQ(s, "pipeline") || RULES_EQ(s, "barrier") ||
            RULES_EQ(s, "ptx") || RULES_EQ(s, "make_pipeline") ||
            RULES_EQ(s, "pipeline_shared_state")) {
            ptrdiff_t p = rules_prev(c, i);
            if (!rules_punct(c, p, P_SCOPE) || (rules_scope(c, i) & SC_GUARDED))
                continue;
            ptrdiff_t q = rules_prev(c, p);
            hp_str ns = rules_text(c, q);
            int cuda_ns = RULES_EQ(ns, "cuda");
            int cg_ns = RULES_EQ(ns, "cooperative_groups") || RULES_EQ(ns, "cg");
            if (!(cuda_ns || (cg_ns && RULES_EQ(s, "memcpy_async"))))
                continue;
            rules_report(c, RID_ASM002, q, 0, RF_ONCE,
                         "cuda::pipeline, cuda::barrier and memcpy_async are built on sm_80+ "
                         "asynchronous copies and hardware barriers, which AMD GPUs lack",
                         NULL);
        }
    }
}
