/* pysrc.h: a Python file ready for rules: significant tokens, matching brackets, logical lines,
 * enclosing blocks, import aliases, call arguments and literal values. */
#ifndef HP_PYSRC_H
#define HP_PYSRC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "arena.h"
#include "nameidx.h"
#include "pylex.h"

typedef struct pysrc_alias {
    hp_str name;   /* the local name */
    hp_str target; /* what it stands for: "triton.language", "triton.jit" (arena) */
} pysrc_alias;

typedef struct pysrc {
    const char *src;
    ptrdiff_t len;
    pytok *t;          /* significant tokens (no comments); t[n] is PY_EOF */
    ptrdiff_t n;
    pytok *com;        /* the comments, in order */
    ptrdiff_t ncom;
    int32_t *match;    /* index of the matching bracket, or -1 */
    int32_t *lstart;   /* first token of each token's logical line */
    int32_t *up;       /* first token of the header line of the innermost enclosing block, or -1 */
    int32_t *prev;     /* at a logical line's first token: the previous line start of the same
                          block (its sibling statement), or -1 */
    int32_t *lend;     /* the end of the logical line from each token: its NEWLINE, or n */
    pysrc_alias *alias;
    int nalias;
    nameidx alias_ix;  /* alias names -> the last alias of each */
    struct pysrc_memo *memo; /* what the predicates remember (pysrc.c) */
    int unterminated;  /* the tokenizer met an unterminated string */
    int vendor_file;   /* set by the caller: only code that one vendor runs imports this module,
                          so pysrc_vendor_only holds for every token */
    const nameidx *nv_fns; /* set by the caller: the NVIDIA-only predicates the tree defines
                              (pysrc_nv_predicate), or NULL; their calls are NVIDIA-side tests */
} pysrc;

/* Tokenizes and indexes src. Returns 0 when memory ran out (without a recovery point). */
int pysrc_init(pysrc *p, arena *a, const char *src, ptrdiff_t len);
/* pysrc_init over tokens pylex_all made of src already (a reader that needs them too). */
int pysrc_init_lexed(pysrc *p, arena *a, const char *src, ptrdiff_t len, const pylex_out *lx);

static inline hp_str pysrc_text(const pysrc *p, ptrdiff_t i)
{
    hp_str r = {p->src + p->t[i].off, p->t[i].len};
    return r;
}

/* Is token i the name or keyword w? (Inline: w is mostly a literal, whose length the compiler
 * knows; the rules ask this of most tokens, several times.) */
static inline int pysrc_is(const pysrc *p, ptrdiff_t i, const char *w)
{
    if (i < 0 || i >= p->n || p->t[i].kind != PY_NAME)
        return 0;
    size_t l = strlen(w);
    return (size_t)p->t[i].len == l && memcmp(p->src + p->t[i].off, w, l) == 0;
}

/* Is token i the operator op (a character or a PO_* code)? */
static inline int pysrc_op(const pysrc *p, ptrdiff_t i, unsigned op)
{
    return i >= 0 && i < p->n && (p->t[i].kind == PY_OP || p->t[i].kind == PY_DECORATOR) &&
           p->t[i].sub == op;
}

/* The dotted name that starts at token i (NAME ('.' NAME)*), its head resolved through the
 * import aliases ("tl.load" -> "triton.language.load"). Writes it NUL-terminated to buf and
 * returns the index after it; returns i when token i starts no name, or is itself preceded by
 * '.' (an attribute of something else). */
ptrdiff_t pysrc_qualname(const pysrc *p, ptrdiff_t i, char *buf, ptrdiff_t cap);

/* One argument of a call: tokens [b, e); kw is the keyword's token (-1 for a positional
 * argument; star is set for a starred argument); the value starts at vb. */
typedef struct pysrc_arg {
    int32_t b, e, vb, kw;
    int star;
} pysrc_arg;

/* Splits the arguments of the bracket that opens at token open (at depth-0 commas). Returns the
 * number of arguments (which may exceed max; only max are stored). */
int pysrc_args(const pysrc *p, ptrdiff_t open, pysrc_arg *out, int max);
/* The index of the argument with keyword kw, or -1. */
int pysrc_kwarg(const pysrc *p, const pysrc_arg *a, int n, const char *kw);
/* Number of positional arguments among the first n. */
int pysrc_npositional(const pysrc_arg *a, int n);

/* Is tokens [b, e) an integer literal (optionally signed and parenthesized)? */
int pysrc_int(const pysrc *p, ptrdiff_t b, ptrdiff_t e, long long *v);
/* Is tokens [b, e) one string literal? Sets its contents. */
int pysrc_str(const pysrc *p, ptrdiff_t b, ptrdiff_t e, hp_str *body);
/* Is the keyword value [b, e) the literal True / False / None? */
int pysrc_const(const pysrc *p, ptrdiff_t b, ptrdiff_t e, const char *w);

/* Integer values a name may take at token at: the literals of "for name in [..]" in an
 * enclosing comprehension or loop, or of the last "name = <int>" before it. Returns how many
 * (0: unknown); sets the smallest and largest with their tokens. */
typedef struct pysrc_ints {
    long long min, max;
    int32_t min_tok, max_tok;
} pysrc_ints;
int pysrc_int_values(const pysrc *p, ptrdiff_t b, ptrdiff_t e, pysrc_ints *out);

