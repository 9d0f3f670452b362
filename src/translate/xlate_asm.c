/* xlate_asm.c: inline PTX. A statement that only reads a special register HIP can give
 * (asm("mov.u32 %0, %%laneid;" : "=r"(v));) becomes an assignment from the HIP function;
 * any other PTX is reported on its line, since NVIDIA's assembly does not assemble for AMD. */
#include <string.h>

#include "str.h"
#include "xlate.h"

#include "banned.h"

/* Special registers read with one mov, and what gives their value in HIP code. */
static const struct {
    const char *reg;   /* after %% */
    const char *call;  /* the replacement expression */
    int compat;        /* hipport_compat.h defines it */
    int bits;          /* the mov's width */
} sregs[] = {
    {"laneid", "hipport_lane_id()", 1, 32},
    {"smid", "hipport_smid()", 1, 32},
    {"clock", "clock()", 0, 32},
    {"clock64", "clock64()", 0, 64},
};

static int is_asm_word(hp_str s)
{
    return str_eqc(s, "asm") || str_eqc(s, "__asm__") || str_eqc(s, "__asm");
}

/* The text of a string literal token without its quotes (no prefix, no raw strings). */
static int string_body(const xlate *x, ptrdiff_t i, hp_str *body)
{
    if (i < 0 || i >= x->nt || x->t[i].kind != TK_STRING || x->t[i].len < 2 ||
        x->src[x->t[i].off] != '"')
        return 0;
    *body = str_make(x->src + x->t[i].off + 1, x->t[i].len - 2);
    return 1;
}

static hp_str skip_blanks(hp_str s)
{
    while (s.len > 0 && (s.s[0] == ' ' || s.s[0] == '\t' || s.s[0] == '{'))
        s = str_cut(s, 1, s.len);
    return s;
}

/* Does an asm string hold PTX? Its first word is an instruction with type suffixes (mov.u32,
 * ld.global.nc, cp.async) or a declaration (.reg, .pred), which x86 and Arm assembly
 * (movl, rdtsc, ldr) have not. */
static int is_ptx(hp_str s)
{
    s = skip_blanks(s);
    if (s.len > 1 && s.s[0] == '.')
        return 1;
    for (ptrdiff_t k = 0; k + 1 < s.len; k++) {
        char c = s.s[k];
        if (c == '.')
            return k > 0 && ((s.s[k + 1] >= 'a' && s.s[k + 1] <= 'z') ||
                             (s.s[k + 1] >= '0' && s.s[k + 1] <= '9'));
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            return 0;
    }
    return 0;
}

/* "mov.u32 %0, %%REG;" (blanks free, the ';' optional, .u32/.s32/.b32 or the 64-bit forms):
 * the register's row, or -1. */
static int sreg_mov(hp_str s)
{
    s = str_trim(skip_blanks(s));
    while (s.len > 0 && (s.s[s.len - 1] == ';' || s.s[s.len - 1] == '}' || s.s[s.len - 1] == ' '))
        s.len--;
    if (s.len < 9 || memcmp(s.s, "mov.", 4) != 0)
        return -1;
    int bits = 0;
    hp_str t = str_cut(s, 4, s.len);
    if (t.len >= 3 && (t.s[0] == 'u' || t.s[0] == 's' || t.s[0] == 'b')) {
        if (memcmp(t.s + 1, "32", 2) == 0)
            bits = 32;
        else if (memcmp(t.s + 1, "64", 2) == 0)
            bits = 64;
    }
    if (!bits)
        return -1;
    t = str_trim(str_cut(t, 3, t.len));
    if (t.len < 3 || memcmp(t.s, "%0", 2) != 0)
        return -1;
    t = str_trim(str_cut(t, 2, t.len));
    if (t.len < 1 || t.s[0] != ',')
        return -1;
    t = str_trim(str_cut(t, 1, t.len));
    if (t.len < 3 || t.s[0] != '%' || t.s[1] != '%')
        return -1;
    t = str_cut(t, 2, t.len);
    for (int k = 0; k < (int)(sizeof sregs / sizeof *sregs); k++)
        if (str_eqc(t, sregs[k].reg) && sregs[k].bits == bits)
            return k;
    return -1;
}

