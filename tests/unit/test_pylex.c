/* test_pylex.c: the Python tokenizer. */
#include <stdlib.h>

#include "arena.h"
#include "harness.h"
#include "pylex.h"

typedef struct pylexed {
    arena a;
    pylex_out out;
    const char *src;
} pylexed;

static void pylex_str(pylexed *l, const char *src)
{
    arena_init(&l->a, 1 << 16);
    l->src = src;
    pylex_all(&l->a, src, (ptrdiff_t)strlen(src), &l->out);
}

/* "KIND:text KIND:text ..." with NEWLINE as "NL", INDENT as ">" and DEDENT as "<". */
static const char *pydump(pylexed *l)
{
    static char buf[8192];
    static const char *names[] = {"eof", "id", "num", "str", "op", "com", "NL", ">", "<",
                                  "@", "?"};
    size_t n = 0;
    buf[0] = 0;
    for (ptrdiff_t i = 0; i < l->out.n && n < sizeof buf - 64; i++) {
        const pytok *t = &l->out.toks[i];
        const char *sep = i ? " " : "";
        if (t->kind == PY_NEWLINE || t->kind == PY_INDENT || t->kind == PY_DEDENT)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", sep, names[t->kind]);
        else
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s:%.*s", sep, names[t->kind],
                                  (int)t->len, l->src + t->off);
    }
    return buf;
}

TEST(pylex_names_numbers_ops)
{
    pylexed l;
    pylex_str(&l, "x_1 = 0x1F + 1_000.5e-3j ** 2 // y >>= z -> a := b != c ... .5 @ m\n");
    CHECK_STR(pydump(&l), "id:x_1 op:= num:0x1F op:+ num:1_000.5e-3j op:** num:2 op:// id:y "
                          "op:>>= id:z op:-> id:a op::= id:b op:!= id:c op:... num:.5 op:@ "
                          "id:m NL");
    CHECK_INT(l.out.toks[3].sub, '+');
    CHECK_INT(l.out.toks[5].sub, PO_POW);
    CHECK_INT(l.out.toks[9].sub, PO_AUGASSIGN);
    arena_release(&l.a);
}

TEST(pylex_string_prefixes)
{
    pylexed l;
    pylex_str(&l, "a = r'\\d' b\"x\" u'y' RB'z' bR\"w\" Rf'{x}' fR\"{y}\" F'q' ur'no'\n");
    CHECK_STR(pydump(&l), "id:a op:= str:r'\\d' str:b\"x\" str:u'y' str:RB'z' str:bR\"w\" "
                          "str:Rf'{x}' str:fR\"{y}\" str:F'q' id:ur str:'no' NL");
    CHECK(l.out.toks[2].sub & PS_RAW);
    CHECK_INT(PS_PREFIX_LEN(l.out.toks[6].sub), 2);
    CHECK(l.out.toks[6].sub & PS_BYTES);
    CHECK(l.out.toks[7].sub & PS_F);
    CHECK(!(l.out.toks[4].sub & PS_F));
    arena_release(&l.a);
}

TEST(pylex_triple_quoted)
{
    pylexed l;
    pylex_str(&l, "s = '''a\n'b'' c'''\nt = \"\"\"x\"\"\" + \"\"\"\ny\n\"\"\"\n");
    CHECK_STR(pydump(&l), "id:s op:= str:'''a\n'b'' c''' NL id:t op:= str:\"\"\"x\"\"\" op:+ "
                          "str:\"\"\"\ny\n\"\"\" NL");
    CHECK(l.out.toks[2].sub & PS_TRIPLE);
    arena_release(&l.a);
}

TEST(pylex_escapes_and_raw_quotes)
{
    pylexed l;
    pylex_str(&l, "a = 'it\\'s' r'\\'' \"\\\\\" 'x\\\ny'\n");
    CHECK_STR(pydump(&l), "id:a op:= str:'it\\'s' str:r'\\'' str:\"\\\\\" str:'x\\\ny' NL");
    arena_release(&l.a);
}

