/* measure.c: runs a command and reports its wall time, CPU time and peak resident set size
 * (from wait4, so only the child's own figures count), on one line of standard error:
 *
 *   measure [-o FILE] [-i FILE] -- COMMAND [ARG...]
 *   wall=0.532 user=0.481 sys=0.050 maxrss_kb=23456 rc=0
 *
 * -o sends the command's standard output to FILE (default: /dev/null); -i reads its standard
 * input from FILE. The exit status is the command's (128+N if killed by signal N). */
#define _DEFAULT_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double tv(struct timeval t)
{
    return (double)t.tv_sec + (double)t.tv_usec * 1e-6;
}

int main(int argc, char **argv)
{
    const char *out = "/dev/null", *in = NULL;
    int i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            out = argv[++i];
        else if (strcmp(argv[i], "-i") == 0 && i + 1 < argc)
            in = argv[++i];
        else if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        } else
            break;
    }
    if (i >= argc) {
        fprintf(stderr, "usage: measure [-o FILE] [-i FILE] -- COMMAND [ARG...]\n");
        return 2;
    }
    double t0 = now();
    pid_t pid = fork();
    if (pid < 0) {
        perror("measure: fork");
        return 2;
    }
    if (pid == 0) {
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || dup2(fd, 1) < 0) {
            perror("measure: output");
            _exit(127);
        }
        close(fd);
        if (in) {
            fd = open(in, O_RDONLY);
            if (fd < 0 || dup2(fd, 0) < 0) {
                perror("measure: input");
                _exit(127);
            }
            close(fd);
        }
        execvp(argv[i], argv + i);
        fprintf(stderr, "measure: cannot run '%s': %s\n", argv[i], strerror(errno));
        _exit(127);
    }
    int status;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0) {
        if (errno != EINTR) {
            perror("measure: wait4");
            return 2;
        }
    }
    double wall = now() - t0;
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    fprintf(stderr, "wall=%.4f user=%.4f sys=%.4f maxrss_kb=%ld rc=%d\n", wall, tv(ru.ru_utime),
            tv(ru.ru_stime), ru.ru_maxrss, rc);
    return rc;
}
