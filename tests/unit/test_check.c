/* test_check.c: the check engine's pieces: rule table and pages, options, constant
 * evaluation, the JSON reader, JSON and SARIF reports (SARIF checked by a structural
 * validator of the 2.1.0 properties hipport emits), baselines, and translate --annotate. */
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "harness.h"
#include "hipport.h"
#include "json.h"
#include "rules.h"
#include "str.h"

/* ------------------------------------------------------------------ rules and pages */

TEST(check_rule_table_and_pages)
{
    int n = hp_rule_count();
    CHECK(n >= 47);
    for (int i = 0; i < n; i++) {
        hp_rule_info ri;
        CHECK(hp_rule_get(i, &ri));
        CHECK(ri.id && ri.id[0] && ri.title[0] && ri.fix[0] && ri.family[0]);
        CHECK(ri.severity >= HP_SEV_NOTE && ri.severity <= HP_SEV_ERROR);
        CHECK_INT(hp_rule_find(ri.id), i);
        for (int j = 0; j < i; j++) {
            hp_rule_info rj;
            hp_rule_get(j, &rj);
            CHECK(strcmp(ri.id, rj.id) != 0);
        }
        /* languages: comma-separated words from a closed list */
        hp_str langs = str_cstr(ri.languages);
        while (langs.len) {
            ptrdiff_t comma = str_chr(langs, ',');
            hp_str w = comma >= 0 ? str_cut(langs, 0, comma) : langs;
            if (!(str_eqc(w, "c++") || str_eqc(w, "python") || str_eqc(w, "build") ||
                  str_eqc(w, "system")))
                harness_failf(__FILE__, __LINE__, "%s: unknown language '%.*s'", ri.id,
                              (int)w.len, w.s);
            langs = comma >= 0 ? str_cut(langs, comma + 1, langs.len) : str_make("", 0);
        }
        /* the page: "# ID: title", then What, Why, Fix, Example in that order */
        const char *doc = hp_rule_doc(ri.id);
        if (!doc) {
            harness_failf(__FILE__, __LINE__, "%s has no page in docs/rules", ri.id);
            return;
        }
        char first[256];
        snprintf(first, sizeof first, "# %s: %s\n", ri.id, ri.title);
        if (strncmp(doc, first, strlen(first)) != 0) {
            harness_failf(__FILE__, __LINE__, "%s: the page must start with '%s'", ri.id, first);
            return;
        }
        const char *at = doc;
        static const char *const sections[] = {"\n## What\n", "\n## Why\n", "\n## Fix\n",
                                               "\n## Example\n"};
        for (size_t k = 0; k < sizeof sections / sizeof *sections; k++) {
            const char *s = strstr(at, sections[k]);
            if (!s) {
                harness_failf(__FILE__, __LINE__, "%s: section %s missing or out of order",
                              ri.id, sections[k] + 1);
                return;
            }
            at = s + 1;
        }
    }
    CHECK(hp_rule_find("NOPE001") < 0);
    CHECK(hp_rule_doc("NOPE001") == NULL);
    /* and every page is a rule's: a page without a row is a rule `hipport rules` cannot show */
    for (int k = 0; k < hp_rule_doc_count(); k++) {
        const char *id = hp_rule_doc_name(k);
        if (hp_rule_find(id) < 0)
            harness_failf(__FILE__, __LINE__, "docs/rules/%s.md has no row in rules.tsv", id);
    }
}

/* ------------------------------------------------------------------ options */

TEST(check_targets_and_selection)
{
    CHECK_INT(hp_check_wave64(NULL), 1);
    CHECK_INT(hp_check_wave64("gfx1100,gfx1201"), 0);
    CHECK_INT(hp_check_wave64("gfx1100, gfx90a:xnack+"), 1);
    CHECK_INT(hp_check_wave64("gfx9-generic"), 1);
    CHECK_INT(hp_check_wave64("gfx11-generic"), 0);
    CHECK_INT(hp_check_wave64("sm_80"), -1);
    CHECK_INT(hp_check_wave64("gfx42"), -1);
    CHECK_INT(hp_check_wave64(","), -1);
    hp_check_opts o;
    hp_check_opts_init(&o);
    char why[128];
    const char *sel[] = {"-all", "+WAVE", "wave003", "-ASM001"};
    o.rules = sel;
    o.nrules = 4;
    CHECK_INT(hp_check_opts_validate(&o, why, (ptrdiff_t)sizeof why), HP_OK);
    const char *bad[] = {"WAVE999"};
    o.rules = bad;
    o.nrules = 1;
    CHECK_INT(hp_check_opts_validate(&o, why, (ptrdiff_t)sizeof why), HP_EUSAGE);
    CHECK(strstr(why, "WAVE999") != NULL);
    o.nrules = 0;
    o.targets = "gfx942,mi300";
    CHECK_INT(hp_check_opts_validate(&o, why, (ptrdiff_t)sizeof why), HP_EUSAGE);
    CHECK(strstr(why, "mi300") != NULL);
}

