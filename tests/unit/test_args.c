/* test_args.c: the argument-rewrite table (data/tables/argrewrites.tsv) against the name tables. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "map.h"
#include "translate.h"
#include "xlate.h"

/* Lookups are binary searches: the keys must be sorted and unique. */
TEST(args_table_sorted)
{
    for (int i = 1; i < xlate_args_row_count(); i++)
        if (strcmp(xlate_args_row_key(i - 1), xlate_args_row_key(i)) >= 0) {
            harness_failf(__FILE__, __LINE__, "'%s' is not after '%s'", xlate_args_row_key(i),
                          xlate_args_row_key(i - 1));
            return;
        }
}

/* Every rewritten function has a row, and that row carries the flag args. */
TEST(args_table_flagged)
{
    for (int i = 0; i < xlate_args_row_count(); i++) {
        const char *k = xlate_args_row_key(i);
        const char *slash = strchr(k, '/');
        ptrdiff_t n = slash ? slash - k : (ptrdiff_t)strlen(k);
        const map_row *r = map_find(k, n);
        if (!r || !(r->flags & MAP_F(args))) {
            harness_failf(__FILE__, __LINE__, "'%.*s' has no row with the flag args", (int)n, k);
            return;
        }
    }
}

/* The translation pass visits only the identifiers translate_filter lets through: it must let
 * through every name of the tables and every word the pass tests besides them. */
TEST(xlate_filter_passes_every_name)
{
    const lex_filter *f = translate_filter();
    for (ptrdiff_t i = 0; i < map_nrows(); i++) {
        hp_str s = map_cuda(map_row_at(i));
        if (!lex_filter_pass(f, (const unsigned char *)s.s, s.len)) {
            harness_failf(__FILE__, __LINE__, "'%.*s' is filtered out", (int)s.len, s.s);
            return;
        }
    }
    static const char *const words[] = {"__global__", "__device__", "__shared__",
                                        "__constant__", "__managed__", "threadIdx", "blockIdx",
                                        "blockDim", "gridDim", "printf", "CUdeviceptr"};
    for (size_t k = 0; k < sizeof words / sizeof *words; k++)
        CHECK(lex_filter_pass(f, (const unsigned char *)words[k], (ptrdiff_t)strlen(words[k])));
    int n = 0;
    for (; xlate_warp_cg_name(n); n++)
        CHECK(lex_filter_pass(f, (const unsigned char *)xlate_warp_cg_name(n),
                              (ptrdiff_t)strlen(xlate_warp_cg_name(n))));
    CHECK_INT(n, 7);
    /* and it turns away most other names */
    static const char *const plain[] = {"value", "index", "count", "result", "offset"};
    int through = 0;
    for (size_t k = 0; k < sizeof plain / sizeof *plain; k++)
        through += lex_filter_pass(f, (const unsigned char *)plain[k], (ptrdiff_t)strlen(plain[k]));
    CHECK(through <= 1);
}

/* With count_only the findings keep their rule and severity, in the same number, but carry no
 * message, fix or position; the output is the same. Ignored with annotate. */
TEST(translate_count_only)
{
    static const char src[] =
        "#define FULL 0xffffffff\n"
        "__global__ void k(float *x, unsigned m) {\n"
        "    x[0] = __shfl_xor_sync(FULL, x[0], 1) + __shfl_xor_sync(m, x[0], 2);\n"
        "#if CUDART_VERSION >= 11000\n"
        "    x[1] = 0;\n"
        "#endif\n"
        "}\n";
    hp_ctx *ctx = hp_ctx_new();
    CHECK(ctx != NULL);
    for (int annotate = 0; annotate < 2; annotate++) {
        hp_translate_opts o;
        hp_translate_opts_init(&o);
        o.annotate = annotate;
        o.annotator = hp_check_annotations;
        hp_translate_result full, bare;
        CHECK_INT(hp_translate_buffer(ctx, &o, "k.cu", src, (ptrdiff_t)sizeof src - 1, &full),
                  HP_OK);
        char *out = malloc((size_t)full.out_len + 1);
        hp_finding *f = malloc(sizeof *f * (size_t)(full.nfindings + 1));
        CHECK(out && f);
        memcpy(out, full.out, (size_t)full.out_len);
        memcpy(f, full.findings, sizeof *f * (size_t)full.nfindings);
        int nfull = full.nfindings;
        ptrdiff_t outlen = full.out_len;
        o.count_only = 1;
        CHECK_INT(hp_translate_buffer(ctx, &o, "k.cu", src, (ptrdiff_t)sizeof src - 1, &bare),
                  HP_OK);
        CHECK(nfull >= 3); /* two shuffles' masks and the CUDA version macro */
        CHECK_INT(bare.nfindings, nfull);
        CHECK(bare.out_len == outlen && memcmp(bare.out, out, (size_t)outlen) == 0);
        int warnings = 0, bare_warnings = 0, empty = 0;
        for (int k = 0; k < nfull && k < bare.nfindings; k++) {
            warnings += f[k].severity == HP_SEV_WARNING;
            bare_warnings += bare.findings[k].severity == HP_SEV_WARNING;
            CHECK(f[k].message && f[k].message[0]);
            empty += !bare.findings[k].message[0] && bare.findings[k].line == 0;
        }
        CHECK_INT(bare_warnings, warnings);
        CHECK(warnings >= 2);
        CHECK_INT(empty, annotate ? 0 : nfull);
        free(out);
        free(f);
    }
    hp_ctx_free(ctx);
}

/* A tile shuffle of a struct is rewritten however far back its tile is declared: 20000
 * shuffles of one tile (about 300000 tokens), the last as the first. */
TEST(tile_shuffle_far_declaration)
{
    const int n = 20000;
    const char *head = "#include <cooperative_groups.h>\n"
                       "namespace cg = cooperative_groups;\n"
                       "struct pair { float a, b; };\n"
                       "__global__ void k(pair *p) {\n"
                       "    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());\n"
                       "    pair v = p[threadIdx.x];\n";
    const char *line = "    v = tile.shfl_down(v, 1);\n";
    size_t hl = strlen(head), ll = strlen(line);
    char *src = malloc(hl + ll * (size_t)n + 4);
    CHECK(src != NULL);
    memcpy(src, head, hl);
    for (int k = 0; k < n; k++)
        memcpy(src + hl + ll * (size_t)k, line, ll);
    memcpy(src + hl + ll * (size_t)n, "}\n", 3);
    hp_ctx *ctx = hp_ctx_new();
    CHECK(ctx != NULL);
    hp_translate_opts o;
    hp_translate_opts_init(&o);
    o.count_only = 1;
    hp_translate_result r;
    CHECK_INT(hp_translate_buffer(ctx, &o, "k.cu", src, (ptrdiff_t)strlen(src), &r), HP_OK);
    char *out = malloc((size_t)r.out_len + 1);
    CHECK(out != NULL);
    memcpy(out, r.out, (size_t)r.out_len);
    out[r.out_len] = 0;
    const char *want = "v = hipport_cg::shfl_down(tile, v, 1);";
    int got = 0;
    for (const char *s = out; (s = strstr(s, want)) != NULL; s += strlen(want))
        got++;
    CHECK_INT(got, n);
    CHECK(strstr(out, "tile.shfl_down") == NULL);
    free(out);
    hp_ctx_free(ctx);
    free(src);
}