/* End of the logical line of token i: the index of its NEWLINE (or n). */
ptrdiff_t pysrc_line_end(const pysrc *p, ptrdiff_t i);
/* For a header line starting at token h (def, if, for, ...): the token range of its body.
 * Returns 0 when the line has no ':' at depth 0. */
int pysrc_block(const pysrc *p, ptrdiff_t h, ptrdiff_t *body_b, ptrdiff_t *body_e);

/* A predicate over a token range (a condition or a logical line). */
typedef int (*pysrc_pred)(const pysrc *p, ptrdiff_t b, ptrdiff_t e, void *ud);
/* Does pred hold on the logical line of token i, or on the header of a block around it (for
 * an else or elif branch, on the conditions of its if chain too)? */
int pysrc_guarded(const pysrc *p, ptrdiff_t i, pysrc_pred pred, void *ud);
/* A predicate: the range names the AMD side (torch.version.hip, is_hip, ROCM_HOME,
 * gcnArchName, "gfx..." strings, ...). */
int pysrc_pred_amd(const pysrc *p, ptrdiff_t b, ptrdiff_t e, void *ud);
/* A predicate: the range is a vendor test of either side (pysrc_pred_amd, or is_cuda(),
 * IS_CUDA, is_nvidia(), torch.version.cuda). */
int pysrc_pred_vendor(const pysrc *p, ptrdiff_t b, ptrdiff_t e, void *ud);
/* Is token i in code that only one vendor runs: under a vendor test (pysrc_pred_vendor), after
 * an early exit on one ("if torch.version.hip: return ..."), or in a function that is named for
 * a vendor (get_cuda_configs) or that only such code refers to? */
int pysrc_vendor_only(const pysrc *p, ptrdiff_t i);
/* pysrc_vendor_only without the test of who calls the enclosing functions (a pass over the
 * whole file): a vendor test around i, an exit on one before it, or a function named for
 * NVIDIA around it. */
int pysrc_vendor_here(const pysrc *p, ptrdiff_t i);
/* Is token i under a vendor test or after an exit on one (pysrc_vendor_here without the
 * guess from a function's name)? */
int pysrc_vendor_branch(const pysrc *p, ptrdiff_t i);
/* Is token i in a function that only code under a vendor test refers to (pysrc_vendor_only
 * without its guess from the function's name)? */
int pysrc_in_vendor_fn(const pysrc *p, ptrdiff_t i);
/* Is the def at token d an NVIDIA-only predicate: every return of its body False, None, or an
 * and-chain that requires torch.version.cuda (return torch.cuda.is_available() and
 * torch.version.cuda and capability >= (10, 0)), and at least one of these? ROCm answers it
 * no, so its calls are NVIDIA-side vendor tests. */
int pysrc_nv_predicate(const pysrc *p, ptrdiff_t d);
/* Is the line at token j an assert that demands the NVIDIA side (assert torch.version.cuda is
 * not None, assert is_sm_at_least_100()), with no or and no negation? ROCm fails it, so the
 * code after it in its block is NVIDIA's. */
int pysrc_nv_assert(const pysrc *p, ptrdiff_t j);
/* Is token i in code that runs only on Windows: the body of an if/elif on sys.platform ==
 * "win32" (or startswith("win")), os.name == "nt", platform.system() == "Windows" or a
 * build's compiler_type == "msvc" (and no or), or the else of an if on the negation? ROCm for
 * Instinct GPUs is Linux only. */
int pysrc_windows_only(const pysrc *p, ptrdiff_t i);
/* Is token i in code for a Triton fork's feature that upstream Triton (AMD's backend
 * included) lacks: under a test of hasattr(triton.language, "async_task") (or a module-level
 * name bound to one), after an exit on its absence or an assert of it, or in a function that
 * only such code refers to? Returns the string token naming the feature, or -1. */
ptrdiff_t pysrc_fork_only(const pysrc *p, ptrdiff_t i);
/* Is token i in the body of an if on a constexpr flag (if FLAG:, or an and-chain holding it)
 * of the def around it, a flag every call of that def in the file passes as False, None or 0
 * (a literal, or a variable every binding of which in the file is one), or leaves at such a
 * default? Triton compiles no branch a constexpr turns off. Returns the flag's token, or -1. */
ptrdiff_t pysrc_constexpr_off(const pysrc *p, ptrdiff_t i);
/* Is [b, e) a read of an environment variable named for CUDA: os.getenv("CUDA_..."),
 * os.environ.get("CUDA_..."), os.environ["CUDA_..."] (a default, if any, None)? A CUDA build's
 * setting, unset on ROCm. */
int pysrc_cuda_env_read(const pysrc *p, ptrdiff_t b, ptrdiff_t e);
/* The token that covers byte offset off, or -1. */
ptrdiff_t pysrc_tok_at(const pysrc *p, ptrdiff_t off);
/* Does the whole file mention the AMD side (pysrc_pred_amd over all tokens)? */
int pysrc_mentions_amd(const pysrc *p);

/* Does the comment text (or any string) contain needle, ASCII case-insensitively? */
int pysrc_contains_nocase(hp_str hay, const char *needle);

#endif