/* Is token i inside a conditional whose test names HIP or ROCm (#ifdef USE_ROCM, #if
 * defined(__HIP_PLATFORM_NVIDIA__), ...)? Its author chose per vendor there already. */
static int vendor_branch(const xlate *x, ptrdiff_t i)
{
    static const char *const words[] = {"USE_ROCM", "__HIP_PLATFORM_AMD__",
                                         "__HIP_PLATFORM_NVIDIA__", "__HIP_PLATFORM_HCC__",
                                         "__HIP_PLATFORM_NVCC__", "__HIPCC__", "__HIP__",
                                         "__HIP_DEVICE_COMPILE__", "USE_HIP", "GGML_USE_HIP"};
    int depth = 0;
    ptrdiff_t d = x->ndirs - 1;
    while (d >= 0 && x->dirs[d] > i)
        d--;
    for (; d >= 0; d--) {
        ptrdiff_t h = x->dirs[d];
        unsigned code = x->t[h].sub;
        if (code == PP_ENDIF) {
            depth++;
            continue;
        }
        if (code != PP_IF && code != PP_IFDEF && code != PP_IFNDEF && code != PP_ELIF)
            continue;
        if (code != PP_ELIF && depth > 0) {
            depth--;
            continue;
        }
        if (depth > 0)
            continue;
        for (ptrdiff_t k = xlate_next(x, h); k < x->nt && x->t[k].kind != TK_PP_END; k++)
            for (size_t w = 0; w < sizeof words / sizeof *words; w++)
                if (x->t[k].kind == TK_IDENT && xlate_is(x, k, words[w]))
                    return 1;
    }
    return 0;
}

void xlate_asm(xlate *x, ptrdiff_t i)
{
    if (!is_asm_word(xlate_text(x, i)) || (x->t[i].flags & TF_PP))
        return;
    ptrdiff_t open = xlate_next(x, i);
    while (open < x->nt && (xlate_is(x, open, "volatile") || xlate_is(x, open, "__volatile__") ||
                            xlate_is(x, open, "goto") || xlate_is(x, open, "inline")))
        open = xlate_next(x, open);
    if (!xlate_punct(x, open, '('))
        return;
    ptrdiff_t close = xlate_match(x, open);
    ptrdiff_t str = xlate_next(x, open);
    hp_str body;
    if (close < 0 || !string_body(x, str, &body) || !is_ptx(body))
        return;
    /* asm("mov.u32 %0, %%laneid;" : "=r"(v)); with one output and nothing else */
    int k = sreg_mov(body);
    ptrdiff_t colon = xlate_next(x, str), cons = xlate_next(x, colon),
              lp = xlate_next(x, cons), semi = xlate_next(x, close);
    hp_str c;
    if (k >= 0 && xlate_next(x, str) == colon && xlate_punct(x, colon, ':') &&
        string_body(x, cons, &c) && (str_eqc(c, "=r") || str_eqc(c, "=l")) &&
        xlate_punct(x, lp, '(') && xlate_match(x, lp) == xlate_prev(x, close) &&
        xlate_punct(x, semi, ';')) {
        ptrdiff_t rp = xlate_match(x, lp);
        ptrdiff_t from = x->t[xlate_next(x, lp)].off, to = x->t[rp].off;
        if (to > from) {
            const char *text =
                arena_printf(x->a, "%.*s = %s", (int)(to - from), x->src + from, sregs[k].call);
            xlate_edit(x, x->t[i].off, x->t[close].off + 1 - x->t[i].off, str_cstr(text));
            if (sregs[k].compat)
                x->needs_compat = 1;
            x->st.converted++;
            return;
        }
    }
    if (vendor_branch(x, i))
        return;
    diag_add(&x->d, x->t[i].off, x->t[i].len, "HP-PTX", HP_SEV_WARNING,
             "inline PTX: NVIDIA's assembly does not assemble for AMD GPUs",
             "write it with HIP's builtins (hipport check names them), or keep it behind "
             "#if defined(__HIP_PLATFORM_NVIDIA__)");
}
