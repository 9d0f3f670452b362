/* hipport.h: the public API of libhipport, a CUDA-to-HIP porting library.
 *
 * The library never prints and never exits. Every function that produces data says who owns it:
 * "ctx" means the memory belongs to the hp_ctx passed in and stays valid until hp_ctx_reset() or
 * hp_ctx_free() on that context; "caller" means the caller frees it with hp_free().
 */
#ifndef HIPPORT_H
#define HIPPORT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HP_VERSION "0.1.0"

/* ---------------------------------------------------------------- basics */

/* A byte slice; not NUL-terminated. */
typedef struct hp_str {
    const char *s;
    ptrdiff_t len;
} hp_str;

/* Operational results. Findings are not errors: they come back as data. */
typedef enum hp_status {
    HP_OK = 0,
    HP_EIO,      /* a file could not be read or written */
    HP_ENOMEM,   /* out of memory (or over a size cap) */
    HP_EFORMAT,  /* malformed input (binary parsers) */
    HP_EUSAGE,   /* bad option value or combination */
    HP_EBINARY,  /* a text tool was given a binary file */
    HP_ETOOBIG,  /* the file is over the size limit */
    HP_EEXIST,   /* the output exists and overwriting was not asked for */
    HP_ELOOP,    /* a symlink loop */
    HP_EINTERNAL /* a bug */
} hp_status;

const char *hp_status_name(hp_status s); /* static string */

/* Writes len bytes of data to path through a temporary file and a rename, so that path holds
 * either what it held or all of data (a report, a statistics file). On failure, the reason
 * goes to why (whylen bytes, NUL-terminated) when why is not NULL. */
hp_status hp_write_file(const char *path, const void *data, ptrdiff_t len, char *why,
                        size_t whylen);

/* Every file the library writes (translations, copies, backups, hp_write_file) is first
 * written to a temporary file beside it, ".NAME.hipport-PID-N", then renamed into place: the
 * name holds the old file or the whole new one, at any moment. hp_abort_writes removes the
 * temporary files of the writes in progress and makes every later write fail. It is
 * async-signal-safe: for a SIGINT or SIGTERM handler that exits afterwards (it may run in any
 * thread). The temporary files that a killed process left (SIGKILL cannot be caught) are
 * removed by a later run when it opens their directory: only names of that pattern, regular
 * files of the same user (any user's for root), whose process is gone. */
void hp_abort_writes(void);

typedef enum hp_severity {
    HP_SEV_NONE = 0,
    HP_SEV_NOTE = 1,
    HP_SEV_WARNING = 2,
    HP_SEV_ERROR = 3
} hp_severity;

const char *hp_severity_name(hp_severity s); /* "note", "warning", "error"; static */
/* Parses "note", "warning", "error" (and "never" as HP_SEV_NONE); -1 if unknown. */
int hp_severity_parse(const char *s);

/* One diagnostic or portability finding. */
typedef struct hp_finding {
    const char *path;     /* file as named by the caller */
    int line;             /* 1-based; 0 when the finding concerns the whole file */
    int col;              /* 1-based byte column */
    int len;              /* bytes covered on the line (for carets); 0 if unknown */
    const char *rule;     /* rule id: "WAVE003", "HP-UNSUPPORTED", ... */
    hp_severity severity;
    const char *message;  /* one line, lowercase start, no final full stop */
    const char *fix;      /* how to fix it; may be NULL */
    hp_str source;        /* the source line without its newline; may be empty */
} hp_finding;

/* Per-thread working memory. Results returned with "ctx" ownership live here. */
typedef struct hp_ctx hp_ctx;

hp_ctx *hp_ctx_new(void);       /* NULL when out of memory */
void hp_ctx_reset(hp_ctx *ctx); /* frees every result produced with ctx */
void hp_ctx_free(hp_ctx *ctx);

void hp_free(void *p); /* frees "caller" memory */

/* One file of a compilation database (compile_commands.json). */
typedef struct hp_compdb_entry {
    const char *file;        /* as the database names it, after its "directory" if relative */
    const char *const *args; /* the compiler's arguments ("arguments", or "command" split as
                              * a shell splits words), the compiler first */
    int nargs;
} hp_compdb_entry;

/* Reads a compilation database: path is the file, or a directory holding
 * compile_commands.json. Entries live in ctx, in the database's order; a file listed twice
 * keeps its first entry. On failure, *err says why, naming the file (ctx memory). */
hp_status hp_compdb_read(hp_ctx *ctx, const char *path, const hp_compdb_entry **out, int *n,
                         const char **err);

/* HIP versions are written major*100+minor: 602 is HIP 6.2. */
int hp_hip_version_parse(const char *s); /* "6.2", "6.2.4", "5.2": the number; -1 if malformed */
int hp_hip_version_newest(void);         /* the newest HIP the tables know */

/* The help page of a command ("translate", "check", ...), or NULL (static text). */
const char *hp_help_text(const char *command);

