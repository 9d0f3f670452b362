/* cmd_targets.c: hipport targets: the GPU code inside binaries, and whether it runs on a GPU. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "opt.h"

/* The GPU of this machine comes from doctor. Until a build carries doctor's detection the
 * symbol may be missing; a weak reference lets "--gpu auto" say so instead of failing to
 * link. */
#if defined(__GNUC__)
#pragma weak hp_doctor_gpu_target
#endif

static const char *cmd = "targets";


/* ------------------------------------------------------------ JSON */

/* Writes s as a JSON string; bytes that are not UTF-8 become U+FFFD. */
static void json_str(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    fputc('"', f);
    while (*p) {
        unsigned c = *p;
        if (c == '"' || c == '\\') {
            fputc('\\', f);
            fputc((int)c, f);
            p++;
        } else if (c < 0x20) {
            fprintf(f, "\\u%04x", c);
            p++;
        } else if (c < 0x80) {
            fputc((int)c, f);
            p++;
        } else {
            int n = c >= 0xf0 && c <= 0xf4 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 && c < 0xe0 ? 1 : -1;
            int ok = n > 0;
            for (int i = 1; ok && i <= n; i++)
                ok = (p[i] & 0xc0) == 0x80;
            if (ok && n == 2 && ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0)))
                ok = 0;
            if (ok && n == 3 && ((c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] >= 0x90)))
                ok = 0;
            if (ok) {
                fwrite(p, 1, (size_t)n + 1, f);
                p += n + 1;
            } else {
                fputs("\\ufffd", f);
                p++;
            }
        }
    }
    fputc('"', f);
}

static void json_field(FILE *f, const char *key, const char *val)
{
    fprintf(f, ", ");
    json_str(f, key);
    fprintf(f, ": ");
    json_str(f, val);
}

static const char *verdict_word(hp_verdict v, int json)
{
    switch (v) {
    case HP_VERDICT_RUNS: return json ? "runs" : "RUNS";
    case HP_VERDICT_WONT_RUN: return json ? "will-not-run" : "WILL NOT RUN";
    case HP_VERDICT_NO_GPU_CODE: return json ? "no-gpu-code" : "NO GPU CODE";
    case HP_VERDICT_UNKNOWN: return json ? "unknown" : "UNKNOWN";
    }
    return "unknown";
}

/* ------------------------------------------------------------ one file */

typedef struct state {
    int json;
    int verbose;
    int quiet;
    const char *gpu;   /* canonical GPU name, or NULL */
    int nfiles;        /* files written so far (JSON commas) */
    int listed;        /* binaries reported */
    int unreadable;    /* some input (or part of one) could not be read */
    int mismatch;      /* some file will not run on the GPU */
} state;

/* Orders pieces by what the text listing shows of them (key_cmp), then by position. */
static const hp_gpu_code *sort_base;

static int key_cmp(const hp_gpu_code *x, const hp_gpu_code *y)
{
    int c = (int)x->vendor - (int)y->vendor;
    if (!c)
        c = strcmp(x->target, y->target);
    if (!c)
        c = strcmp(x->kind, y->kind);
    if (!c)
        c = x->compressed - y->compressed;
    if (!c)
        c = x->readable - y->readable;
    return c;
}

static int piece_cmp(const void *a, const void *b)
{
    int i = *(const int *)a, j = *(const int *)b;
    int c = key_cmp(&sort_base[i], &sort_base[j]);
    return c ? c : i - j;
}

