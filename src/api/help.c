/* help.c: the help pages of the commands, compiled in from docs/help. */
#include <string.h>

#include "hipport.h"

#include "help_docs.h"

#include "banned.h"

const char *hp_help_text(const char *command)
{
    for (int i = 0; help_docs[i].name; i++)
        if (strcmp(help_docs[i].name, command) == 0)
            return help_docs[i].text;
    return NULL;
}