/* ---------------------------------------------------------------- API families */

/* API families of the name tables ("runtime", "driver", "device", "cublas", ...). */
int hp_family_count(void);
const char *hp_family_name(int family); /* static; NULL if out of range */

/* Looks a CUDA name up in the tables. Returns 1 and fills the fields when known. */
typedef struct hp_mapping {
    hp_str cuda;
    hp_str hip;         /* empty when HIP has no equivalent */
    hp_str roc;         /* direct ROCm library name; empty if none */
    hp_str legacy;      /* spelling for HIPs older than hip_since; empty if none */
    const char *kind;   /* "func", "type", "enum", "macro", ... */
    int family;
    int hip_since;      /* HIP version that added the name; 0 if unknown */
    int hip_deprecated; /* 0 if not deprecated */
    int hip_removed;    /* 0 if not removed */
    unsigned flags;     /* HP_MAP_* */
} hp_mapping;

#define HP_MAP_EXPERIMENTAL 1u /* HIP marks the name experimental */
#define HP_MAP_SYMBOL 2u       /* the first argument is a device symbol: HIP_SYMBOL() */

int hp_lookup(const char *name, ptrdiff_t len, hp_mapping *out);

/* ---------------------------------------------------------------- translate */

typedef enum hp_launch {
    HP_LAUNCH_CHEVRON = 0, /* keep k<<<g, b, s, st>>>(args) */
    HP_LAUNCH_GGL          /* hipLaunchKernelGGL(k, dim3(g), dim3(b), s, st, args) */
} hp_launch;

typedef enum hp_pytorch_mode {
    HP_PYTORCH_OFF = 0,
    HP_PYTORCH_MASQUERADE, /* older PyTorch: ...MasqueradingAsCUDA classes */
    HP_PYTORCH_V2          /* hipify 2.0 (PyTorch >= 2.9): CUDA spellings kept */
} hp_pytorch_mode;

typedef struct hp_translate_opts {
    hp_launch launch;
    int hip_version;       /* target HIP (major*100+minor); 0: the newest known */
    int roc;               /* direct ROCm libraries instead of hip* wrappers */
    int miopen;            /* cuDNN to MIOpen (which roc also does) */
    int hip_data_types;    /* with roc: hipDataType and HIP_R_*, not rocblas_datatype */
    int pytorch;           /* hp_pytorch_mode */
    int annotate;          /* insert "// hipport RULE: ..." above lines that need a human */
    int hipify_clang;      /* follow hipify-clang's conventions where they differ */
    int compat_header;     /* allow #include "hipport_compat.h" where a helper is needed */
    /* Leave the branches of #if/#ifdef/#elif that the macros below exclude untranslated (the
     * other branches, and conditions that test anything else, are translated as usual). */
    int skip_excluded;
    const char *const *macros; /* "-DNAME", "-DNAME=VALUE" or "-UNAME", in command-line order */
    int nmacros;
    int record_names;      /* fill hp_translate_result.conv (one entry per converted name) */
    /* The caller only counts the findings by severity (translate --quiet): they keep their
     * rule and severity, but no message, fix, source line, line or column, and come in no
     * particular order. Ignored with annotate, whose comments are the messages. */
    int count_only;
    /* With annotate: what the comments are about. Called with each source translated, it
     * gives the findings to comment on (errors and warnings), in ctx's memory; NULL: no
     * comment. hp_check_annotations is check's (the rules a translation cannot fix). */
    hp_status (*annotator)(hp_ctx *ctx, const char *path, const char *src, ptrdiff_t len,
                           const hp_finding **out, int *n);
} hp_translate_opts;

void hp_translate_opts_init(hp_translate_opts *o);

#define HP_MAX_FAMILIES 48

/* Counters for one file or a whole run. */
typedef struct hp_tstats {
    long long refs[HP_MAX_FAMILIES]; /* references converted, per family */
    long long converted;             /* all references converted */
    long long unsupported;           /* CUDA names left as they were */
    long long files;
    long long lines;
    long long bytes;
    long long launches;              /* kernel launches rewritten (--launch=ggl) */
    long long changed_lines;         /* input lines that an edit touches */
    long long replaced_bytes;        /* input bytes replaced or removed */
} hp_tstats;

/* One converted reference: the CUDA spelling and the one written (for statistics by name). */
typedef struct hp_conv {
    hp_str cuda;
    hp_str hip;
    int family;
} hp_conv;

typedef struct hp_translate_result {
    const char *out;   /* the translated bytes (ctx); equal to the input when unchanged */
    ptrdiff_t out_len;
    int changed;       /* output differs from input */
    int needs_compat;  /* the output includes hipport_compat.h */
    const hp_finding *findings; /* ctx */
    int nfindings;
    const hp_str *unsupported;  /* names left untranslated, one per reference (ctx) */
    int nunsupported;
    const hp_conv *conv;        /* with record_names: the converted references (ctx) */
    int nconv;
    hp_tstats stats;
} hp_translate_result;