/* copies[i]: how many pieces look like piece i when it is the first of them, else 0. */
static int *count_copies(const hp_targets_result *r)
{
    int n = r->ncode;
    if (n <= 0)
        return NULL;
    int *order = malloc(sizeof(int) * (size_t)n);
    int *copies = calloc((size_t)n, sizeof(int));
    if (!order || !copies) {
        free(order);
        free(copies);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        order[i] = i;
    sort_base = r->code;
    qsort(order, (size_t)n, sizeof(int), piece_cmp);
    for (int g = 0; g < n;) {
        int e = g + 1;
        while (e < n && key_cmp(&r->code[order[g]], &r->code[order[e]]) == 0)
            e++;
        copies[order[g]] = e - g; /* the group's first is its lowest position */
        g = e;
    }
    free(order);
    return copies;
}

static void text_piece(const hp_gpu_code *c, int width, int copies, int verbose)
{
    char line[512];
    int n = snprintf(line, sizeof line, "  %-6s  %-*s  %-11s", hp_vendor_name(c->vendor), width,
                     c->target, c->kind);
    if (n < 0 || (size_t)n >= sizeof line)
        n = (int)strlen(line);
    if (c->compressed)
        n += snprintf(line + n, sizeof line - (size_t)n, "  compressed%s%s%s",
                      c->compression ? " (" : "", c->compression ? c->compression : "",
                      c->compression ? ")" : "");
    if (n < (int)sizeof line && !c->readable)
        n += snprintf(line + n, sizeof line - (size_t)n, "  not readable here");
    if (n < (int)sizeof line && copies > 1)
        n += snprintf(line + n, sizeof line - (size_t)n, "  (%d copies)", copies);
    n = (int)strlen(line);
    while (n > 0 && line[n - 1] == ' ')
        line[--n] = 0;
    printf("%s\n", line);
    if (verbose) {
        printf("          in %s", c->where && *c->where ? c->where : "the file");
        if (c->id)
            printf(", id %s", c->id);
        if (c->detail)
            printf(", %s", c->detail);
        printf("\n");
    } else if (!c->readable && c->detail) {
        printf("          %s\n", c->detail);
    }
}

static void report_text(const state *s, const char *path, const hp_targets_result *r,
                        hp_verdict v, const char *reason)
{
    printf("%s: %s\n", path, r->format);
    int width = 14;
    for (int i = 0; i < r->ncode; i++) {
        int n = (int)strlen(r->code[i].target);
        if (n > width && n < 40)
            width = n;
    }
    if (r->ncode == 0)
        printf("  (no GPU code)\n");
    int *copies = s->verbose ? NULL : count_copies(r);
    for (int i = 0; i < r->ncode; i++) {
        if (copies && copies[i] == 0)
            continue;
        text_piece(&r->code[i], width, copies ? copies[i] : 1, s->verbose);
    }
    free(copies);
    if (s->gpu) {
        if (v == HP_VERDICT_NO_GPU_CODE)
            printf("  %s\n", verdict_word(v, 0));
        else
            printf("  %s on %s: %s\n", verdict_word(v, 0), s->gpu, reason);
    }
}

static void report_json(state *s, const char *path, const hp_targets_result *r, hp_status st,
                        hp_verdict v, const char *reason)
{
    printf("%s\n  {", s->nfiles++ ? "," : "");
    json_str(stdout, "path");
    printf(": ");
    json_str(stdout, path);
    if (st != HP_OK) {
        json_field(stdout, "error", r->nnotes ? r->notes[0].message : hp_status_name(st));
        printf(", \"targets\": []}");
        return;
    }
    json_field(stdout, "format", r->format);
    printf(", \"targets\": [");
    for (int i = 0; i < r->ncode; i++) {
        const hp_gpu_code *c = &r->code[i];
        printf("%s\n    {\"vendor\": ", i ? "," : "");
        json_str(stdout, hp_vendor_name(c->vendor));
        json_field(stdout, "target", c->target);
        json_field(stdout, "kind", c->kind);
        printf(", \"compressed\": %s, \"readable\": %s", c->compressed ? "true" : "false",
               c->readable ? "true" : "false");
        if (c->compression)
            json_field(stdout, "compression", c->compression);
        json_field(stdout, "where", c->where ? c->where : "");
        if (c->id)
            json_field(stdout, "id", c->id);
        if (c->detail)
            json_field(stdout, "detail", c->detail);
        printf("}");
    }
    printf("%s]", r->ncode ? "\n  " : "");
    if (r->nnotes) {
        printf(", \"notes\": [");
        for (int i = 0; i < r->nnotes; i++) {
            printf("%s{\"severity\": ", i ? ", " : "");
            json_str(stdout, hp_severity_name(r->notes[i].severity));
            json_field(stdout, "message", r->notes[i].message);
            printf("}");
        }
        printf("]");
    }
    if (s->gpu) {
        printf(", \"gpu\": {\"target\": ");
        json_str(stdout, s->gpu);
        json_field(stdout, "verdict", verdict_word(v, 1));
        json_field(stdout, "reason", reason);
        printf("}");
    }
    printf("}");
}

static void one_file(state *s, hp_ctx *ctx, const char *path, int in_tree)
{
    hp_targets_result r;
    hp_status st = hp_targets_scan_file(ctx, path, &r);
    if (st == HP_EFORMAT && in_tree)
        return; /* a tree holds sources, data and scripts too: only its binaries are listed */
    s->listed++;
    if (st != HP_OK) {
        cli_error(cmd, "'%s': %s", path, r.nnotes ? r.notes[0].message : hp_status_name(st));
        s->unreadable = 1;
        if (s->json)
            report_json(s, path, &r, st, HP_VERDICT_UNKNOWN, NULL);
        return;
    }
    for (int i = 0; i < r.nnotes; i++) {
        if (r.notes[i].severity == HP_SEV_ERROR)
            s->unreadable = 1;
        if (!s->quiet || r.notes[i].severity == HP_SEV_ERROR)
            cli_error(cmd, "'%s': %s: %s", path, hp_severity_name(r.notes[i].severity),
                      r.notes[i].message);
    }
    for (int i = 0; i < r.ncode; i++)
        if (!r.code[i].readable)
            s->unreadable = 1;
    hp_verdict v = HP_VERDICT_RUNS;
    const char *reason = "";
    if (s->gpu) {
        v = hp_targets_match(ctx, &r, s->gpu, &reason);
        if (v == HP_VERDICT_WONT_RUN)
            s->mismatch = 1;
        else if (v == HP_VERDICT_UNKNOWN)
            s->unreadable = 1;
    }
    if (s->json)
        report_json(s, path, &r, st, v, reason);
    else
        report_text(s, path, &r, v, reason);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every binary with GPU code below dir, in name order (links to directories not followed,
 * version-control folders left out); the other files of the tree are passed over. */
static void one_tree(state *s, hp_ctx *ctx, const char *dir, int depth)
{
    DIR *d = depth < 64 ? opendir(dir) : NULL;
    if (!d) {
        cli_error(cmd, "'%s': cannot read the directory", dir);
        s->unreadable = 1;
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            strcmp(e->d_name, ".git") == 0 || strcmp(e->d_name, ".hg") == 0 ||
            strcmp(e->d_name, ".svn") == 0)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **nn = realloc(names, cap * sizeof *nn);
            if (!nn)
                break;
            names = nn;
        }
        size_t dl = strlen(dir), el = strlen(e->d_name);
        char *path = malloc(dl + el + 2);
        if (!path)
            break;
        if (dl && dir[dl - 1] == '/')
            dl--; /* "tests/" and a name: one slash between them */
        memcpy(path, dir, dl);
        path[dl] = '/';
        memcpy(path + dl + 1, e->d_name, el + 1);
        names[n++] = path;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_names);
    for (size_t i = 0; i < n; i++) {
        struct stat sb;
        if (lstat(names[i], &sb) == 0) {
            if (S_ISDIR(sb.st_mode)) {
                one_tree(s, ctx, names[i], depth + 1);
            } else if (S_ISREG(sb.st_mode) ||
                       (S_ISLNK(sb.st_mode) && stat(names[i], &sb) == 0 && S_ISREG(sb.st_mode))) {
                one_file(s, ctx, names[i], 1);
                hp_ctx_reset(ctx);
            }
        }
        free(names[i]);
    }
    free(names);
}

