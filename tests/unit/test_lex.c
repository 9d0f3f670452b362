/* test_lex.c: the C/C++/CUDA tokenizer. */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "harness.h"
#include "hash.h"
#include "diag.h"
#include "lex.h"

typedef struct lexed {
    arena a;
    lex_out out;
    const char *src;
} lexed;

static void lex_str(lexed *l, const char *src)
{
    arena_init(&l->a, 1 << 16);
    l->src = src;
    lex_all(&l->a, src, (ptrdiff_t)strlen(src), &l->out);
}

/* The kinds and texts of the tokens, as "KIND:text KIND:text ...". */
static const char *dump(lexed *l)
{
    static char buf[4096];
    static const char *names[] = {"eof", "id", "num", "str", "chr", "com", "p", "#",
                                  "end", "hdr", "<<<", ">>>", "?"};
    size_t n = 0;
    buf[0] = 0;
    for (ptrdiff_t i = 0; i < l->out.n && n < sizeof buf - 64; i++) {
        const tok *t = &l->out.toks[i];
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s:%.*s", i ? " " : "",
                              names[t->kind], (int)t->len, l->src + t->off);
    }
    return buf;
}

TEST(lex_identifiers_and_numbers)
{
    lexed l;
    lex_str(&l, "a_1 0x1F 1'000'000 1.5e-3f .5 0b1010u 0x1p+3 1e+ 123ULL");
    CHECK_STR(dump(&l), "id:a_1 num:0x1F num:1'000'000 num:1.5e-3f num:.5 num:0b1010u "
                        "num:0x1p+3 num:1e+ num:123ULL");
    arena_release(&l.a);
}

TEST(lex_string_prefixes)
{
    lexed l;
    lex_str(&l, "u8\"a\" u\"b\" U\"c\" L\"d\" L'x' u8'y' \"e\\\"f\" 'g' \"s\"_sv R\"x(a)\"b)x\" "
                "LR\"(q)\"");
    CHECK_STR(dump(&l), "str:u8\"a\" str:u\"b\" str:U\"c\" str:L\"d\" chr:L'x' chr:u8'y' "
                        "str:\"e\\\"f\" chr:'g' str:\"s\"_sv str:R\"x(a)\"b)x\" str:LR\"(q)\"");
    arena_release(&l.a);
}

TEST(lex_raw_string_spans_lines)
{
    lexed l;
    lex_str(&l, "auto s = R\"(cudaMalloc\n// not a comment\n)\"; x");
    CHECK_INT(l.out.n, 6);
    CHECK_INT(l.out.toks[3].kind, TK_STRING);
    CHECK_INT(l.out.toks[5].kind, TK_IDENT);
    arena_release(&l.a);
}

TEST(lex_comments)
{
    lexed l;
    lex_str(&l, "a // c1 \\\n still c1\nb /* c2\n */ c");
    CHECK_STR(dump(&l), "id:a com:// c1 \\\n still c1 id:b com:/* c2\n */ id:c");
    arena_release(&l.a);
}

TEST(lex_preprocessor)
{
    lexed l;
    lex_str(&l, "#include <cuda_runtime.h>\n  # define X(a) \\\n  a<<<1,2>>>(a)\nx");
    CHECK_STR(dump(&l), "#:# id:include hdr:<cuda_runtime.h> end: #:# id:define id:X p:( id:a "
                        "p:) id:a <<<:<<< num:1 p:, num:2 >>>:>>> p:( id:a p:) end: id:x");
    CHECK_INT(l.out.toks[0].sub, PP_INCLUDE);
    CHECK_INT(l.out.toks[4].sub, PP_DEFINE);
    CHECK(l.out.toks[6].flags & TF_PP);
    CHECK(!(l.out.toks[l.out.n - 1].flags & TF_PP));
    arena_release(&l.a);
}

TEST(lex_hash_not_at_line_start)
{
    lexed l;
    lex_str(&l, "a # b\n#if X\n#endif");
    CHECK_STR(dump(&l), "id:a p:# id:b #:# id:if id:X end: #:# id:endif end:");
    arena_release(&l.a);
}

/* lex_directives keeps the directives and nothing else: lexing its buffer gives what lexing the
 * whole source gives for the directives. */
