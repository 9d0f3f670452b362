/* harness.h: the unit-test harness. TEST(name) { ... } registers a test (the build collects
 * them); CHECK(cond) records a failure with file:line and leaves the test. */
#ifndef HP_HARNESS_H
#define HP_HARNESS_H

#include <stdio.h>
#include <string.h>

void harness_fail(const char *file, int line, const char *what);
void harness_failf(const char *file, int line, const char *fmt, ...);

#define TEST(name) void test_##name(void); void test_##name(void)

#define CHECK(cond)                                                                            \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            harness_fail(__FILE__, __LINE__, #cond);                                           \
            return;                                                                            \
        }                                                                                      \
    } while (0)

#define CHECK_STR(got, want)                                                                   \
    do {                                                                                       \
        const char *g_ = (got), *w_ = (want);                                                  \
        if (!g_ || strcmp(g_, w_) != 0) {                                                      \
            harness_failf(__FILE__, __LINE__, "got \"%s\", want \"%s\"", g_ ? g_ : "(null)",   \
                          w_);                                                                 \
            return;                                                                            \
        }                                                                                      \
    } while (0)

#define CHECK_INT(got, want)                                                                   \
    do {                                                                                       \
        long long g_ = (long long)(got), w_ = (long long)(want);                               \
        if (g_ != w_) {                                                                        \
            harness_failf(__FILE__, __LINE__, "%s: got %lld, want %lld", #got, g_, w_);        \
            return;                                                                            \
        }                                                                                      \
    } while (0)

#endif