int cmd_targets(int argc, char **argv)
{
    state s;
    memset(&s, 0, sizeof s);
    opt_list paths = {NULL, 0, 0};
    hp_ctx *gctx = hp_ctx_new(), *ctx = hp_ctx_new();
    const char *gpu = NULL, *root = NULL;
    int rc;
    static const char *const formats[] = {"text", "json", NULL};
    const opt options[] = {
        OPT_ENUM(0, "format", "text|json", &s.json, formats, NULL, "output format (default: text)"),
        OPT_STRING(0, "gpu", "TARGET|auto", &gpu,
                   "say whether each file runs on this GPU (gfx942, gfx90a:xnack-, sm_90, 9.0) or "
                   "this machine's"),
        OPT_STRING(0, "root", "DIR", &root, "with --gpu auto: read the machine's files under DIR"),
        OPT_FLAG('v', "verbose", &s.verbose, 1,
                 "show where each piece of code was found, every copy"),
        OPT_FLAG('q', "quiet", &s.quiet, 1, "do not print warnings and notes about the files"),
        OPT_CALL('h', "help", NULL, cli_opt_help, NULL, "show this help"),
        OPT_END(),
    };
    const opt operand = OPT_ARGS(&paths);
    if (!gctx || !ctx) {
        cli_error(cmd, "out of memory");
        rc = EXIT_INTERNAL;
        goto done;
    }
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
    if (root && (!gpu || strcmp(gpu, "auto") != 0)) {
        rc = cli_usage(cmd, "--root goes with --gpu auto");
        goto done;
    }
    if (gpu && strcmp(gpu, "auto") == 0) {
        const char *found = NULL;
        if (!hp_doctor_gpu_target) {
            cli_error(cmd, "--gpu auto needs the GPU detection of 'hipport doctor', which this "
                           "build lacks; name the GPU instead (--gpu gfx942, --gpu sm_90)");
            rc = EXIT_USAGE;
            goto done;
        }
        if (hp_doctor_gpu_target(gctx, root, &found) != 1 || !found) {
            cli_error(cmd, "--gpu auto: no GPU found on this machine; name one (--gpu gfx942)");
            rc = EXIT_USAGE;
            goto done;
        }
        gpu = found;
    }
    if (gpu) {
        const char *err = NULL;
        if (hp_targets_parse_gpu(gctx, gpu, &s.gpu, &err) != HP_OK) {
            rc = cli_usage(cmd, "bad value for --gpu: %s", err ? err : gpu);
            goto done;
        }
    }
    if (s.json)
        printf("{\"files\": [");
    for (int i = 0; i < npaths; i++) {
        struct stat sb;
        if (stat(paths.v[i], &sb) == 0 && S_ISDIR(sb.st_mode)) {
            int before = s.listed;
            one_tree(&s, ctx, paths.v[i], 0);
            if (s.listed == before && !s.quiet)
                cli_error(cmd, "note: '%s': no binary with GPU code in this tree", paths.v[i]);
        } else {
            one_file(&s, ctx, paths.v[i], 0);
        }
        hp_ctx_reset(ctx);
    }
    if (s.json)
        printf("%s]}\n", s.nfiles ? "\n" : "");
    fflush(stdout);
    if (ferror(stdout)) {
        cli_error(cmd, "error writing standard output");
        rc = EXIT_IO;
    } else if (s.unreadable) {
        rc = EXIT_IO;
    } else if (s.mismatch) {
        rc = EXIT_FINDINGS;
    }
done:
    hp_ctx_free(ctx);
    hp_ctx_free(gctx);
    opt_list_free(&paths);
    return rc;
}
