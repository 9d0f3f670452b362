/* diag.h: building lists of findings tied to byte offsets of a source buffer. */
#ifndef HP_DIAG_H
#define HP_DIAG_H

#include <stddef.h>

#include <stdint.h>

#include "arena.h"
#include "hipport.h"

/* Line starts, for turning offsets into line and column numbers. */
typedef struct lines {
    int32_t *start; /* offset of each line's first byte */
    ptrdiff_t n;    /* number of lines */
} lines;

void diag_lines_build(arena *a, const char *src, ptrdiff_t len, lines *l);
/* 0-based line index of offset. */
ptrdiff_t diag_lines_find(const lines *l, ptrdiff_t off);

typedef struct diag_list {
    hp_finding *v;    /* findings, in the order added */
    int n, cap;
    arena *a;
    const char *path; /* copied into each finding */
    const char *src;  /* the buffer offsets refer to */
    ptrdiff_t len;
    lines ln;          /* the starts of the lines before `indexed` */
    ptrdiff_t lcap;    /* room in ln.start */
    ptrdiff_t indexed; /* lines are indexed up to this offset (the furthest finding) */
    ptrdiff_t cur;     /* the furthest offset asked for so far, */
    ptrdiff_t cur_line; /* its 0-based line */
    ptrdiff_t cur_ls;  /* and the offset where that line starts */
    int bare;          /* findings without line, column or source line (count_only) */
} diag_list;

void diag_init(diag_list *d, arena *a, const char *path, const char *src, ptrdiff_t len);
/* Adds a finding at byte offset off covering n bytes. msg and fix must outlive the list
 * (static strings or arena memory). Returns the finding. */
hp_finding *diag_add(diag_list *d, ptrdiff_t off, int n, const char *rule, hp_severity sev,
                     const char *msg, const char *fix);
/* Same, for a finding about the whole file (line 0). */
hp_finding *diag_add_file(diag_list *d, const char *rule, hp_severity sev, const char *msg,
                          const char *fix);
/* 1-based line and column of an offset. */
void diag_linecol(diag_list *d, ptrdiff_t off, int *line, int *col);
/* Sorts by line, column, rule. */
void diag_sort(diag_list *d);

#endif
