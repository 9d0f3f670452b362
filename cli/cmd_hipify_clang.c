/* cmd_hipify_clang.c: hipport hipify-clang: hipify-clang's command line (file and option
 * spellings, output names, statistics) over hipport's translator, which needs neither clang
 * nor the CUDA headers. Compiler options after "--" are read for -D, -U and -I. */
#define _XOPEN_SOURCE 700
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "hipify_cli.h"
#include "hipify_opt.h"

enum {
    C_OUTPUT = 1,
    C_ODIR,
    C_INPLACE,
    C_NO_BACKUP,
    C_NO_OUTPUT,
    C_PRINT_STATS,
    C_PRINT_CSV,
    C_OSTATS,
    C_EXAMINE,
    C_ROC,
    C_HIP_SYNTAX,
    C_CUDA_SYNTAX,
    C_EXPERIMENTAL,
    C_SKIP_EXCLUDED,
    C_INCLUDE,
    C_DEFINE,
    C_EXTRA_ARG,
    C_IGNORED_VALUE,
    C_IGNORED_FLAG,
    C_UNSUPPORTED,
    C_CDB,
    C_HIPVER,
    C_VERSION,
    C_HELP
};

static const hopt options[] = {
    {"o", HO_VALUE, C_OUTPUT, "output file (one input)", "FILE"},
    {"o-dir", HO_VALUE, C_ODIR, "output directory", "DIR"},
    {"inplace", HO_FLAG, C_INPLACE, "replace each input, keeping it as FILE.prehip", NULL},
    {"no-backup", HO_FLAG, C_NO_BACKUP, "with --inplace, keep no FILE.prehip", NULL},
    {"no-output", HO_FLAG, C_NO_OUTPUT, "write no translated output", NULL},
    {"print-stats", HO_FLAG, C_PRINT_STATS, "print translation statistics (standard error)",
     NULL},
    {"print-stats-csv", HO_FLAG, C_PRINT_CSV,
     "write the statistics as CSV: NAME.csv for one input, sum_stat.csv for several", NULL},
    {"o-stats", HO_VALUE, C_OSTATS, "the CSV statistics file (implies --print-stats-csv)",
     "FILE"},
    {"examine", HO_FLAG, C_EXAMINE, "combines --no-output and --print-stats", NULL},
    {"roc", HO_FLAG, C_ROC, "translate to roc* libraries instead of hip* where possible", NULL},
    {"hip-kernel-execution-syntax", HO_FLAG, C_HIP_SYNTAX,
     "kernel launches as hipLaunchKernelGGL calls", NULL},
    {"cuda-kernel-execution-syntax", HO_FLAG, C_CUDA_SYNTAX,
     "keep CUDA kernel launch syntax (default)", NULL},
    {"experimental", HO_FLAG, C_EXPERIMENTAL, "accepted; HIP's experimental APIs are translated",
     NULL},
    {"skip-excluded-preprocessor-conditional-blocks", HO_FLAG, C_SKIP_EXCLUDED,
     "leave the #if branches that -D/-U exclude untranslated", NULL},
    {"default-preprocessor", HO_FLAG, C_SKIP_EXCLUDED, NULL, NULL},
    {"I", HO_GLUED, C_INCLUDE, "include directory (accepted; headers are not parsed)", "DIR"},
    {"D", HO_GLUED, C_DEFINE, "define a macro for --skip-excluded-...", "NAME[=VALUE]"},
    {"extra-arg", HO_VALUE, C_EXTRA_ARG, "a compiler option (read for -D, -U, -I)", "ARG"},
    {"extra-arg-before", HO_VALUE, C_EXTRA_ARG, NULL, NULL},
    {"cuda-path", HO_VALUE, C_IGNORED_VALUE, "accepted and not needed", "DIR"},
    {"cuda-gpu-arch", HO_VALUE, C_IGNORED_VALUE, NULL, NULL},
    {"clang-resource-directory", HO_VALUE, C_IGNORED_VALUE, NULL, NULL},
    {"temp-dir", HO_VALUE, C_IGNORED_VALUE, NULL, NULL},
    {"save-temps", HO_FLAG, C_IGNORED_FLAG, NULL, NULL},
    {"v", HO_FLAG, C_IGNORED_FLAG, NULL, NULL},
    {"amap", HO_FLAG, C_IGNORED_FLAG, NULL, NULL},
    {"no-undocumented-features", HO_FLAG, C_IGNORED_FLAG, NULL, NULL},
    {"no-warnings-on-undocumented-features", HO_FLAG, C_IGNORED_FLAG, NULL, NULL},
    {"perl", HO_FLAG, C_UNSUPPORTED, NULL, NULL},
    {"python", HO_FLAG, C_UNSUPPORTED, NULL, NULL},
    {"md", HO_FLAG, C_UNSUPPORTED, NULL, NULL},
    {"csv", HO_FLAG, C_UNSUPPORTED, NULL, NULL},
    {"miopen", HO_FLAG, C_UNSUPPORTED, NULL, NULL},
    {"o-hipify-perl-dir", HO_VALUE, C_UNSUPPORTED, NULL, NULL},
    {"o-python-map-dir", HO_VALUE, C_UNSUPPORTED, NULL, NULL},
    {"doc-format", HO_VALUE, C_UNSUPPORTED, NULL, NULL},
    {"doc-roc", HO_VALUE, C_UNSUPPORTED, NULL, NULL},
    {"p", HO_VALUE, C_CDB,
     "compilation database: DIR/compile_commands.json or the file; its files, or the FILEs "
     "named, with its -D and -U",
     "DIR"},
    {"hip-version", HO_VALUE, C_HIPVER, "the HIP that will compile the output (hipport)", "X.Y"},
    {"version", HO_FLAG, C_VERSION, "print the version", NULL},
    {"help", HO_FLAG, C_HELP, "show this help", NULL},
    {NULL, 0, 0, NULL, NULL},
};