static void dirs_only(lexed *l, const char *src)
{
    arena_init(&l->a, 1 << 16);
    ptrdiff_t n;
    l->src = lex_directives(&l->a, src, (ptrdiff_t)strlen(src), &n);
    lex_all(&l->a, l->src, n, &l->out);
}

TEST(lex_directives_only)
{
    lexed l;
    dirs_only(&l, "int a; /* c */ # include \"x.h\"\nb /* one\n two */ #if NOT\n"
                  "auto s = R\"(\n#include \"raw.h\"\n)\"; char q = '#'; int n = 1'000;\n"
                  "#define M(x) /* spans\n lines */ x \\\n  + 1\nf(\"#if s\"); // #error\n"
                  "  /* lead */ #ifdef __HIP__\n#endif");
    CHECK_STR(dump(&l), "#:# id:define id:M p:( id:x p:) com:/* spans\n lines */ id:x p:+ "
                        "num:1 end: #:# id:ifdef id:__HIP__ end: #:# id:endif end:");
    arena_release(&l.a);
    dirs_only(&l, "/* a */#include \"a.h\"\n\\\n#pragma once\nx;\n#if 1 // c \\\n more\n#endif");
    CHECK_STR(dump(&l), "#:# id:include str:\"a.h\" end: #:# id:pragma id:once end: "
                        "#:# id:if num:1 com:// c \\\n more end: #:# id:endif end:");
    arena_release(&l.a);
}

TEST(lex_launch_brackets)
{
    lexed l;
    lex_str(&l, "k<<<g, b>>>(x); v<vector<vector<int>>> y; a >> b; operator<<<T>(o)");
    CHECK_STR(dump(&l), "id:k <<<:<<< id:g p:, id:b >>>:>>> p:( id:x p:) p:; id:v p:< id:vector "
                        "p:< id:vector p:< id:int p:>> p:> id:y p:; id:a p:>> id:b p:; "
                        "id:operator p:<< p:< id:T p:> p:( id:o p:)");
    arena_release(&l.a);
}

TEST(lex_unterminated)
{
    const char *cases[] = {"\"abc", "'a", "/* abc", "R\"x(abc", "#define A \"x\n y"};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        lexed l;
        lex_str(&l, cases[i]);
        CHECK(l.out.unterminated);
        arena_release(&l.a);
    }
}

TEST(lex_any_bytes_in_bounds)
{
    /* every token lies inside the buffer and the tokens cover it in order */
    unsigned seed = 12345;
    for (int round = 0; round < 2000; round++) {
        char buf[64];
        int n = (int)(seed % 63);
        for (int i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            static const char pool[] = "\"'\\/\n*#<>R(u8x) \r\t\0.e+0";
            buf[i] = (seed >> 16) % 3 ? pool[(seed >> 8) % (sizeof pool - 1)] : (char)(seed >> 8);
        }
        seed = seed * 1103515245u + 12345u;
        arena a;
        arena_init(&a, 4096);
        lex_out out;
        lex_all(&a, buf, n, &out);
        int32_t prev_end = 0;
        for (ptrdiff_t i = 0; i < out.n; i++) {
            const tok *t = &out.toks[i];
            CHECK(t->off >= prev_end || t->len == 0);
            CHECK(t->off + t->len <= n);
            if (t->len)
                prev_end = t->off + t->len;
        }
        CHECK(out.toks[out.n].kind == TK_EOF);
        arena_release(&a);
    }
}

/* An identifier ends at the first byte that cannot continue one, wherever that byte falls:
 * within the first sixteen bytes scanned at once, after them, or in the tail scanned a byte at
 * a time near the end of the buffer. */
TEST(lex_identifier_ends_at_every_byte)
{
    for (int c = 0; c < 256; c++) {
        int cont = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                   c == '_' || c == '$' || c >= 0x80;
        for (int at = 1; at < 40; at++) {
            for (int tail = 0; tail < 20; tail += 19) { /* bytes after the identifier's end */
                char buf[64];
                int n = at + 1 + tail;
                memset(buf, 'x', sizeof buf);
                buf[0] = 'a';
                buf[at] = (char)c;
                memset(buf + at + 1, ' ', (size_t)tail);
                arena a;
                arena_init(&a, 4096);
                lex_out out;
                lex_all(&a, buf, n, &out);
                CHECK(out.n >= 1);
                CHECK_INT(out.toks[0].kind, TK_IDENT);
                /* the identifier runs through byte c, or stops before it */
                CHECK_INT(out.toks[0].len, cont ? at + 1 : at);
                arena_release(&a);
            }
        }
    }
}