/* Translates one buffer. path is used in findings only. */
hp_status hp_translate_buffer(hp_ctx *ctx, const hp_translate_opts *o, const char *path,
                              const char *src, ptrdiff_t len, hp_translate_result *out);

/* The compatibility header that translated code may include (static, NUL-terminated). */
const char *hp_compat_header(int hip_version);

/* ---------------------------------------------------------------- running over trees */

typedef enum hp_output_mode {
    HP_OUT_NONE = 0, /* analyse only */
    HP_OUT_STDOUT,   /* hand the bytes to on_file (one input file) */
    HP_OUT_FILE,     /* write to output (one input file) */
    HP_OUT_DIR,      /* mirror the inputs under output */
    HP_OUT_INPLACE   /* replace each input (temp file + rename) */
} hp_output_mode;

typedef enum hp_rename {
    HP_RENAME_NONE = 0, /* keep file names */
    HP_RENAME_HIP,      /* .cu -> .hip, .cuh -> .cuh */
    HP_RENAME_PYTORCH   /* PyTorch's rules: cuda/CUDA in paths to hip/HIP, .cu -> .hip */
} hp_rename;

/* What one input file produced; handed to on_file in input order. */
typedef struct hp_file_result {
    long long seq;            /* 0-based position in input order */
    const char *path;         /* input path */
    const char *out_path;     /* output path written, or NULL */
    hp_status status;         /* HP_OK or why the file failed */
    const char *error;        /* one-line reason when status != HP_OK */
    int changed;
    int needs_compat;         /* the output includes hipport_compat.h */
    int skipped;              /* not processed: a binary file met in a tree walk, ... */
    const char *out;          /* output bytes (HP_OUT_STDOUT only) */
    ptrdiff_t out_len;
    const hp_finding *findings;
    int nfindings;
    const hp_str *unsupported;
    int nunsupported;
    const hp_tstats *stats;
    double seconds;
    int suppressed;           /* check: findings silenced by hipport-ignore comments */
    int written;              /* out_path was written (it did not hold these bytes already) */
    const hp_conv *conv;      /* with record_names: the converted references */
    int nconv;
    const char *report;       /* check with hp_check_opts.render: the findings rendered */
    ptrdiff_t report_len;
} hp_file_result;

typedef struct hp_run_opts {
    int jobs;                     /* worker threads; 0: online CPUs */
    const char *const *excludes;  /* globs on paths relative to each input root */
    int nexcludes;
    const char *const *exts;      /* extra extensions ("cu", ".foo") to take from trees */
    int nexts;
    hp_output_mode mode;
    const char *output;           /* file (HP_OUT_FILE) or directory (HP_OUT_DIR) */
    const char *backup;           /* HP_OUT_INPLACE: keep the original as path+backup */
    int rename;                   /* hp_rename */
    int force;                    /* overwrite outputs that exist and differ */
    /* HP_OUT_INPLACE with backup: an existing FILE+backup holds the original, which is
     * translated (into FILE) again on each run; a missing one is made from FILE first, whether
     * the translation changes it or not (hipify-perl -inplace). */
    int backup_source;
    /* Follow symlinks to directories in trees (loops are always caught). Never in place
     * (HP_OUT_INPLACE): a tree translated in place is only what lies below it, a link there
     * is not entered (a directory) or not replaced (a file), and both are reported as
     * skipped. Outputs are never written through a link (see hp_translate_run). */
    int follow_symlinks;
    /* Called in input order, from one thread at a time. The result lives until it returns. */
    void (*on_file)(void *ud, const hp_file_result *r);
    /* Called from time to time with the counts so far (from one thread). May be NULL. */
    void (*on_progress)(void *ud, long long files, long long bytes);
    void *ud;
} hp_run_opts;

void hp_run_opts_init(hp_run_opts *o);

/* Translates files and trees. Returns HP_OK, or the first error that stopped the whole run
 * (per-file errors are reported through on_file and do not stop it).
 * Where it writes: below the output directory (HP_OUT_DIR), the output file's directory
 * (HP_OUT_FILE) or each input tree, or a file input's directory (HP_OUT_INPLACE), each taken
 * as named; below it, nothing is written through a symbolic link: a link to a directory on
 * the way is an error for every output below it, and a link in an output's place is replaced
 * by the output only with force (HP_OUT_FILE: always), never followed. The exception is an
 * output file that is a device, pipe or terminal (after links: -o /dev/stdout), written into.
 * Every output goes to a temporary file beside it that is then renamed into place (see
 * hp_abort_writes); a replaced file keeps its owner, group and mode, and a backup those and
 * the original's times. */
hp_status hp_translate_run(const hp_translate_opts *t, const hp_run_opts *r,
                           const char *const *paths, int npaths);

/* ---------------------------------------------------------------- PyTorch extension projects */

/* How a project is taken (hp_project_run). Paths are relative to the current directory or
 * absolute; globs match a file's path relative to the project, as given (PROJECT/rel) and
 * absolute, '*' matching '/' as well (PyTorch's fnmatch). */
