/* walk.h: enumerating the files of inputs and trees in a fixed order. */
#ifndef HP_WALK_H
#define HP_WALK_H

#include <stddef.h>

#include "arena.h"
#include "hipport.h"

typedef struct walk_item {
    const char *path;   /* as the file would be opened */
    const char *rel;    /* relative to its input root (the basename for a file input) */
    int from_tree;      /* found by walking a directory (not named on the command line) */
    hp_status status;   /* HP_OK, or an error found while walking (the path cannot be read) */
    const char *error;  /* one-line reason when status != HP_OK, or why it is skipped */
    int root;           /* the index of its input in the walk's paths */
    int skip;           /* not a file to take: a symbolic link to a directory that was not
                         * entered (walk_opts.report_links); error says so */
} walk_item;

typedef struct walk_opts {
    const char *const *excludes;
    int nexcludes;
    /* Does a tree file with this name belong to the run? */
    int (*want)(void *ud, const char *name);
    void *want_ud;
    int follow_symlinks;
    /* Without follow_symlinks: a symbolic link to a directory is emitted as a skipped item
     * (else passed over in silence). */
    int report_links;
    /* A directory never entered (the output directory), by identity; 0 if none. */
    unsigned long long skip_dev, skip_ino;
    int have_skip;
    /* In an input that is hipify-python's output directory (it holds the record), pass over
     * its copies of the originals it translated beside them (X.cu next to X.hip), saying so
     * once: a reader of the tree (check) would take the same code twice. Writers take them. */
    int skip_hipified_copies;
    /* A tree directory (its path relative to the input) that is not entered: returns why (a
     * string that outlives the walk), and the directory is emitted as a skipped item; NULL
     * enters it. NULL: every directory is entered. */
    const char *(*skip_dir)(void *ud, const char *rel);
    void *skip_dir_ud;
    /* A symbolic link whose target lies inside the same input tree, at a place the walk
     * reaches itself (not excluded, nor below a directory it skips), is not taken: a reader
     * of the tree (check) would take the same files twice, once under each name. With
     * follow_symlinks a link to a directory is emitted as a skipped item saying where it
     * points; a link to a file is passed over in silence (also without follow_symlinks). */
    int skip_inner_links;
} walk_opts;

/* Calls emit for every file in order; returns 0, or nonzero if emit asked to stop. The
 * item's strings are valid until emit returns (the walk frees each directory's listing and
 * paths when it leaves it, so its memory is bounded by the tree's depth, not its size): a
 * consumer that keeps them copies them (into a, say: a only grows). */
int walk_paths(arena *a, const walk_opts *o, const char *const *paths, int npaths,
               int (*emit)(void *ud, const walk_item *it), void *ud);

/* Does the relative path match an exclude glob? A glob with no '/' matches any component. */
int walk_excluded(const walk_opts *o, const char *rel);

#endif