TEST(lex_bom_and_crlf)
{
    lexed l;
    lex_str(&l, "\xef\xbb\xbf#include \"a.h\"\r\nint x;\r\n");
    CHECK_INT(l.out.toks[0].kind, TK_PP_HASH);
    CHECK_INT(l.out.toks[0].off, 3);
    CHECK_INT(l.out.toks[2].kind, TK_STRING);
    arena_release(&l.a);
}

TEST(lines_lookup)
{
    arena a;
    arena_init(&a, 4096);
    lines ln;
    const char *s = "ab\ncd\n\nef";
    diag_lines_build(&a, s, 9, &ln);
    CHECK_INT(ln.n, 4);
    CHECK_INT(diag_lines_find(&ln, 0), 0);
    CHECK_INT(diag_lines_find(&ln, 3), 1);
    CHECK_INT(diag_lines_find(&ln, 6), 2);
    CHECK_INT(diag_lines_find(&ln, 8), 3);
    arena_release(&a);
}

/* Every '#' that starts a directive is listed, in order, however many there are; a '#'
 * inside a directive or a string, or not first on its line, is not. */
static void check_dirs(const char *src, ptrdiff_t len)
{
    arena a;
    arena_init(&a, 4096);
    lex_out out;
    lex_all(&a, src, len, &out);
    ptrdiff_t k = 0;
    for (ptrdiff_t i = 0; i < out.n; i++) {
        if (out.toks[i].kind != TK_PP_HASH)
            continue;
        CHECK(k < out.ndirs);
        if (k < out.ndirs)
            CHECK_INT(out.dirs[k], i);
        k++;
    }
    CHECK_INT(out.ndirs, k);
    arena_release(&a);
}

TEST(lex_directive_list)
{
    const char *s = "#define A \"#x\" # y\nint a; # z\n  #if A\n#endif\n/* # */ #pragma once";
    lexed l;
    lex_str(&l, s);
    CHECK_INT(l.out.ndirs, 4);
    arena_release(&l.a);
    check_dirs(s, (ptrdiff_t)strlen(s));
    lex_str(&l, "int x;");
    CHECK_INT(l.out.ndirs, 0);
    CHECK(l.out.dirs == NULL);
    arena_release(&l.a);
    /* more directives than the lexer keeps aside while it runs */
    static char big[3000 * 12];
    ptrdiff_t n = 0;
    for (int i = 0; i < 3000; i++)
        n += snprintf(big + n, sizeof big - (size_t)n, i % 3 ? "#define X\n" : "int y;\n");
    check_dirs(big, n);
}

/* A filter over a few names, built as the name tables' generator builds one. */
typedef struct tfilter {
    unsigned char shape[(1u << HP_SHAPE_BITS) / 8];
    lex_filter f;
} tfilter;

static void tfilter_init(tfilter *t, const char *const *names, int n)
{
    memset(t, 0, sizeof *t);
    for (int k = 0; k < n; k++)
        hp_shape_add(t->shape, names[k], (ptrdiff_t)strlen(names[k]));
    t->f.shape = t->shape;
}

/* The marks are the tokens lex_marked picks, in order, and the tokens are lex_all's: for a
 * short file, and for one with more marks than the lexer keeps on its stack (the rest are
 * found after lexing), with a directive left open at the end. */