/* hipify-clang's statistics of one file or of the run. */
typedef struct cstats {
    long long converted, unconverted, replaced_bytes, bytes, changed_lines, lines;
    long long launches;
    double seconds;
    hnames *conv_kind, *conv_api, *conv_name;
    hnames *unconv_kind, *unconv_api, *unconv_name;
} cstats;

typedef struct state {
    const char *cmd;
    int print_stats;
    FILE *csv; /* the CSV statistics, built in memory; NULL without --print-stats-csv */
    int io_errors;
    long long files, converted_files;
    cstats file, total;
} state;

static void cstats_init(cstats *c)
{
    memset(c, 0, sizeof *c);
    c->conv_kind = hnames_new();
    c->conv_api = hnames_new();
    c->conv_name = hnames_new();
    c->unconv_kind = hnames_new();
    c->unconv_api = hnames_new();
    c->unconv_name = hnames_new();
}

static void cstats_free(cstats *c)
{
    hnames_free(c->conv_kind);
    hnames_free(c->conv_api);
    hnames_free(c->conv_name);
    hnames_free(c->unconv_kind);
    hnames_free(c->unconv_api);
    hnames_free(c->unconv_name);
}

/* hipify-clang's names for hipport's kinds and families. */
static const char *kind_name(const char *kind)
{
    static const char *const map[][2] = {
        {"func", "function"}, {"type", "type"},    {"enum", "numeric_literal"},
        {"macro", "define"},  {"var", "literal"},  {"ns", "type"},
        {"header", "include"}, {"member", "type"}};
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (strcmp(kind, map[i][0]) == 0)
            return map[i][1];
    return kind;
}

