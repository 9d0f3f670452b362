/* cmd_check.c: hipport check (not yet in this build). */
#include "cli.h"

int cmd_check(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("check", "not available in this build");
    return EXIT_INTERNAL;
}