typedef struct hp_project_opts {
    const char *const *include_dirs; /* header include directories (relative to the project) */
    int ninclude_dirs;
    const char *const *includes;     /* globs of files to take; none: every file */
    int nincludes;
    const char *const *ignores;      /* globs of files to leave out */
    int nignores;
    const char *const *extra_files;  /* files taken whatever their extension */
    int nextra_files;
    int extra_only;      /* translate only the extra files and the project headers they include */
    int pytorch_exts;    /* also take PyTorch's .in (beside the C family: .cu .cuh .cpp ...) */
    int skip_top_dirs;   /* leave build/ and third_party/ at the top of the project alone */
    int copy_others;     /* the output is a copy of the project: other files are copied */
    /* The name of a record, in the output directory, of the files the run wrote there (their
     * sizes and checksums), or NULL. With it, a file of the output directory that differs
     * from what the run would write is replaced only when the record says the run wrote it
     * and it has not changed since (or with hp_run_opts.force); others are left as they are
     * and reported (HP_EEXIST). The record is rewritten at the end of the run. */
    const char *record;
} hp_project_opts;

void hp_project_opts_init(hp_project_opts *o);

/* Translates the project trees roots[0..n) into r->output (HP_OUT_DIR; the output may be a
 * project itself, or inside one: it is never walked) with PyTorch's project semantics: output
 * names by PyTorch's rules (a file that translation leaves unchanged keeps its name when its
 * directory does), #include paths of renamed project headers rewritten (relative to the
 * including file, then to the include directories; circular includes are fine), only files
 * under the output written, bytes that are not UTF-8 kept as they are. Files that start with
 * PyTorch's hipify breadcrumb are skipped. r->on_file sees every file taken, in walk order. */
hp_status hp_project_run(const hp_translate_opts *t, const hp_run_opts *r,
                         const hp_project_opts *p, const char *const *roots, int nroots);

/* The installed PyTorch and the generation of its hipify. */
typedef struct hp_pytorch_info {
    int mode;           /* HP_PYTORCH_V2 (2.11 and newer) or HP_PYTORCH_MASQUERADE */
    int found;          /* a torch/version.py was found */
    char version[64];   /* its __version__ ("2.10.0+rocm7.0"); "" when not found */
    char path[1024];    /* the torch/version.py read; "" when not found */
} hp_pytorch_info;

/* Looks for torch/version.py on the Python path: the entries of pythonpath (a PYTHONPATH
 * value; may be NULL), then the site-packages of $VIRTUAL_ENV, $CONDA_PREFIX, the first python3
 * on $PATH, ~/.local, /usr/local and /usr. Without one, mode is HP_PYTORCH_V2 (the current
 * generation). */
void hp_pytorch_detect(const char *pythonpath, hp_pytorch_info *out);
const char *hp_pytorch_mode_name(int mode); /* "masquerade", "v2" or "off" (static) */

/* Aggregated statistics of a run, formatted as text or JSON (caller frees). */
typedef struct hp_stats hp_stats;
hp_stats *hp_stats_new(void);
void hp_stats_add(hp_stats *st, const hp_file_result *r);
char *hp_stats_format(const hp_stats *st, int json, double seconds);
void hp_stats_free(hp_stats *st);

/* ---------------------------------------------------------------- reports */

typedef struct hp_report_opts {
    int color;       /* ANSI colours */
    int show_source; /* the source line and a caret under the finding */
    int show_fix;    /* a "fix:" line after the finding */
} hp_report_opts;

/* Compiler-style text: "path:line:col: severity: message [RULE]" (caller frees). */
char *hp_report_text(const hp_finding *f, int n, const hp_report_opts *o);

/* ---------------------------------------------------------------- check (rules) */
/* section: check */

/* Options of check. hp_check_opts_init: the default targets, every rule on, HIP unknown. */
typedef struct hp_check_opts {
    /* GPU targets, comma-separated ("gfx942,gfx1100"; features such as ":xnack+" are
     * ignored). NULL or "": the wave64 Instinct default gfx908,gfx90a,gfx942,gfx950. Rules
     * that only bite on 64-lane wavefronts become notes when every target is gfx10 or newer. */
    const char *targets;
    /* Rule selection, applied in order: "ID" (WAVE003), a family ("WAVE") or "all" turns
     * rules on; the same with a leading '-' turns them off. */
    const char *const *rules;
    int nrules;
    int hip_version; /* the HIP that will build the code (major*100+minor); 0: not known */
    /* hp_check_run: a tree's directories of other vendors' backends (named sycl, ascend, npu,
     * xpu, musa, metal, ... alone or after '-' or '_': ggml-sycl, backends/_ascend) are not
     * entered, each reported once as a skipped result, unless this is set. Inputs named
     * directly always are. */
    int other_vendors;
    /* hp_check_run only: each file's findings, sorted as hp_finding_sort sorts them, are also
     * rendered by the worker that found them into hp_file_result.report, as hp_report_text
     * (with render_opts) or hp_report_json_items renders them. HP_RENDER_NONE by default. */
    int render;
    hp_report_opts render_opts;
} hp_check_opts;

