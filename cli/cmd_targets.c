/* cmd_targets.c: hipport targets (not yet in this build). */
#include "cli.h"

int cmd_targets(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("targets", "not available in this build");
    return EXIT_INTERNAL;
}
