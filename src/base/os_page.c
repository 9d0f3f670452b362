/* os_page.c: the one system call of the arena (memory advice), apart from os_posix.c, whose
 * calls allocate in arenas: the arena uses it, and it uses nothing. */
#define _DEFAULT_SOURCE /* MADV_HUGEPAGE */
#include <stdint.h>
#include <sys/mman.h>

#include "os.h"

#include "banned.h"

void os_advise_huge(void *p, ptrdiff_t n)
{
#ifdef MADV_HUGEPAGE
    /* only the whole 2 MiB pages inside the block; a small block has none */
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t beg = ((uintptr_t)p + huge - 1) & ~(huge - 1);
    uintptr_t end = ((uintptr_t)p + (uintptr_t)n) & ~(huge - 1);
    if (end > beg)
        madvise((void *)beg, end - beg, MADV_HUGEPAGE);
#else
    (void)p;
    (void)n;
#endif
}
