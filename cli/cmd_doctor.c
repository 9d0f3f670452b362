/* cmd_doctor.c: hipport doctor (not yet in this build). */
#include "cli.h"

int cmd_doctor(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("doctor", "not available in this build");
    return EXIT_INTERNAL;
}
