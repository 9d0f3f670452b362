/* bytes.h: counting and finding one byte value in a buffer, sixteen bytes at a time where the
 * compiler targets SSE2 (every x86-64), eight at a time (in a 64-bit word) elsewhere. These
 * serve the hot paths that visit every line of a file: a memchr() call per line costs more
 * than the line's bytes on files whose lines are short. */
#ifndef HP_BYTES_H
#define HP_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#endif

/* How many bytes of p[0..n) equal c. */
static inline ptrdiff_t hp_count_byte(const char *p, ptrdiff_t n, unsigned char c)
{
    ptrdiff_t cnt = 0, i = 0;
#if defined(__SSE2__) && defined(__GNUC__)
    /* Each match subtracts -1 from its byte lane; the lanes are summed before they can wrap
     * (255 rounds at most). */
    const __m128i want = _mm_set1_epi8((char)c), zero = _mm_setzero_si128();
    while (i + 16 <= n) {
        ptrdiff_t rounds = (n - i) / 16;
        if (rounds > 255)
            rounds = 255;
        __m128i acc = zero;
        for (ptrdiff_t r = 0; r < rounds; r++, i += 16)
            acc = _mm_sub_epi8(
                acc, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + i)), want));
        __m128i sums = _mm_sad_epu8(acc, zero);
        cnt += _mm_cvtsi128_si32(sums) + _mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
    }
#else
    const uint64_t ones = 0x0101010101010101ull, low7 = 0x7f7f7f7f7f7f7f7full;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        w ^= ones * c;                       /* a byte equal to c is now zero */
        uint64_t z = ~(((w & low7) + low7) | w | low7); /* 0x80 in each zero byte, exactly */
        cnt += (ptrdiff_t)(((z >> 7) * ones) >> 56);
    }
#endif
    for (; i < n; i++)
        cnt += (unsigned char)p[i] == c;
    return cnt;
}

/* The last byte of p[0..n) that equals c, or NULL. */
static inline const char *hp_last_byte(const char *p, ptrdiff_t n, unsigned char c)
{
    ptrdiff_t i = n;
#if defined(__SSE2__) && defined(__GNUC__)
    const __m128i want = _mm_set1_epi8((char)c);
    for (; i >= 16; i -= 16) {
        __m128i a =
            _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + i - 16)), want);
        unsigned m = (unsigned)_mm_movemask_epi8(a);
        if (m)
            return p + i - 16 + (31 - __builtin_clz(m));
    }
#endif
    while (i > 0) {
        i--;
        if ((unsigned char)p[i] == c)
            return p + i;
    }
    return NULL;
}

#endif
