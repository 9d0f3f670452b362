/* report.h: rendering findings into a buffer (the public hp_report_* return heap strings). */
#ifndef HP_REPORT_H
#define HP_REPORT_H

#include "buf.h"
#include "hipport.h"

/* hp_report_json_items into b. */
void report_json_items(buf *b, const hp_finding *f, int n);
/* hp_report_text into b. */
void report_text_items(buf *b, const hp_finding *f, int n, const hp_report_opts *o);

#endif
