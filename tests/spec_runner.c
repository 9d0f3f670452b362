/* spec_runner.c: runs the examples of the spec files (tests/spec) in-process.
 *
 * An example is a block fenced by 32 backticks and "example", with options after it:
 *
 *   ```````````````````````````````` example path=k.cu --hip-version=5.2 --launch=ggl
 *   input
 *   .
 *   expected output
 *   .
 *   expected diagnostics, one per line: line:col: severity: message [RULE]
 *   ````````````````````````````````
 *
 * Without the third part the example expects no diagnostics. Options: path=NAME (default
 * input.cu), --hip-version=X.Y, --launch=ggl, --roc, --pytorch[=masquerade], --annotate,
 * --skip-excluded-preprocessor-conditional-blocks with -DNAME[=VALUE] and -UNAME,
 * crlf (every newline becomes CRLF in input and output), bom (both start with a UTF-8 BOM),
 * escapes (\xNN, \t and \\ are decoded in input and output), noeol (the input's last newline
 * is removed). Every translate example is also
 * translated a second time: the output must come back unchanged.
 * Prints "spec: N passed, N failed". */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hipport.h"
#include "spec_check.h"

static const char fence[] = "````````````````````````````````";

typedef struct sbuf {
    char *p;
    size_t len, cap;
} sbuf;