static const char *api_name(const char *family)
{
    static const char *const map[][2] = {
        {"runtime", "CUDA RT API"},   {"driver", "CUDA Driver API"},
        {"complex", "cuComplex API"}, {"cublas", "cuBLAS API"},
        {"curand", "cuRAND API"},     {"cudnn", "cuDNN API"},
        {"cufft", "cuFFT API"},       {"cusparse", "cuSPARSE API"},
        {"cub", "CUB API"},           {"cusolver", "cuSOLVER API"},
        {"device", "CUDA Device API"}, {"nvrtc", "CUDA RTC API"},
        {"thrust", "Thrust API"},     {"nccl", "NCCL API"},
        {"nvtx", "NVTX API"},         {"lowp", "CUDA bf16/FP8 API"},
        {"pytorch", "PyTorch API"},   {"cudacxx", "CUDA C++ API"}};
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (strcmp(family, map[i][0]) == 0)
            return map[i][1];
    return family;
}

static void count_ref(hnames *kind, hnames *api, hnames *name, hp_str cuda)
{
    hp_mapping m;
    hnames_add(name, cuda, 1);
    if (!hp_lookup(cuda.s, cuda.len, &m))
        return;
    hnames_add(kind, str_of(kind_name(m.kind)), 1);
    hnames_add(api, str_of(api_name(hp_family_name(m.family))), 1);
}

/* One statistic: "  NAME: VALUE" on the terminal, "NAME;VALUE" in the CSV file. */
static void stat_line(const state *s, const char *name, const char *value)
{
    if (s->print_stats)
        fprintf(stderr, "  %s: %s\n", name, value);
    if (s->csv)
        fprintf(s->csv, "%s;%s\n", name, value);
}

static void stat_num(const state *s, const char *name, long long v)
{
    char num[32];
    snprintf(num, sizeof num, "%lld", v);
    stat_line(s, name, num);
}

/* A heading: text on the terminal, csv in the CSV file (either may be NULL). */
static void stat_head(const state *s, const char *text, const char *csv)
{
    if (s->print_stats && text)
        fputs(text, stderr);
    if (s->csv && csv)
        fputs(csv, s->csv);
}

static void print_section(const state *s, const hnames *h, const char *prefix, const char *what,
                          const char *csv_head)
{
    if (!hnames_count(h))
        return;
    hnames_sort((hnames *)h);
    char head[96];
    snprintf(head, sizeof head, "[HIPIFY] info: %s refs by %s:\n", prefix, what);
    stat_head(s, head, csv_head);
    for (int i = 0; i < hnames_count(h); i++)
        stat_num(s, hnames_key(h, i), hnames_get(h, i));
}

/* part * 100 / whole, rounded half up (no libm in a static binary's link line) */
static long pct(long long part, long long whole)
{
    return whole > 0 ? (long)((part * 200 + whole) / (2 * whole)) : 0;
}

/* A file's (or the run's) statistics, in hipify-clang's words, on standard error with
 * --print-stats and into the CSV statistics with --print-stats-csv. */
static void print_stats(const state *s, const cstats *c, const char *name)
{
    if (!s->print_stats && !s->csv)
        return;
    if (s->print_stats)
        fprintf(stderr, "\n[HIPIFY] info: file '%s' statistics:\n", name);
    if (s->csv)
        fprintf(s->csv, "\nfile '%s' statistics:\n", name);
    long long all = c->converted + c->unconverted;
    stat_num(s, "CONVERTED refs count", c->converted);
    stat_num(s, "UNCONVERTED refs count", c->unconverted);
    stat_num(s, "CONVERSION %", 100 - (all ? pct(c->unconverted, all) : 100));
    stat_num(s, "REPLACED bytes", c->replaced_bytes);
    stat_num(s, "TOTAL bytes", c->bytes);
    stat_num(s, "CHANGED lines of code", c->changed_lines);
    stat_num(s, "TOTAL lines of code", c->lines);
    stat_num(s, "CODE CHANGED (in bytes) %", pct(c->replaced_bytes, c->bytes));
    stat_num(s, "CODE CHANGED (in lines) %", pct(c->changed_lines, c->lines));
    char secs[32];
    snprintf(secs, sizeof secs, "%.2f", c->seconds);
    stat_line(s, "TIME ELAPSED s", secs);
    print_section(s, c->conv_kind, "CONVERTED", "type", "\nCUDA ref type;Count\n");
    print_section(s, c->conv_api, "CONVERTED", "API", "\nCUDA API;Count\n");
    print_section(s, c->conv_name, "CONVERTED", "names", "\nCUDA ref name;Count\n");
    print_section(s, c->unconv_kind, "UNCONVERTED", "type", "\nCUDA ref type;Count\n");
    print_section(s, c->unconv_api, "UNCONVERTED", "API", "\nCUDA API;Count\n");
    print_section(s, c->unconv_name, "UNCONVERTED", "names", "\nCUDA ref name;Count\n");
}