TEST(lex_marks_are_the_marked_tokens)
{
    static const char *const names[] = {"cudaMalloc", "x", "__global__"};
    tfilter *tf = malloc(sizeof *tf);
    CHECK(tf != NULL);
    tfilter_init(tf, names, 3);
    CHECK(lex_filter_pass(&tf->f, (const unsigned char *)"cudaMalloc", 10));
    CHECK(lex_filter_pass(&tf->f, (const unsigned char *)"x", 1));
    CHECK(!lex_filter_pass(&tf->f, (const unsigned char *)"cudaFree", 8));
    CHECK(!lex_filter_pass(&tf->f, (const unsigned char *)"y", 1));
    static const char unit[] = "__global__ void k(int *x) { cudaMalloc(x, 4); y = x >> 1; }\n"
                               "#define N cudaMalloc // cudaMalloc\n"
                               "k<<<1, 2>>>(\"cudaMalloc\"); a >>> b; cudaFree(y);\n";
    for (int reps = 1; reps <= 600; reps += 599) {
        ptrdiff_t ulen = (ptrdiff_t)sizeof unit - 1, len = ulen * reps + 16;
        char *src = malloc((size_t)len);
        CHECK(src != NULL);
        for (int r = 0; r < reps; r++)
            memcpy(src + r * ulen, unit, (size_t)ulen);
        memcpy(src + ulen * reps, "#if x\n#define x", 16);
        arena a, b;
        arena_init(&a, 4096);
        arena_init(&b, 4096);
        lex_out plain, marked;
        lex_all(&a, src, len, &plain);
        lex_all_marked(&b, src, len, &tf->f, &marked);
        CHECK(plain.marks == NULL && plain.nmarks == 0);
        CHECK(marked.marks != NULL);
        CHECK_INT(marked.n, plain.n);
        CHECK_INT(marked.ndirs, plain.ndirs);
        CHECK(memcmp(marked.toks, plain.toks, (size_t)(plain.n + 1) * sizeof(tok)) == 0);
        ptrdiff_t k = 0, idents = 0;
        for (ptrdiff_t h = 0; h < plain.n; h++) {
            if (!lex_marked(&tf->f, src, &plain.toks[h]))
                continue;
            idents += plain.toks[h].kind == TK_IDENT;
            CHECK(k < marked.nmarks);
            if (k < marked.nmarks)
                CHECK_INT(marked.marks[k], h);
            k++;
        }
        CHECK_INT(marked.nmarks, k);
        /* per unit: __global__, x twice and cudaMalloc twice in code, cudaMalloc in the
         * directive; '#', its end, <<< and >>>; then the last line's '#' twice, x twice and
         * the directives' two ends */
        CHECK_INT(idents, 6 * reps + 2);
        CHECK_INT(marked.nmarks, 10 * reps + 6);
        if (reps > 1)
            CHECK(marked.nmarks > 4096); /* past the lexer's list on its stack */
        arena_release(&a);
        arena_release(&b);
        free(src);
    }
    free(tf);
}

/* Memory that runs out while the marks are on the heap: with a recovery point, the lexer takes
 * it (the sanitizers' run would report the marks' memory if it were left behind); without one,
 * it returns no tokens. Where memory suffices, the marks are the same as without a limit. */
TEST(lex_marks_out_of_memory)
{
    static const char *const names[] = {"cudaMalloc"};
    tfilter *tf = malloc(sizeof *tf);
    CHECK(tf != NULL);
    tfilter_init(tf, names, 1);
    /* five tokens in fourteen bytes: the token array grows after more than 4096 marks */
    ptrdiff_t reps = 12000, len = 14 * reps;
    char *src = malloc((size_t)len);
    CHECK(src != NULL);
    for (ptrdiff_t r = 0; r < reps; r++)
        memcpy(src + 14 * r, "cudaMalloc(a);", 14);
    int failed = 0, done = 0;
    for (ptrdiff_t limit = 1 << 12; limit <= (ptrdiff_t)1 << 22; limit *= 2) {
        for (int recovery = 0; recovery < 2; recovery++) {
            arena a;
            arena_init(&a, 4096);
            a.limit = limit;
            jmp_buf jb;
            volatile int jumped = 0;
            if (recovery && setjmp(jb)) {
                jumped = 1;
            } else {
                a.oom = recovery ? &jb : NULL;
                lex_out out;
                lex_all_marked(&a, src, len, &tf->f, &out);
                CHECK(a.oom == (recovery ? &jb : NULL));
                if (out.toks) {
                    CHECK_INT(out.nmarks, reps);
                    CHECK_INT(out.marks[reps - 1], 5 * (reps - 1));
                    done++;
                } else {
                    CHECK(!recovery);
                    CHECK(out.marks == NULL && out.nmarks == 0);
                    failed++;
                }
            }
            failed += jumped;
            arena_release(&a);
        }
    }
    CHECK(failed > 0);
    CHECK(done > 0);
    free(src);
    free(tf);
}