TEST(check_wave32_targets_lower_wave64_rules)
{
    static const char src[] = "__device__ void k(int *o) { o[0] = threadIdx.x & 31; }\n";
    hp_ctx *ctx = hp_ctx_new();
    hp_check_opts o;
    hp_check_opts_init(&o);
    hp_check_result r;
    CHECK_INT(hp_check_buffer(ctx, &o, "k.cu", src, (ptrdiff_t)sizeof src - 1, &r), HP_OK);
    CHECK_INT(r.nfindings, 1);
    CHECK_STR(r.findings[0].rule, "WAVE002");
    CHECK_INT(r.findings[0].severity, HP_SEV_WARNING);
    CHECK_STR(r.language, "c++");
    o.targets = "gfx1100";
    CHECK_INT(hp_check_buffer(ctx, &o, "k.cu", src, (ptrdiff_t)sizeof src - 1, &r), HP_OK);
    CHECK_INT(r.nfindings, 1);
    CHECK_INT(r.findings[0].severity, HP_SEV_NOTE);
    /* not a C-family path: no language, no findings */
    CHECK_INT(hp_check_buffer(ctx, &o, "notes.txt", src, (ptrdiff_t)sizeof src - 1, &r), HP_OK);
    CHECK(r.language == NULL);
    CHECK_INT(r.nfindings, 0);
    CHECK(hp_check_wants("a/b/k.cuh", NULL));
    CHECK(!hp_check_wants("README.md", NULL));
    hp_ctx_free(ctx);
}

/* ------------------------------------------------------------------ evaluation */

typedef struct lexed {
    hp_ctx *ctx;
    rctx c;
    rules_cfg cfg;
} lexed;

static void ctx_of(lexed *l, const char *src)
{
    l->ctx = hp_ctx_new();
    memset(&l->c, 0, sizeof l->c);
    rules_cfg_build(&l->ctx->a, NULL, &l->cfg, NULL, 0);
    l->c.a = &l->ctx->a;
    l->c.cfg = &l->cfg;
    l->c.src = src;
    l->c.len = (ptrdiff_t)strlen(src);
    l->c.path = "t.cu";
    lex_out lx;
    lex_all(l->c.a, src, l->c.len, &lx);
    l->c.t = lx.toks;
    l->c.nt = lx.n;
    l->c.dirs = lx.dirs;
    l->c.ndirs = lx.ndirs;
    diag_init(&l->c.d, l->c.a, "t.cu", src, l->c.len);
    rules_cpp_prepare(&l->c);
}

/* Evaluates the tokens after the last '=' of src. */
static int eval_tail(const char *src, long long *v, int *bits)
{
    lexed l;
    ctx_of(&l, src);
    ptrdiff_t eq = -1;
    for (ptrdiff_t i = 0; i < l.c.nt; i++)
        if (rules_punct(&l.c, i, '=') && !(l.c.t[i].flags & TF_PP))
            eq = i;
    int ok = eq >= 0 && rules_eval(&l.c, eq + 1, l.c.nt - 1, v, bits);
    hp_ctx_free(l.ctx);
    return ok;
}

TEST(check_constant_evaluation)
{
    long long v;
    int bits;
    CHECK(eval_tail("x = 0xffffffff", &v, &bits) && v == 0xffffffffll && bits == 32);
    CHECK(eval_tail("x = 0xffffffffull", &v, &bits) && v == 0xffffffffll && bits == 64);
    CHECK(eval_tail("x = ~0u", &v, &bits) && v == 0xffffffffll && bits == 32);
    CHECK(eval_tail("x = ~0ull", &v, &bits) && v == -1 && bits == 64);
    CHECK(eval_tail("x = -1", &v, &bits) && v == 0xffffffffll && bits == 32);
    CHECK(eval_tail("x = (unsigned)-1", &v, &bits) && v == 0xffffffffll && bits == 32);
    CHECK(eval_tail("x = uint32_t(-1)", &v, &bits) && v == 0xffffffffll && bits == 32);
    CHECK(eval_tail("x = static_cast<unsigned long long>(1) << 40", &v, &bits) &&
          v == (1ll << 40) && bits == 64);
    CHECK(eval_tail("#define K 48\n#define SZ (K * 1024)\nx = SZ + 2 * sizeof(float)", &v,
                    &bits) &&
          v == 49160);
    CHECK(eval_tail("x = 1'000'000 / 10 % 7 ^ 3 | 8 & 12", &v, &bits));
    CHECK(eval_tail("x = UINT_MAX", &v, &bits) && v == 0xffffffffll && bits == 32);
    CHECK(!eval_tail("x = 1 / 0", &v, &bits));
    CHECK(!eval_tail("x = 1 << 70", &v, &bits));
    CHECK(!eval_tail("x = 1.5f", &v, &bits));
    CHECK(!eval_tail("x = n + 1", &v, &bits));
    /* a macro with two different definitions is not a constant */
    CHECK(!eval_tail("#ifdef A\n#define W 64\n#else\n#define W 32\n#endif\nx = W", &v, &bits));
    /* recursion through macros stops */
    CHECK(!eval_tail("#define A B\n#define B A\nx = A", &v, &bits));
}

