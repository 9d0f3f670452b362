/* map_defs.h: the closed vocabularies of the name tables in data/cuda2hip, shared by tools/gentab.c and
 * src/translate/map.c. Adding a word here is the only way to add a kind or a flag. */
#ifndef HP_MAP_DEFS_H
#define HP_MAP_DEFS_H

/* Kinds of names. */
#define MAP_KINDS(X)                                                                            \
    X(func)   /* host or device function */                                                    \
    X(type)   /* typedef, struct, class or enum type */                                        \
    X(enum)   /* enumerator */                                                                 \
    X(macro)  /* preprocessor macro */                                                         \
    X(var)    /* variable or constant */                                                       \
    X(ns)     /* namespace */                                                                  \
    X(header) /* header path in #include */                                                    \
    X(member) /* a member after '.' or '->' whose HIP spelling depends on the version */

/* Flags (bit values are the order of this list). */
#define MAP_FLAGS(X)                                                                            \
    X(experimental) /* HIP marks the name experimental */                                      \
    X(symbol)       /* first argument is a device symbol: wrap it in HIP_SYMBOL() */           \
    X(mask)         /* warp-sync builtin whose first argument is a lane mask */                \
    X(compat)       /* names: hipport_compat.h provides them to HIPs older than `since`; */    \
                    /* headers: their content always comes from hipport_compat.h */            \
    X(args)         /* argument-level rewrite in src/translate/xlate_args.c */                           \
    X(guard)        /* a CUDA header guard or version macro (meaning changes) */               \
    X(fp8)          /* FP8 format: OCP on CUDA, FNUZ on MI300 */                               \
    X(drop)         /* header: HIP needs no such include; the #include line is removed */      \
    X(pytorch)      /* only in PyTorch extension mode (--pytorch) */                           \
    X(thrust)       /* namespace renamed only after thrust:: or thrust::system:: */            \
    X(erase)        /* a qualifier HIP does without: the word is removed */                    \
    X(masq)         /* pytorch: PyTorch before hipify 2.0 (MasqueradingAsCUDA) uses `legacy` */ \
    X(v2)           /* hipBLAS: its _v2 names, which hipBLAS 3.0 (HIP 7.0) removed when the  */ \
                    /* plain names took their signatures: without _v2 from HIP 7.0 on      */ \
    X(image)        /* a texture or surface read or write: needs image instructions, which   */ \
                    /* gfx942 and gfx950 lack (reported once per file)                        */ \
    X(compiler)     /* guard: the compiler's own macro; a file's #define or #undef of it      */ \
                    /* speaks to the headers as that compiler would, and is renamed too       */ \
    X(caffe2)       /* only in a file of Caffe2's: one that includes a header under caffe2/ */ \
                    /* or names the namespace caffe2; also after '.' or '->' (a method)      */

#endif