TEST(pylex_fstring_nested)
{
    pylexed l;
    /* PEP 701: the same quote inside a replacement field, nested f-strings, format specs
     * with nested fields, escaped braces, a dict display and a conversion. */
    pylex_str(&l, "s = f\"{x[\"k\"]} {f'{y:{w}.{p}}'} {{lit}} {d['}']!r:>10} {({1: 2})}\"\n"
                  "n = 1\n");
    CHECK_INT(l.out.n, 8);
    CHECK_STR(pydump(&l), "id:s op:= str:f\"{x[\"k\"]} {f'{y:{w}.{p}}'} {{lit}} "
                          "{d['}']!r:>10} {({1: 2})}\" NL id:n op:= num:1 NL");
    CHECK(!(l.out.toks[2].flags & PF_UNTERM));
    arena_release(&l.a);
}

TEST(pylex_fstring_multiline_field)
{
    pylexed l;
    pylex_str(&l, "s = f\"list: {', '.join([\n    'a',  # comment with \" quote\n"
                  "    'b'])}\"\nz = 2\n");
    CHECK_INT(l.out.n, 8);
    CHECK_INT(l.out.toks[2].kind, PY_STRING);
    CHECK(!(l.out.toks[2].flags & PF_UNTERM));
    CHECK_INT(l.out.toks[4].kind, PY_NAME);
    arena_release(&l.a);
}

TEST(pylex_fstring_triple_and_raw)
{
    pylexed l;
    pylex_str(&l, "s = rf'''\\{a}\n{b!s}''' + f\"\\{c}\"\nt\n");
    CHECK_STR(pydump(&l), "id:s op:= str:rf'''\\{a}\n{b!s}''' op:+ str:f\"\\{c}\" NL id:t NL");
    arena_release(&l.a);
}

TEST(pylex_unterminated_strings)
{
    pylexed l;
    pylex_str(&l, "a = 'open\nb = f\"{x\ny = \"\"\"never");
    CHECK_STR(pydump(&l), "id:a op:= str:'open NL id:b op:= str:f\"{x NL id:y op:= "
                          "str:\"\"\"never NL");
    CHECK(l.out.unterminated);
    CHECK(l.out.toks[2].flags & PF_UNTERM);
    CHECK(l.out.toks[6].flags & PF_UNTERM);
    arena_release(&l.a);
}

TEST(pylex_indent_dedent)
{
    pylexed l;
    pylex_str(&l, "def f(x):\n    if x:\n\n        # c\n        return 1\n    return 2\n"
                  "g = 3\n");
    CHECK_STR(pydump(&l), "id:def id:f op:( id:x op:) op:: NL > id:if id:x op:: NL "
                          "com:# c > id:return num:1 NL < id:return num:2 NL < id:g op:= "
                          "num:3 NL");
    arena_release(&l.a);
}

TEST(pylex_dedent_at_eof_and_tabs)
{
    pylexed l;
    pylex_str(&l, "if a:\n\tb\n        c\n  d");
    /* a tab counts to column 8: "\tb" and "        c" are one level; "  d" is inconsistent
     * and opens a level of its own after closing the first */
    CHECK_STR(pydump(&l), "id:if id:a op:: NL > id:b NL id:c NL < > id:d NL <");
    arena_release(&l.a);
}

TEST(pylex_implicit_joining)
{
    pylexed l;
    pylex_str(&l, "x = f(a,\n      b,\n# c\n  c)\ny = [\n1]\n");
    CHECK_STR(pydump(&l), "id:x op:= id:f op:( id:a op:, id:b op:, com:# c id:c op:) NL "
                          "id:y op:= op:[ num:1 op:] NL");
    CHECK(l.out.toks[6].flags & PF_NEWLINE);
    CHECK(l.out.toks[6].flags & PF_BOL);
    arena_release(&l.a);
}