TEST(check_declarations_and_scopes)
{
    lexed l;
    ctx_of(&l, "#define DEV __device__\n"
               "DEV float f(unsigned m, float *p) { unsigned long long a = 1, b; return p[b]; }\n"
               "void h() { int q; auto l = [=] __device__ (int z) { return z & 31; }; }\n");
    rules_decl d;
    ptrdiff_t m_use = -1, b_use = -1, z_use = -1, q = -1;
    for (ptrdiff_t i = 0; i < l.c.nt; i++) {
        if (rules_is(&l.c, i, "b"))
            b_use = i;
        if (rules_is(&l.c, i, "z"))
            z_use = i;
        if (rules_is(&l.c, i, "q"))
            q = i;
        if (rules_is(&l.c, i, "m"))
            m_use = i;
    }
    CHECK(rules_decl_find(&l.c, b_use, &d) && d.type == RT_INT64);
    CHECK(rules_decl_at(&l.c, m_use, &d) && d.type == RT_INT32);
    CHECK(rules_scope(&l.c, b_use) & SC_DEVICE);
    CHECK(rules_scope(&l.c, q) & SC_HOST);
    CHECK(rules_scope(&l.c, z_use) & SC_DEVICE);
    hp_ctx_free(l.ctx);
}

/* ------------------------------------------------------------------ JSON reader */

