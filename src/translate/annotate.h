/* annotate.h: translate --annotate: a comment above each line that check finds a problem on. */
#ifndef HP_ANNOTATE_H
#define HP_ANNOTATE_H

#include "xlate.h"

/* Checks x's source and inserts "// hipport RULE: reason" above each line with an error or a
 * warning (edits on x). Lines already preceded by such a comment are left alone, so running
 * it on its own output adds nothing. */
void annotate_apply(xlate *x);

#endif
