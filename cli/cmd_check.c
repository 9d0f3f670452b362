/* cmd_check.c: hipport check: portability findings over files and trees, as text, JSON or
 * SARIF, with --fail-on, --target, rule selection and baselines. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "opt.h"

enum { F_TEXT = 1, F_JSON, F_SARIF }; /* 0: none (state.render) */

/* One file's findings, sorted and rendered as soon as they came (so that the rendering
 * overlaps the workers' run instead of following it). */
typedef struct piece {
    char *path;
    char *text;
    ptrdiff_t len;
    int seq; /* arrival: keeps equal paths in order when the pieces are sorted */
} piece;

typedef struct state {
    hp_findings *all;
    hp_check_summary sum;
    int io_errors;
    int oom;
    cli_progress progress;
    int render; /* F_JSON or F_TEXT: findings rendered file by file; 0: at the end */
    piece *pc;
    int npc, cappc;
    /* keep: the findings are also kept (in all) for a report made at the end, which a
     * baseline, SARIF or several inputs (a path could come twice) may need; without them
     * only their number per severity is kept */
    int keep;
    int nfind;
    int count[4];
    int broken; /* pieces failed without the findings kept */
} state;

static int cmp_piece(const void *x, const void *y)
{
    const piece *a = x, *b = y;
    int c = strcmp(a->path, b->path);
    return c ? c : (a->seq > b->seq) - (a->seq < b->seq);
}

/* Keeps a file's findings as one piece of the report, as the worker rendered them. Findings
 * about another path than the first one's (none are made today) turn the pieces off: the
 * report is then made at the end from the kept findings. */
static void add_piece(state *s, const hp_file_result *r)
{
    const char *path = r->findings[0].path;
    for (int i = 1; i < r->nfindings; i++)
        if (!path || !r->findings[i].path || strcmp(r->findings[i].path, path) != 0) {
            s->render = 0;
            s->broken |= !s->keep;
            return;
        }
    if (s->npc == s->cappc) {
        int ncap = s->cappc ? 2 * s->cappc : 256;
        piece *np = realloc(s->pc, (size_t)ncap * sizeof *np);
        if (np) {
            s->pc = np;
            s->cappc = ncap;
        }
    }
    /* no report: the worker ran out of memory rendering it */
    char *p = path && r->report ? strdup(path) : NULL;
    char *text = p ? malloc((size_t)r->report_len + 1) : NULL;
    if (!text || s->npc == s->cappc) {
        free(p);
        free(text);
        s->render = 0;
        s->oom |= !s->keep;
        return;
    }
    memcpy(text, r->report, (size_t)r->report_len + 1);
    piece *pc = &s->pc[s->npc];
    pc->path = p;
    pc->text = text;
    pc->len = r->report_len;
    pc->seq = s->npc++;
}

/* Writes a part of the report to standard output; a write error shows in ferror(stdout),
 * which is looked at once all is written. */
static int write_out(void *ud, const char *p, ptrdiff_t n)
{
    if (n > 0)
        fwrite(p, 1, (size_t)n, ud);
    return 0;
}

/* The pieces in report order; 0 when they cannot make the report (a path checked twice: its
 * findings would have to be merged). */
static int pieces_ready(state *s)
{
    if (!s->render)
        return 0;
    if (s->npc > 1)
        qsort(s->pc, (size_t)s->npc, sizeof *s->pc, cmp_piece);
    for (int i = 1; i < s->npc; i++)
        if (strcmp(s->pc[i - 1].path, s->pc[i].path) == 0)
            return 0;
    return 1;
}

static void free_pieces(state *s)
{
    for (int i = 0; i < s->npc; i++) {
        free(s->pc[i].path);
        free(s->pc[i].text);
    }
    free(s->pc);
}