static void sb_add(sbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->p = realloc(b->p, b->cap);
        if (!b->p) {
            fprintf(stderr, "out of memory\n");
            exit(4);
        }
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    sbuf b = {0};
    char tmp[65536];
    size_t n;
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
        sb_add(&b, tmp, n);
    fclose(f);
    if (!b.p)
        sb_add(&b, "", 0);
    *len = b.len;
    return b.p;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Applies the byte options to a section. */
static void transform(sbuf *in, int crlf, int bom, int escapes)
{
    sbuf out = {0};
    if (bom)
        sb_add(&out, "\xef\xbb\xbf", 3);
    sb_add(&out, "", 0);
    for (size_t i = 0; i < in->len; i++) {
        char c = in->p[i];
        if (escapes && c == '\\' && i + 1 < in->len) {
            char d = in->p[i + 1];
            if (d == 'x' && i + 3 < in->len && hexval(in->p[i + 2]) >= 0 &&
                hexval(in->p[i + 3]) >= 0) {
                char v = (char)(hexval(in->p[i + 2]) * 16 + hexval(in->p[i + 3]));
                sb_add(&out, &v, 1);
                i += 3;
                continue;
            }
            if (d == 't') {
                sb_add(&out, "\t", 1);
                i++;
                continue;
            }
            if (d == 'r') {
                sb_add(&out, "\r", 1);
                i++;
                continue;
            }
            if (d == '\\') {
                sb_add(&out, "\\", 1);
                i++;
                continue;
            }
        }
        if (crlf && c == '\n')
            sb_add(&out, "\r", 1);
        sb_add(&out, &c, 1);
    }
    free(in->p);
    *in = out;
}

static int passed, failed;

static void show(const char *label, const char *s, size_t n)
{
    fprintf(stderr, "--- %s\n", label);
    fwrite(s, 1, n, stderr);
    if (n == 0 || s[n - 1] != '\n')
        fprintf(stderr, "<no newline>\n");
}

static void format_findings(sbuf *b, const hp_finding *f, int n)
{
    for (int i = 0; i < n; i++) {
        char line[2048];
        int k = snprintf(line, sizeof line, "%d:%d: %s: %s [%s]\n", f[i].line, f[i].col,
                         hp_severity_name(f[i].severity), f[i].message, f[i].rule);
        if (k > 0)
            sb_add(b, line, (size_t)k < sizeof line ? (size_t)k : sizeof line - 1);
    }
}

static void run_example(const char *file, int line, const char *info, sbuf *in, sbuf *want,
                        sbuf *want_diag, int have_diag)
{
    hp_translate_opts o;
    hp_translate_opts_init(&o);
    const char *path = "input.cu";
    char pathbuf[256];
    int crlf = 0, bom = 0, escapes = 0, check = 0, noeol = 0, nmacros = 0;
    const char *macros[8];
    char macrobuf[8][128];
    char opts[1024];
    snprintf(opts, sizeof opts, "%s", info);
    /* check examples parse their own options (spec_check.c) */
    for (char *w = strtok(opts, " \t"); w; w = strtok(NULL, " \t"))
        if (strcmp(w, "check") == 0)
            check = 1;
    snprintf(opts, sizeof opts, "%s", info);
    for (char *w = check ? NULL : strtok(opts, " \t"); w; w = strtok(NULL, " \t")) {
        if (strncmp(w, "path=", 5) == 0) {
            snprintf(pathbuf, sizeof pathbuf, "%s", w + 5);
            path = pathbuf;
        } else if (strncmp(w, "--hip-version=", 14) == 0) {
            o.hip_version = hp_hip_version_parse(w + 14);
        } else if (strcmp(w, "--launch=ggl") == 0) {
            o.launch = HP_LAUNCH_GGL;
        } else if (strcmp(w, "--roc") == 0) {
            o.roc = 1;
        } else if (strcmp(w, "--pytorch") == 0 || strcmp(w, "--pytorch=v2") == 0) {
            o.pytorch = HP_PYTORCH_V2;
        } else if (strcmp(w, "--pytorch=masquerade") == 0) {
            o.pytorch = HP_PYTORCH_MASQUERADE;
        } else if (strcmp(w, "--annotate") == 0) {
            o.annotate = 1;
            o.annotator = hp_check_annotations;
        } else if (strcmp(w, "--hipify-clang") == 0) {
            o.hipify_clang = 1;
        } else if (strcmp(w, "--skip-excluded-preprocessor-conditional-blocks") == 0) {
            o.skip_excluded = 1;
        } else if ((strncmp(w, "-D", 2) == 0 || strncmp(w, "-U", 2) == 0) && w[2] &&
                   nmacros < (int)(sizeof macros / sizeof *macros)) {
            macros[nmacros] = macrobuf[nmacros];
            snprintf(macrobuf[nmacros], sizeof macrobuf[nmacros], "%s", w);
            nmacros++;
            o.macros = macros;
            o.nmacros = nmacros;
        } else if (strcmp(w, "crlf") == 0) {
            crlf = 1;
        } else if (strcmp(w, "bom") == 0) {
            bom = 1;
        } else if (strcmp(w, "escapes") == 0) {
            escapes = 1;
        } else if (strcmp(w, "noeol") == 0) {
            noeol = 1;
        } else {
            fprintf(stderr, "%s:%d: unknown example option '%s'\n", file, line, w);
            failed++;
            return;
        }
    }
    transform(in, crlf, bom, escapes);
    transform(want, crlf, bom, escapes);
    if (noeol && in->len && in->p[in->len - 1] == '\n') {
        in->p[--in->len] = 0;
        if (in->len && in->p[in->len - 1] == '\r')
            in->p[--in->len] = 0;
    }
    hp_ctx *ctx = hp_ctx_new();
    int ok = 1;
    sbuf got_diag = {0};
    sb_add(&got_diag, "", 0);
    if (check) {
        ok = spec_check(ctx, file, line, info, path, in->p, in->len, want->p, want->len);
    } else {
        hp_translate_result r;
        hp_status s = hp_translate_buffer(ctx, &o, path, in->p, (ptrdiff_t)in->len, &r);
        if (s != HP_OK) {
            fprintf(stderr, "%s:%d: translate failed: %s\n", file, line, hp_status_name(s));
            ok = 0;
        } else {
            if ((size_t)r.out_len != want->len || memcmp(r.out, want->p, want->len) != 0) {
                fprintf(stderr, "%s:%d: output differs\n", file, line);
                show("expected", want->p, want->len);
                show("got", r.out, (size_t)r.out_len);
                ok = 0;
            }
            format_findings(&got_diag, r.findings, r.nfindings);
            const char *wd = have_diag ? want_diag->p : "";
            if (strcmp(got_diag.p, wd) != 0) {
                fprintf(stderr, "%s:%d: diagnostics differ\n", file, line);
                show("expected", wd, strlen(wd));
                show("got", got_diag.p, got_diag.len);
                ok = 0;
            }
            /* idempotence: the output translates to itself */
            sbuf copy = {0};
            sb_add(&copy, r.out, (size_t)r.out_len);
            hp_translate_result r2;
            s = hp_translate_buffer(ctx, &o, path, copy.p, (ptrdiff_t)copy.len, &r2);
            if (s != HP_OK || r2.changed) {
                fprintf(stderr, "%s:%d: translating the output again changes it\n", file,
                        line);
                if (s == HP_OK)
                    show("second output", r2.out, (size_t)r2.out_len);
                ok = 0;
            }
            free(copy.p);
        }
    }
    free(got_diag.p);
    hp_ctx_free(ctx);
    if (ok)
        passed++;
    else
        failed++;
}

static void run_file(const char *path)
{
    size_t len;
    char *text = read_all(path, &len);
    if (!text) {
        fprintf(stderr, "%s: cannot read\n", path);
        failed++;
        return;
    }
    char *p = text, *end = text + len;
    int lineno = 0;
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
        lineno++;
        if (ll >= sizeof fence - 1 + 8 && strncmp(p, fence, sizeof fence - 1) == 0 &&
            strncmp(p + sizeof fence - 1, " example", 8) == 0) {
            int start = lineno;
            char info[1024];
            size_t il = ll - (sizeof fence - 1 + 8);
            if (il >= sizeof info)
                il = sizeof info - 1;
            memcpy(info, p + sizeof fence - 1 + 8, il);
            info[il] = 0;
            sbuf part[3] = {{0}, {0}, {0}};
            for (int k = 0; k < 3; k++)
                sb_add(&part[k], "", 0);
            int k = 0, closed = 0;
            p = nl ? nl + 1 : end;
            while (p < end) {
                nl = memchr(p, '\n', (size_t)(end - p));
                ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
                lineno++;
                if (ll == sizeof fence - 1 && strncmp(p, fence, ll) == 0) {
                    closed = 1;
                    p = nl ? nl + 1 : end;
                    break;
                }
                if (ll == 1 && p[0] == '.' && k < 2) {
                    k++;
                } else {
                    sb_add(&part[k], p, ll);
                    sb_add(&part[k], "\n", 1);
                }
                p = nl ? nl + 1 : end;
            }
            if (!closed || k < 1) {
                fprintf(stderr, "%s:%d: malformed example\n", path, start);
                failed++;
            } else {
                run_example(path, start, info, &part[0], &part[1], &part[2], k == 2);
            }
            for (int j = 0; j < 3; j++)
                free(part[j].p);
            continue;
        }
        p = nl ? nl + 1 : end;
    }
    free(text);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "tests/spec";
    DIR *d = opendir(dir);
    if (!d) {
        /* a single file */
        run_file(dir);
    } else {
        char *names[1024];
        int n = 0;
        struct dirent *e;
        while ((e = readdir(d)) != NULL && n < 1024) {
            size_t l = strlen(e->d_name);
            if (l > 3 && strcmp(e->d_name + l - 3, ".md") == 0) {
                names[n] = malloc(strlen(dir) + l + 2);
                if (!names[n])
                    return 4;
                snprintf(names[n], strlen(dir) + l + 2, "%s/%s", dir, e->d_name);
                n++;
            }
        }
        closedir(d);
        qsort(names, (size_t)n, sizeof *names, cmp_str);
        for (int i = 0; i < n; i++) {
            run_file(names[i]);
            free(names[i]);
        }
    }
    printf("spec: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