enum { HP_RENDER_NONE = 0, HP_RENDER_TEXT, HP_RENDER_JSON };

void hp_check_opts_init(hp_check_opts *o);
/* HP_OK, or HP_EUSAGE with a one-line reason in why[0..whylen) (a bad target or rule). */
hp_status hp_check_opts_validate(const hp_check_opts *o, char *why, ptrdiff_t whylen);
/* 1 when some target of the list (NULL: the default) runs 64-lane wavefronts, 0 when none
 * does, -1 when the list is malformed. */
int hp_check_wave64(const char *targets);

typedef struct hp_check_result {
    const hp_finding *findings; /* ctx; sorted by line, column, rule */
    int nfindings;
    int suppressed;             /* findings silenced by hipport-ignore comments */
    const char *language;       /* "c++", ...; NULL when no language claims the path */
} hp_check_result;

/* Checks one buffer. path decides the language (and is copied into findings). */
hp_status hp_check_buffer(hp_ctx *ctx, const hp_check_opts *o, const char *path,
                          const char *src, ptrdiff_t len, hp_check_result *out);

/* Checks files and trees; each file's findings reach r->on_file (hp_file_result.findings,
 * .suppressed). Trees contribute the files some check language claims (hp_check_wants). */
hp_status hp_check_run(const hp_check_opts *o, const hp_run_opts *r, const char *const *paths,
                       int npaths);
/* hp_translate_opts.annotator of translate --annotate: the C++ findings of the default
 * targets on src, as on CUDA code (what translation fixes itself is left out). */
hp_status hp_check_annotations(hp_ctx *ctx, const char *path, const char *src, ptrdiff_t len,
                               const hp_finding **out, int *n);
int hp_check_wants(const char *name, const hp_run_opts *r);

/* The rules. */
typedef struct hp_rule_info {
    const char *id;        /* "WAVE003" */
    const char *family;    /* "wave" */
    const char *title;     /* one line */
    const char *fix;       /* the default fix */
    const char *languages; /* "c++", "python", "build", comma-separated */
    hp_severity severity;  /* default severity */
    int wave64;            /* only bites on 64-lane wavefronts */
} hp_rule_info;

int hp_rule_count(void);
int hp_rule_get(int i, hp_rule_info *out); /* 1 when i is in range (static strings) */
/* The rule pages compiled in (docs/rules/ID.md): their count, and the ID of page i. */
int hp_rule_doc_count(void);
/* The record hipify-python keeps in its output directory of the files it wrote. A directory
 * that holds one is a translated copy: walks of a tree do not enter it (naming it walks it). */
#define HP_HIPIFY_RECORD ".hipport-hipify"

/* 0 when the --exclude pattern pat has a '[' without its ']'. */
int hp_glob_valid(const char *pat);
const char *hp_rule_doc_name(int i);
int hp_rule_find(const char *id);          /* index, or -1 */
const char *hp_rule_doc(const char *id);   /* the rule's page (static markdown), or NULL */

/* A growing set of findings, deep-copied (reports over a whole run). */
typedef struct hp_findings hp_findings;
hp_findings *hp_findings_new(void);
int hp_findings_add(hp_findings *fs, const hp_finding *f, int n); /* 0, or -1 out of memory */
void hp_findings_sort(hp_findings *fs); /* by path, line, column, rule, message */
/* The same order for an array (one file's findings, say). */
void hp_finding_sort(hp_finding *f, int n);
const hp_finding *hp_findings_items(const hp_findings *fs, int *n); /* owned by fs */
void hp_findings_free(hp_findings *fs);

typedef struct hp_check_summary {
    long long files;      /* files checked */
    long long failed;     /* files that could not be read */
    long long suppressed; /* findings silenced by hipport-ignore comments */
    long long baselined;  /* findings left out because the baseline holds them */
} hp_check_summary;

/* {"version":1,"findings":[...],"summary":{...}} (caller frees). s may be NULL. */
char *hp_report_json(const hp_finding *f, int n, const hp_check_summary *s);
/* The same report put together from pieces, so that each file's findings can be rendered as
 * soon as they are known: hp_report_json_items renders findings as items of the "findings"
 * array, each preceded by ",\n" (caller frees); hp_report_json_join puts the report around
 * npieces such strings, in order (len[i] bytes each; n findings in all, count[] of them per
 * hp_severity). Pieces of the findings sorted, in order, give what hp_report_json gives. */
char *hp_report_json_items(const hp_finding *f, int n);
char *hp_report_json_join(const char *const *piece, const ptrdiff_t *len, int npieces, int n,
                          const long long count[4], const hp_check_summary *s);