TEST(check_json_reader)
{
    arena a;
    arena_init(&a, 1 << 14);
    const char *err;
    ptrdiff_t off;
    static const char ok[] = " {\"a\": [1, -2.5e3, true, false, null], "
                             "\"s\": \"x\\u00e9\\ud83d\\ude00\\n\","
                             " \"o\": {}} ";
    json *v = json_parse(&a, ok, (ptrdiff_t)strlen(ok), &err, &off);
    CHECK(v && v->kind == JSON_OBJECT && v->n == 3);
    const json *arr = json_get(v, "a");
    CHECK(arr && arr->kind == JSON_ARRAY && arr->n == 5);
    CHECK(arr->items[1].number == -2500.0 && !arr->items[1].integral && arr->items[0].integral);
    CHECK(arr->items[2].kind == JSON_BOOL && arr->items[2].boolean);
    CHECK(arr->items[4].kind == JSON_NULL);
    const json *s = json_get(v, "s");
    CHECK(s && s->kind == JSON_STRING && strcmp(s->str.s, "x\xc3\xa9\xf0\x9f\x98\x80\n") == 0);
    static const char *const bad[] = {"", "{", "[1,]", "{\"a\" 1}", "01", "1.", "\"\\x\"",
                                      "\"a", "[1] 2", "{\"a\":1,}", "\"\\ud800\"", "tru",
                                      "\"\x80\"", "\"\t\"", "-", "{1:2}"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (json_parse(&a, bad[i], (ptrdiff_t)strlen(bad[i]), &err, &off))
            harness_failf(__FILE__, __LINE__, "accepted bad JSON '%s'", bad[i]);
    /* deep nesting is refused, not a stack overflow */
    char deep[2100];
    memset(deep, '[', 2000);
    deep[2000] = 0;
    CHECK(json_parse(&a, deep, 2000, &err, &off) == NULL);
    arena_release(&a);
}

/* ------------------------------------------------------------------ reports */

static hp_finding mk(const char *path, int line, int col, const char *rule, hp_severity sev,
                     const char *msg, const char *fix, const char *source)
{
    hp_finding f;
    memset(&f, 0, sizeof f);
    f.path = path;
    f.line = line;
    f.col = col;
    f.len = 3;
    f.rule = rule;
    f.severity = sev;
    f.message = msg;
    f.fix = fix;
    f.source = str_cstr(source);
    return f;
}

static int is_int(const json *v, double min)
{
    return v && v->kind == JSON_NUMBER && v->integral && v->number >= min;
}

static int is_str(const json *v)
{
    return v && v->kind == JSON_STRING;
}

/* A URI reference as RFC 3986 allows it: no spaces, no control or non-ASCII bytes, and
 * every '%' followed by two hex digits. */
static int uri_ok(hp_str u)
{
    if (u.len == 0)
        return 0;
    for (ptrdiff_t i = 0; i < u.len; i++) {
        unsigned char ch = (unsigned char)u.s[i];
        if (ch <= 0x20 || ch >= 0x7f || ch == '"' || ch == '<' || ch == '>' || ch == '\\' ||
            ch == '^' || ch == '`' || ch == '{' || ch == '|' || ch == '}')
            return 0;
        if (ch == '%') {
            if (i + 2 >= u.len + 0 && i + 2 > u.len - 1)
                return 0;
            for (int k = 1; k <= 2; k++) {
                char h = u.s[i + k];
                if (!((h >= '0' && h <= '9') || (h >= 'A' && h <= 'F') || (h >= 'a' && h <= 'f')))
                    return 0;
            }
        }
    }
    return 1;
}

static int level_ok(const json *v)
{
    return is_str(v) && (str_eqc(v->str, "none") || str_eqc(v->str, "note") ||
                         str_eqc(v->str, "warning") || str_eqc(v->str, "error"));
}

/* The structural validator: the SARIF 2.1.0 properties and types of everything hipport
 * writes. Returns NULL when valid, else what is wrong. */
static const char *sarif_invalid(const char *text, int want_results)
{
    static arena a;
    arena_reset(&a);
    if (!a.block_size)
        arena_init(&a, 1 << 16);
    const char *err;
    ptrdiff_t off;
    json *root = json_parse(&a, text, (ptrdiff_t)strlen(text), &err, &off);
    if (!root || root->kind != JSON_OBJECT)
        return "not a JSON object";
    const json *version = json_get(root, "version");
    if (!is_str(version) || !str_eqc(version->str, "2.1.0"))
        return "version is not \"2.1.0\"";
    const json *schema = json_get(root, "$schema");
    if (!is_str(schema) || !str_starts(schema->str, S("https://")) || !uri_ok(schema->str))
        return "$schema is not a URI string";
    const json *runs = json_get(root, "runs");
    if (!runs || runs->kind != JSON_ARRAY || runs->n < 1)
        return "runs is not a non-empty array";
    for (ptrdiff_t r = 0; r < runs->n; r++) {
        const json *run = &runs->items[r];
        const json *tool = json_get(run, "tool");
        const json *driver = json_get(tool, "driver");
        if (!driver || driver->kind != JSON_OBJECT)
            return "runs[].tool.driver is not an object";
        if (!is_str(json_get(driver, "name")) || json_get(driver, "name")->str.len == 0)
            return "tool.driver.name is not a non-empty string";
        const json *ver = json_get(driver, "version");
        if (ver && !is_str(ver))
            return "tool.driver.version is not a string";
        const json *ck = json_get(run, "columnKind");
        if (ck && !(is_str(ck) && (str_eqc(ck->str, "utf16CodeUnits") ||
                                   str_eqc(ck->str, "unicodeCodePoints"))))
            return "columnKind is not one of its two values";
        const json *rules = json_get(driver, "rules");
        if (rules && rules->kind != JSON_ARRAY)
            return "tool.driver.rules is not an array";
        ptrdiff_t nrules = rules ? rules->n : 0;
        for (ptrdiff_t k = 0; k < nrules; k++) {
            const json *rd = &rules->items[k];
            if (rd->kind != JSON_OBJECT || !is_str(json_get(rd, "id")))
                return "a reportingDescriptor has no string id";
            for (ptrdiff_t j = 0; j < k; j++)
                if (str_eq(json_get(&rules->items[j], "id")->str, json_get(rd, "id")->str))
                    return "two rules with the same id";
            const json *nm = json_get(rd, "name");
            if (nm && !is_str(nm))
                return "rule name is not a string";
            static const char *const texts[] = {"shortDescription", "fullDescription", "help"};
            for (size_t t = 0; t < sizeof texts / sizeof *texts; t++) {
                const json *m = json_get(rd, texts[t]);
                if (m && (m->kind != JSON_OBJECT || !is_str(json_get(m, "text"))))
                    return "a rule's message string has no text";
                const json *md = m ? json_get(m, "markdown") : NULL;
                if (md && !is_str(md))
                    return "a rule's markdown is not a string";
            }
            if (json_get(rd, "helpUri"))
                return "helpUri present";
            const json *dc = json_get(rd, "defaultConfiguration");
            if (dc && (dc->kind != JSON_OBJECT || !level_ok(json_get(dc, "level"))))
                return "defaultConfiguration.level is not a level";
        }
        const json *results = json_get(run, "results");
        if (!results || results->kind != JSON_ARRAY)
            return "results is not an array";
        if (results->n != want_results)
            return "wrong number of results";
        for (ptrdiff_t i = 0; i < results->n; i++) {
            const json *res = &results->items[i];
            const json *msg = json_get(res, "message");
            if (!msg || msg->kind != JSON_OBJECT || !is_str(json_get(msg, "text")))
                return "results[].message.text is not a string";
            const json *lv = json_get(res, "level");
            if (lv && !level_ok(lv))
                return "results[].level is not a level";
            const json *id = json_get(res, "ruleId");
            if (!is_str(id))
                return "results[].ruleId is not a string";
            const json *ix = json_get(res, "ruleIndex");
            int found = -1;
            for (ptrdiff_t k = 0; k < nrules; k++)
                if (str_eq(json_get(&rules->items[k], "id")->str, id->str))
                    found = (int)k;
            if (found < 0)
                return "ruleId names no rules[] entry";
            if (ix && (!is_int(ix, 0) || (int)ix->number != found))
                return "ruleIndex does not point at the ruleId's entry";
            const json *locs = json_get(res, "locations");
            if (!locs || locs->kind != JSON_ARRAY || locs->n < 1)
                return "results[].locations is not a non-empty array";
            for (ptrdiff_t l = 0; l < locs->n; l++) {
                const json *pl = json_get(&locs->items[l], "physicalLocation");
                const json *al = json_get(pl, "artifactLocation");
                const json *uri = json_get(al, "uri");
                if (!is_str(uri) || !uri_ok(uri->str))
                    return "artifactLocation.uri is not a URI reference";
                const json *base = json_get(al, "uriBaseId");
                if (base && !is_str(base))
                    return "uriBaseId is not a string";
                const json *rg = json_get(pl, "region");
                if (rg) {
                    if (rg->kind != JSON_OBJECT || !is_int(json_get(rg, "startLine"), 1))
                        return "region.startLine is not an integer >= 1";
                    const json *sc = json_get(rg, "startColumn");
                    const json *ec = json_get(rg, "endColumn");
                    if (sc && !is_int(sc, 1))
                        return "region.startColumn is not an integer >= 1";
                    if (ec && (!is_int(ec, 1) || (sc && ec->number < sc->number)))
                        return "region.endColumn is not an integer >= startColumn";
                }
            }
            const json *props = json_get(res, "properties");
            if (props && props->kind != JSON_OBJECT)
                return "results[].properties is not an object";
        }
    }
    return NULL;
}

TEST(check_sarif_is_valid)
{
    hp_finding f[4];
    f[0] = mk("src/a b.cu", 3, 5, "WAVE003", HP_SEV_ERROR, "mask \"0xffffffff\"\tis 32-bit",
              "pass ~0ull", "    x = __shfl_xor_sync(0xffffffff, x, 1);");
    f[1] = mk("src/\xc3\xa9t\xc3\xa9.cu", 1, 9, "WAVE001", HP_SEV_WARNING, "w", NULL,
              "\xc3\xa9\xc3\xa9 #define WARP_SIZE 32");
    f[2] = mk("./k.cu", 2, 1, "WAVE003", HP_SEV_NOTE, "n", "", "x");
    f[3] = mk("/abs/path/k%.cu", 0, 0, "HP-OTHER", HP_SEV_WARNING, "whole file", NULL, "");
    hp_check_summary s = {3, 0, 1, 0};
    char *out = hp_report_sarif(f, 4, &s);
    CHECK(out);
    const char *why = sarif_invalid(out, 4);
    if (why) {
        harness_failf(__FILE__, __LINE__, "invalid SARIF: %s\n%s", why, out);
        free(out);
        return;
    }
    /* %-encoding, code-point columns, the rule list sorted and used */
    CHECK(strstr(out, "\"uri\": \"src/a%20b.cu\""));
    CHECK(strstr(out, "\"uri\": \"src/%C3%A9t%C3%A9.cu\""));
    CHECK(strstr(out, "\"uri\": \"k.cu\""));
    CHECK(strstr(out, "\"uri\": \"file:///abs/path/k%25.cu\""));
    CHECK(strstr(out, "\"startLine\": 1, \"startColumn\": 7"));
    CHECK(strstr(out, "\"help\": {\"text\": \"# WAVE003"));
    CHECK(strstr(out, "\"ruleIndex\": 1") || strstr(out, "\"ruleIndex\": 2"));
    free(out);
    /* no findings: still a valid log */
    out = hp_report_sarif(NULL, 0, NULL);
    CHECK(out);
    why = sarif_invalid(out, 0);
    if (why)
        harness_failf(__FILE__, __LINE__, "invalid empty SARIF: %s", why);
    free(out);
    /* a real run of check */
    static const char src[] = "__global__ void k(float *v) {\n"
                              "    v[0] = __shfl_xor_sync(0xffffffff, v[0], 1);\n"
                              "    asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(x));\n}\n";
    hp_ctx *ctx = hp_ctx_new();
    hp_check_result r;
    CHECK_INT(hp_check_buffer(ctx, NULL, "dir/k.cu", src, (ptrdiff_t)sizeof src - 1, &r), HP_OK);
    CHECK(r.nfindings >= 3);
    out = hp_report_sarif(r.findings, r.nfindings, NULL);
    why = sarif_invalid(out, r.nfindings);
    if (why)
        harness_failf(__FILE__, __LINE__, "invalid SARIF from check: %s", why);
    free(out);
    hp_ctx_free(ctx);
}

TEST(check_json_report_and_baseline)
{
    hp_finding f[3];
    f[0] = mk("a.cu", 3, 5, "WAVE003", HP_SEV_ERROR, "m1 \xff", "fix", "src");
    f[1] = mk("a.cu", 9, 5, "WAVE003", HP_SEV_ERROR, "m1 \xff", "fix", "src");
    f[2] = mk("b.cu", 1, 1, "ASM001", HP_SEV_WARNING, "m2", NULL, "src");
    hp_check_summary s = {2, 0, 4, 0};
    char *out = hp_report_json(f, 3, &s);
    CHECK(out);
    arena a;
    arena_init(&a, 1 << 14);
    const char *err;
    ptrdiff_t off;
    json *v = json_parse(&a, out, (ptrdiff_t)strlen(out), &err, &off);
    CHECK(v);
    CHECK(is_int(json_get(v, "version"), 1));
    const json *fs = json_get(v, "findings");
    CHECK(fs && fs->n == 3);
    CHECK(is_int(json_get(&fs->items[0], "line"), 3) &&
          is_int(json_get(&fs->items[0], "column"), 5));
    CHECK(json_get(&fs->items[2], "fix")->kind == JSON_NULL);
    const json *sum = json_get(v, "summary");
    CHECK(json_get(sum, "errors")->number == 2 && json_get(sum, "warnings")->number == 1);
    CHECK(json_get(sum, "suppressed")->number == 4 && json_get(sum, "files")->number == 2);

    /* the baseline absorbs one finding per entry, ignoring lines; "./a.cu" is "a.cu" */
    char why[128];
    hp_baseline *b = hp_baseline_parse(out, (ptrdiff_t)strlen(out), why, (ptrdiff_t)sizeof why);
    CHECK(b);
    hp_finding now[5];
    now[0] = mk("./a.cu", 40, 5, "WAVE003", HP_SEV_ERROR, "m1 \xff", "fix", "src");
    now[1] = mk("a.cu", 41, 5, "WAVE003", HP_SEV_ERROR, "m1 \xff", "fix", "src");
    now[2] = mk("a.cu", 42, 5, "WAVE003", HP_SEV_ERROR, "m1 \xff", "fix", "src");
    now[3] = mk("b.cu", 1, 1, "ASM001", HP_SEV_WARNING, "m2 changed", NULL, "src");
    now[4] = mk("c.cu", 1, 1, "ASM001", HP_SEV_WARNING, "m2", NULL, "src");
    int kept = hp_baseline_filter(b, now, 5);
    CHECK_INT(kept, 3);
    CHECK_INT(now[0].line, 42);
    CHECK_STR(now[1].message, "m2 changed");
    CHECK_STR(now[2].path, "c.cu");
    hp_baseline_free(b);
    static const char *const bad[] = {"[]", "{\"findings\":{}}", "{\"findings\":[{\"path\":1}]}",
                                      "not json"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        b = hp_baseline_parse(bad[i], (ptrdiff_t)strlen(bad[i]), why, (ptrdiff_t)sizeof why);
        if (b) {
            harness_failf(__FILE__, __LINE__, "accepted baseline '%s'", bad[i]);
            hp_baseline_free(b);
        }
    }
    arena_release(&a);
    free(out);
}

/* A report put together from per-file pieces (as check renders them in its workers) is the
 * report made from all the findings at once, byte for byte; ties on line and column are
 * broken by rule, then message, in both. */
/* A writer for hp_report_json_write: collects the parts; fails (7) at call fail_at if set. */
typedef struct parts {
    char text[4096];
    int calls;
    int fail_at;
} parts;

static int collect(void *ud, const char *p, ptrdiff_t n)
{
    parts *w = ud;
    if (++w->calls == w->fail_at)
        return 7;
    size_t have = strlen(w->text);
    if (have + (size_t)n < sizeof w->text) {
        memcpy(w->text + have, p, (size_t)n);
        w->text[have + (size_t)n] = 0;
    }
    return 0;
}

TEST(check_json_pieces_make_the_whole_report)
{
    hp_finding a[3], b[2], all[5];
    a[0] = mk("a.cu", 7, 2, "WAVE003", HP_SEV_ERROR, "second", "fix", "src");
    a[1] = mk("a.cu", 7, 2, "WAVE003", HP_SEV_ERROR, "first \"q\"\n", NULL, "src");
    a[2] = mk("a.cu", 1, 9, "ASM001", HP_SEV_NOTE, "m", NULL, "src");
    b[0] = mk("b.cu", 3, 1, "MEM001", HP_SEV_WARNING, "w \xff", "f", "src");
    b[1] = mk("b.cu", 3, 1, "KL001", HP_SEV_WARNING, "w", "f", "src");
    memcpy(all, b, sizeof b);
    memcpy(all + 2, a, sizeof a);
    hp_check_summary s = {2, 1, 3, 0};
    hp_finding_sort(all, 5);
    char *whole = hp_report_json(all, 5, &s);
    hp_finding_sort(a, 3);
    hp_finding_sort(b, 2);
    char *pa = hp_report_json_items(a, 3), *pb = hp_report_json_items(b, 2);
    CHECK(whole && pa && pb);
    static const char first[] = ",\n{\"path\":\"a.cu\",\"line\":1,";
    CHECK(strncmp(pa, first, sizeof first - 1) == 0);
    const char *pieces[3] = {pa, "", pb};
    ptrdiff_t lens[3] = {(ptrdiff_t)strlen(pa), 0, (ptrdiff_t)strlen(pb)};
    long long count[4] = {0, 1, 2, 2};
    char *joined = hp_report_json_join(pieces, lens, 3, 5, count, &s);
    CHECK(joined);
    CHECK_STR(joined, whole);
    /* no findings at all */
    char *none = hp_report_json(NULL, 0, &s);
    long long zero[4] = {0, 0, 0, 0};
    char *none2 = hp_report_json_join(NULL, NULL, 0, 0, zero, &s);
    CHECK(none && none2);
    CHECK_STR(none2, none);
    /* handed out in parts: the parts make the joined report; a writer that fails stops it */
    parts got = {{0}, 0, 0};
    CHECK_INT(hp_report_json_write(pieces, lens, 3, 5, count, &s, collect, &got), 0);
    CHECK_INT(got.calls, 4); /* head, two pieces (the empty one skipped), tail */
    CHECK_STR(got.text, whole);
    parts stop = {{0}, 0, 2};
    CHECK_INT(hp_report_json_write(pieces, lens, 3, 5, count, &s, collect, &stop), 7);
    CHECK_INT(stop.calls, 2);
    free(whole);
    free(pa);
    free(pb);
    free(joined);
    free(none);
    free(none2);
}

TEST(check_findings_set_sorts_and_copies)
{
    hp_findings *fs = hp_findings_new();
    char path[8] = "b.cu";
    char msg[8] = "m";
    hp_finding f[3];
    f[0] = mk(path, 5, 1, "Z", HP_SEV_NOTE, msg, NULL, "x");
    f[1] = mk(path, 2, 9, "A", HP_SEV_NOTE, msg, NULL, "y");
    f[2] = mk("a.cu", 9, 1, "A", HP_SEV_NOTE, msg, "fx", "");
    CHECK_INT(hp_findings_add(fs, f, 3), 0);
    path[0] = 'x'; /* the set holds copies */
    msg[0] = 'q';
    hp_findings_sort(fs);
    int n;
    const hp_finding *v = hp_findings_items(fs, &n);
    CHECK_INT(n, 3);
    CHECK_STR(v[0].path, "a.cu");
    CHECK_STR(v[1].path, "b.cu");
    CHECK_INT(v[1].line, 2);
    CHECK_STR(v[2].message, "m");
    CHECK_STR(v[0].fix, "fx");
    hp_findings_free(fs);
}

/* ------------------------------------------------------------------ annotate */

TEST(check_annotate_is_idempotent)
{
    static const char src[] =
        "#include <cuda_runtime.h>\r\n"
        "__global__ void k(float *v) {\r\n"
        "\tv[0] = __shfl_down_sync(0xffffffff, v[0], 1); int l = threadIdx.x & 31;\r\n"
        "#define M(x) x += __shfl_xor_sync(0xffffffff, x, 16); \\\r\n"
        "             __nanosleep(x)\r\n"
        "    /* a comment\r\n"
        "       */ v[1] = threadIdx.x % 32;\r\n"
        "}\r\n";
    hp_ctx *ctx = hp_ctx_new();
    hp_translate_opts o;
    hp_translate_opts_init(&o);
    o.annotate = 1;
    o.annotator = hp_check_annotations;
    hp_translate_result r;
    CHECK_INT(hp_translate_buffer(ctx, &o, "k.cu", src, (ptrdiff_t)sizeof src - 1, &r), HP_OK);
    char *once = malloc((size_t)r.out_len + 1);
    memcpy(once, r.out, (size_t)r.out_len);
    once[r.out_len] = 0;
    CHECK(strstr(once, "\r\n\t// hipport WAVE002: lane or warp index computed with 32\r\n"
                       "\tv[0] ="));
    CHECK(strstr(once, "\r\n// hipport ASM003: NVIDIA-only device intrinsic\r\n#define M(x)"));
    CHECK(strstr(once, "\r\n    // hipport WAVE002: lane or warp index computed with 32\r\n"
                       "    /* a comment"));
    hp_translate_result r2;
    CHECK_INT(hp_translate_buffer(ctx, &o, "k.hip", once, r.out_len, &r2), HP_OK);
    CHECK(!r2.changed);
    free(once);
    hp_ctx_free(ctx);
}

/* Every row of rule_keys.tsv is well formed, and the index answers each row with its bits. */
TEST(check_rule_keys_table)
{
    arena a;
    arena_init(&a, 1 << 16);
    rules_keys *ix = rules_keys_build(&a);
    CHECK(rules_keys_count() > 0);
    for (int i = 0; i < rules_keys_count(); i++) {
        const char *const *r = rules_keys_row(i);
        unsigned bits = rules_keys_hot_bits(r[2]);
        if (!bits) {
            harness_failf(__FILE__, __LINE__, "rule_keys.tsv: '%s': unknown hot bit in '%s'",
                          r[0], r[2]);
            arena_release(&a);
            return;
        }
        hp_str key = str_cstr(r[0]);
        unsigned got;
        if (strcmp(r[1], "number") == 0) {
            got = rules_keys_bits(ix, key, 1);
        } else if (strcmp(r[1], "prefix") == 0) {
            char longer[128];
            snprintf(longer, sizeof longer, "%sXyz", r[0]);
            got = rules_keys_bits(ix, key, 0) & rules_keys_bits(ix, str_cstr(longer), 0);
        } else {
            CHECK_STR(r[1], "name");
            got = rules_keys_bits(ix, key, 0);
        }
        if ((got & bits) != bits) {
            harness_failf(__FILE__, __LINE__, "rule_keys.tsv: '%s' gives %#x, want %#x", r[0],
                          got, bits);
            arena_release(&a);
            return;
        }
    }
    /* numbers by value, in any base; names whole, prefixes from the start */
    CHECK(rules_keys_bits(ix, str_cstr("0xC000"), 1) & RH_MEMNUM);
    CHECK(rules_keys_bits(ix, str_cstr("49152u"), 1) & RH_MEMNUM);
    CHECK_INT(rules_keys_bits(ix, str_cstr("49153"), 1), 0);
    CHECK_INT(rules_keys_bits(ix, str_cstr("printf"), 1), 0);
    CHECK_INT(rules_keys_bits(ix, str_cstr("printff"), 0), 0);
    CHECK_INT(rules_keys_bits(ix, str_cstr("x__shfl"), 0), 0);
    CHECK(rules_keys_bits(ix, str_cstr("__shfl_xor_sync"), 0) & RH_XLANE);
    CHECK_INT(rules_keys_hot_bits("wave,bogus"), 0);
    CHECK_INT(rules_keys_hot_bits("wave,xlane"), RH_WAVE | RH_XLANE);
    arena_release(&a);
}

TEST(check_other_vendor_dirs)
{
    /* the last name of the directory decides: a vendor word alone or after '-' or '_' */
    CHECK(rules_other_vendor_dir(NULL, "src/ggml-sycl") != NULL);
    CHECK(rules_other_vendor_dir(NULL, "pkg/backends/_ascend") != NULL);
    CHECK(rules_other_vendor_dir(NULL, "XPU") != NULL);
    CHECK(rules_other_vendor_dir(NULL, "ops/triton_ascend") != NULL);
    CHECK(rules_other_vendor_dir(NULL, "runtime/backend/_cambricon") != NULL);
    CHECK(rules_other_vendor_dir(NULL, "runtime/backend/_kunlunxin") != NULL);
    CHECK(rules_other_vendor_dir(NULL, "runtime/backend/_hygon") != NULL);
    CHECK(rules_other_vendor_dir(NULL, "runtime/backend/_mthreads") != NULL);
    CHECK(rules_other_vendor_dir(NULL, "backend/metax") != NULL);
    CHECK(rules_other_vendor_dir(NULL, "runtime/backend/_amd") == NULL);
    CHECK(rules_other_vendor_dir(NULL, "backends/rocm") == NULL);
    CHECK(rules_other_vendor_dir(NULL, "backends/_hip") == NULL);
    CHECK(rules_other_vendor_dir(NULL, "runtime/backend/_nvidia") == NULL);
    CHECK(rules_other_vendor_dir(NULL, "hygon_utils") == NULL);
    CHECK(rules_other_vendor_dir(NULL, "src/ggml-cuda") == NULL);
    CHECK(rules_other_vendor_dir(NULL, "xpu_utils") == NULL);
    CHECK(rules_other_vendor_dir(NULL, "bumps") == NULL);  /* "mps" inside a word */
    CHECK(rules_other_vendor_dir(NULL, "sycl/cuda") == NULL); /* only the last name */
    CHECK(rules_other_vendor_dir(NULL, "") == NULL);
}
