/* test_bytes.c: counting and finding a byte (bytes.h) against plain loops, and line and
 * column numbers of findings (diag.c) against the line index, in and out of order; arena_join. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "bytes.h"
#include "diag.h"
#include "harness.h"
#include "lex.h"
#include "str.h"

static uint32_t rnd_state = 12345;
static uint32_t rnd(void)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 17;
    rnd_state ^= rnd_state << 5;
    return rnd_state;
}

/* Every length from 0 to 200 at every alignment from 0 to 15, with newlines dense and sparse,
 * and bytes whose high bit is set (the word-at-a-time fallback must not count them). */
TEST(bytes_count_and_last)
{
    static char buf[256];
    for (int density = 1; density <= 64; density *= 4) {
        for (size_t k = 0; k < sizeof buf; k++) {
            uint32_t r = rnd();
            buf[k] = r % (uint32_t)density == 0 ? '\n' : (r & 256) ? (char)0x8a : (char)('a' + r % 26);
        }
        for (int align = 0; align < 16; align++) {
            for (ptrdiff_t n = 0; n + align <= 216; n++) {
                const char *p = buf + align;
                ptrdiff_t want = 0;
                const char *last = NULL;
                for (ptrdiff_t i = 0; i < n; i++)
                    if (p[i] == '\n') {
                        want++;
                        last = p + i;
                    }
                CHECK_INT(hp_count_byte(p, n, '\n'), want);
                CHECK(hp_last_byte(p, n, '\n') == last);
                ptrdiff_t want8a = 0;
                for (ptrdiff_t i = 0; i < n; i++)
                    want8a += (unsigned char)p[i] == 0x8a;
                CHECK_INT(hp_count_byte(p, n, 0x8a), want8a);
            }
        }
    }
}

/* Long runs: every byte a match (the per-lane counters must be summed before they wrap), and
 * none. */
TEST(bytes_count_long_runs)
{
    static char big[70001];
    memset(big, '\n', sizeof big);
    CHECK_INT(hp_count_byte(big, (ptrdiff_t)sizeof big, '\n'), (ptrdiff_t)sizeof big);
    CHECK_INT(hp_count_byte(big + 1, (ptrdiff_t)sizeof big - 1, '\n'), (ptrdiff_t)sizeof big - 1);
    CHECK(hp_last_byte(big, (ptrdiff_t)sizeof big, '\n') == big + sizeof big - 1);
    memset(big, 'x', sizeof big);
    big[3] = '\n';
    CHECK_INT(hp_count_byte(big, (ptrdiff_t)sizeof big, '\n'), 1);
    CHECK(hp_last_byte(big, (ptrdiff_t)sizeof big, '\n') == big + 3);
}

TEST(diag_linecol_any_order)
{
    static char src[5000];
    for (size_t k = 0; k < sizeof src; k++)
        src[k] = rnd() % 23 == 0 ? '\n' : 'x';
    src[0] = '\n';
    src[1] = '\n'; /* empty first lines */
    arena a;
    arena_init(&a, 1 << 16);
    lines ln;
    diag_lines_build(&a, src, (ptrdiff_t)sizeof src, &ln);
    diag_list d;
    diag_init(&d, &a, "f", src, (ptrdiff_t)sizeof src);
    /* forward runs with repeats, then jumps back, then forward again */
    for (int round = 0; round < 600; round++) {
        ptrdiff_t off = round < 200   ? round * 24
                        : round < 400 ? (ptrdiff_t)(rnd() % sizeof src)
                                      : (ptrdiff_t)sizeof src - 1 - (round - 400) * 3;
        if (round % 7 == 0 && round)
            off = off / 2;
        int line, col;
        diag_linecol(&d, off, &line, &col);
        ptrdiff_t l = diag_lines_find(&ln, off);
        CHECK_INT(line, l + 1);
        CHECK_INT(col, off - ln.start[l] + 1);
    }
    int line, col;
    diag_linecol(&d, (ptrdiff_t)sizeof src, &line, &col);
    CHECK_INT(line, ln.n);
    arena_release(&a);
}

/* arena_join: the parts and the separator, NUL-terminated, with empty parts too; the result
 * owns its bytes (the parts may be the arena's own and be reused after). */
TEST(arena_join_parts)
{
    arena a;
    arena_init(&a, 64);
    char *p = arena_join(&a, "src/dir", 3, '/', "k.cuh", 5);
    CHECK(p != NULL);
    CHECK_STR(p, "src/k.cuh");
    CHECK_STR(arena_join(&a, "", 0, '/', "k.cuh", 5), "/k.cuh");
    CHECK_STR(arena_join(&a, "torch", 5, '.', "", 0), "torch.");
    /* longer than the block: taken from a new one */
    char big[200];
    memset(big, 'x', sizeof big);
    char *q = arena_join(&a, big, 100, '.', big, 100);
    CHECK(q != NULL);
    CHECK_INT((int)strlen(q), 201);
    CHECK(q[100] == '.' && q[0] == 'x' && q[200] == 'x');
    CHECK_STR(p, "src/k.cuh");
    arena_release(&a);
}

/* str_find_nocase against a plain loop over every offset, on random strings of a few letters
 * in both cases and punctuation. */
TEST(str_find_nocase_matches_plain_search)
{
    static const char alpha[] = "aAbB-_ ";
    char hay[64], nee[4];
    for (int round = 0; round < 20000; round++) {
        int hn = (int)(rnd() % 40), nn = 1 + (int)(rnd() % 3);
        for (int i = 0; i < hn; i++)
            hay[i] = alpha[rnd() % (sizeof alpha - 1)];
        for (int i = 0; i < nn; i++)
            nee[i] = alpha[rnd() % (sizeof alpha - 1)];
        ptrdiff_t want = -1;
        for (int i = 0; want < 0 && i + nn <= hn; i++)
            if (str_eq_nocase(str_make(hay + i, nn), str_make(nee, nn)))
                want = i;
        CHECK_INT(str_find_nocase(str_make(hay, hn), str_make(nee, nn)), want);
    }
    CHECK_INT(str_find_nocase(S("Enable_Language(HIP)"), S("language(hip")), 7);
    CHECK_INT(str_find_nocase(S("abc"), S("")), 0);
}
