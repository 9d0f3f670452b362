/* ppeval.h: a small, safe evaluator of #if conditions over the token stream, for skipping the
 * branches that given macros exclude (hipify-clang's --skip-excluded-preprocessor-conditional-
 * blocks). A condition is evaluated only when everything it tests is known: macros named with
 * -D or -U, or defined and undefined earlier in the file outside undecided branches. Anything
 * else makes it undecided, and the caller translates every branch. */
#ifndef HP_PPEVAL_H
#define HP_PPEVAL_H

#include <stddef.h>

#include "arena.h"
#include "hipport.h"
#include "lex.h"

typedef struct ppmac {
    hp_str name;
    int state;      /* 1 defined, 0 known to be undefined, -1 unknown */
    int funclike;   /* defined as a function-like macro (its value is not evaluated) */
    hp_str value;   /* replacement text of an object-like macro */
} ppmac;

typedef struct ppenv {
    arena *a;
    ppmac *m;
    int n, cap;
} ppenv;

/* Starts from the command-line macros ("-DNAME", "-DNAME=VALUE", "-UNAME"; others ignored). */
void ppeval_env_init(ppenv *e, arena *a, const char *const *macros, int n);
void ppeval_env_set(ppenv *e, hp_str name, int state, int funclike, hp_str value);

/* Records the #define or #undef whose '#' is t[h] (sure: the directive is certainly seen;
 * otherwise the macro becomes unknown). */
void ppeval_env_directive(ppenv *e, const char *src, const tok *t, ptrdiff_t nt, ptrdiff_t h,
                     int sure);

/* Evaluates the condition of the #if, #ifdef, #ifndef or #elif whose '#' is t[h]: 1 true,
 * 0 false, -1 undecided. */
int ppeval_directive(ppenv *e, const char *src, const tok *t, ptrdiff_t nt, ptrdiff_t h);

/* The conditionals of a file, followed directive by directive. */
typedef struct ppskip {
    ppenv env;
    struct {
        int parent_skip; /* the conditional is in an excluded branch */
        int taken;       /* a branch has certainly been taken */
        int undecided;   /* a branch could not be decided: the rest is translated */
    } st[64];
    int depth;
    int overflow;        /* conditionals nested deeper than st holds */
    int skipping;        /* the tokens after the last directive are excluded */
    int dir_skip;        /* the tokens of the last directive are excluded */
} ppskip;

void ppeval_skip_init(ppskip *s, arena *a, const char *const *macros, int n);
/* Takes the directive whose '#' is t[h]; sets skipping and dir_skip. */
void ppeval_skip_directive(ppskip *s, const char *src, const tok *t, ptrdiff_t nt, ptrdiff_t h);

#endif
