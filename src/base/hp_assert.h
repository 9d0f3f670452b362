/* hp_assert.h: HP_ASSERT(cond) states an internal invariant of the library: something that
 * only a bug of hipport's can make false, never a user's input (bad input is an error that
 * names the file and the reason). Debug and sanitizer builds (HP_DEBUG: `make SAN=1`,
 * `make DEBUG=1`) check it and abort with the file, line and condition on standard error;
 * other builds do not evaluate the condition. */
#ifndef HP_ASSERT_H
#define HP_ASSERT_H

#ifdef HP_DEBUG
_Noreturn void hp_assert_fail(const char *file, int line, const char *cond);
#define HP_ASSERT(cond) ((cond) ? (void)0 : hp_assert_fail(__FILE__, __LINE__, #cond))
#else
#define HP_ASSERT(cond) ((void)sizeof(!(cond)))
#endif

#endif