/* The joined report handed to write in parts (the pieces as they are, with the report's head
 * and tail around them) instead of made whole: a large report is not copied once more. write
 * returns 0 to go on; its first other value is returned (0 when all was written; -1 when
 * memory ran out). */
int hp_report_json_write(const char *const *piece, const ptrdiff_t *len, int npieces, int n,
                         const long long count[4], const hp_check_summary *s,
                         int (*write)(void *ud, const char *p, ptrdiff_t n), void *ud);
/* SARIF 2.1.0, one run; the driver lists the rules the results use (caller frees). */
char *hp_report_sarif(const hp_finding *f, int n, const hp_check_summary *s);

/* Baselines: a JSON report of hp_report_json. A finding is "known" when the baseline holds
 * one with the same path, rule and message (line and column are ignored, so edits elsewhere
 * in the file do not bring it back); each baseline entry absorbs one finding. */
typedef struct hp_baseline hp_baseline;
/* NULL on malformed input, with a one-line reason in why. */
hp_baseline *hp_baseline_parse(const char *json, ptrdiff_t len, char *why, ptrdiff_t whylen);
/* Removes the known findings from f[0..n) (keeping the order); returns how many remain.
 * Call it on findings sorted by path, line and column so that the earliest are absorbed. */
int hp_baseline_filter(hp_baseline *b, hp_finding *f, int n);
void hp_baseline_free(hp_baseline *b);

/* end section: check */

/* ---------------------------------------------------------------- targets (binaries) */
/* section: targets */

typedef enum hp_vendor {
    HP_VENDOR_NONE = 0,
    HP_VENDOR_AMD = 1,
    HP_VENDOR_NVIDIA = 2
} hp_vendor;

const char *hp_vendor_name(hp_vendor v); /* "amd", "nvidia", "none"; static */

/* One piece of GPU code found in a file. Every string is static or lives in the ctx. */
typedef struct hp_gpu_code {
    hp_vendor vendor;
    const char *target;  /* "gfx90a:xnack+", "gfx11-generic", "sm_90a", "compute_90";
                            "unknown" when the container could not be read */
    const char *kind;    /* "code-object", "bitcode", "sass", "ptx" (also "spirv", "unknown") */
    int compressed;      /* stored compressed */
    int readable;        /* 0: compressed content that could not be decompressed here */
    const char *where;   /* the container it was found in (member, section, bundle offset) */
    const char *id;          /* the container's name for it: the offload bundle entry ID
                                ("hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+") or the offloading
                                binary's "triple arch"; NULL if none */
    const char *compression; /* "zstd", "zlib", "nvidia-lz", ...; NULL if not compressed */
    const char *detail;      /* more about it ("code object v5", "PTX ISA 9.0"); may be NULL */
} hp_gpu_code;

typedef struct hp_targets_result {
    const char *format;        /* "elf-executable", "elf-shared-object", "elf-relocatable",
                                  "archive", "offload-bundle", "compressed-offload-bundle",
                                  "offload-binary", "amdgpu-code-object", "nvidia-fatbin",
                                  "cubin"; NULL when the file could not be read at all */
    const hp_gpu_code *code;   /* ctx; in the order found */
    int ncode;
    const hp_finding *notes;   /* problems met while reading (ctx); a note of severity
                                  HP_SEV_ERROR means part of the file could not be read, one of
                                  HP_SEV_WARNING that some content could not be interpreted
                                  (compressed code without its decompressor, ...) */
    int nnotes;
} hp_targets_result;

/* Lists the GPU code inside a buffer (an ELF file, an archive, an offload bundle, a code
 * object, a fatbin or a cubin). Never reads outside data[0..len). Returns HP_OK when the
 * format was recognized (problems inside are notes), HP_EFORMAT when it was not, HP_ENOMEM
 * when memory ran out; on failure notes[0] says why in one line. Compressed offload bundles
 * are decompressed with libz.so.1 / libzstd.so.1 loaded at run time when present. */
hp_status hp_targets_scan(hp_ctx *ctx, const char *path, const void *data, ptrdiff_t len,
                          hp_targets_result *out);
/* The same for a file on disk (HP_EIO when it cannot be read; notes[0] says why). */
hp_status hp_targets_scan_file(hp_ctx *ctx, const char *path, hp_targets_result *out);

typedef enum hp_verdict {
    HP_VERDICT_RUNS = 0,      /* some code runs on the GPU */
    HP_VERDICT_WONT_RUN = 1,  /* GPU code is there, none of it for this GPU */
    HP_VERDICT_NO_GPU_CODE = 2,
    HP_VERDICT_UNKNOWN = 3    /* nothing readable runs, and some code could not be read */
} hp_verdict;

/* Checks a GPU name for hp_targets_match: an AMD target ID ("gfx942", "gfx90a:xnack-",
 * "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-") or an NVIDIA compute capability ("sm_90",
 * "9.0", "compute_90"). Returns HP_OK and sets *canonical ("gfx90a:xnack-", "sm_90"; ctx),
 * or HP_EUSAGE with *err (ctx) saying what is wrong. */