static void add_file_stats(state *s, const hp_file_result *r, cstats *c)
{
    const hp_tstats *t = r->stats;
    c->converted += t->converted + t->launches;
    c->unconverted += t->unsupported;
    c->replaced_bytes += t->replaced_bytes;
    c->bytes += t->bytes;
    c->changed_lines += t->changed_lines;
    c->lines += t->lines;
    c->seconds += r->seconds;
    for (int i = 0; i < r->nconv; i++)
        count_ref(c->conv_kind, c->conv_api, c->conv_name, r->conv[i].cuda);
    if (t->launches)
        hnames_add(c->conv_kind, str_of("kernel_launch"), t->launches);
    for (int i = 0; i < r->nunsupported; i++)
        count_ref(c->unconv_kind, c->unconv_api, c->unconv_name, r->unsupported[i]);
    (void)s;
}

static void on_file(void *ud, const hp_file_result *r)
{
    state *s = ud;
    s->files++;
    if (r->status != HP_OK) {
        fprintf(stderr, "hipport %s: '%s': %s\n", s->cmd, r->path,
                r->error ? r->error : hp_status_name(r->status));
        s->io_errors++;
        return;
    }
    if (r->nfindings) {
        hp_report_opts ro = {0, 0, 0};
        char *text = hp_report_text(r->findings, r->nfindings, &ro);
        if (text)
            fputs(text, stderr);
        free(text);
    }
    if (!r->stats)
        return;
    if (r->stats->changed_lines)
        s->converted_files++;
    cstats_free(&s->file);
    cstats_init(&s->file);
    add_file_stats(s, r, &s->file);
    add_file_stats(s, r, &s->total);
    print_stats(s, &s->file, r->path);
}

/* Reads one compiler option (after "--" or --extra-arg) for -D and -U; -I and the options
 * whose value is the next argument are passed over with it. */
static void compiler_option(char **argv, int argc, int *i, const char **macros, int *nmacros,
                            hkeep *keep)
{
    const char *a = argv[*i];
    if ((strncmp(a, "-D", 2) == 0 || strncmp(a, "-U", 2) == 0)) {
        if (a[2]) {
            macros[(*nmacros)++] = a;
            return;
        }
        if (*i + 1 < argc) {
            char *m = hkeep_str(keep, a, 2 + strlen(argv[*i + 1]));
            if (m) {
                memcpy(m + 2, argv[*i + 1], strlen(argv[*i + 1]) + 1);
                macros[(*nmacros)++] = m;
            }
            (*i)++;
        }
        return;
    }
    /* options whose value is the next argument */
    static const char *const with_value[] = {"-I", "-include", "-isystem", "-iquote",
                                             "-idirafter", "-x", "-o", "-MF", "-MT", "-MQ",
                                             "-Xclang", "-imacros", "-Xcompiler", "-ccbin"};
    for (size_t k = 0; k < sizeof with_value / sizeof *with_value; k++)
        if (strcmp(a, with_value[k]) == 0) {
            if (*i + 1 < argc)
                (*i)++;
            return;
        }
}