static void on_file(void *ud, const hp_file_result *r)
{
    state *s = ud;
    if (r->status != HP_OK) {
        cli_progress_done(&s->progress);
        fprintf(stderr, "hipport check: '%s': %s\n", r->path,
                r->error ? r->error : hp_status_name(r->status));
        s->io_errors++;
        s->sum.failed++;
        return;
    }
    if (r->skipped) {
        /* a directory not entered (hipify-python's output), a link not followed */
        if (r->error && r->error[0]) {
            cli_progress_done(&s->progress);
            fprintf(stderr, "hipport check: note: '%s' skipped: %s\n", r->path, r->error);
        }
        return;
    }
    s->sum.files++;
    s->sum.suppressed += r->suppressed;
    for (int i = 0; i < r->nfindings; i++) {
        hp_severity v = r->findings[i].severity;
        if (v >= HP_SEV_NOTE && v <= HP_SEV_ERROR)
            s->count[v]++;
    }
    s->nfind += r->nfindings;
    if (r->nfindings && s->keep && hp_findings_add(s->all, r->findings, r->nfindings) != 0)
        s->oom = 1;
    if (r->nfindings && s->render)
        add_piece(s, r);
}

static void on_progress(void *ud, long long files, long long bytes)
{
    state *s = ud;
    cli_progress_update(&s->progress, files, bytes);
}

/* '-': standard input, checked as the file name says (its language), through on_file. */
static hp_status check_stdin(const hp_check_opts *o, state *s, const char *name)
{
    ptrdiff_t len;
    char *src = cli_read_all(stdin, &len);
    hp_file_result res;
    memset(&res, 0, sizeof res);
    res.path = name;
    if (!src) {
        res.status = HP_EIO;
        res.error = "cannot read standard input";
        on_file(s, &res);
        return HP_OK;
    }
    hp_ctx *ctx = hp_ctx_new();
    if (!ctx) {
        free(src);
        return HP_ENOMEM;
    }
    hp_check_result cr;
    hp_status st = hp_check_buffer(ctx, o, name, src, len, &cr);
    if (st == HP_OK) {
        res.findings = cr.findings;
        res.nfindings = cr.nfindings;
        res.suppressed = cr.suppressed;
        if (!cr.language) {
            res.status = HP_EUSAGE;
            res.error = "no check language for this name (name it with --stdin-name)";
        }
        on_file(s, &res); /* keeps a copy of the findings */
    }
    hp_ctx_free(ctx);
    free(src);
    return st;
}