hp_status hp_targets_parse_gpu(hp_ctx *ctx, const char *gpu, const char **canonical,
                               const char **err);

/* Would the code in res run on gpu ("gfx942", "gfx90a:xnack-", "sm_90")? *reason (ctx)
 * explains the verdict in one line. AMD rules: the processor is equal or a generic target
 * covers it, and each feature the code pins (xnack, sramecc) has the GPU's state; a GPU
 * named without xnack is taken to run with xnack off (the default), one named without
 * sramecc to match either state. Bitcode never runs. NVIDIA rules: SASS sm_XY runs on X.Z for
 * Z >= Y, sm_XYa only on X.Y, sm_XYf on X.Z for Z >= Y; PTX compute_XY is compiled by the
 * driver for any GPU of X.Y or newer (compute_XYa: X.Y only; compute_XYf: X.Z, Z >= Y).
 * An invalid gpu gives HP_VERDICT_UNKNOWN. */
hp_verdict hp_targets_match(hp_ctx *ctx, const hp_targets_result *res, const char *gpu,
                            const char **reason);

/* end section: targets */

/* ---------------------------------------------------------------- doctor */
/* section: doctor */

/* What doctor reads. Every path it reports is the machine's path (without root). */
typedef struct hp_doctor_opts {
    const char *root;                /* file-system root to read; NULL or "/": this machine */
    const char *const *env;          /* environment: "NAME=value" strings, NULL-terminated.
                                        NULL: none, except that a fake root's ROOT/environ file
                                        (NAME=value lines) is read when it exists */
    const char *env_file;            /* NAME=value lines that replace env; NULL: none */
    const char *const *env_set;      /* "NAME=value" overrides ("NAME" alone unsets), NULL-ended */
    const char *const *python_paths; /* more site-packages directories (machine paths), NULL-ended */
    int no_libs;                     /* do not look inside PyTorch's GPU libraries */
} hp_doctor_opts;

void hp_doctor_opts_init(hp_doctor_opts *o);

/* The state of a target feature (xnack, sramecc) on a GPU. */
typedef enum hp_feature {
    HP_FEATURE_UNSUPPORTED = -1, /* the processor has no such feature */
    HP_FEATURE_OFF = 0,
    HP_FEATURE_ON = 1
} hp_feature;

/* One GPU. Strings are never NULL ("" when unknown). */
typedef struct hp_doctor_gpu {
    hp_vendor vendor;
    int index;                /* 0-based among all GPUs found: AMD (KFD order) first, then NVIDIA */
    int vendor_index;         /* 0-based among its vendor's GPUs: the runtime's device number */
    const char *source;       /* where it was found: "kfd", "pci", "nvidia-driver" */
    const char *arch;         /* "gfx942", "sm_90" */
    const char *target;       /* full target id: "gfx942:sramecc+:xnack-", "sm_90" */
    const char *effective;    /* the target the runtime uses (HSA_OVERRIDE_GFX_VERSION, HSA_XNACK) */
    const char *name;         /* marketing name */
    const char *family;       /* "CDNA3", "RDNA3", "Hopper" */
    const char *bdf;          /* PCI address "0000:47:00.0" */
    unsigned pci_vendor, pci_device;
    const char *driver;       /* bound kernel driver: "amdgpu", "nvidia", "vfio-pci" */
    int kfd_node;             /* KFD topology node, -1 if not from KFD */
    unsigned gfx_target_version;
    int wavefront;            /* 64 or 32; 0 if unknown */
    int compute_units;        /* 0 if unknown */
    int simds;                /* AMD SIMDs; 0 if unknown */
    int lds_kb;               /* LDS per compute unit (KiB); 0 if unknown */
    long long vram_bytes;     /* 0 if unknown */
    int xcc;                  /* AMD XCDs in this node; 0 if unknown */
    int max_clock_mhz;        /* 0 if unknown */
    hp_feature xnack;
    hp_feature sramecc;
    const char *xnack_basis;  /* why doctor believes the xnack state */
    int cc_major, cc_minor;   /* NVIDIA compute capability; 0.0 if unknown */
    const char *cc_basis;     /* how the compute capability was found */
    const char *uuid;         /* "GPU-..." */
    const char *device_node;  /* "/dev/dri/renderD128", "/dev/nvidia0" */
} hp_doctor_gpu;

/* A PyTorch GPU library (torch/lib/libtorch_hip.so, ...) and whether it carries GPU code for
 * this machine's GPUs (through hp_targets_scan_file and hp_targets_match). */
typedef struct hp_doctor_lib {
    const char *path;         /* machine path */
    int scanned;              /* 0: not looked into (reason says why) */
    const char *targets;      /* distinct targets inside, space-separated ("gfx90a gfx942") */
    int ncode;                /* pieces of GPU code found */
    hp_verdict verdict;       /* the worst verdict over the GPUs checked */
    const char *gpu;          /* the GPU target of that verdict, "" if none was checked */
    const char *reason;       /* one line */
} hp_doctor_lib;