TEST(pylex_line_continuation)
{
    pylexed l;
    pylex_str(&l, "x = 1 + \\\n        2\nif x:\n    y = \\\r\n3\n");
    CHECK_STR(pydump(&l), "id:x op:= num:1 op:+ num:2 NL id:if id:x op:: NL > id:y op:= "
                          "num:3 NL <");
    arena_release(&l.a);
}

TEST(pylex_decorators)
{
    pylexed l;
    pylex_str(&l, "@triton.jit\n@ a . b(c @ d)\ndef k(): x @= y\n");
    CHECK_STR(pydump(&l), "@:@ id:triton op:. id:jit NL @:@ id:a op:. id:b op:( id:c op:@ "
                          "id:d op:) NL id:def id:k op:( op:) op:: id:x op:@= id:y NL");
    arena_release(&l.a);
}

TEST(pylex_comments_and_crlf)
{
    pylexed l;
    pylex_str(&l, "a = 1  # hipport-ignore: TRI001\r\n# only\r\nb\r\n");
    CHECK_STR(pydump(&l), "id:a op:= num:1 com:# hipport-ignore: TRI001 NL com:# only id:b NL");
    arena_release(&l.a);
}

TEST(pylex_odd_bytes)
{
    pylexed l;
    static const char src[] = "a $ ? \\ b\x01 \xef\xbb\xbf \xc3\xa9t\xc3\xa9 = 1\n";
    pylex_str(&l, src);
    CHECK_STR(pydump(&l), "id:a ?:$ ?:? ?:\\ id:b ?:\x01 id:\xef\xbb\xbf id:\xc3\xa9t\xc3\xa9 "
                          "op:= num:1 NL");
    arena_release(&l.a);
}

TEST(pylex_bom_and_empty)
{
    pylexed l;
    pylex_str(&l, "\xef\xbb\xbfx\n");
    CHECK_STR(pydump(&l), "id:x NL");
    arena_release(&l.a);
    pylex_str(&l, "");
    CHECK_INT(l.out.n, 0);
    CHECK_INT(l.out.toks[0].kind, PY_EOF);
    arena_release(&l.a);
    pylex_str(&l, "\n\n   \n# c\n");
    CHECK_STR(pydump(&l), "com:# c");
    arena_release(&l.a);
}

TEST(pylex_string_body)
{
    pylexed l;
    pylex_str(&l, "rb'''ab''' f\"{x}\" 'open");
    hp_str b0 = pylex_string_body(l.src, &l.out.toks[0]);
    hp_str b1 = pylex_string_body(l.src, &l.out.toks[1]);
    hp_str b2 = pylex_string_body(l.src, &l.out.toks[2]);
    CHECK(b0.len == 2 && memcmp(b0.s, "ab", 2) == 0);
    CHECK(b1.len == 3 && memcmp(b1.s, "{x}", 3) == 0);
    CHECK(b2.len == 4 && memcmp(b2.s, "open", 4) == 0);
    arena_release(&l.a);
}

TEST(pylex_stays_in_bounds)
{
    /* Every prefix of a tricky input, each in its own exact-size allocation, so that ASan
     * sees any read past the end. */
    static const char src[] = "@k\nf'{a!r:{b}}' rb'''\\\n''' \"\\\"\" x\\\n  (\n) # c\r\n"
                              "\tif y:\n\t\tz\n";
    for (size_t n = 0; n <= sizeof src - 1; n++) {
        char *buf = malloc(n ? n : 1);
        CHECK(buf != NULL);
        memcpy(buf, src, n);
        arena a;
        arena_init(&a, 4096);
        pylex_out out;
        pylex_all(&a, buf, (ptrdiff_t)n, &out);
        int ok = out.toks != NULL && out.toks[out.n].kind == PY_EOF;
        for (ptrdiff_t i = 0; ok && i < out.n; i++)
            ok = out.toks[i].off >= 0 && out.toks[i].off + out.toks[i].len <= (int32_t)n;
        arena_release(&a);
        free(buf);
        CHECK(ok);
    }
}