/* The last component of a path (NAME in DIR/NAME). */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static char *with_suffix(const char *dir, const char *name, const char *suffix)
{
    size_t a = dir ? strlen(dir) : 0, b = strlen(name), c = strlen(suffix);
    char *p = malloc(a + b + c + 2);
    if (!p)
        return NULL;
    size_t k = 0;
    if (dir) {
        memcpy(p, dir, a);
        k = a;
        if (a && dir[a - 1] != '/')
            p[k++] = '/';
    }
    memcpy(p + k, name, b);
    memcpy(p + k + b, suffix, c + 1);
    return p;
}

int cmd_hipify_clang(int argc, char **argv)
{
    const char *cmd = "hipify-clang";
    hp_translate_opts t;
    hp_translate_opts_init(&t);
    t.record_names = 1;
    t.hipify_clang = 1;
    state s;
    memset(&s, 0, sizeof s);
    s.cmd = cmd;
    cstats_init(&s.total);
    cstats_init(&s.file);
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    const char **macros = calloc((size_t)argc + 1, sizeof *macros);
    hkeep keep = {NULL, 0, 0};
    int nfiles = 0, nmacros = 0, rc = EXIT_OK, inplace = 0, no_backup = 0, no_output = 0;
    const char *output = NULL, *odir = NULL, *ostats = NULL;
    int print_csv = 0;
    const char *cdb = NULL;
    hp_ctx *cdb_ctx = NULL;
    const hp_compdb_entry *ents = NULL;
    int nents = 0;
    const char **file_macros = NULL;
    char **ent_real = NULL; /* the database's files, canonical (to find a named file's entry) */
    char *csv_path = NULL, *csv_text = NULL;
    size_t csv_len = 0;
    if (!files || !macros) {
        rc = EXIT_INTERNAL;
        goto done;
    }
    hparse ps;
    hopt_init(&ps, argc, argv, HS_CLANG, cmd);
    const char *v;
    int id, dashdash = 0;
    int before = ps.i;
    while ((id = hopt_next(&ps, options, &v)) != HO_END) {
        const char *opt = before < argc ? argv[before] : "";
        before = ps.i;
        if (dashdash) {
            /* compiler options: -D/-U kept, the rest (and its value) passed over */
            int i = ps.i - 1;
            compiler_option(argv, argc, &i, macros, &nmacros, &keep);
            ps.i = before = i + 1;
            continue;
        }
        switch (id) {
        case HO_ERROR: rc = EXIT_USAGE; goto done;
        case HO_DASHDASH: dashdash = 1; break;
        case HO_OPERAND: files[nfiles++] = v; break;
        case C_HELP:
            cli_help(stdout, cmd, NULL);
            printf("\noptions:\n");
            hopt_help(stdout, options, HS_CLANG);
            goto done;
        case C_VERSION:
            printf("hipport %s (hipify-clang interface; HIP tables up to %d.%d)\n", HP_VERSION,
                   hp_hip_version_newest() / 100, hp_hip_version_newest() % 100);
            goto done;
        case C_OUTPUT: output = v; break;
        case C_ODIR: odir = v; break;
        case C_INPLACE: inplace = 1; break;
        case C_NO_BACKUP: no_backup = 1; break;
        case C_NO_OUTPUT: no_output = 1; break;
        case C_PRINT_STATS: s.print_stats = 1; break;
        case C_PRINT_CSV: print_csv = 1; break;
        case C_OSTATS: ostats = v; break;
        case C_EXAMINE: no_output = s.print_stats = 1; break;
        case C_ROC: t.roc = 1; break;
        case C_HIP_SYNTAX: t.launch = HP_LAUNCH_GGL; break;
        case C_CUDA_SYNTAX: break;
        case C_EXPERIMENTAL: break;
        case C_SKIP_EXCLUDED: t.skip_excluded = 1; break;
        case C_INCLUDE: break;
        case C_DEFINE: {
            char *m = hkeep_str(&keep, "-D", 2 + strlen(v));
            if (m) {
                memcpy(m + 2, v, strlen(v) + 1);
                macros[nmacros++] = m;
            }
            break;
        }
        case C_EXTRA_ARG: {
            char *one[] = {(char *)v};
            int i = 0;
            compiler_option(one, 1, &i, macros, &nmacros, &keep);
            break;
        }
        case C_IGNORED_VALUE:
        case C_IGNORED_FLAG: break;
        case C_UNSUPPORTED:
            rc = cli_usage(cmd, "'%s' is not supported: hipport generates no hipify-perl, Python "
                                "maps or documentation (Markdown or CSV)",
                           opt);
            goto done;
        case C_CDB: cdb = v; break;
        case C_HIPVER:
            if ((t.hip_version = cli_hip_version(cmd, "--hip-version", v)) < 0) {
                rc = EXIT_USAGE;
                goto done;
            }
            break;
        default: break;
        }
    }
    t.macros = macros;
    t.nmacros = nmacros;
    if (cdb) {
        const char *err;
        cdb_ctx = hp_ctx_new();
        if (!cdb_ctx) {
            rc = EXIT_INTERNAL;
            goto done;
        }
        if (hp_compdb_read(cdb_ctx, cdb, &ents, &nents, &err) != HP_OK) {
            cli_error(cmd, "compilation database %s", err ? err : "cannot be read");
            rc = EXIT_IO;
            goto done;
        }
        if (nfiles > 0) {
            /* named files find their entries by canonical path */
            ent_real = calloc((size_t)nents + 1, sizeof *ent_real);
            if (!ent_real) {
                rc = EXIT_INTERNAL;
                goto done;
            }
            for (int k = 0; k < nents; k++)
                ent_real[k] = realpath(ents[k].file, NULL);
        } else {
            /* every file the database compiles, in its order */
            const char **all = calloc((size_t)nents + 1, sizeof *all);
            if (!all) {
                rc = EXIT_INTERNAL;
                goto done;
            }
            for (int k = 0; k < nents; k++)
                all[k] = ents[k].file;
            free(files);
            files = all;
            nfiles = nents;
        }
    }
    if (nfiles == 0) {
        rc = cli_usage(cmd, "no input files");
        goto done;
    }
    if (output && nfiles > 1) {
        rc = cli_usage(cmd, "-o and several input files exclude each other");
        goto done;
    }
    if ((output && inplace) || (no_output && (output || inplace)) || (odir && inplace)) {
        const char *what = output && inplace   ? "-o and --inplace"
                           : no_output && output ? "--no-output and -o"
                           : no_output           ? "--no-output and --inplace"
                                                 : "--o-dir and --inplace";
        rc = cli_usage(cmd, "%s exclude each other", what);
        goto done;
    }
    struct stat sb;
    if (odir && stat(odir, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
        rc = cli_usage(cmd, "'%s' is not a directory", odir);
        goto done;
    }
    /* hipify-clang's CSV file: --o-stats FILE, else NAME.csv for one input (its base name)
     * or sum_stat.csv for several; in the --o-dir directory when one is given */
    if (ostats || print_csv) {
        const char *name = ostats;
        char *one = NULL;
        if (!name && nfiles == 1) {
            one = with_suffix(NULL, base_name(files[0]), ".csv");
            name = one;
        } else if (!name) {
            name = "sum_stat.csv";
        }
        csv_path = name ? with_suffix(odir, name, "") : NULL;
        free(one);
        s.csv = csv_path ? open_memstream(&csv_text, &csv_len) : NULL;
        if (!s.csv) {
            rc = EXIT_INTERNAL;
            goto done;
        }
    }
    for (int i = 0; i < nfiles; i++) {
        const char *f = files[i];
        if (stat(f, &sb) == 0 && S_ISDIR(sb.st_mode)) {
            cli_error(cmd, "'%s' is a directory (hipify-clang takes files)", f);
            s.io_errors++;
            continue;
        }
        /* the macros of the file's entry in the database, after those of the command line */
        t.macros = macros;
        t.nmacros = nmacros;
        const hp_compdb_entry *ent = NULL;
        if (nents && !ent_real) {
            ent = &ents[i]; /* the database's own files */
        } else if (nents) {
            char *real = realpath(f, NULL);
            for (int k = 0; real && k < nents && !ent; k++)
                if (ent_real[k] && strcmp(ent_real[k], real) == 0)
                    ent = &ents[k];
            free(real);
        }
        if (ent) {
            free(file_macros);
            file_macros = calloc((size_t)(nmacros + ent->nargs) + 1, sizeof *file_macros);
            if (!file_macros) {
                rc = EXIT_INTERNAL;
                goto done;
            }
            int n = nmacros;
            memcpy(file_macros, macros, (size_t)nmacros * sizeof *macros);
            for (int k = 1; k < ent->nargs; k++)
                compiler_option((char **)ent->args, ent->nargs, &k, file_macros, &n, &keep);
            t.macros = file_macros;
            t.nmacros = n;
        }
        hp_run_opts r;
        hp_run_opts_init(&r);
        r.jobs = 1;
        r.on_file = on_file;
        r.ud = &s;
        r.force = 1;
        char *dst = NULL;
        if (no_output) {
            r.mode = HP_OUT_NONE;
        } else if (inplace) {
            r.mode = HP_OUT_INPLACE;
            if (!no_backup) {
                /* the original as FILE.prehip, kept from the first run on */
                dst = with_suffix(NULL, f, ".prehip");
                if (dst && stat(dst, &sb) != 0)
                    r.backup = ".prehip";
            }
        } else {
            /* FILE.hip next to the input, DIR/NAME.hip with --o-dir, or -o FILE */
            const char *base = base_name(f);
            dst = output ? with_suffix(odir, output, "")
                         : odir ? with_suffix(odir, base, ".hip") : with_suffix(NULL, f, ".hip");
            if (!dst) {
                rc = EXIT_INTERNAL;
                goto done;
            }
            r.mode = HP_OUT_FILE;
            r.output = dst;
        }
        hp_status st = hp_translate_run(&t, &r, &f, 1);
        free(dst);
        if (st != HP_OK) {
            cli_error(cmd, "%s", hp_status_name(st));
            rc = EXIT_INTERNAL;
            goto done;
        }
    }
    if (nfiles > 1) {
        print_stats(&s, &s.total, "GLOBAL");
        stat_head(&s, "\n[HIPIFY] info: TOTAL statistics:\n", "\nTOTAL statistics:\n");
        stat_num(&s, "CONVERTED files", s.converted_files);
        stat_num(&s, "PROCESSED files", s.files);
    }
    if (s.csv) {
        int bad = fclose(s.csv) != 0;
        s.csv = NULL;
        char why[256];
        if (bad) {
            cli_error(cmd, "cannot write the statistics: out of memory");
            rc = EXIT_INTERNAL;
        } else if (hp_write_file(csv_path, csv_text, (ptrdiff_t)csv_len, why, sizeof why) !=
                   HP_OK) {
            cli_error(cmd, "cannot write the statistics '%s': %s", csv_path, why);
            s.io_errors++;
        }
    }
    if (s.io_errors && rc == EXIT_OK)
        rc = EXIT_IO;
done:
    if (s.csv)
        fclose(s.csv);
    for (int k = 0; ent_real && k < nents; k++)
        free(ent_real[k]);
    free(ent_real);
    free(file_macros);
    hp_ctx_free(cdb_ctx);
    free(csv_text);
    free(csv_path);
    cstats_free(&s.file);
    cstats_free(&s.total);
    free(files);
    free(macros);
    hkeep_free(&keep);
    return rc;
}
