/* arena.h: bump allocator with chained blocks; memory is zeroed and freed all at once. */
#ifndef HP_ARENA_H
#define HP_ARENA_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

typedef struct arena_block arena_block;

typedef struct arena {
    char *beg;            /* next free byte in the current block */
    char *end;            /* end of the current block */
    arena_block *blocks;  /* newest block first; the last one is the first allocated */
    ptrdiff_t block_size; /* minimum size of a new block */
    ptrdiff_t limit;      /* total bytes this arena may hold (0: no limit) */
    ptrdiff_t used;       /* bytes held in blocks */
    jmp_buf *oom;         /* where to jump when memory runs out (NULL: return NULL) */
} arena;

/* A saved position: arena_rewind() frees everything allocated after it. */
typedef struct arena_mark {
    char *beg;
    char *end;
    arena_block *blocks;
} arena_mark;

void arena_init(arena *a, ptrdiff_t block_size);
void arena_release(arena *a);  /* frees every block */
void arena_reset(arena *a);    /* keeps the first block, frees the rest */
void *arena_alloc(arena *a, ptrdiff_t size, ptrdiff_t align, ptrdiff_t count);
void *arena_alloc_nozero(arena *a, ptrdiff_t size, ptrdiff_t align, ptrdiff_t count);
/* Grows the most recent allocation in place when possible, else copies. An allocation alone
 * in its block (not the first) is grown by reallocating the block, so it may move; either way
 * the old pointer is dead. Never grow an allocation made before an arena_save() mark that is
 * still to be rewound. */
void *arena_grow(arena *a, void *old, ptrdiff_t oldsize, ptrdiff_t newsize, ptrdiff_t align);
char *arena_strndup(arena *a, const char *s, ptrdiff_t len);
/* x[0..xlen), the byte sep, then y[0..ylen), NUL-terminated: a path and a name, a module and
 * a member, joined with two copies and no format. NULL where arena_strndup would give it. */
char *arena_join(arena *a, const char *x, ptrdiff_t xlen, char sep, const char *y,
                 ptrdiff_t ylen);
char *arena_printf(arena *a, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
char *arena_vprintf(arena *a, const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 0)))
#endif
    ;
arena_mark arena_save(const arena *a);
void arena_rewind(arena *a, arena_mark m);

/* Functions run under a setjmp recovery point are kept out of line, so that no local of the
 * caller lives across the longjmp. */
#if defined(__GNUC__)
#define HP_NOINLINE __attribute__((noinline))
#else
#define HP_NOINLINE
#endif

#define NEW(a, T, n) ((T *)arena_alloc((a), (ptrdiff_t)sizeof(T), (ptrdiff_t)_Alignof(T), (n)))

#endif
