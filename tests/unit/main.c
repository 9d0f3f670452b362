/* main.c: runs every TEST of tests/unit and prints "unit: N passed, N failed". */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define T(name) void test_##name(void);
#include "unit_list.h"
#undef T

static int failed_now;

void harness_fail(const char *file, int line, const char *what)
{
    fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
    failed_now = 1;
}

void harness_failf(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s:%d: check failed: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    failed_now = 1;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*fn)(void);
    } tests[] = {
#define T(name) {#name, test_##name},
#include "unit_list.h"
#undef T
        {NULL, NULL}};
    int passed = 0, failed = 0;
    for (int i = 0; tests[i].name; i++) {
        if (argc > 1 && !strstr(tests[i].name, argv[1]))
            continue;
        failed_now = 0;
        tests[i].fn();
        if (failed_now) {
            fprintf(stderr, "FAIL %s\n", tests[i].name);
            failed++;
        } else {
            passed++;
        }
    }
    printf("unit: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
