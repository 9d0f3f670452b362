/* run.h: running a per-file job over inputs and trees on a worker pool, with results handed
 * to the caller in input order whatever the number of workers. */
#ifndef HP_RUN_H
#define HP_RUN_H

#include "ctx.h"
#include "hipport.h"
#include "walk.h"

typedef struct run_job {
    long long seq;
    const char *path;
    const char *rel;      /* relative to the input root */
    int from_tree;
    hp_status status;     /* an error found while walking */
    const char *error;    /* its reason, or why the job is skipped */
    char *owned;          /* malloc'd block holding the strings while the job is queued */
    int input;            /* the index of its input in the run's paths */
    int skip;             /* not a file: reported as skipped, with error (walk_item.skip) */
} run_job;

/* Processes one file: fills res (memory in ctx). */
typedef void (*run_fn)(void *ud, hp_ctx *ctx, const run_job *job, hp_file_result *res);

typedef struct run_spec {
    run_fn fn;
    void *ud;
    int (*want)(void *ud, const char *name); /* which tree files to take */
    void *want_ud;
    unsigned long long skip_dev, skip_ino;   /* a directory never entered */
    int have_skip;
    int report_links; /* symbolic links to directories not followed are skipped jobs */
    int skip_hipified_copies; /* walk_opts.skip_hipified_copies */
    const char *(*skip_dir)(void *ud, const char *rel); /* walk_opts.skip_dir */
    void *skip_dir_ud;
    int skip_inner_links; /* walk_opts.skip_inner_links */
    /* Results hold nothing in the context but what hp_file_result points to: each worker then
     * keeps one context for all its files and the result is copied out for the writer. */
    int detach;
    /* Outputs are named by the files' relative paths (-O DIR): two different files of two
     * inputs with the same relative path are an error (the later one's job). */
    int unique_rel;
    /* Where set, every job the walk makes is kept here, in order, for run_replay. */
    struct run_record *record;
} run_spec;

/* The jobs of a walk, kept to run a second pass over the same files without walking again
 * (a tree's directories listed once: check's two passes). */
typedef struct run_record {
    arena a;      /* the jobs' strings */
    run_job *v;
    long long n, cap;
    int failed;   /* memory ran out: incomplete, not to be replayed */
} run_record;

void run_record_init(run_record *rec);
void run_record_free(run_record *rec);

hp_status run_files(const hp_run_opts *r, const run_spec *spec, const char *const *paths,
                    int npaths);

/* Runs spec->fn for the jobs 0 .. n-1 (the job's seq; no path: the caller's own list says
 * what each job is) on r->jobs workers, with r->on_file and r->on_progress called in order,
 * as run_files does. spec's want and skip fields are not used. */
hp_status run_list(const hp_run_opts *r, const run_spec *spec, long long n);

/* Runs spec->fn for the jobs rec kept, as run_files did for them (same order, same numbers);
 * spec's walk fields are not used. */
hp_status run_replay(const hp_run_opts *r, const run_spec *spec, const run_record *rec);

/* Reads the source file of a job into a (NUL-terminated). On failure fills res with the reason
 * (status and error) and returns 0. A binary file is an error (HP_EBINARY), or, when it was met
 * in a tree walk and skip_tree_binary is set, marked skipped. */
int run_read_source(arena *a, const run_job *job, int skip_tree_binary, hp_file_result *res,
                    char **data, ptrdiff_t *len);
/* The same, also giving the file's st_mode (from the read's fstat: no second stat). */
int run_read_source_mode(arena *a, const run_job *job, int skip_tree_binary,
                         hp_file_result *res, char **data, ptrdiff_t *len, unsigned *mode);

/* Copies everything r points to into a (a result kept beyond its job's context). Returns 0
 * when memory ran out. */
int run_detach(arena *a, hp_file_result *r);

/* Is the buffer binary (a NUL byte in its first 8 KiB)? */
int run_is_binary(const char *data, ptrdiff_t len);

/* Default C-family extensions of translate and check. */
int run_is_c_family(const char *name, const hp_run_opts *r);

#endif