/* A PyTorch install (one site-packages directory). */
typedef struct hp_doctor_torch {
    const char *site;         /* site-packages directory */
    const char *version;      /* torch/version.py __version__ */
    const char *build;        /* "rocm", "cuda" or "cpu" */
    const char *cuda;         /* torch/version.py cuda ("13.0"), "" if None */
    const char *hip;          /* torch/version.py hip ("6.2.41133-dd7f95766"), "" if None */
    const char *metadata;     /* its dist-info METADATA file, "" if none was found */
    const char *triton_pin;   /* the Triton requirement there ("triton==3.6.0"), "" if none */
    int bundles_runtime;      /* torch/lib carries the HIP or CUDA runtime library */
    const hp_doctor_lib *libs;
    int nlibs;
} hp_doctor_torch;

/* A Triton install. */
typedef struct hp_doctor_triton {
    const char *site;
    const char *dist;         /* distribution: "triton", "pytorch-triton-rocm", ...; "" if unknown */
    const char *version;      /* "" if unknown */
} hp_doctor_triton;

/* ROCm's libraries as Python wheels for one GPU family (rocm-sdk-libraries-gfx94X-dcgpu, from
 * the per-family wheel indexes): they carry GPU code for that family only. */
typedef struct hp_doctor_rocm_sdk {
    const char *site;
    const char *dist;         /* "rocm-sdk-libraries-gfx94x-dcgpu" (normalised) */
    const char *family;       /* "gfx94X-dcgpu", as the wheel spells it */
    const char *version;      /* "" if unknown */
    const char *metadata;     /* its dist-info directory */
} hp_doctor_rocm_sdk;

/* A ROCm install. */
typedef struct hp_doctor_rocm {
    const char *path;         /* "/opt/rocm-6.2.4" */
    const char *version;      /* "6.2.4" */
    const char *source;       /* the file the version was read from */
} hp_doctor_rocm;

/* An environment variable that doctor checks, as it is set. */
typedef struct hp_doctor_var {
    const char *name;
    const char *value;
} hp_doctor_var;

typedef struct hp_doctor_report {
    const char *root;               /* as given; "/" for this machine */
    const hp_doctor_gpu *gpus;
    int ngpus;
    int kfd_present;                /* the KFD topology exists (amdgpu with compute support) */
    const hp_doctor_rocm *rocm;     /* [0] is the one in use ($ROCM_PATH, /opt/rocm) */
    int nrocm;
    const char *hip_version;        /* "6.2.41134"; "" if not found */
    const char *hip_source;
    const char *amdgpu_version;     /* out-of-tree (DKMS) amdgpu module version, "" */
    const char *nvidia_driver;      /* "580.159.04", "" */
    const char *nvidia_driver_cuda; /* newest CUDA the driver runs natively ("13.0"), "" */
    const char *cuda_version;       /* CUDA toolkit ("13.0.88"), "" */
    const char *cuda_source;
    const char *const *python_dirs; /* site-packages directories looked at */
    int npython_dirs;
    const hp_doctor_torch *torch;
    int ntorch;
    const hp_doctor_triton *triton;
    int ntriton;
    const hp_doctor_rocm_sdk *rocm_sdk; /* ROCm's per-GPU-family library wheels */
    int nrocm_sdk;
    const hp_doctor_var *env;       /* the variables doctor checks that are set */
    int nenv;
    const hp_finding *findings;     /* rules ENV001-ENV004 and DOC001-DOC004; the path is the
                                       file or the environment variable concerned */
    int nfindings;
    const hp_finding *problems;     /* inputs that exist but could not be read (rule "HP-IO") */
    int nproblems;
} hp_doctor_report;

/* Looks at the machine (or the fake root). Results live in ctx. HP_OK, or HP_ENOMEM, or HP_EIO
 * when the root or the env_file cannot be read at all. */
hp_status hp_doctor_run(hp_ctx *ctx, const hp_doctor_opts *o, hp_doctor_report *out);

/* The report as text (findings in the compiler style of hp_report_text, with their fix) or as
 * JSON ({"gpus":[...],"findings":[...],...}). The caller frees it; NULL if out of memory. */
char *hp_doctor_format(const hp_doctor_report *r, int json, const hp_report_opts *ro);

/* The first GPU's full target id ("gfx90a:sramecc+:xnack-", "sm_90") after the environment's
 * HSA_OVERRIDE_GFX_VERSION and HSA_XNACK (this process's environment for this machine, ROOT/environ
 * for a fake root). root NULL or "/": this machine. Returns 1 and sets *target (ctx), or 0 when
 * there is no GPU (*target NULL). Used by "targets --gpu auto". */
int hp_doctor_gpu_target(hp_ctx *ctx, const char *root, const char **target);

/* end section: doctor */

#ifdef __cplusplus
}
#endif

#endif
