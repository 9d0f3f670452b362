/* arena.c: bump allocator with chained blocks (see arena.h). */
#include "arena.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hp_assert.h"
#include "os.h"

#include "banned.h"

/* Under AddressSanitizer the free part of a block that arena_reset or arena_rewind hands back
 * is poisoned, and each allocation unpoisons what it returns: a pointer kept past the reset of
 * its arena (a result read after its context went on to the next file) is then reported where
 * it is used, instead of reading whatever the next file put there. */
#if defined(__SANITIZE_ADDRESS__)
#define ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ASAN 1
#endif
#endif
#ifdef ARENA_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (size_t)(n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (size_t)(n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

struct arena_block {
    arena_block *next; /* older block */
    ptrdiff_t size;    /* bytes in data[] */
    max_align_t data[];
};

void arena_init(arena *a, ptrdiff_t block_size)
{
    memset(a, 0, sizeof *a);
    a->block_size = block_size > 4096 ? block_size : 4096;
}

static void *fail(arena *a)
{
    if (a->oom)
        longjmp(*a->oom, 1);
    return NULL;
}

static int new_block(arena *a, ptrdiff_t need)
{
    ptrdiff_t size = a->block_size;
    if (need > PTRDIFF_MAX / 2 - (ptrdiff_t)sizeof(arena_block))
        return 0;
    if (size < need)
        size = need;
    /* Later blocks double, so that a big file needs few of them. */
    if (a->blocks && a->used > size && a->used < PTRDIFF_MAX / 4)
        size = a->used;
    if (a->limit && a->used + size > a->limit) {
        if (a->used + need > a->limit)
            return 0;
        size = need;
    }
    arena_block *b = malloc(sizeof(arena_block) + (size_t)size);
    if (!b)
        return 0;
    /* a big file's blocks (source, tokens, output) are touched once, end to end: huge pages
     * take a fault per 2 MiB instead of per 4 KiB */
    os_advise_huge(b, (ptrdiff_t)sizeof(arena_block) + size);
    b->next = a->blocks;
    b->size = size;
    a->blocks = b;
    a->used += size;
    a->beg = (char *)b->data;
    a->end = a->beg + size;
    return 1;
}

void *arena_alloc_nozero(arena *a, ptrdiff_t size, ptrdiff_t align, ptrdiff_t count)
{
    HP_ASSERT(size > 0 && count >= 0 && align > 0 && (align & (align - 1)) == 0);
    if (size <= 0 || count < 0 || align <= 0)
        return fail(a);
    if (count > (PTRDIFF_MAX / 2) / size)
        return fail(a);
    ptrdiff_t total = size * count;
    for (;;) {
        if (a->beg) {
            ptrdiff_t pad = (ptrdiff_t)(-(uintptr_t)a->beg & (uintptr_t)(align - 1));
            if (total <= a->end - a->beg - pad) {
                char *p = a->beg + pad;
                a->beg = p + total;
                UNPOISON(p, total);
                return p;
            }
        }
        if (!new_block(a, total + align))
            return fail(a);
    }
}

void *arena_alloc(arena *a, ptrdiff_t size, ptrdiff_t align, ptrdiff_t count)
{
    void *p = arena_alloc_nozero(a, size, align, count);
    if (p)
        memset(p, 0, (size_t)(size * count));
    return p;
}

