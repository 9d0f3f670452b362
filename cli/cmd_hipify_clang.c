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

/* Reads one compiler option (after "--" or --extra-arg) for -D and -U, added to macros; -I and
 * the options whose value is the next argument are passed over with it. */
static void compiler_option(const char *const *argv, int argc, int *i, opt_list *macros)
{
    const char *a = argv[*i];
    if ((strncmp(a, "-D", 2) == 0 || strncmp(a, "-U", 2) == 0)) {
        if (a[2]) {
            opt_list_push(macros, NULL, a, strlen(a));
            return;
        }
        if (*i + 1 < argc) {
            opt_list_push(macros, a, argv[*i + 1], strlen(argv[*i + 1]));
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

/* What the operands give: input files, and after "--" compiler options. */
typedef struct operands {
    opt_list files;
    opt_list macros; /* "-DNAME", "-UNAME": also those of -D and --extra-arg */
} operands;

/* An operand: an input file, or after "--" a compiler option (with its value, the argument
 * after it). */
static int operand_arg(opt_state *s, const opt *o, const char *v)
{
    operands *a = o->dest;
    if (!s->done)
        return opt_add(s, &a->files, NULL, v, strlen(v));
    int i = s->i - 1;
    compiler_option((const char *const *)s->argv, s->argc, &i, &a->macros);
    s->i = i + 1;
    return OPT_CONTINUE;
}

/* --extra-arg ARG: one compiler option */
static int extra_arg(opt_state *s, const opt *o, const char *v)
{
    int i = 0;
    (void)s;
    compiler_option(&v, 1, &i, o->dest);
    return OPT_CONTINUE;
}

/* hipify-clang's generators (--perl, --python, --md, --csv and their options): accepted, with
 * a warning, as hipport generates no hipify-perl, Python maps or documentation */
static int unsupported(opt_state *s, const opt *o, const char *v)
{
    (void)v;
    *(int *)o->dest = 1;
    fprintf(stderr, "hipport %s: warning: '%s' has no effect: hipport generates no hipify-perl, "
                    "Python maps or documentation (Markdown or CSV)\n",
            s->cmd, s->word);
    return OPT_CONTINUE;
}

static int version(opt_state *s, const opt *o, const char *v)
{
    (void)s;
    (void)o;
    (void)v;
    printf("hipport %s (hipify-clang interface; HIP tables up to %d.%d)\n", HP_VERSION,
           hp_hip_version_newest() / 100, hp_hip_version_newest() % 100);
    return EXIT_OK;
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
    operands args = {{NULL, 0, 0}, {NULL, 0, 0}};
    opt_list *files = &args.files, *macros = &args.macros, file_macros = {NULL, 0, 0};
    int rc, inplace = 0, no_backup = 0, no_output = 0, examine = 0, launch = t.launch;
    const char *output = NULL, *odir = NULL, *ostats = NULL;
    int print_csv = 0, generate = 0;
    const char *cdb = NULL;
    hp_ctx *cdb_ctx = NULL;
    const hp_compdb_entry *ents = NULL;
    int nents = 0;
    char **ent_real = NULL; /* the database's files, canonical (to find a named file's entry) */
    char *csv_path = NULL, *csv_text = NULL;
    size_t csv_len = 0;
    const opt options[] = {
        OPT_STRING(0, "o", "FILE", &output, "output file (one input)"),
        OPT_STRING(0, "o-dir", "DIR", &odir, "output directory"),
        OPT_FLAG(0, "inplace", &inplace, 1, "replace each input, keeping it as FILE.prehip"),
        OPT_FLAG(0, "no-backup", &no_backup, 1, "with --inplace, keep no FILE.prehip"),
        OPT_FLAG(0, "no-output", &no_output, 1, "write no translated output"),
        OPT_FLAG(0, "print-stats", &s.print_stats, 1,
                 "print translation statistics (standard error)"),
        OPT_FLAG(0, "print-stats-csv", &print_csv, 1,
                 "write the statistics as CSV: NAME.csv for one input, sum_stat.csv for several"),
        OPT_STRING(0, "o-stats", "FILE", &ostats,
                   "the CSV statistics file (implies --print-stats-csv)"),
        OPT_FLAG(0, "examine", &examine, 1, "combines --no-output and --print-stats"),
        OPT_FLAG(0, "roc", &t.roc, 1, "translate to roc* libraries instead of hip* where possible"),
        OPT_FLAG(0, "miopen", &t.miopen, 1,
                 "translate cuDNN to MIOpen (which --roc does too: ROCm ships no hipDNN)"),
        OPT_FLAG(0, "use-hip-data-types", &t.hip_data_types, 1,
                 "with --roc, hipDataType and HIP_R_* rather than rocblas_datatype"),
        OPT_FLAG(0, "hip-kernel-execution-syntax", &launch, HP_LAUNCH_GGL,
                 "kernel launches as hipLaunchKernelGGL calls"),
        OPT_IGNORE("cuda-kernel-execution-syntax", NULL,
                   "keep CUDA kernel launch syntax (default)"),
        OPT_IGNORE("experimental", NULL, "accepted; HIP's experimental APIs are translated"),
        OPT_FLAG(0, "skip-excluded-preprocessor-conditional-blocks", &t.skip_excluded, 1,
                 "leave the #if branches that -D/-U exclude untranslated"),
        OPT_FLAG(0, "default-preprocessor", &t.skip_excluded, 1,
                 "the same as --skip-excluded-preprocessor-conditional-blocks"),
        OPT_IGNORE("amap", NULL,
                   "accepted: hipport translates every branch and every name it knows anyway"),
        {.longname = "I", .arg = "DIR", .kind = OPTION_IGNORE, .flags = OPTF_GLUED,
         .help = "include directory (accepted; headers are not parsed)"},
        {.longname = "D", .arg = "NAME[=VALUE]", .kind = OPTION_LIST, .dest = macros,
         .prefix = "-D", .flags = OPTF_GLUED, .help = "define a macro for --skip-excluded-..."},
        OPT_CALL(0, "extra-arg", "ARG", extra_arg, macros,
                 "a compiler option (read for -D, -U, -I)"),
        OPT_CALL(0, "extra-arg-before", "ARG", extra_arg, macros, "the same as --extra-arg"),
        OPT_IGNORE("local-headers", NULL,
                   "accepted; no effect: included headers are never translated, name each "
                   "header as an input to translate it"),
        OPT_IGNORE("local-headers-recursive", NULL, "accepted; no effect (see --local-headers)"),
        OPT_IGNORE("cuda-path", "DIR", "accepted; no effect (no CUDA installation is needed)"),
        OPT_IGNORE("cuda-gpu-arch", "ARCH", "accepted; no effect"),
        OPT_IGNORE("clang-resource-directory", "DIR", "accepted; no effect (no clang is run)"),
        OPT_IGNORE("temp-dir", "DIR", "accepted; no effect (no temporary files)"),
        OPT_IGNORE("save-temps", NULL, "accepted; no effect (no temporary files)"),
        OPT_IGNORE("v", NULL, "accepted; no effect"),
        OPT_IGNORE("no-undocumented-features", NULL,
                   "accepted; no effect (hipport relies on no undocumented HIP features)"),
        OPT_IGNORE("no-warnings-on-undocumented-features", NULL, "accepted; no effect"),
        OPT_CALL(0, "versions", NULL, version, NULL, "print the version (no 3rd-party software)"),
        OPT_CALL(0, "perl", NULL, unsupported, &generate, "accepted; no effect: hipport generates no hipify-perl"),
        OPT_CALL(0, "python", NULL, unsupported, &generate, "accepted; no effect: hipport generates no Python map"),
        OPT_CALL(0, "md", NULL, unsupported, &generate, "accepted; no effect: hipport generates no documentation"),
        OPT_CALL(0, "csv", NULL, unsupported, &generate, "accepted; no effect (see --md)"),
        OPT_CALL(0, "o-hipify-perl-dir", "DIR", unsupported, &generate, "accepted; no effect (see --perl)"),
        OPT_CALL(0, "o-python-map-dir", "DIR", unsupported, &generate, "accepted; no effect (see --python)"),
        OPT_CALL(0, "doc-format", "FORMAT", unsupported, &generate, "accepted; no effect (see --md)"),
        OPT_CALL(0, "doc-roc", "WHICH", unsupported, &generate, "accepted; no effect (see --md)"),
        OPT_STRING(0, "p", "DIR", &cdb,
                   "compilation database: DIR/compile_commands.json or the file; its files, or "
                   "the FILEs named, with its -D and -U"),
        OPT_CALL(0, "hip-version", "X.Y", cli_opt_hip_version, &t.hip_version,
                 "the HIP that will compile the output (hipport)"),
        OPT_CALL(0, "version", NULL, version, NULL, "print the version"),
        OPT_CALL(0, "help", NULL, hopt_help_opt, NULL, "show this help"),
        OPT_END(),
    };
    const opt operand = OPT_CALL(0, NULL, NULL, operand_arg, &args, NULL);
    opt_state os;
    opt_init(&os, argc, argv, cmd);
    if ((rc = hopt_parse(&os, options, &operand, HS_CLANG)) != OPT_CONTINUE)
        goto done;
    rc = EXIT_OK;
    t.launch = (hp_launch)launch;
    if (examine)
        no_output = s.print_stats = 1;
    t.macros = opt_list_items(macros);
    t.nmacros = macros->n;
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
        if (files->n > 0) {
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
            for (int k = 0; k < nents; k++)
                if (opt_list_push(files, NULL, ents[k].file, strlen(ents[k].file)) != 0) {
                    rc = EXIT_INTERNAL;
                    goto done;
                }
        }
    }
    int nfiles = files->n;
    if (nfiles == 0) {
        if (generate)
            goto done; /* only generators asked for: nothing to translate */
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
            one = with_suffix(NULL, base_name(files->v[0]), ".csv");
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
        const char *f = files->v[i];
        if (stat(f, &sb) == 0 && S_ISDIR(sb.st_mode)) {
            cli_error(cmd, "'%s' is a directory (hipify-clang takes files)", f);
            s.io_errors++;
            continue;
        }
        /* the macros of the file's entry in the database, after those of the command line */
        t.macros = opt_list_items(macros);
        t.nmacros = macros->n;
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
            opt_list_free(&file_macros);
            for (int k = 0; k < macros->n; k++)
                if (opt_list_push(&file_macros, NULL, macros->v[k], strlen(macros->v[k])) != 0) {
                    rc = EXIT_INTERNAL;
                    goto done;
                }
            for (int k = 1; k < ent->nargs; k++)
                compiler_option(ent->args, ent->nargs, &k, &file_macros);
            t.macros = opt_list_items(&file_macros);
            t.nmacros = file_macros.n;
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
    opt_list_free(&file_macros);
    hp_ctx_free(cdb_ctx);
    free(csv_text);
    free(csv_path);
    cstats_free(&s.file);
    cstats_free(&s.total);
    opt_list_free(files);
    opt_list_free(macros);
    return rc;
}