static char *read_all(const char *path, long *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 65536, n = 0, k;
    char *p = malloc(cap);
    while (p && (k = fread(p + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            char *q = realloc(p, cap * 2);
            if (!q) {
                free(p);
                p = NULL;
                break;
            }
            p = q;
            cap *= 2;
        }
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(p);
        return NULL;
    }
    *len = (long)n;
    return p;
}

int cmd_check(int argc, char **argv)
{
    const char *cmd = "check";
    hp_check_opts o;
    hp_check_opts_init(&o);
    hp_run_opts r;
    hp_run_opts_init(&r);
    state s;
    memset(&s, 0, sizeof s);
    opt_list paths = {NULL, 0, 0}, excl = {NULL, 0, 0}, exts = {NULL, 0, 0}, sel = {NULL, 0, 0};
    int rc, color = 0, format = F_TEXT, brief = 0;
    int fail_on = HP_SEV_ERROR;
    const char *baseline = NULL, *stdin_name = "stdin.cu";
    hp_baseline *bl = NULL;
    hp_finding *items = NULL;
    char *report = NULL;
    static const char *const formats[] = {"text", "json", "sarif", NULL};
    static const int format_values[] = {F_TEXT, F_JSON, F_SARIF};
    const opt options[] = {
        OPT_ENUM(0, "format", "text|json|sarif", &format, formats, format_values,
                 "report format (default: text)"),
        OPT_CALL(0, "fail-on", "error|warning|note|never", cli_opt_fail_on, &fail_on,
                 "exit 1 on findings this severe (default: error)"),
        OPT_STRING(0, "target", "LIST", &o.targets,
                   "GPU targets such as gfx942,gfx1100 (default: gfx9 Instinct)"),
        OPT_LIST(0, "enable", "RULE", &sel, "+",
                 "turn a rule, a family (WAVE) or all on (repeatable, in order)"),
        OPT_LIST(0, "disable", "RULE", &sel, "-",
                 "turn a rule, a family or all off (repeatable, in order)"),
        OPT_STRING(0, "baseline", "FILE", &baseline,
                   "report only findings that the JSON report FILE does not hold"),
        OPT_INT('j', "jobs", "N", &r.jobs, 1, CLI_JOBS_MAX,
                "worker threads (default: the CPUs this process may use)"),
        OPT_CALL(0, "exclude", "GLOB", cli_opt_exclude, &excl,
                 "skip tree paths matching GLOB (repeatable)"),
        OPT_LIST(0, "ext", "EXT", &exts, NULL,
                 "also take files with this extension from trees (repeatable)"),
        OPT_CALL(0, "hip-version", "X.Y", cli_opt_hip_version, &o.hip_version,
                 "the HIP that will build the code (rules that depend on it)"),
        OPT_CALL(0, "rocm", "X.Y", cli_opt_hip_version, &o.hip_version,
                 "the ROCm that will build the code: the same as --hip-version X.Y"),
        OPT_FLAG(0, "brief", &brief, 1,
                 "text: one line per finding (no source line, caret or fix)"),
        OPT_ENUM(0, "color", "auto|always|never", &color, cli_color_words, NULL,
                 "colour text findings (default: auto)"),
        OPT_FLAG(0, "other-vendors", &o.other_vendors, 1,
                 "also check trees' backends for other vendors (ggml-sycl, backends/xpu)"),
        OPT_FLAG(0, "no-follow", &r.follow_symlinks, 0,
                 "do not follow symbolic links to directories in trees"),
        OPT_STRING(0, "stdin-name", "FILE", &stdin_name,
                   "the file that '-' (standard input) stands for: its name decides the language "
                   "(default stdin.cu)"),
        OPT_CALL('h', "help", NULL, cli_opt_help, NULL, "show this help"),
        OPT_END(),
    };
    const opt operand = OPT_ARGS(&paths);
    opt_state os;
    opt_init(&os, argc, argv, cmd);
    if ((rc = opt_parse(&os, options, &operand)) != OPT_CONTINUE)
        goto done;
    rc = EXIT_OK;
    int npaths = paths.n;
    if (npaths == 0) {
        rc = cli_usage(cmd, "no input files");
        goto done;
    }
    int from_stdin = 0;
    for (int i = 0; i < npaths; i++)
        if (strcmp(paths.v[i], "-") == 0)
            from_stdin = 1;
    if (from_stdin && npaths > 1) {
        rc = cli_usage(cmd, "'-' (standard input) is one file: check it alone");
        goto done;
    }
    o.rules = opt_list_items(&sel);
    o.nrules = sel.n;
    char why[256];
    if (hp_check_opts_validate(&o, why, (ptrdiff_t)sizeof why) != HP_OK) {
        rc = cli_usage(cmd, "%s", why);
        goto done;
    }
    if (baseline) {
        long blen = 0;
        char *text = read_all(baseline, &blen);
        if (!text) {
            cli_error(cmd, "cannot read the baseline '%s'", baseline);
            rc = EXIT_IO;
            goto done;
        }
        bl = hp_baseline_parse(text, blen, why, (ptrdiff_t)sizeof why);
        free(text);
        if (!bl) {
            rc = cli_usage(cmd, "baseline '%s': %s", baseline, why);
            goto done;
        }
    }
    s.all = hp_findings_new();
    if (!s.all) {
        cli_error(cmd, "out of memory");
        rc = EXIT_INTERNAL;
        goto done;
    }
    r.excludes = opt_list_items(&excl);
    r.nexcludes = excl.n;
    r.exts = opt_list_items(&exts);
    r.nexts = exts.n;
    r.on_file = on_file;
    r.on_progress = on_progress;
    r.ud = &s;
    /* JSON and text reports are rendered file by file while the run goes on; a baseline
     * filters the whole sorted list, and SARIF groups by rule: those wait for the end */
    s.keep = 1;
    if ((format == F_JSON || format == F_TEXT) && !bl && !from_stdin) {
        s.keep = npaths > 1;
        s.render = format;
        hp_report_opts ro = {cli_use_color(stdout, color), !brief, !brief};
        o.render = format == F_JSON ? HP_RENDER_JSON : HP_RENDER_TEXT;
        o.render_opts = ro;
    }
    cli_progress_init(&s.progress);
    hp_status st = from_stdin ? check_stdin(&o, &s, stdin_name)
                              : hp_check_run(&o, &r, opt_list_items(&paths), npaths);
    cli_progress_done(&s.progress);
    if (st != HP_OK) {
        cli_error(cmd, "%s", hp_status_name(st));
        rc = st == HP_EUSAGE ? EXIT_USAGE : EXIT_INTERNAL;
        goto done;
    }
    if (s.oom) {
        cli_error(cmd, "out of memory");
        rc = EXIT_INTERNAL;
        goto done;
    }
    if (s.broken) {
        cli_error(cmd, "internal error: a file's findings name another file");
        rc = EXIT_INTERNAL;
        goto done;
    }
    int pieces = pieces_ready(&s);
    if (!pieces)
        hp_findings_sort(s.all);
    int n;
    const hp_finding *f = hp_findings_items(s.all, &n);
    items = malloc(((size_t)n + 1) * sizeof *items);
    if (!items) {
        cli_error(cmd, "out of memory");
        rc = EXIT_INTERNAL;
        goto done;
    }
    if (n)
        memcpy(items, f, (size_t)n * sizeof *items);
    if (bl) {
        int kept = hp_baseline_filter(bl, items, n);
        s.sum.baselined = n - kept;
        n = kept;
    }
    int counts[4] = {0, 0, 0, 0};
    for (int i = 0; i < n; i++) {
        if (items[i].severity >= HP_SEV_NOTE && items[i].severity <= HP_SEV_ERROR)
            counts[items[i].severity]++;
        if (fail_on != HP_SEV_NONE && (int)items[i].severity >= fail_on)
            rc = EXIT_FINDINGS;
    }
    if (!s.keep) { /* only counted */
        n = s.nfind;
        for (int sv = HP_SEV_NOTE; sv <= HP_SEV_ERROR; sv++) {
            counts[sv] = s.count[sv];
            if (fail_on != HP_SEV_NONE && sv >= fail_on && counts[sv] > 0)
                rc = EXIT_FINDINGS;
        }
    }
    int written = 0; /* the report went out in pieces, not made whole first */
    /* the workers' pieces, in order, straight to standard output: a report of many MB is not
     * copied into one buffer first */
    if (pieces && format == F_TEXT) {
        for (int i = 0; i < s.npc; i++)
            write_out(stdout, s.pc[i].text, s.pc[i].len);
        written = 1;
    } else if (pieces) {
        const char **texts = malloc(((size_t)s.npc + 1) * sizeof *texts);
        ptrdiff_t *lens = malloc(((size_t)s.npc + 1) * sizeof *lens);
        long long cnt[4] = {counts[0], counts[1], counts[2], counts[3]};
        for (int i = 0; texts && lens && i < s.npc; i++) {
            texts[i] = s.pc[i].text;
            lens[i] = s.pc[i].len;
        }
        if (texts && lens)
            written = hp_report_json_write(texts, lens, s.npc, n, cnt, &s.sum, write_out,
                                           stdout) != -1;
        free(texts);
        free(lens);
    } else if (format == F_JSON) {
        report = hp_report_json(items, n, &s.sum);
    } else if (format == F_SARIF) {
        report = hp_report_sarif(items, n, &s.sum);
    } else {
        hp_report_opts ro = {cli_use_color(stdout, color), !brief, !brief};
        report = n ? hp_report_text(items, n, &ro) : calloc(1, 1);
    }
    if (!report && !written) {
        cli_error(cmd, "out of memory");
        rc = EXIT_INTERNAL;
        goto done;
    }
    if (report)
        fputs(report, stdout);
    if (format == F_TEXT) {
        fprintf(stderr, "%d error%s, %d warning%s, %d note%s in %lld file%s", counts[3],
                counts[3] == 1 ? "" : "s", counts[2], counts[2] == 1 ? "" : "s", counts[1],
                counts[1] == 1 ? "" : "s", s.sum.files, s.sum.files == 1 ? "" : "s");
        if (s.sum.suppressed)
            fprintf(stderr, " (%lld suppressed)", s.sum.suppressed);
        if (bl)
            fprintf(stderr, " (%lld in the baseline)", s.sum.baselined);
        fputc('\n', stderr);
    }
    fflush(stdout);
    if (ferror(stdout)) {
        cli_error(cmd, "error writing standard output");
        rc = EXIT_IO;
    } else if (s.io_errors) {
        rc = EXIT_IO;
    }
done:
    free_pieces(&s);
    free(report);
    free(items);
    hp_findings_free(s.all);
    hp_baseline_free(bl);
    opt_list_free(&sel);
    opt_list_free(&paths);
    opt_list_free(&excl);
    opt_list_free(&exts);
    return rc;
}