void *arena_grow(arena *a, void *old, ptrdiff_t oldsize, ptrdiff_t newsize, ptrdiff_t align)
{
    if (old && (char *)old + oldsize == a->beg && newsize - oldsize <= a->end - a->beg) {
        a->beg = (char *)old + newsize;
        UNPOISON(old, newsize);
        return old;
    }
    /* The last allocation alone in the newest block (a token array, a growing buffer): the
     * block itself is reallocated. A large block is remapped rather than copied, and the old
     * one is not left behind in the arena. The first block stays (arena_reset keeps it). */
    arena_block *b = a->blocks;
    if (old && b && b->next && old == (void *)b->data && (char *)old + oldsize == a->beg &&
        newsize > oldsize && newsize <= PTRDIFF_MAX / 4 &&
        (!a->limit || a->used - b->size + newsize <= a->limit)) {
        arena_block *nb = realloc(b, sizeof(arena_block) + (size_t)newsize);
        if (nb) {
            os_advise_huge(nb, (ptrdiff_t)sizeof(arena_block) + newsize);
            a->used += newsize - nb->size;
            nb->size = newsize;
            a->blocks = nb;
            a->beg = (char *)nb->data + newsize;
            a->end = a->beg;
            return nb->data;
        }
    }
    void *p = arena_alloc_nozero(a, 1, align, newsize);
    if (p && old && oldsize > 0)
        memcpy(p, old, (size_t)(oldsize < newsize ? oldsize : newsize));
    return p;
}

char *arena_strndup(arena *a, const char *s, ptrdiff_t len)
{
    char *p = arena_alloc_nozero(a, 1, 1, len + 1);
    if (!p)
        return NULL;
    if (len)
        memcpy(p, s, (size_t)len);
    p[len] = 0;
    return p;
}

char *arena_join(arena *a, const char *x, ptrdiff_t xlen, char sep, const char *y,
                 ptrdiff_t ylen)
{
    char *p = arena_alloc_nozero(a, 1, 1, xlen + 1 + ylen + 1);
    if (!p)
        return NULL;
    if (xlen)
        memcpy(p, x, (size_t)xlen);
    p[xlen] = sep;
    if (ylen)
        memcpy(p + xlen + 1, y, (size_t)ylen);
    p[xlen + 1 + ylen] = 0;
    return p;
}

char *arena_vprintf(arena *a, const char *fmt, va_list ap)
{
    va_list aq;
    /* Most messages fit in the current block: printed there once, and kept. */
    if (a->beg && a->end - a->beg > 1) {
        ptrdiff_t room = a->end - a->beg;
        if (room > INT_MAX)
            room = INT_MAX;
        UNPOISON(a->beg, room);
        va_copy(aq, ap);
        int n = vsnprintf(a->beg, (size_t)room, fmt, aq);
        va_end(aq);
        if (n < 0)
            return NULL;
        if (n < room) {
            char *p = a->beg;
            a->beg += n + 1;
            return p;
        }
    }
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (n < 0)
        return NULL;
    char *p = arena_alloc_nozero(a, 1, 1, (ptrdiff_t)n + 1);
    if (!p)
        return NULL;
    va_copy(aq, ap);
    vsnprintf(p, (size_t)n + 1, fmt, aq);
    va_end(aq);
    return p;
}

char *arena_printf(arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = arena_vprintf(a, fmt, ap);
    va_end(ap);
    return p;
}

static void free_until(arena *a, arena_block *keep)
{
    while (a->blocks && a->blocks != keep) {
        arena_block *b = a->blocks;
        a->blocks = b->next;
        a->used -= b->size;
        free(b);
    }
}

void arena_release(arena *a)
{
    free_until(a, NULL);
    a->beg = a->end = NULL;
    a->used = 0;
}

void arena_reset(arena *a)
{
    arena_block *first = a->blocks;
    while (first && first->next)
        first = first->next;
    /* Keep only a first block of the configured size: a huge one would pin memory. */
    if (first && first->size > a->block_size)
        first = NULL;
    free_until(a, first);
    if (first) {
        a->beg = (char *)first->data;
        a->end = a->beg + first->size;
        POISON(a->beg, a->end - a->beg);
    } else {
        a->beg = a->end = NULL;
    }
}

arena_mark arena_save(const arena *a)
{
    arena_mark m = {a->beg, a->end, a->blocks};
    return m;
}

void arena_rewind(arena *a, arena_mark m)
{
    free_until(a, m.blocks);
    a->beg = m.beg;
    a->end = m.end;
    if (a->beg)
        POISON(a->beg, a->end - a->beg);
}
