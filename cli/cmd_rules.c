/* cmd_rules.c: hipport rules (not yet in this build). */
#include "cli.h"

int cmd_rules(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("rules", "not available in this build");
    return EXIT_INTERNAL;
}
